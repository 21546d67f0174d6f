"""The one body past 64 KB the site takes, a CV upload on /_upload, is bounded before
anything parses it: a declared length over the limit is refused at once, and a body that
streams past it is cut off as it arrives; other paths are not this layer's business."""

from __future__ import annotations

from collections.abc import Iterator

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from rcxsite.web.upload_limit import UPLOAD_MAX_BODY_BYTES, UploadSizeLimit

LIMIT = 1000
read: list[int] = []


async def _endpoint(request: Request) -> PlainTextResponse:
    """As Reflex's upload endpoint reads: a client gone means nothing to keep."""
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
    except ClientDisconnect:
        return PlainTextResponse("")
    read.append(size)
    return PlainTextResponse(f"read {size}")


_app = Starlette(
    routes=[
        Route("/_upload", _endpoint, methods=["POST"]),
        Route("/other", _endpoint, methods=["POST"]),
    ]
)
client = TestClient(UploadSizeLimit(_app, max_bytes=LIMIT))


def _chunks(total: int, size: int = 100) -> Iterator[bytes]:
    sent = 0
    while sent < total:
        yield b"x" * min(size, total - sent)
        sent += size


def test_a_body_within_the_limit_reaches_the_upload_endpoint() -> None:
    answer = client.post("/_upload", content=b"x" * LIMIT)

    assert (answer.status_code, answer.text) == (200, f"read {LIMIT}")


def test_a_declared_length_over_the_limit_is_refused_before_a_byte_is_read() -> None:
    read.clear()
    answer = client.post("/_upload", content=b"x" * (LIMIT + 1))

    assert answer.status_code == 413
    assert answer.text == "The upload is larger than a CV may be (10 MB)."
    assert read == []


def test_a_streamed_body_is_cut_off_as_soon_as_it_passes_the_limit() -> None:
    read.clear()
    answer = client.post("/_upload", content=_chunks(LIMIT * 5))

    assert answer.status_code == 413
    assert answer.text == "The upload is larger than a CV may be (10 MB)."
    assert read == []  # the endpoint saw the client go, and kept nothing


def test_other_paths_are_not_bounded_here() -> None:
    assert client.post("/other", content=b"x" * (LIMIT * 3)).status_code == 200


def test_the_limit_is_a_10_mb_cv_and_its_form() -> None:
    assert 10 * 1024 * 1024 < UPLOAD_MAX_BODY_BYTES <= 10 * 1024 * 1024 + 64 * 1024
