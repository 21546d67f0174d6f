"""Where a call happens: a video call at its meeting link, or a phone call to the
visitor's number.

A video call's link is its host's own (a member may set one: Zoom, Meet, Teams, any https
address) or a room made for the call from MEETING_URL_TEMPLATE, whose name nobody can
guess. The link belongs to the call: a move keeps it, unless it was the old host's own
room and another member now hosts the call.
"""

from __future__ import annotations

import secrets
from typing import Protocol
from urllib.parse import urlsplit

from rcxsite.core.forms import has_forbidden_characters, problem
from rcxsite.models.booking import PHONE, VIDEO
from rcxsite.models.types import MEETING_URL_MAX
from rcxsite.platform.settings import get_settings

MEETING_URL_INVALID = "Please give an https address, such as https://meet.google.com/abc-defg-hij"
MEETING_URL_TOO_LONG = f"The address must be at most {MEETING_URL_MAX} characters"
# 96 bits: a room nobody finds by trying names.
_ROOM_BYTES = 12


class Host(Protocol):
    @property
    def meeting_url(self) -> str: ...


def new_room() -> str:
    return get_settings().meeting_url_template.replace("{room}", secrets.token_hex(_ROOM_BYTES))


def prepared_link(call_kind: str) -> str:
    """A new call's room, made before its host is known: none for a phone call."""
    return new_room() if call_kind == VIDEO else ""


def link_with_host(prepared: str, host_link: str) -> str:
    """A new call's link once its host is chosen (in the transaction that books it): the
    host's own, else the room prepared."""
    return host_link if prepared and host_link else prepared


def meeting_url_for(call_kind: str, host: Host) -> str:
    """A new call's link: none for a phone call, else the host's own or a new room."""
    if call_kind != VIDEO:
        return ""
    return host.meeting_url or new_room()


def moved_meeting_url(current: str, call_kind: str, previous: Host, host: Host) -> str:
    """The link after a move: kept, but for the old host's own room when the call changed
    hands (their room is theirs); a call booked before links existed keeps none."""
    if call_kind != VIDEO or not current or previous is host:
        return current
    if previous.meeting_url and current == previous.meeting_url:
        return meeting_url_for(call_kind, host)
    return current


def checked_meeting_url(value: str) -> str:
    """A member's own meeting link as typed: "" (none) or an https address."""
    text = value.strip()
    if not text:
        return ""
    if len(text) > MEETING_URL_MAX:
        raise problem(MEETING_URL_TOO_LONG)
    parts = urlsplit(text)
    if (
        parts.scheme != "https"
        or not parts.hostname
        or parts.username is not None
        or any(char.isspace() for char in text)
        # What meeting services hand out is ASCII; anything else here (controls, text
        # direction marks) would make the link read as something it is not.
        or not text.isascii()
        or has_forbidden_characters(text)
    ):
        raise problem(MEETING_URL_INVALID)
    return text


__all__ = [
    "MEETING_URL_INVALID",
    "PHONE",
    "VIDEO",
    "checked_meeting_url",
    "link_with_host",
    "meeting_url_for",
    "moved_meeting_url",
    "new_room",
    "prepared_link",
]
