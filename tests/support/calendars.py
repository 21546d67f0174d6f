"""Real calendar servers for the calendar tests: Radicale (a CalDAV server, started on a free
port with a folder of its own) and a plain HTTP server handing out .ics files, as Google,
Outlook and Apple hand out a "secret address in iCal format"."""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx

from rcxsite.tools.processes import free_port, port_open, start, stop, wait_until

USER, PASSWORD = "sam", "app-password-1"


@dataclass
class Radicale:
    url: str
    process: object

    def calendar(self, name: str, user: str = USER) -> str:
        """A new calendar collection of `user`; its address."""
        address = f"{self.url}/{user}/{name}/"
        answer = httpx.request(
            "MKCALENDAR", address, auth=(user, PASSWORD), timeout=10, trust_env=False
        )
        assert answer.status_code == 201, answer.text
        return address

    def put(self, calendar: str, uid: str, ics: str) -> None:
        answer = httpx.put(
            f"{calendar}{uid}.ics",
            content=ics.encode(),
            headers={"Content-Type": "text/calendar"},
            auth=(USER, PASSWORD),
            timeout=10,
            trust_env=False,
        )
        assert answer.status_code in (201, 204), answer.text

    def objects(self, calendar: str) -> list[str]:
        """The names of the event objects in `calendar`."""
        answer = httpx.request(
            "PROPFIND",
            calendar,
            headers={"Depth": "1"},
            auth=(USER, PASSWORD),
            timeout=10,
            trust_env=False,
        )
        assert answer.status_code == 207, answer.text
        return sorted(
            part.split("<")[0].rsplit("/", 1)[-1]
            for part in answer.text.split("href>")
            if ".ics<" in part
        )

    def get(self, href: str) -> httpx.Response:
        return httpx.get(href, auth=(USER, PASSWORD), timeout=10, trust_env=False)


@contextlib.contextmanager
def radicale(folder: Path) -> Iterator[Radicale]:
    port = free_port()
    config = folder / "radicale.conf"
    config.write_text(
        "[server]\n"
        f"hosts = 127.0.0.1:{port}\n"
        "[auth]\n"
        "type = none\n"
        "[rights]\n"
        "type = owner_only\n"
        "[storage]\n"
        f"filesystem_folder = {folder / 'collections'}\n"
        "[logging]\n"
        "level = warning\n",
        encoding="utf-8",
    )
    process = start(
        [sys.executable, "-m", "radicale", "--config", str(config)],
        env=None,
        log_path=folder / "radicale.log",
    )
    try:
        wait_until(
            lambda: port_open("127.0.0.1", port, timeout=1),
            timeout_s=30,
            interval_s=0.05,
            what="Radicale to listen",
        )
        yield Radicale(f"http://127.0.0.1:{port}", process)
    finally:
        stop(process, 10)


@dataclass
class IcsFiles:
    """Files served at http://127.0.0.1:PORT/<name>: set `files[name]` to publish one."""

    url: str
    files: dict[str, bytes | str] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)


@contextlib.contextmanager
def ics_server() -> Iterator[IcsFiles]:
    served = IcsFiles(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            served.requests.append(self.path)
            found = served.files.get(self.path.lstrip("/"))
            if found is None:
                self.send_error(404)
                return
            body = found.encode() if isinstance(found, str) else found
            self.send_response(200)
            self.send_header("Content-Type", "text/calendar; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    served.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield served
    finally:
        server.shutdown()
        server.server_close()


def event(
    uid: str,
    start: datetime | str,
    end: datetime | str,
    *,
    rrule: str = "",
    transparent: bool = False,
    cancelled: bool = False,
    zone: str = "",
) -> str:
    """One VEVENT: UTC datetimes, or "YYYYMMDD" dates (all day), or wall times "YYYYMMDDTHHMMSS"
    in `zone`."""

    def when(name: str, value: datetime | str) -> str:
        if isinstance(value, datetime):
            return f"{name}:{value.strftime('%Y%m%dT%H%M%SZ')}"
        if len(value) == 8:
            return f"{name};VALUE=DATE:{value}"
        return f"{name};TZID={zone}:{value}"

    lines = ["BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20270101T000000Z", when("DTSTART", start)]
    lines.append(when("DTEND", end))
    lines.append(f"SUMMARY:Busy {uid}")
    if rrule:
        lines.append(f"RRULE:{rrule}")
    if transparent:
        lines.append("TRANSP:TRANSPARENT")
    if cancelled:
        lines.append("STATUS:CANCELLED")
    lines.append("END:VEVENT")
    return "\r\n".join(lines)


def calendar_text(*events: str) -> str:
    return "\r\n".join(
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//RCX tests//EN", *events, "END:VCALENDAR", ""]
    )
