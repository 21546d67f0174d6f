"""Keeps the password-reset token out of Reflex's state.

The spec puts the token in the reset page's path, and every event a tab sends carries
that path (`router_data`: pathname, asPath, query), which Reflex keeps in state and
pickles (into Redis when scaled). Before Reflex reads an event, the token in those three
places is replaced by its SHA-256, marked `DIGEST_PREFIX`, which the reset screen hands
to the service; the REST API only ever accepts the token itself. The handshake's Referer
header, which may hold the same path, is dropped.
"""

from __future__ import annotations

import json
from typing import Any

from reflex_base.constants.event import Endpoint
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rcxsite import routes
from rcxsite.accounts import tokens
from rcxsite.accounts.tokens import DIGEST_PREFIX

# Where Reflex's websocket (and its polling fallback) connects.
EVENT_PATH = "/" + Endpoint.EVENT.value
RESET_PATH_PREFIX = routes.reset_password_path("")


def _marked(token: str) -> str:
    digest = tokens.token_digest(token)
    return f"{DIGEST_PREFIX}{digest}" if digest else ""


def _without_token(router_data: dict[str, Any]) -> None:
    pathname = router_data.get("pathname")
    if not isinstance(pathname, str) or not pathname.startswith(RESET_PATH_PREFIX):
        return
    token = pathname[len(RESET_PATH_PREFIX):].split("/", 1)[0]
    if token.startswith(DIGEST_PREFIX) or not token:
        return
    marked = _marked(token)
    router_data["pathname"] = RESET_PATH_PREFIX + marked
    as_path, old_path = router_data.get("asPath"), RESET_PATH_PREFIX + token
    if isinstance(as_path, str) and as_path.startswith(old_path):
        router_data["asPath"] = RESET_PATH_PREFIX + marked + as_path[len(old_path):]
    query = router_data.get("query")
    if isinstance(query, dict) and "token" in query:
        query["token"] = marked


def _events(packet: object) -> list[dict[str, Any]]:
    """The events in a packet: `["event", {...}]`, or the connect packet's
    `{"event": {...}}` that carries a tab's first event."""
    if isinstance(packet, list):
        return [item for item in packet[1:] if isinstance(item, dict)]
    if isinstance(packet, dict) and isinstance(packet.get("event"), dict):
        return [packet["event"]]
    return []


def digest_only_frame(frame: str) -> str:
    """A Socket.IO text frame (`42/_event,["event",{...}]`, or the connect packet
    `40/_event,{"event":{...}}`) with the reset token replaced; frames that do not name the
    reset page, or that are not events, pass unchanged."""
    starts = [index for index in (frame.find("["), frame.find("{")) if index >= 0]
    if not starts or RESET_PATH_PREFIX not in frame:
        return frame
    start = min(starts)
    try:
        packet = json.loads(frame[start:])
    except ValueError:
        return frame  # Reflex answers malformed frames itself.
    for event in _events(packet):
        if isinstance(event.get("router_data"), dict):
            _without_token(event["router_data"])
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
            if message["type"] == "websocket.receive" and text and RESET_PATH_PREFIX in text:
                message = {**message, "text": digest_only_frame(text)}
            return message

        await self.app({**scope, "headers": headers}, receive_without_token, send)
