"""What a user agent says about the visitor: a crawler, automation, or a person's browser
(its family, OS family and device class). Only these families are stored, never the
user agent itself."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ua_parser import parse

# Names crawlers, scripts and tools give themselves that the parser's list may not know.
_BOT_WORDS = re.compile(
    r"bot|crawl|spider|slurp|scrap|fetch|monitor|preview|curl|wget|python|httpx|java/|"
    r"go-http|okhttp|axios|node-fetch|headless|phantom|lighthouse|pagespeed",
    re.IGNORECASE,
)
_AUTOMATION_WORDS = re.compile(r"headless|electron|puppeteer|playwright|selenium", re.I)
_TABLETS = re.compile(r"ipad|tablet|kindle|silk|playbook|(android(?!.*mobile))", re.I)
_MOBILE_OSES = frozenset({"iOS", "Android", "Windows Phone", "KaiOS"})


@dataclass(frozen=True, slots=True)
class Agent:
    bot: bool
    automation: bool
    device: str = ""  # "Desktop", "Mobile" or "Tablet"
    browser: str = ""
    os: str = ""


@lru_cache(maxsize=4096)
def agent_of(user_agent: str) -> Agent:
    """Classify a user agent; the same few hundred recur, hence the cache."""
    automation = bool(_AUTOMATION_WORDS.search(user_agent))
    if not user_agent or automation or _BOT_WORDS.search(user_agent):
        return Agent(bot=not automation, automation=automation)
    result = parse(user_agent)
    browser = result.user_agent.family if result.user_agent else ""
    os = result.os.family if result.os else ""
    device = result.device.family if result.device else ""
    if device == "Spider" or browser in ("", "Other"):
        return Agent(bot=True, automation=False)
    if _TABLETS.search(user_agent):
        kind = "Tablet"
    elif os in _MOBILE_OSES:
        kind = "Mobile"
    else:
        kind = "Desktop"
    return Agent(bot=False, automation=False, device=kind, browser=browser, os=os or "Other")
