"""Time zones as people read and find them: canonical names for a browser's legacy
aliases, words and offsets in the picker's list, and a search by city, country, name,
abbreviation or offset."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from rcxsite.core.time_zones import (
    canonical_zone,
    find_zones,
    place_zones,
    zone_choices,
    zone_label,
)

WINTER = datetime(2027, 1, 15, 12, tzinfo=UTC)
SUMMER = datetime(2027, 7, 15, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("reported", "canonical"),
    [
        ("Asia/Calcutta", "Asia/Kolkata"),
        ("Asia/Saigon", "Asia/Ho_Chi_Minh"),
        ("Europe/Kiev", "Europe/Kyiv"),
        ("America/Buenos_Aires", "America/Argentina/Buenos_Aires"),
        ("US/Eastern", "America/New_York"),
        ("GMT0", "UTC"),
        ("Etc/UTC", "UTC"),
        ("UTC", "UTC"),
        # A place of its own stays itself, even where the database merged its rules into
        # another country's zone.
        ("Europe/Oslo", "Europe/Oslo"),
        ("Europe/Amsterdam", "Europe/Amsterdam"),
        ("Asia/Kolkata", "Asia/Kolkata"),
    ],
)
def test_a_browsers_alias_is_read_as_its_canonical_zone(reported: str, canonical: str) -> None:
    assert canonical_zone(reported) == canonical


def test_an_unknown_name_is_no_zone() -> None:
    assert canonical_zone("Mars/Olympus") is None
    assert canonical_zone("") is None


def test_the_list_holds_places_and_utc_without_aliases() -> None:
    names = [choice.name for choice in zone_choices(WINTER)]
    assert len(names) == len(set(names)) == len(place_zones()) + 1
    assert "Asia/Kolkata" in names and "UTC" in names
    assert not {"Asia/Calcutta", "GMT0", "GMT+0", "GMT-0", "US/Eastern", "Etc/GMT+5"} & set(names)
    offsets = [choice.offset for choice in zone_choices(WINTER)]
    assert offsets == sorted(offsets)  # west to east


def test_a_zone_is_named_in_words_with_its_offset_of_the_season() -> None:
    assert zone_label("Asia/Calcutta", WINTER) == "India Standard Time, Kolkata (GMT+5:30)"
    assert zone_label("Europe/London", WINTER) == "Greenwich Mean Time, London (GMT+0:00)"
    assert zone_label("Europe/London", SUMMER) == "British Summer Time, London (GMT+1:00)"
    assert zone_label("America/New_York", SUMMER) == "Eastern Daylight Time, New York (GMT-4:00)"
    assert zone_label("UTC", WINTER) == "Coordinated Universal Time (GMT+0:00)"


@pytest.mark.parametrize("query", ["Kolkata", "India", "IST", "GMT+5:30", "calcutta", "kol"])
def test_kolkata_is_found_by_city_country_abbreviation_offset_and_old_name(query: str) -> None:
    found = [choice.name for choice in find_zones(query, WINTER)]
    assert "Asia/Kolkata" in found
    if query != "kol":
        assert "Asia/Kolkata" in found[:3], found[:3]


def test_a_search_matches_the_start_of_words_accents_aside() -> None:
    assert [c.name for c in find_zones("new york", WINTER)] == ["America/New_York"]
    assert [c.name for c in find_zones("sao paulo", WINTER)] == ["America/Sao_Paulo"]
    assert find_zones("UTC", WINTER)[0].name == "UTC"
    # "India" finds India before Indiana.
    assert find_zones("India", WINTER)[0].label.startswith("India Standard Time")
    assert find_zones("Atlantis", WINTER) == []
    assert len(find_zones("", WINTER)) == len(zone_choices(WINTER))
