"""Request bodies under /api/v1 are bounded before anything parses them."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rcxsite.api.envelope import envelope_response, is_api

MAX_BODY_BYTES = 64 * 1024
_TOO_LARGE = f"The request body is larger than {MAX_BODY_BYTES // 1024} KiB."


class BodySizeLimit:
    """Refuses /api/v1 request bodies over `MAX_BODY_BYTES`, declared or streamed."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not is_api(scope["path"]):
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and not declared.isdigit():
            await _refuse(400, "The Content-Length header is not a number.", scope, receive, send)
            return
        if declared is not None and int(declared) > MAX_BODY_BYTES:
            await _refuse(413, _TOO_LARGE, scope, receive, send)
            return
        chunks: list[bytes] = []
        size, more = 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # client went away
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            more = message.get("more_body", False)
            if size > MAX_BODY_BYTES:
                await _refuse(413, _TOO_LARGE, scope, receive, send)
                return
        replay: list[Message] = [{"type": "http.request", "body": b"".join(chunks)}]

        async def replay_receive() -> Message:
            return replay.pop() if replay else await receive()

        await self.app(scope, replay_receive, send)


async def _refuse(status: int, message: str, scope: Scope, receive: Receive, send: Send) -> None:
    await envelope_response(status, message)(scope, receive, send)
