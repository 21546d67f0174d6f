"""The one request body the site takes past 64 KB: a CV on its way to the application form
(Reflex's upload endpoint, /_upload). It is bounded here, before Reflex parses a byte of
it: a declared length over `UPLOAD_MAX_BODY_BYTES` is refused at once, and a body that
streams in past it is cut off as soon as it does (413 either way). nginx allows this
path the same size and passes the body on as it arrives (deploy/nginx.conf.template)."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rcxsite.careers import CV_MAX_BYTES

UPLOAD_PATH = "/_upload"
# The CV, the form's other fields (each at most a few KB) and the multipart framing.
UPLOAD_MAX_BODY_BYTES = CV_MAX_BYTES + 64 * 1024
TOO_LARGE = b"The upload is larger than a CV may be (10 MB)."


class UploadSizeLimit:
    def __init__(self, app: ASGIApp, *, max_bytes: int = UPLOAD_MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != UPLOAD_PATH:
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await _refuse(send, 413 if declared.isdigit() else 400)
            return
        received = 0
        answered = refused = False

        async def counted_receive() -> Message:
            # Past the limit the sender is answered at once, and the endpoint sees the
            # client gone: it stops reading and keeps nothing of the upload.
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    refused = True
                    if not answered:
                        await _refuse(send, 413)
                    return {"type": "http.disconnect"}
            return message

        async def watched_send(message: Message) -> None:
            nonlocal answered
            if refused:
                return  # the 413 went already
            if message["type"] == "http.response.start":
                answered = True
            await send(message)

        await self.app(scope, counted_receive, watched_send)


async def _refuse(send: Send, status: int) -> None:
    body = TOO_LARGE if status == 413 else b"The Content-Length header is not a number."
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
