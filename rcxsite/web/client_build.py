"""Which build a tab's page came from, on every request it makes to the workers.

A build made by `make build` (or run-scaled) has its backend address end in
`/_b/<build id>` (rcxsite/tools/scaled_build.py), so the page's websocket and its calls
to the workers name the build the page was compiled in. Here that part is taken off the
path before anything else reads it; when it names another build than this worker's
(`BUILD_ID`, during a rolling deploy), the request carries `X-RCX-Client-Build`, which
the tab's events bring to rcxsite/state/stale_build.py: the tab is asked to reload rather
than left to fail. A client cannot set the header itself: any it sends is dropped.
"""

from __future__ import annotations

import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rcxsite.core.client_builds import BUILD_PREFIX, CLIENT_BUILD_HEADER
from rcxsite.platform.settings import get_settings

_HEADER = CLIENT_BUILD_HEADER.encode()
EVENT_NAMESPACE = "/_event"
_PACKET_HEAD = re.compile(r"4[0-6](?:\d+-)?")
_BUILD = re.compile(r"[0-9a-f]{16}")


class ClientBuild:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = [(k, v) for k, v in scope["headers"] if k.lower() != _HEADER]
        scope = {**scope, "headers": headers}
        path = str(scope["path"])
        build, _, rest = path[len(BUILD_PREFIX) :].partition("/")
        if not path.startswith(BUILD_PREFIX) or not _BUILD.fullmatch(build):
            await self.app(scope, receive, send)
            return
        scope["path"] = "/" + rest
        scope["raw_path"] = scope["path"].encode()
        own = get_settings().build_id
        if own and build != own:
            headers.append((_HEADER, build.encode()))
        if scope["type"] == "websocket":
            receive, send = _namespaced(receive, send, f"{BUILD_PREFIX}{build}")
        await self.app(scope, receive, send)


def _namespaced(receive: Receive, send: Send, prefix: str) -> tuple[Receive, Send]:
    """Socket.IO names its namespace after the socket's path: the page's client speaks in
    `<prefix>/_event`, Reflex's server in `/_event`. Each text frame's namespace is
    translated on its way (`42/_b/<id>/_event,[...]` in, `42/_event,[...]` out)."""
    theirs, ours = f"{prefix}{EVENT_NAMESPACE}", EVENT_NAMESPACE

    async def receiving() -> Message:
        message = await receive()
        text = message.get("text")
        if message["type"] == "websocket.receive" and isinstance(text, str):
            message = {**message, "text": _renamed(text, theirs, ours)}
        return message

    async def sending(message: Message) -> None:
        text = message.get("text")
        if message["type"] == "websocket.send" and isinstance(text, str):
            message = {**message, "text": _renamed(text, ours, theirs)}
        await send(message)

    return receiving, sending


def _renamed(frame: str, old: str, new: str) -> str:
    """An Engine.IO message frame (`4`, the Socket.IO packet's type, for a binary one its
    attachments' count and "-") naming namespace `old` names `new`; any other frame is
    left as it is."""
    head = _PACKET_HEAD.match(frame)
    if head is None:
        return frame
    start = head.end()
    namespace = frame[start:].split(",", 1)[0]
    if namespace != old:
        return frame
    return frame[:start] + new + frame[start + len(old) :]
