"""What a page load fetched, from Chromium's own network events (CDP `Network.*`).

Bytes are `encodedDataLength`: what crossed the (throttled) wire, headers included,
compressed as transferred. WebSocket traffic is not a request here and is not counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

KINDS: tuple[str, ...] = ("js", "css", "html", "image", "font", "other")


@dataclass(frozen=True)
class Fetch:
    url: str
    kind: str
    status: int
    bytes: int
    redirect: bool = False


def kind_of(mime_type: str, resource_type: str) -> str:
    """The MIME type decides; the CDP resource type covers responses without one."""
    mime = mime_type.lower()
    if "javascript" in mime or resource_type == "Script":
        return "js"
    if mime == "text/css" or resource_type == "Stylesheet":
        return "css"
    if mime in {"text/html", "application/xhtml+xml"} or resource_type == "Document":
        return "html"
    if mime.startswith("image/") or resource_type == "Image":
        return "image"
    if mime.startswith("font/") or "woff" in mime or resource_type == "Font":
        return "font"
    return "other"


@dataclass
class NetworkLog:
    """Collects one page's fetches from a CDP session with the Network domain enabled."""

    fetches: list[Fetch] = field(default_factory=list)
    _open: dict[str, dict[str, Any]] = field(default_factory=dict)

    def attach(self, cdp: Any) -> None:
        cdp.on("Network.requestWillBeSent", self._will_be_sent)
        cdp.on("Network.responseReceived", self._response)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.loadingFailed", self._failed)

    def _will_be_sent(self, event: dict[str, Any]) -> None:
        if event["request"]["url"].startswith("data:"):
            return
        request_id = event["requestId"]
        redirect = event.get("redirectResponse")
        if redirect is not None and request_id in self._open:
            # A redirect reuses the request id: the hop just answered is its own fetch.
            hop = self._open.pop(request_id)
            self.fetches.append(Fetch(
                url=hop["url"], kind=kind_of("", event.get("type", "")),
                status=redirect["status"], bytes=int(redirect.get("encodedDataLength", 0)),
                redirect=True,
            ))
        self._open[request_id] = {"url": event["request"]["url"],
                                  "type": event.get("type", ""), "mime": "", "status": 0}

    def _response(self, event: dict[str, Any]) -> None:
        entry = self._open.get(event["requestId"])
        if entry is not None:
            entry["mime"] = event["response"].get("mimeType", "")
            entry["status"] = event["response"].get("status", 0)
            entry["type"] = event.get("type", entry["type"])

    def _finished(self, event: dict[str, Any]) -> None:
        self._close(event["requestId"], int(event.get("encodedDataLength", 0)))

    def _failed(self, event: dict[str, Any]) -> None:
        self._close(event["requestId"], 0)

    def _close(self, request_id: str, size: int) -> None:
        entry = self._open.pop(request_id, None)
        if entry is not None:
            self.fetches.append(Fetch(url=entry["url"], kind=kind_of(entry["mime"], entry["type"]),
                                      status=entry["status"], bytes=size))

    @property
    def pending(self) -> int:
        return len(self._open)
