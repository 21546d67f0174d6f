"""What `make bench` measures and how: pages, the phone profile and every knob, in one place.

The defaults reproduce issue 8's method (and issue 10's throughput runs); `Options.from_env`
lets a quick iteration run fewer pages or runs (`make bench BENCH_RUNS=1 BENCH_PAGES=/,/pricing
BENCH_LIGHTHOUSE=0`) or only the throughput part (`make bench BENCH_ONLY=scaled
BENCH_SECONDS=5`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from rcxsite.tools.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: F401 - re-exported

ROOT = Path(__file__).resolve().parents[1]
# Everything a run writes except the report: git-ignored, emptied at the start of a run.
OUT_DIR = ROOT / "bench" / "out"
REPORT_PATH = ROOT / "bench" / "REPORT.md"
BUILD_DIR = ROOT / ".web" / "build" / "client"

# The paths exactly as a visitor types or a link gives them: without a trailing slash,
# so a redirect to the slash form (if the server answers with one) is part of the cost.
PAGES: tuple[str, ...] = (
    "/",
    "/services/software-development",
    "/casestudies/fintech",
    "/insights/blogs",
    "/pricing",
    "/request-a-quote",
    "/log-in",
)
HOME = "/"
# Deliberately noindex (a sign-in form), so its SEO score is not held to 100.
NOINDEX_PAGES: frozenset[str] = frozenset({"/log-in"})
RUNS = 3

NGINX = Path("/usr/sbin/nginx")


@dataclass(frozen=True)
class PhoneProfile:
    """A mid-range phone on a slow mobile network, applied for real through CDP.

    The numbers are Lighthouse's mobile preset (Moto G Power, "slow 4G"): 1.6 Mbit/s
    down and 750 kbit/s up, both x 0.9, with Lighthouse's units (1 Mbit = 1024 kbit,
    1 kbit = 1024 bit), 150 ms round trips and the CPU slowed 4x.
    """

    width: int = 412
    height: int = 823
    device_scale_factor: float = 1.75
    latency_ms: float = 150
    download_kbps: float = 1.6 * 1024 * 0.9
    upload_kbps: float = 750 * 0.9
    cpu_slowdown: float = 4

    @staticmethod
    def bytes_per_second(kbps: float) -> float:
        return kbps * 1024 / 8


PHONE = PhoneProfile()



@dataclass(frozen=True)
class Interaction:
    """A tap a visitor makes early, and what shows the page has answered it."""

    label: str
    # The accessible name of the button tapped (found by role and name, so the markup
    # behind it can change).
    button_name: str
    # A CSS selector that matches a visible element once the tap has been answered.
    answered: str


# Each page is tapped with the first of these it has. /log-in has no header, so there the
# first control a visitor may touch, the password's show/hide toggle, stands in.
INTERACTIONS: tuple[Interaction, ...] = (
    # Today `button.hamburger` opening a Radix dialog.
    Interaction("menu opens", "Open menu", 'nav[aria-label="Mobile"]'),
    Interaction("password shown", "Show password", 'input[name="password"][type="text"]'),
)
# Pause between taps while the page is not interactive yet: the resolution of the
# "interactive" figure is about this plus the time the renderer takes to handle a tap.
TAP_INTERVAL_MS = 50
# A paint load ends once no request started or finished for this long after networkidle.
SETTLE_MS = 500
# One load (navigation, taps, network settling) may take at most this long.
LOAD_TIMEOUT_MS = 30_000

TOOLS = ROOT / ".tools"
NODE = TOOLS / "node_modules" / ".bin" / "node"
LIGHTHOUSE_MODULES = TOOLS / "lighthouse" / "node_modules"
LIGHTHOUSE_CLI = LIGHTHOUSE_MODULES / "lighthouse" / "cli" / "index.js"
LIGHTHOUSE_CHROME_FLAGS: tuple[str, ...] = ("--headless=new", "--no-sandbox", "--disable-gpu")
LIGHTHOUSE_PRESETS: tuple[str, ...] = ("mobile", "desktop")
LIGHTHOUSE_CATEGORIES: tuple[str, ...] = ("performance", "accessibility", "best-practices", "seo")
# On average an audit takes 8-15 s here; this is the budget per audit for the whole batch.
LIGHTHOUSE_TIMEOUT_S = 60


# The throughput part (issue 10): wrk on these pages at 50 connections against one process,
# `make run-scaled` and nginx alone; then logins at 16 clients against run-scaled.
THROUGHPUT_PAGES: tuple[str, ...] = ("/", "/services/software-development")
WRK = Path("/usr/bin/wrk")
WRK_THREADS = 2
WRK_CONNECTIONS = 50
# What a browser sends: every target then answers with the same precompressed file.
WRK_HEADERS: tuple[str, ...] = ("Accept-Encoding: br, gzip",)
SECONDS = 10
WARM_UP_SECONDS = 1
WORKERS = 2
LOGIN_CLIENTS = 16
LOGIN_ACCOUNTS = 4
# run-scaled's services: a database of its own (created by run-scaled, dropped after) and a
# Redis database number the tests (3) and a default setup (0) do not use.
POSTGRES = "postgresql://postgres@127.0.0.1:5432"
REDIS = "redis://127.0.0.1:6379/5"
SCALED_START_TIMEOUT_S = 900
# Every request comes from 127.0.0.1: the limits must not be what is measured.
SCALED_LIMITS: dict[str, str] = {
    "REGISTRATION_LIMIT": "10000 per hour",
    "LOGIN_FAILURE_LIMIT": "100000 per 15 minutes",
    "RESET_MAIL_CLIENT_LIMITS": "10000 per hour",
    "QUOTE_LIMIT": "10000 per hour",
    "ACCOUNT_CHANGE_LIMIT": "10000 per hour",
}
ONLY_CHOICES: frozenset[str] = frozenset({"scaled"})


def _flag(name: str, default: bool) -> bool:
    value = os.environ.get(name, "").strip().lower()
    return default if not value else value not in {"0", "false", "no", "off"}


@dataclass(frozen=True)
class Options:
    pages: tuple[str, ...]
    runs: int
    lighthouse: bool
    floor: bool
    micro: bool
    # A site already running (e.g. `make run`): no build, its `.web/build/client` is reused.
    url: str | None
    # The throughput part (issue 10): wanted, alone (BENCH_ONLY=scaled), seconds per run.
    scaled: bool = True
    only_scaled: bool = False
    seconds: int = SECONDS
    workers: int = WORKERS

    @property
    def is_full(self) -> bool:
        return (self.pages == PAGES and self.runs == RUNS and self.lighthouse and self.floor
                and self.micro and self.url is None and self.scaled and not self.only_scaled
                and self.seconds == SECONDS and self.workers == WORKERS)

    @property
    def phone(self) -> bool:
        """The phone profile, the floor, Lighthouse and the micro-benchmarks."""
        return not self.only_scaled

    @classmethod
    def from_env(cls) -> Options:
        raw_pages = os.environ.get("BENCH_PAGES", "").strip()
        pages = tuple(p.strip() for p in raw_pages.split(",") if p.strip()) or PAGES
        for page in pages:
            if not page.startswith("/"):
                raise SystemExit(f"BENCH_PAGES: {page!r} is not a path starting with /")
        runs = int(os.environ.get("BENCH_RUNS", "").strip() or RUNS)
        if runs < 1:
            raise SystemExit("BENCH_RUNS must be at least 1")
        only = os.environ.get("BENCH_ONLY", "").strip().lower()
        if only and only not in ONLY_CHOICES:
            choices = ", ".join(sorted(ONLY_CHOICES))
            raise SystemExit(f"BENCH_ONLY: {only!r} is not one of {choices}")
        scaled = _flag("BENCH_SCALED", True)
        if only == "scaled" and not scaled:
            raise SystemExit("BENCH_ONLY=scaled and BENCH_SCALED=0 leave nothing to measure")
        seconds = int(os.environ.get("BENCH_SECONDS", "").strip() or SECONDS)
        workers = int(os.environ.get("BENCH_WORKERS", "").strip() or WORKERS)
        if seconds < 1 or workers < 1:
            raise SystemExit("BENCH_SECONDS and BENCH_WORKERS must be at least 1")
        return cls(
            pages=pages,
            runs=runs,
            lighthouse=_flag("BENCH_LIGHTHOUSE", True),
            floor=_flag("BENCH_FLOOR", True),
            micro=_flag("BENCH_MICRO", True),
            url=os.environ.get("BENCH_URL", "").strip().rstrip("/") or None,
            scaled=scaled,
            only_scaled=only == "scaled",
            seconds=seconds,
            workers=workers,
        )
