"""Reading and writing a calendar at an address a member typed: bounded (http and https
only, a size cap, a time cap for the whole exchange, a few redirects, each checked
again), and never to a private, loopback or link-local address unless
CALENDAR_ALLOW_PRIVATE (an on-premises calendar server), since a typed address could
otherwise reach the machines behind the site.

Every failure is a `CalendarProblem` whose message says why in the member's words.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import httpx

from rcxsite.platform.settings import get_settings

MAX_BYTES = 5_000_000
SECONDS = 15.0
MAX_REDIRECTS = 3
_PORTS = {"http": 80, "https": 443}
TOO_SLOW = f"The calendar's server did not answer within {SECONDS:.0f} seconds."


class CalendarProblem(Exception):
    """Why a calendar could not be read or written, as the member reads it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    body: bytes


def check_address(url: str, *, allow_private: bool | None = None) -> None:
    """Refuse an address the site must not read: not http(s), no host, a host that does
    not resolve, or (unless allowed) one that resolves to a non-public address."""
    if allow_private is None:
        allow_private = get_settings().calendar_allow_private
    parts = urlsplit(url)
    if parts.scheme not in _PORTS or not parts.hostname:
        raise CalendarProblem("Use the calendar's http or https address.")
    try:
        port = parts.port or _PORTS[parts.scheme]
        found = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (OSError, ValueError):
        raise CalendarProblem("The calendar's server was not found.") from None
    if allow_private:
        return
    for *_, address in found:
        ip = ipaddress.ip_address(address[0])
        if not ip.is_global:
            raise CalendarProblem(
                "This address is on a private network, which the site does not read."
            )


def _why(status: int) -> str:
    if status in (401, 403):
        return "The calendar's server refused the sign-in. Check the user name and password."
    if status == 404:
        return "There is no calendar at this address (HTTP 404)."
    return f"The calendar's server answered with an error (HTTP {status})."


def exchange(
    method: str,
    url: str,
    *,
    auth: tuple[str, str] | None = None,
    headers: dict[str, str] | None = None,
    content: bytes | None = None,
    ok: frozenset[int] = frozenset({200}),
) -> Answer:
    """One request and its answer's body (at most MAX_BYTES, within SECONDS in all),
    following up to MAX_REDIRECTS redirects of a read, each address checked. The
    password goes only to the address's own origin. An answer not in `ok` is refused."""
    deadline = time.monotonic() + SECONDS
    origin = urlsplit(url)[:2]
    try:
        with httpx.Client(timeout=SECONDS, follow_redirects=False, trust_env=False) as client:
            for _ in range(MAX_REDIRECTS + 1):
                check_address(url)
                same_origin = urlsplit(url)[:2] == origin
                with client.stream(
                    method,
                    url,
                    auth=auth if same_origin else None,
                    headers=headers,
                    content=content,
                ) as response:
                    if response.is_redirect and method in ("GET", "REPORT"):
                        url = urljoin(url, response.headers.get("location", ""))
                        continue
                    if response.status_code not in ok:
                        raise CalendarProblem(_why(response.status_code))
                    body = bytearray()
                    for chunk in response.iter_bytes():
                        body += chunk
                        if len(body) > MAX_BYTES:
                            raise CalendarProblem("The calendar is larger than 5 MB.")
                        if time.monotonic() > deadline:
                            raise CalendarProblem(TOO_SLOW)
                    return Answer(response.status_code, bytes(body))
    except httpx.TimeoutException:
        raise CalendarProblem(TOO_SLOW) from None
    except httpx.HTTPError:
        raise CalendarProblem("The calendar's server could not be reached.") from None
    raise CalendarProblem("The address redirects too many times.")
