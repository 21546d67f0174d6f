"""The time zones the site knows, as people read and find them.

Names come from the IANA zone database this machine's `zoneinfo` reads (the system's, else
the `tzdata` package's). A person picks from the zones of a place (`zone.tab`, one or more a
country) and UTC. A legacy name a browser may still report ("Asia/Calcutta", "US/Eastern")
is read as the zone it links to ("Asia/Kolkata") everywhere: shown, stored and listed.
Words ("India Standard Time", "Kolkata", "India") come from CLDR, through babel.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from importlib import resources
from pathlib import Path
from zoneinfo import TZPATH, ZoneInfo, available_timezones

from babel import Locale
from babel.core import get_global
from babel.dates import get_timezone_location, get_timezone_name

UTC_NAME = "UTC"
# The zones that are UTC under another name: each is shown and stored as "UTC".
_UTC_LINKS = frozenset({"Etc/UTC", "Etc/GMT"})
# What a search splits a zone's words and a query on; offsets ("gmt+5:30") stay whole.
_WORD_BREAK = re.compile(r"[\s,()/_.]+")
_ENGLISH = Locale.parse("en")


@lru_cache(maxsize=1)
def known_zones() -> frozenset[str]:
    """Every name the zone database has (aliases such as "GMT0" included)."""
    return frozenset(available_timezones())


def _database_file(name: str) -> str:
    """A text file of the zone database zoneinfo reads ("" when it has none)."""
    for folder in TZPATH:
        path = Path(folder) / name
        if path.is_file():
            return path.read_text(encoding="utf-8")
    try:
        return (resources.files("tzdata") / "zoneinfo" / name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return ""


@lru_cache(maxsize=1)
def place_zones() -> tuple[str, ...]:
    """The zones of a place ("Europe/London"), sorted: what a person picks from. Every
    zone `zone.tab` lists for a country, so a place merged into another's rules in the
    database (Oslo's into Berlin's) is still listed under its own name."""
    listed = {
        line.split("\t")[2]
        for line in _database_file("zone.tab").splitlines()
        if line and not line.startswith("#") and line.count("\t") >= 2
    }
    known = known_zones()
    places = listed & known or {zone for zone in known if "/" in zone}
    return tuple(sorted(places))


@lru_cache(maxsize=1)
def _place_set() -> frozenset[str]:
    return frozenset(place_zones())


@lru_cache(maxsize=1)
def _links() -> dict[str, str]:
    """Each alias of the zone database and the zone it names ("Asia/Calcutta" ->
    "Asia/Kolkata"), from its `tzdata.zi` ("L target alias" lines)."""
    links: dict[str, str] = {}
    for line in _database_file("tzdata.zi").splitlines():
        if line.startswith("L "):
            _, target, alias = line.split()
            links[alias] = target
    return links


@lru_cache(maxsize=2048)
def canonical_zone(name: str) -> str | None:
    """The zone to show and store for `name`: itself for a place's zone, the zone a
    legacy alias links to ("Asia/Calcutta" -> "Asia/Kolkata"), "UTC" for UTC and GMT
    under any name; None for a name the zone database does not know."""
    if name not in known_zones():
        return None
    places = _place_set()
    if name in places:
        return name
    links = _links()
    target = name
    for _ in range(len(links) + 1):  # a link to a link, however deep; never a loop
        if target == UTC_NAME or target in _UTC_LINKS:
            return UTC_NAME
        if target in places or target not in links:
            break
        target = links[target]
    if target in places:
        return target
    return name  # a zone of the database that is no place's ("Etc/GMT+5"): as it is


@dataclass(frozen=True, slots=True)
class ZoneChoice:
    """A zone as the picker lists it."""

    name: str  # "Asia/Kolkata"
    label: str  # "India Standard Time, Kolkata (GMT+5:30)"
    offset: int  # minutes east of UTC, now
    words: tuple[str, ...]  # what a search matches the start of: names, offsets, aliases


def offset_text(minutes: int) -> str:
    """ "GMT+5:30", "GMT-3:00", "GMT+0:00"."""
    sign = "-" if minutes < 0 else "+"
    hours, rest = divmod(abs(minutes), 60)
    return f"GMT{sign}{hours}:{rest:02d}"


def _folded(text: str) -> str:
    """Lower case without accents: "São Paulo" is found by "sao"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def _offset_words(minutes: int) -> Iterator[str]:
    sign = "-" if minutes < 0 else "+"
    hours, rest = divmod(abs(minutes), 60)
    for prefix in ("gmt", "utc", ""):
        yield f"{prefix}{sign}{hours}:{rest:02d}"
        yield f"{prefix}{sign}{hours:02d}:{rest:02d}"
        if not rest:
            yield f"{prefix}{sign}{hours}"


def _choice(name: str, moment: datetime, aliases: tuple[str, ...]) -> ZoneChoice:
    local = moment.astimezone(ZoneInfo(name))
    delta = local.utcoffset()
    offset = int(delta.total_seconds() // 60) if delta is not None else 0
    if name == UTC_NAME:
        words_of = ["Coordinated Universal Time", "UTC", "GMT", "Greenwich", "Zulu"]
        label = f"Coordinated Universal Time ({offset_text(0)})"
    else:
        long_name = get_timezone_name(local, width="long", locale=_ENGLISH)
        city = get_timezone_location(name, locale=_ENGLISH, return_city=True)
        territory = get_global("zone_territories").get(name, "")
        country = _ENGLISH.territories.get(territory, "") if territory != "001" else ""
        generic = get_timezone_name(name, width="long", locale=_ENGLISH)
        words_of = [long_name, generic, city, country, local.tzname() or "", name]
        words_of += [alias for alias in aliases]
        label = f"{long_name}, {city} ({offset_text(offset)})"
    words = {word for text in words_of for word in _WORD_BREAK.split(_folded(text)) if word}
    words.update(_offset_words(offset))
    return ZoneChoice(name=name, label=label, offset=offset, words=tuple(sorted(words)))


@lru_cache(maxsize=2)
def _catalogue(hour: datetime) -> tuple[ZoneChoice, ...]:
    aliases: dict[str, list[str]] = {}
    for alias in _links():
        target = canonical_zone(alias)
        if target is not None and target != alias:
            aliases.setdefault(target, []).append(alias)
    choices = [
        _choice(name, hour, tuple(aliases.get(name, ()))) for name in (*place_zones(), UTC_NAME)
    ]
    return tuple(sorted(choices, key=lambda choice: (choice.offset, choice.label)))


def zone_choices(now: datetime | None = None) -> tuple[ZoneChoice, ...]:
    """Every zone a person picks from, west to east, named as at `now` (summer or winter
    time): made once an hour, as offsets and names change at most that often."""
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    return _catalogue(moment.replace(minute=0, second=0, microsecond=0))


def find_zones(query: str, now: datetime | None = None) -> list[ZoneChoice]:
    """The zones whose words start with each of the query's ("Kolkata", "India", "IST",
    "GMT+5:30", "new york" all find theirs), those with more whole words first ("India"
    before "Indiana"); every zone for an empty query."""
    wanted = [word for word in _WORD_BREAK.split(_folded(query)) if word]
    found: list[tuple[int, int, ZoneChoice]] = []
    for order, choice in enumerate(zone_choices(now)):
        if all(any(word.startswith(part) for word in choice.words) for part in wanted):
            whole = sum(part in choice.words for part in wanted)
            found.append((-whole, order, choice))
    return [choice for *_, choice in sorted(found)]


def zone_label(name: str, now: datetime | None = None) -> str:
    """The picker's words for a zone ("India Standard Time, Kolkata (GMT+5:30)"); the
    name itself for a zone the picker does not list."""
    zone = canonical_zone(name) or name
    for choice in zone_choices(now):
        if choice.name == zone:
            return choice.label
    return zone
