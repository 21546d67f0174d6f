"""Plain HTTP requests to a running site: status, headers and body, errors included."""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request
from email.message import Message
from typing import Any
from urllib.parse import urlsplit


def request(
    url: str,
    *,
    method: str = "GET",
    body: dict | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 30,
    source: str = "",
) -> tuple[int, Message, bytes]:
    """Status, headers and body; `source` as in `request_from`."""
    if source:
        return _request_from(source, url, method, body, headers or {}, timeout)
    data = json.dumps(body).encode() if body is not None else None
    outgoing = urllib.request.Request(
        url,
        data=data,
        method=method,
        headers={
            "Content-Type": "application/json",
            **(headers or {}),
        },
    )
    try:
        with urllib.request.urlopen(outgoing, timeout=timeout) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def fetch(url: str) -> tuple[int, str]:
    """A GET as a client without JavaScript makes it: status and text."""
    status, _, body = request(url, timeout=10)
    return status, body.decode()


def bearer_for(site_url: str, email: str, password: str) -> dict[str, str]:
    """The Authorization header of a new session."""
    status, _, body = request(
        site_url + "/api/v1/Auth/Login",
        method="POST",
        body={"UserName": email, "Password": password},
    )
    assert status == 200, body
    return {"Authorization": f"Bearer {json.loads(body)['data']['token']}"}


def request_from(source: str, url: str, **options: Any) -> tuple[int, Message, bytes]:
    """`request` from the loopback address `source` (Linux routes all of 127/8 to lo): a
    client of its own as nginx counts clients. `url` names its host by address."""
    return request(url, source=source, **options)


def _request_from(
    source: str, url: str, method: str, body: dict | None, headers: dict[str, str], timeout: float
) -> tuple[int, Message, bytes]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(
        parts.hostname or "", parts.port, timeout=timeout, source_address=(source, 0)
    )
    try:
        connection.request(
            method,
            parts.path + (f"?{parts.query}" if parts.query else ""),
            body=json.dumps(body).encode() if body is not None else None,
            headers={"Content-Type": "application/json", **headers},
        )
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()
