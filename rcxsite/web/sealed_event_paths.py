"""Keeps the password-reset token (and the staff invitation's and the email verification
link's) out of Reflex's state.

The reset link carries the token in the reset page's path, and every event a tab sends carries
that path (`router_data`: pathname, asPath, query), which Reflex keeps in state and
pickles (into Redis when scaled). Before Reflex reads an event, the token in those three
places is replaced by its SHA-256, sealed with the server's key (`tokens.marked`), which the
reset screen hands to the service; the REST API only ever accepts the token itself. Whatever
stands in the token's place is sealed, so a digest read from the database is never taken
for one made here. The handshake's Referer
header, which may hold the same path, is dropped.
"""

from __future__ import annotations

import json
from typing import Any

from reflex_base.constants.event import Endpoint
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rcxsite.content import routes
from rcxsite.core import tokens

# Where Reflex's websocket (and its polling fallback) connects.
EVENT_PATH = "/" + Endpoint.EVENT.value
RESET_PATH_PREFIX = routes.reset_password_path("")
# Pages whose path holds a token: the reset link, the staff invitation and the email
# verification link.
TOKEN_PATH_PREFIXES = (
    RESET_PATH_PREFIX,
    routes.staff_invite_path(""),
    routes.verify_email_path(""),
    routes.booking_path(""),
    routes.withdraw_application_path(""),
    routes.interview_path(""),
)


def _sealed_path(path: str) -> str:
    """`path` with whatever follows a token page's prefix sealed: a raw token, or anything
    a client put there (a `sha256:` value read from the database included)."""
    for prefix in TOKEN_PATH_PREFIXES:
        start = path.find(prefix)
        if start < 0:
            continue
        start += len(prefix)
        end = min((i for i in (path.find(c, start) for c in "/?#") if i >= 0), default=len(path))
        return path[:start] + tokens.marked(path[start:end]) + path[end:]
    return path


def _without_token(router_data: dict[str, Any]) -> bool:
    """Seals the token in place; whether the event named the reset page at all."""
    # Each field on its own: a crafted event may name the reset page in any one of them.
    named = False
    for field in ("pathname", "asPath"):
        value = router_data.get(field)
        if isinstance(value, str) and any(prefix in value for prefix in TOKEN_PATH_PREFIXES):
            router_data[field] = _sealed_path(value)
            named = True
    query = router_data.get("query")
    if named and isinstance(query, dict) and "token" in query:
        query["token"] = tokens.marked(query["token"])
    return named


def _events(packet: object) -> list[dict[str, Any]]:
    """The events in a packet: `["event", {...}]`, or the connect packet's
    `{"event": {...}}` that carries a tab's first event."""
    if isinstance(packet, list):
        return [item for item in packet[1:] if isinstance(item, dict)]
    if isinstance(packet, dict) and isinstance(packet.get("event"), dict):
        return [packet["event"]]
    return []


def _may_name_reset_page(frame: str) -> bool:
    # JSON may spell "/" as "\/" and any letter as a \u escape; only frames with neither
    # the prefix nor an escape can be passed on unparsed.
    return any(prefix in frame for prefix in TOKEN_PATH_PREFIXES) or "\\" in frame


def digest_only_frame(frame: str) -> str:
    """A Socket.IO text frame (`42/_event,["event",{...}]`, or the connect packet
    `40/_event,{"event":{...}}`) with the reset token replaced; frames that do not name the
    reset page, or that are not events, pass unchanged."""
    starts = [index for index in (frame.find("["), frame.find("{")) if index >= 0]
    if not starts or not _may_name_reset_page(frame):
        return frame
    start = min(starts)
    try:
        packet = json.loads(frame[start:])
    except ValueError:
        return frame  # Reflex answers malformed frames itself.
    named = [
        _without_token(event["router_data"])
        for event in _events(packet)
        if isinstance(event.get("router_data"), dict)
    ]
    if not any(named):
        return frame  # parsed for its escapes only: sent on exactly as it came
    return frame[:start] + json.dumps(packet, separators=(",", ":"), ensure_ascii=False)


class ResetTokenDigestForEvents:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or not scope["path"].startswith(EVENT_PATH):
            await self.app(scope, receive, send)
            return
        headers = [(key, value) for key, value in scope["headers"] if key != b"referer"]

        async def receive_without_token() -> Message:
            message = await receive()
            text = message.get("text")
            if message["type"] == "websocket.receive" and text and _may_name_reset_page(text):
                message = {**message, "text": digest_only_frame(text)}
            return message

        await self.app({**scope, "headers": headers}, receive_without_token, send)
