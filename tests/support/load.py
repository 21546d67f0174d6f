"""Bounded load on loopback: visitors reading pages, customers logging in and booking calls.

Visitors are HTTP clients that fetch a page with its stylesheets and scripts once, then
pages only (their cache has the rest), with a reading pause between pages. Customers are
websocket clients speaking what a tab sends (frames recorded from Chromium): the log-in
form's event, then the quote form's; a browser per customer would load the two cores
more than the site does.
"""

from __future__ import annotations

import gzip
import http.client
import json
import random
import re
import threading
import time
import uuid
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import simple_websocket

from rcxsite.content import routes
from rcxsite.state.login import LoginState
from rcxsite.state.quote import QuoteState
from tests.support.quotes import next_weekday

REPLY_TIMEOUT_S = 30
LOG_IN_EVENT = f"{LoginState.get_full_name()}.log_in"
QUOTE_EVENT = f"{QuoteState.get_full_name()}.submit"
_ASSET = re.compile(r'(?:href|src)="(/assets/[^"]+\.(?:css|js))"')


@dataclass
class Results:
    started: float = field(default_factory=time.monotonic)
    page_ms: list[float] = field(default_factory=list)
    login_ms: list[float] = field(default_factory=list)
    quote_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, kind: str, started: float) -> None:
        with self.lock:
            getattr(self, f"{kind}_ms").append((time.monotonic() - started) * 1000)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)

    def summary(self, seconds: float) -> dict:
        def spread(values: list[float]) -> dict:
            ordered = sorted(values)
            if not ordered:
                return {"count": 0}
            return {
                "count": len(ordered),
                "p50_ms": round(ordered[len(ordered) // 2], 1),
                "p99_ms": round(ordered[min(len(ordered) - 1, len(ordered) * 99 // 100)], 1),
            }

        requests = len(self.page_ms) + len(self.login_ms) + len(self.quote_ms)
        return {
            "seconds": round(seconds, 1),
            "requests_per_s": round(requests / seconds, 1),
            "pages": spread(self.page_ms),
            "logins": spread(self.login_ms),
            "quotes": spread(self.quote_ms),
            "errors": len(self.errors),
            "first_errors": self.errors[:5],
        }


def _paths() -> list[str]:
    return [route.path for route in routes.ROUTES if route.public and not route.members_only]


def visitor(site_url: str, until: float, results: Results, seed: int) -> None:
    pick = random.Random(seed)
    host = urlsplit(site_url)
    connection = http.client.HTTPConnection(host.hostname, host.port, timeout=REPLY_TIMEOUT_S)
    cached: set[str] = set()
    paths = _paths()
    while time.monotonic() < until:
        page = pick.choice(paths)
        body = _get(connection, page, results)
        for asset in _ASSET.findall(body.decode("utf-8", "replace")):
            if asset not in cached:  # a browser's cache keeps the rest
                cached.add(asset)
                _get(connection, asset, results)
        time.sleep(pick.uniform(0.5, 1.5))  # reading the page
    connection.close()


def _get(connection: http.client.HTTPConnection, path: str, results: Results) -> bytes:
    started = time.monotonic()
    try:
        connection.request("GET", path, headers={"Accept-Encoding": "gzip"})
        response = connection.getresponse()
        body = response.read()
        if response.getheader("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
    except (OSError, http.client.HTTPException) as error:
        results.error(f"GET {path}: {error!r}")
        connection.close()  # the next request opens a new connection
        return b""
    if response.status != 200:
        results.error(f"GET {path}: {response.status}")
        return b""
    results.add("page", started)
    return body


class Tab:
    """One browser tab's websocket to Reflex: Engine.IO 4 / Socket.IO 5 text frames."""

    def __init__(self, site_url: str, path: str) -> None:
        self.token = str(uuid.uuid4())
        ws_url = site_url.replace("http", "ws", 1) + (
            f"/_event/?token={self.token}&EIO=4&transport=websocket"
        )
        self.socket = simple_websocket.Client.connect(ws_url, headers={"Origin": site_url})
        # Sent before reading the open packet: simple_websocket may hold that packet, when
        # it came with the handshake's answer, until more data arrives.
        first = {
            "name": "reflex___state____state.hydrate_and_load",
            "payload": {},
            "router_data": {"pathname": path, "asPath": path},
        }
        self.socket.send("40/_event," + json.dumps({"event": first}))
        opened = self._receive()
        if not opened.startswith("0"):
            raise RuntimeError(f"no Engine.IO open packet: {opened[:80]}")

    def _receive(self, timeout_s: float = REPLY_TIMEOUT_S) -> str:
        """The next frame that is not a ping, within `timeout_s` in all (pings answered on
        the way do not extend it)."""
        deadline = time.monotonic() + timeout_s
        while True:
            left = deadline - time.monotonic()
            frame = self.socket.receive(timeout=left) if left > 0 else None
            if frame is None:
                raise TimeoutError("no frame from the server")
            if frame == "2":  # Engine.IO ping
                self.socket.send("3")
                continue
            return frame

    def send(self, handler: str, form: dict[str, str], path: str) -> None:
        payload = {"form": {"__reflex_form_data__": [[k, v] for k, v in form.items()]}}
        event = {
            "name": handler,
            "payload": payload,
            "router_data": {"pathname": path, "asPath": path},
        }
        self.socket.send("42/_event," + json.dumps(["event", event]))

    def wait_for(self, text: str) -> None:
        """Until a frame carries `text`; an error text of the screens fails, and so does
        no answer within REPLY_TIMEOUT_S (the server's pings do not count)."""
        deadline = time.monotonic() + REPLY_TIMEOUT_S
        while True:
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {text!r} within {REPLY_TIMEOUT_S} s")
            frame = self._receive(max(0.1, deadline - time.monotonic()))
            if text in frame:
                return
            if "Something went wrong" in frame or "Too many requests" in frame:
                raise RuntimeError(frame[:200])

    def close(self) -> None:
        self.socket.close()


def quote_form(email: str) -> dict[str, str]:
    """The quote form as a customer fills it in: a call next week."""
    return {
        "name": "Load Customer",
        "email": email,
        "company": "Northway Clinics",
        "phone": "",
        "service": "web-development",
        "budget": "25k-75k",
        "timeline": "asap",
        "call_date": next_weekday(days=7).isoformat(),
        "call_time": "10:30",
        "message": "We need a booking system for our clinics, with reminders.",
        "website": "",
    }


def customer(
    site_url: str, email: str, password: str, until: float, results: Results, seed: int
) -> None:
    pick = random.Random(seed)
    while time.monotonic() < until:
        tab = None
        try:
            tab = Tab(site_url, routes.LOG_IN.path)
            started = time.monotonic()
            tab.send(LOG_IN_EVENT, {"email": email, "password": password}, routes.LOG_IN.path)
            tab.wait_for("Logged in successfully!")
            results.add("login", started)
            time.sleep(pick.uniform(0.5, 1.5))  # filling in the form
            started = time.monotonic()
            tab.send(QUOTE_EVENT, quote_form(email), routes.QUOTE.path)
            tab.wait_for("Your request has been received")
            results.add("quote", started)
        except Exception as error:  # every failure counts; the load goes on
            results.error(f"customer {email}: {error!r}")
        finally:
            if tab is not None:
                tab.close()
        time.sleep(pick.uniform(0.5, 1.5))


def run_load(
    site_url: str, *, seconds: float, visitors: int, customers: list[tuple[str, str]]
) -> dict:
    results = Results()
    until = time.monotonic() + seconds
    threads = [
        threading.Thread(target=visitor, args=(site_url, until, results, n))
        for n in range(visitors)
    ]
    threads += [
        threading.Thread(target=customer, args=(site_url, email, password, until, results, n))
        for n, (email, password) in enumerate(customers)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(0.0, until + 2 * REPLY_TIMEOUT_S - time.monotonic()))
        if thread.is_alive():  # a client stuck past every timeout is an error too
            results.error(f"{thread.name} still waiting after the run")
    return results.summary(time.monotonic() - results.started)
