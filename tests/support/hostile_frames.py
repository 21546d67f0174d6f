"""Hostile websocket frames, each as large as the site reads, sent by a signed-out client,
while another client keeps asking the API for free times.

The corpus is data (hostile_frames.json): a frame's text with `@@FILL@@` where `fill` is
repeated as often as the frame stays within the site's message limit (and `@@CLOSE@@`
where `close` is repeated as often), and `logged`, a text the server's log shows once the
frame reached what it aims at (so that a frame refused early cannot pass for a harmless
one). A new finding is one more entry.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import simple_websocket

from rcxsite.platform.settings import SOCKET_MESSAGE_LIMIT_BYTES
from tests.support.load import Tab
from tests.support.waiting import wait_for

CORPUS = json.loads((Path(__file__).with_name("hostile_frames.json")).read_text())
# What another client must be answered within while a frame is handled, on a machine at
# its usual pace; on a loaded one, PACE_FACTOR times its slowest answer with no frame sent.
OTHER_CLIENT_BOUND_S = 1.0
PACE_FACTOR = 5
PROBE_PATH = "/api/v1/Booking/Slots?days=14"
# A frame's handling ends with the answer to the event sent after it on the same
# connection (one tab's events are handled in order) or with the connection closed.
SETTLE_TIMEOUT_S = 60
_FILL, _CLOSE = "@@FILL@@", "@@CLOSE@@"
_HYDRATE = "reflex___state____state.hydrate"
# Room for the websocket's own framing within the limit.
_FRAME_ROOM = SOCKET_MESSAGE_LIMIT_BYTES - 64


def frame_text(entry: dict[str, str]) -> str:
    """The entry's frame with its fill repeated as often as fits in one message."""
    template = entry["frame"]
    fill, close = entry["fill"], entry.get("close", "")
    if entry["frame"].count(_FILL) != 1:
        raise ValueError(f"{entry['name']}: one {_FILL} per frame")
    fixed = len(template.replace(_FILL, "").replace(_CLOSE, "").encode())
    times = (_FRAME_ROOM - fixed) // len((fill + close).encode())
    return template.replace(_FILL, fill * times).replace(_CLOSE, close * times)


@dataclass
class Probe:
    """Another visitor: one request at a time, the slowest answer per frame."""

    url: str
    slowest_s: float = 0.0
    answered: int = 0
    failures: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)

    def _ask(self) -> None:
        started = time.monotonic()
        try:
            with urllib.request.urlopen(self.url + PROBE_PATH, timeout=SETTLE_TIMEOUT_S) as answer:
                answer.read()
                if answer.status != 200:
                    self.failures.append(f"status {answer.status}")
        except Exception as error:  # counted: the bound is for an answer, not an error
            self.failures.append(repr(error))
        took = time.monotonic() - started
        self.slowest_s = max(self.slowest_s, took)
        self.answered += 1

    def run(self) -> None:
        while not self._stop.is_set():
            self._ask()
            # A visitor's pace, not a wait for anything: the probe must not be the load.
            self._stop.wait(0.05)

    def reset(self) -> None:
        self.slowest_s, self.answered, self.failures = 0.0, 0, []

    def stop(self) -> None:
        self._stop.set()


@contextmanager
def probing(site_url: str) -> Iterator[Probe]:
    probe = Probe(site_url)
    thread = threading.Thread(target=probe.run, daemon=True)
    thread.start()
    try:
        yield probe
    finally:
        probe.stop()
        thread.join(SETTLE_TIMEOUT_S)


def settle(tab: Tab) -> None:
    """Until the event sent after the frame is answered, or the site closes the socket."""
    deadline = time.monotonic() + SETTLE_TIMEOUT_S
    event = {"name": _HYDRATE, "payload": {}, "router_data": {"pathname": "/", "asPath": "/"}}
    try:
        tab.socket.send("42/_event," + json.dumps(["event", event]))
        while time.monotonic() < deadline:
            frame = tab._receive(max(0.1, deadline - time.monotonic()))
            if frame.startswith('42/_event,["event"'):
                return
    except (simple_websocket.ConnectionClosed, TimeoutError, OSError):
        return


def send_and_measure(
    site_url: str, probe: Probe, entry: dict[str, str] | None
) -> tuple[float, int]:
    """Sends the entry's frame on a fresh signed-out tab; the slowest answer the other
    client got while it was handled, and how many answers it got. No entry: the same
    steps without a frame, which is this machine's pace right now."""
    tab = Tab(site_url, "/")
    try:
        probe.reset()
        if entry is not None:
            tab.socket.send(frame_text(entry))
        settle(tab)
        # One more answer that began after the frame was handled.
        seen = probe.answered
        deadline = time.monotonic() + SETTLE_TIMEOUT_S
        while probe.answered < seen + 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        return probe.slowest_s, probe.answered
    finally:
        with contextlib.suppress(Exception):  # a socket the site closed already
            tab.close()


def held_frames(site_url: str, server_log: Callable[[], str]) -> list[str]:
    """Each corpus entry that held the other client past the bound twice in a row, the
    second time past the bound for this machine's pace then (a pause or a load of the
    machine slows one request, or all of them; the findings held it for seconds every
    time), or whose mark never showed in `server_log()`."""
    held = []
    with probing(site_url) as probe:
        for entry in CORPUS:
            mark = entry.get("logged", "")
            before = server_log().count(mark) if mark else 0
            slowest, answered = send_and_measure(site_url, probe, entry)
            if mark and not wait_for(lambda: server_log().count(mark) > before):  # noqa: B023
                held.append(f"{entry['name']}: never reached the server ({mark!r} not logged)")
            if slowest >= OTHER_CLIENT_BOUND_S or probe.failures:
                pace, _ = send_and_measure(site_url, probe, None)
                bound = max(OTHER_CLIENT_BOUND_S, PACE_FACTOR * pace)
                slowest, answered = send_and_measure(site_url, probe, entry)
                if slowest >= bound or probe.failures:
                    held.append(
                        f"{entry['name']}: slowest {slowest:.2f} s of {answered} answers"
                        f" (with no frame: {pace:.2f} s)"
                        f" {probe.failures[:2]}"
                    )
    return held
