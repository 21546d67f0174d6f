"""Where a page view came from: campaign tags in its address, an ad's click id, or the host
of the page that linked to it. The first that is present wins; none of them is "Direct"."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, replace
from urllib.parse import urlsplit

from rcxsite.core.attribution import DIRECT, Touch
from rcxsite.models.analytics import HOST_MAX, UTM_MAX

UTM_KEYS = ("utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content")
# An ad network's click id names the network even when the ad carries no campaign tags.
CLICK_IDS = {
    "gclid": "Google Ads",
    "msclkid": "Microsoft Ads",
    "fbclid": "Facebook",
}
_SEARCH = {
    "google": "Google",
    "bing": "Bing",
    "duckduckgo": "DuckDuckGo",
    "yahoo": "Yahoo",
    "ecosia": "Ecosia",
    "baidu": "Baidu",
    "yandex": "Yandex",
    "startpage": "Startpage",
    "qwant": "Qwant",
    "brave": "Brave Search",
}
_SOCIAL = {
    "linkedin.com": "LinkedIn",
    "lnkd.in": "LinkedIn",
    "facebook.com": "Facebook",
    "t.co": "X",
    "x.com": "X",
    "twitter.com": "X",
    "reddit.com": "Reddit",
    "news.ycombinator.com": "Hacker News",
    "youtube.com": "YouTube",
    "instagram.com": "Instagram",
}


@dataclass(frozen=True, slots=True)
class Arrival:
    """A view's source, as stored with it (`Touch` plus the two tags only views keep)."""

    source: str = DIRECT
    medium: str = ""
    campaign: str = ""
    term: str = ""
    content: str = ""
    referrer_host: str = ""

    def touch(self, landing_page: str) -> Touch:
        return Touch(self.source, self.medium, self.campaign, landing_page)

    def referred_by(self, host: str) -> Arrival:
        """This arrival, known now to come from a link on `host` (which names the source
        only when the address named none)."""
        if not host:
            return self
        if self.source != DIRECT:
            return replace(self, referrer_host=host)
        source, medium = _named(host)
        return replace(self, source=source, medium=self.medium or medium, referrer_host=host)


# What a host name may hold once lower-cased (IDNA names arrive as xn--...).
_HOST = re.compile(r"[a-z0-9.-]{1,255}")


# What a tag's value keeps: the characters of a slug; every run of others becomes one "-".
_NOT_IN_TAG = re.compile(r"[^a-z0-9._-]+")
# Only a value's start is read, a few times the column (NFKD makes some characters
# several): the work is the same whatever length was sent.
_READ_PER_STORED_CHARACTER = 4


def _clean(value: object, limit: int = UTM_MAX) -> str:
    """A tag's value as stored: lower case, accents taken off letters, only a-z 0-9 . _ -
    (any other run, markup and control characters included, made one "-", none at either
    end), at most `limit` characters; and never an address (a campaign tag is no place
    for a visitor's email). "Autumn Sale 2026" and "autumn-sale-2026" are one campaign."""
    text = value if isinstance(value, str) else ""
    text = unicodedata.normalize("NFKD", text[: limit * _READ_PER_STORED_CHARACTER].lower())
    if "@" in text:
        return ""
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return _NOT_IN_TAG.sub("-", text).strip("-")[:limit].rstrip("-")


def host_of(url: str, *, own_host: str = "") -> str:
    """The referring page's host without "www.", or "" for none, a bad URL or our site."""
    try:
        parts = urlsplit(url.strip())
        host = (parts.hostname or "") if parts.scheme in ("http", "https") else ""
    except ValueError:
        return ""
    host = host.lower().removeprefix("www.")
    own = own_host.split(":")[0].lower().removeprefix("www.")
    if host == own or not _HOST.fullmatch(host):
        return ""
    return host[:HOST_MAX]


def _named(host: str) -> tuple[str, str]:
    """A referrer host's source name and medium."""
    for suffix, name in _SOCIAL.items():
        if host == suffix or host.endswith("." + suffix):
            return name, "social"
    labels = host.split(".")
    for label in labels[:-1]:
        if label in _SEARCH:
            return _SEARCH[label], "organic"
    return host[:UTM_MAX], "referral"


# A tag naming a source a referrer also names ("linkedin", "LinkedIn") is stored under the
# referrer's name, so that the reports show one LinkedIn, not two.
_KNOWN_SOURCES = {_clean(name): name for name in (*_SEARCH.values(), *_SOCIAL.values())}


def tags_of(query: Mapping[str, object]) -> dict[str, str]:
    """The parts of a page's query that say where the visitor came from (never a route's
    token or anything else the address carries), cleaned."""
    return {key: cleaned for key in (*UTM_KEYS, *CLICK_IDS) if (cleaned := _clean(query.get(key)))}


def arrival_of(query: Mapping[str, object], referrer_host: str = "") -> Arrival:
    """The source of a view whose address had `query` and that `referrer_host` linked to."""
    tags = {key: _clean(query.get(key)) for key in UTM_KEYS}
    source, medium = _KNOWN_SOURCES.get(tags["utm_source"], tags["utm_source"]), tags["utm_medium"]
    if not source:
        clicked = next((name for key, name in CLICK_IDS.items() if _clean(query.get(key))), "")
        if clicked:
            source, medium = clicked, medium or "cpc"
        elif referrer_host:
            source, named_medium = _named(referrer_host)
            medium = medium or named_medium
    return Arrival(
        source=source or DIRECT,
        medium=medium,
        campaign=tags["utm_campaign"],
        term=tags["utm_term"],
        content=tags["utm_content"],
        referrer_host=referrer_host,
    )
