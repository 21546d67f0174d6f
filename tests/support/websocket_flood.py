"""One client opening many websockets to the site at once, each as a tab does: the upgrade
to Reflex's `/_event`, then Socket.IO's connect, which makes Reflex link the tab's token
and save a state for it in Redis. Raw sockets on asyncio: thousands of threads or
websocket clients would load the two cores more than nginx does.
"""

from __future__ import annotations

import asyncio
import base64
import os
import threading
import uuid
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlsplit

# Engine.IO 4 / Socket.IO 5: the connect packet of Reflex's namespace, and its answer.
_CONNECT = b"40/_event,"
_CONNECTED = b"40/_event,{"
# More connections in progress at once overflow nginx's listen queue: those wait for a
# SYN retry (a second or more) instead of an answer.
_OPENING_AT_ONCE = 400


def _masked_text_frame(payload: bytes) -> bytes:
    """A client's websocket text frame (clients must mask theirs), payload under 126 bytes."""
    mask = os.urandom(4)
    return (
        bytes([0x81, 0x80 | len(payload)])
        + mask
        + bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
    )


@dataclass
class Flood:
    """What the site answered: each upgrade's status (0: no answer in time); `held` are the
    upgraded sockets whose Socket.IO connect was answered, kept open until `release`."""

    token_prefix: str = field(default_factory=lambda: uuid.uuid4().hex[:8])
    statuses: Counter[int] = field(default_factory=Counter)
    connected: int = 0
    held: list[asyncio.StreamWriter] = field(default_factory=list)

    def token(self, number: int) -> str:
        # A UUID, as the frontend makes them, all starting alike: their keys are found by
        # a pattern.
        return f"{self.token_prefix}-0000-4000-8000-{number:012x}"


async def _open(
    flood: Flood,
    number: int,
    *,
    host: str,
    port: int,
    source: str,
    origin: str,
    gate: asyncio.Semaphore,
    timeout_s: float,
) -> None:
    async with gate:
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(host, port, local_addr=(source, 0)), timeout_s
            )
        except (OSError, TimeoutError):
            flood.statuses[0] += 1
            return
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            f"GET /_event/?token={flood.token(number)}&EIO=4&transport=websocket HTTP/1.1\r\n"
            f"Host: {urlsplit(origin).netloc}\r\nOrigin: {origin}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout_s)
            status = int(head.split(b" ", 2)[1])
        except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError, IndexError):
            status = 0
        flood.statuses[status] += 1
        if status != 101:
            writer.close()
            return
        writer.write(_masked_text_frame(_CONNECT))
        received = b""
        try:
            while _CONNECTED not in received:
                chunk = await asyncio.wait_for(reader.read(4096), timeout_s)
                if not chunk:
                    break
                received += chunk
        except (OSError, TimeoutError):
            pass
        if _CONNECTED in received:
            flood.connected += 1
        flood.held.append(writer)


async def _flood(
    flood: Flood,
    *,
    site_url: str,
    source: str,
    sockets: int,
    opened: threading.Event,
    release: threading.Event,
    timeout_s: float,
) -> None:
    address = urlsplit(site_url)
    gate = asyncio.Semaphore(_OPENING_AT_ONCE)
    try:
        await asyncio.gather(
            *(
                _open(
                    flood,
                    number,
                    host="127.0.0.1",
                    port=address.port or 80,
                    source=source,
                    origin=site_url,
                    gate=gate,
                    timeout_s=timeout_s,
                )
                for number in range(sockets)
            )
        )
        opened.set()
        await asyncio.to_thread(release.wait, timeout_s * 4)
    finally:
        for writer in flood.held:
            writer.close()
        await asyncio.gather(
            *(writer.wait_closed() for writer in flood.held), return_exceptions=True
        )
        opened.set()  # also when opening failed: the caller is not left waiting


def flood_in_background(
    site_url: str, *, source: str, sockets: int, timeout_s: float = 15
) -> tuple[Flood, threading.Event, threading.Event, threading.Thread]:
    """Starts `sockets` websockets from the loopback address `source` on a thread of its own
    (Playwright's sync API may hold this thread's event loop). Returns the flood, an event
    set once every one was answered or refused, the event that closes them all, and the
    thread (joined once they are closed)."""
    flood, opened, release = Flood(), threading.Event(), threading.Event()
    thread = threading.Thread(
        target=asyncio.run,
        args=(
            _flood(
                flood,
                site_url=site_url,
                source=source,
                sockets=sockets,
                opened=opened,
                release=release,
                timeout_s=timeout_s,
            ),
        ),
        daemon=True,
    )
    thread.start()
    return flood, opened, release, thread
