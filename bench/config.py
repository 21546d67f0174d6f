"""What `make bench` measures and with which settings; `Options` reads the BENCH_* variables.

Quick runs: `make bench BENCH_RUNS=1 BENCH_PAGES=/,/pricing BENCH_LIGHTHOUSE=0`, or the
throughput part alone: `make bench BENCH_ONLY=scaled BENCH_SECONDS=5`, or the staff inbox
part alone (it replaces only its own section of the report):
`make bench BENCH_ONLY=inbox`, quicker with BENCH_INBOX_ROWS=20000 BENCH_INBOX_RUNS=5;
or the site search part alone (a few seconds): `make bench BENCH_ONLY=search`;
or durable mail alone (under a minute): `make bench BENCH_ONLY=outbox`;
or booked calls alone (about a minute): `make bench BENCH_ONLY=booking`;
or analytics alone (about ten minutes: a year of views is written first):
`make bench BENCH_ONLY=analytics`, quicker with BENCH_ANALYTICS_SCALE=0.01;
or several hosts through the balancer alone (about two minutes):
`make bench BENCH_ONLY=hosts`; or applications with a 10 MB CV alone (a production build,
then about a minute): `make bench BENCH_ONLY=careers`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "bench" / "out"  # all a run writes but the report; emptied at the start
REPORT_PATH = ROOT / "bench" / "REPORT.md"

# As a visitor types them: a redirect to the slash form, if any, is part of the cost.
PAGES = (
    "/",
    "/services/software-development",
    "/casestudies/fintech",
    "/insights/blogs",
    "/pricing",
    "/request-a-quote",
    "/log-in",
)
HOME = "/"
NOINDEX_PAGES = frozenset({"/log-in"})  # a sign-in form: its SEO score is not held to 100
RUNS = 3


@dataclass(frozen=True)
class PhoneProfile:
    """Lighthouse's mobile preset (Moto G Power on "slow 4G") in its units: 1.6 Mbit/s
    down and 750 kbit/s up, both x 0.9 (1 Mbit = 1024 kbit), 150 ms, the CPU 4x slower."""

    width: int = 412
    height: int = 823
    device_scale_factor: float = 1.75
    latency_ms: float = 150
    download_kbps: float = 1.6 * 1024 * 0.9
    upload_kbps: float = 750 * 0.9
    cpu_slowdown: float = 4


PHONE = PhoneProfile()


@dataclass(frozen=True)
class Interaction:
    """An early tap: the button's accessible name; a CSS selector of what it shows."""

    label: str
    button_name: str
    answered: str


# A page is tapped with the first of these it has; /log-in has no header menu.
INTERACTIONS = (
    Interaction("menu opens", "Open menu", 'nav[aria-label="Mobile"]'),
    Interaction("password shown", "Show password", 'input[name="password"][type="text"]'),
)
TAP_INTERVAL_MS = 50  # about the resolution of "tap answered"
SETTLE_MS = 500  # a load ends once no request started or finished for this long
LOAD_TIMEOUT_MS = 30_000

NODE = ROOT / ".tools" / "node_modules" / ".bin" / "node"
LIGHTHOUSE_MODULES = ROOT / ".tools" / "lighthouse" / "node_modules"
LIGHTHOUSE_PRESETS = ("mobile", "desktop")
LIGHTHOUSE_CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
LIGHTHOUSE_TIMEOUT_S = 60  # per audit, for the whole batch (one takes 8-15 s here)

THROUGHPUT_PAGES = ("/", "/services/software-development")
WRK = Path("/usr/bin/wrk")
# What a browser sends: both targets answer with the same precompressed file.
WRK_COMMAND = (str(WRK), "-t2", "--latency", "-H", "Accept-Encoding: br, gzip")
PAGE_CONNECTIONS = 50
LOGIN_CONNECTIONS = 16
LOGIN_ACCOUNTS = 4
SECONDS = 10
WARM_UP_SECONDS = 1
WORKERS = 2
# A database of its own (created by run-scaled, dropped after); a Redis database that
# the tests (3) and a default setup (0) do not use.
POSTGRES = "postgresql://postgres@127.0.0.1:5432"
REDIS = "redis://127.0.0.1:6379/5"
# Every request comes from 127.0.0.1: the rate limits must not be what is measured.
SCALED_LIMITS = {
    "REGISTRATION_LIMIT": "10000 per hour",
    "LOGIN_FAILURE_LIMIT": "100000 per 15 minutes",
    "RESET_MAIL_CLIENT_LIMITS": "10000 per hour",
    "QUOTE_LIMIT": "10000 per hour",
    "ACCOUNT_CHANGE_LIMIT": "10000 per hour",
    # nginx's per-client caps: the bench's wrk runs all come from one address.
    "API_REQUESTS_PER_SECOND": "10000",
    "API_BURST": "10000",
    "CONNECTIONS_PER_CLIENT": "10000",
}
# The staff inbox part: requests seeded, calls per measurement, the target.
INBOX_ROWS = 100_000
INBOX_RUNS = 20
INBOX_TARGET_MS = 100
# The site search part: the queries timed (typing mistakes, other word forms,
# several words, nothing found), calls per query, the target per query.
SEARCH_QUERIES = (
    "software development",
    "devlopment",
    "helthcare",
    "testing",
    "staff augmentaton",
    "accesibility clinics",
    "kubernetes",
    "mobile apps",
    "volunteering",
    "migrating data to the cloud",
    "machine learning",
    "ecommerce",
    "hotel booking",
    "open source microsoft",
    "free trial",
    "python engineer",
    "privacy",
    "dev",
    "healthcare zyxwvut",
    "qwxzjvkp",
    "cloud data migration security testing design development delivery architecture",
)
SEARCH_RUNS = 50
SEARCH_TARGET_MS = 20
# Queries made to cost the most within the 100 typed characters: characters whose Unicode
# folding is several letters (the longest expansions of word characters), one long word,
# many words, long hyphen compounds, words the stemmer strips again and again. (What the
# report calls them, the query.) Any of them must be answered under the target.
SEARCH_ADVERSARIAL = (
    ("U+FDF8 × 100 (folds to 4 Arabic letters each)", "\ufdf8" * 100),
    ("U+FDFA × 100 (folds to 18 characters each)", "\ufdfa" * 100),
    ("U+2167 Ⅷ × 100 (folds to “viii”)", "\u2167" * 100),
    ("U+FB03 ﬃ × 100 (folds to “ffi”)", "\ufb03" * 100),
    ("ß × 100 (casefolds to “ss”)", "ß" * 100),
    ("a–y × 4, one word of 100 letters", "abcdefghijklmnopqrstuvwxy" * 4),
    ("U+FDF8 joined by hyphens × 50", "-".join(["\ufdf8"] * 50)),
    ("Ⅷ and ﬃ, mixed", "\u2167\ufb03" * 50),
    ("“ab-” × 33, a hyphen compound", "-".join(["ab"] * 33) + "a"),
    ("33 different two-letter words", " ".join(a + b for a in "bcdfg" for b in "bcdfghjklmn")[:98]),
    (
        "12 words of 7 letters, none on the site",
        " ".join(f"qz{letter}xwvk" for letter in "abcdefghijkl"),
    ),
    (
        "8 words of 5 ligatures U+FDF2–U+FDF8 (20 letters: the site's longest word)",
        " ".join(
            ("\ufdf2\ufdf3\ufdf4\ufdf5\ufdf6\ufdf7\ufdf8" * 2)[start : start + 5]
            for start in range(8)
        ),
    ),
    (
        "7 long site words misspelt",
        "infrastructr documntproces vulnerabilitis "
        "personalisaton antimoneylaund securitycleard customrsuport",
    ),
    ("“ing” × 33, stripped again and again", "ing" * 33 + "s"),
    ("“sses” × 25", "sses" * 25),
)
SEARCH_ADVERSARIAL_RUNS = 5
SEARCH_ADVERSARIAL_TARGET_MS = 50
SEARCH_FLOOD_CLIENTS = 8  # then all of them at once, from this many threads


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in {"0", "false", "no", "off"}


def _number(name: str, default: int) -> int:
    value = int(os.environ.get(name, "").strip() or default)
    if value < 1:
        raise SystemExit(f"{name} must be at least 1")
    return value


@dataclass(frozen=True)
class Options:
    pages: tuple[str, ...] = PAGES
    runs: int = RUNS
    lighthouse: bool = True
    url: str | None = None  # a site already running (`make run`) instead of a fresh build
    scaled: bool = True  # the throughput part
    only_scaled: bool = False
    seconds: int = SECONDS
    workers: int = WORKERS
    inbox: bool = True  # the staff inbox part (bench/inbox.py)
    only_inbox: bool = False
    inbox_rows: int = INBOX_ROWS
    inbox_runs: int = INBOX_RUNS
    search: bool = True  # the site search part (bench/search.py)
    only_search: bool = False
    outbox: bool = True  # durable mail (bench/outbox.py)
    only_outbox: bool = False
    booking: bool = True  # booked calls (bench/booking.py)
    only_booking: bool = False
    analytics: bool = True  # first-party analytics (bench/analytics.py)
    only_analytics: bool = False
    hosts: bool = True  # several hosts through the balancer (bench/hosts.py)
    only_hosts: bool = False
    careers: bool = True  # applications with a 10 MB CV (bench/careers.py)
    only_careers: bool = False

    @property
    def phone(self) -> bool:
        """The phone profile and Lighthouse, on the single production process."""
        return not (
            self.only_scaled
            or self.only_inbox
            or self.only_search
            or self.only_outbox
            or self.only_booking
            or self.only_analytics
            or self.only_hosts
            or self.only_careers
        )

    @classmethod
    def from_env(cls) -> Options:
        pages = (
            tuple(
                page.strip()
                for page in os.environ.get("BENCH_PAGES", "").split(",")
                if page.strip()
            )
            or PAGES
        )
        if not all(page.startswith("/") for page in pages):
            raise SystemExit("BENCH_PAGES: every page is a path starting with /")
        only = os.environ.get("BENCH_ONLY", "").strip().lower()
        if (
            only
            not in {
                "",
                "scaled",
                "inbox",
                "search",
                "outbox",
                "booking",
                "analytics",
                "hosts",
                "careers",
            }
            or (only == "scaled" and not _flag("BENCH_SCALED"))
            or (only == "inbox" and not _flag("BENCH_INBOX"))
            or (only == "search" and not _flag("BENCH_SEARCH"))
            or (only == "outbox" and not _flag("BENCH_OUTBOX"))
            or (only == "booking" and not _flag("BENCH_BOOKING"))
            or (only == "analytics" and not _flag("BENCH_ANALYTICS"))
            or (only == "hosts" and not _flag("BENCH_HOSTS"))
            or (only == "careers" and not _flag("BENCH_CAREERS"))
        ):
            raise SystemExit(
                "BENCH_ONLY: `scaled`, `inbox`, `search`, `outbox`, `booking`, `analytics`, "
                "`hosts` or `careers`, and not with that part off (BENCH_SCALED=0, "
                "BENCH_INBOX=0, BENCH_SEARCH=0, BENCH_OUTBOX=0, BENCH_BOOKING=0, "
                "BENCH_ANALYTICS=0, BENCH_HOSTS=0, BENCH_CAREERS=0)"
            )
        return cls(
            pages=pages,
            runs=_number("BENCH_RUNS", RUNS),
            lighthouse=_flag("BENCH_LIGHTHOUSE"),
            url=os.environ.get("BENCH_URL", "").strip().rstrip("/") or None,
            scaled=_flag("BENCH_SCALED") and only in {"", "scaled"},
            only_scaled=only == "scaled",
            seconds=_number("BENCH_SECONDS", SECONDS),
            workers=_number("BENCH_WORKERS", WORKERS),
            inbox=_flag("BENCH_INBOX") and only in {"", "inbox"},
            only_inbox=only == "inbox",
            inbox_rows=_number("BENCH_INBOX_ROWS", INBOX_ROWS),
            inbox_runs=_number("BENCH_INBOX_RUNS", INBOX_RUNS),
            search=_flag("BENCH_SEARCH") and only in {"", "search"},
            only_search=only == "search",
            outbox=_flag("BENCH_OUTBOX") and only in {"", "outbox"},
            only_outbox=only == "outbox",
            booking=_flag("BENCH_BOOKING") and only in {"", "booking"},
            only_booking=only == "booking",
            analytics=_flag("BENCH_ANALYTICS") and only in {"", "analytics"},
            only_analytics=only == "analytics",
            hosts=_flag("BENCH_HOSTS") and only in {"", "hosts"},
            only_hosts=only == "hosts",
            careers=_flag("BENCH_CAREERS") and only in {"", "careers"},
            only_careers=only == "careers",
        )
