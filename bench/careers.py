"""Applications with a 10 MB CV, on the single production process: how long from "Send my
application" to the confirmation (the upload, the CV's checks, the file store and the
row, the applicant's mail queued), and what the site's other requests pay meanwhile.

A browser (Chromium, as a job seeker's) applies APPLICATIONS times in a row with a 10 MB
PDF. Beside it, a client asks for a page and for /sitemap.xml (a Python answer) without
pause; its answer times while the applications go up are compared with its times over
the same span with nothing uploading. Targets: each application confirmed in under
TARGET_S; the other requests' median slowed by at most TARGET_SLOWDOWN.
"""

from __future__ import annotations

import io
import random
import re
import statistics
import threading
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Browser, Page, expect, sync_playwright

from bench.sections import replaced
from bench.sites import production_site
from rcxsite.tools.chromium import CHROMIUM, CHROMIUM_ARGS

APPLICATIONS = 5
CV_BYTES = 10 * 1024 * 1024
TARGET_S = 1.0
TARGET_SLOWDOWN = 0.20
OPENING = "/careers/devops-engineer"
PROBED = ("/careers", "/sitemap.xml")
_SECTION = re.compile(r"^## Job applications\b.*?(?=^## |\Z)", re.MULTILINE | re.DOTALL)
# The bench applies more often than a person may: the limits have their own tests.
_SETTINGS = {"APPLICATION_LIMIT": "1000 per hour", "APPLICATION_EMAIL_LIMIT": "1000 per hour"}


@dataclass
class CareersRun:
    applications_s: list[float] = field(default_factory=list)
    quiet_ms: list[float] = field(default_factory=list)
    busy_ms: list[float] = field(default_factory=list)
    error: str = ""

    @property
    def slowdown(self) -> float:
        if not self.quiet_ms or not self.busy_ms:
            return 0.0
        return statistics.median(self.busy_ms) / statistics.median(self.quiet_ms) - 1


def _cv() -> bytes:
    """A one-page PDF of exactly CV_BYTES, the bulk in a stream of random bytes, as a
    scanned CV's images are (random, so no compression helps anywhere)."""
    from pypdf import PdfWriter
    from pypdf.generic import DecodedStreamObject, NameObject

    def written(writer: PdfWriter) -> bytes:
        out = io.BytesIO()
        writer.write(out)
        return out.getvalue()

    writer = PdfWriter()
    writer.add_blank_page(width=595, height=842)
    bulk = DecodedStreamObject()
    writer.pages[0][NameObject("/Bulk")] = writer._add_object(bulk)
    bulk.set_data(b"")
    overhead = len(written(writer))
    bulk.set_data(random.Random(1).randbytes(CV_BYTES - overhead))
    extra = len(written(writer)) - CV_BYTES
    bulk.set_data(random.Random(1).randbytes(CV_BYTES - overhead - extra))
    return written(writer)


class _Prober(threading.Thread):
    """Asks for PROBED in turn until stopped, keeping each answer's time."""

    def __init__(self, site: str) -> None:
        super().__init__(daemon=True)
        self.site = site
        self.times_ms: list[float] = []
        self.failures = 0
        self._done = threading.Event()

    def run(self) -> None:
        while not self._done.is_set():
            for path in PROBED:
                started = time.perf_counter()
                try:
                    with urllib.request.urlopen(self.site + path, timeout=30) as answer:
                        answer.read()
                except OSError:
                    self.failures += 1
                    continue
                self.times_ms.append((time.perf_counter() - started) * 1000)

    def stop(self) -> list[float]:
        self._done.set()
        self.join()
        return self.times_ms


def _apply(browser: Browser, site: str, cv: bytes) -> float:
    """One application from a tab of its own, as a new visitor's; seconds from the click
    on "Send my application" to the confirmation."""
    page = browser.new_page()
    try:
        return _send(page, site, cv)
    finally:
        page.close()


def _send(page: Page, site: str, cv: bytes) -> float:
    page.goto(site + OPENING)
    form = page.get_by_role("form", name="Apply for DevOps Engineer")
    mark = uuid.uuid4().hex[:8]
    form.get_by_label("Name").fill(f"Bench Applicant {mark}")
    form.get_by_label("Email").fill(f"bench-{mark}@example.org")
    form.get_by_label("Where you are based").fill("Leeds")
    page.locator("#apply input[type=file]").set_input_files(
        files=[{"name": "cv.pdf", "mimeType": "application/pdf", "buffer": cv}]
    )
    expect(page.get_by_text("cv.pdf")).to_be_visible()
    page.get_by_label(re.compile("I agree that RCX keeps")).check()
    started = time.perf_counter()
    page.get_by_role("button", name="Send my application").click()
    expect(page.get_by_role("heading", name=re.compile("Thank you"))).to_be_visible(timeout=60_000)
    return time.perf_counter() - started


def run(work_dir: Path, url: str | None = None) -> CareersRun:
    result = CareersRun()
    cv = _cv()
    with production_site(work_dir / "server", url, _SETTINGS) as site, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS))
        try:
            _apply(browser, site, cv)  # warm: the page's code and the server's first upload
            busy = _Prober(site)
            busy.start()
            try:
                began = time.perf_counter()
                result.applications_s = [_apply(browser, site, cv) for _ in range(APPLICATIONS)]
                span = time.perf_counter() - began
            finally:
                result.busy_ms = busy.stop()
            quiet = _Prober(site)
            quiet.start()
            time.sleep(span)
            result.quiet_ms = quiet.stop()
        except Exception as error:  # the report says what broke, the rest of the bench goes on
            result.error = f"{type(error).__name__}: {error}"[:300]
        finally:
            browser.close()
    return result


def _ms(values: list[float], q: float) -> str:
    if not values:
        return "—"
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))]:.0f}"


def render(result: CareersRun, environment: dict[str, str]) -> str:
    lines = [
        "## Job applications with a 10 MB CV",
        "",
        f"On the single production process (SQLite, the database file store); {APPLICATIONS} "
        "applications in a row from Chromium, each with a 10 MB PDF, after one to warm up. "
        f"Meanwhile a client asks for {' and '.join(PROBED)} without pause; the same client "
        "over the same span with nothing uploading is the reference. "
        f"Machine: {environment['machine']}; {environment['date']}, git commit "
        f"`{environment['commit']}`.",
        "",
    ]
    if result.error:
        return "\n".join([*lines, f"Not measured: {result.error}", ""])
    worst, median = max(result.applications_s), statistics.median(result.applications_s)
    lines += [
        "| Figure | Value | Target | Met |",
        "|---|---|---|---|",
        f"| Send → confirmation, median (s) | {median:.2f} | < {TARGET_S:.0f} "
        f"| {'yes' if median < TARGET_S else 'no'} |",
        f"| Send → confirmation, slowest (s) | {worst:.2f} | < {TARGET_S:.0f} "
        f"| {'yes' if worst < TARGET_S else 'no'} |",
        f"| Other requests' median, quiet → during (ms) | {_ms(result.quiet_ms, 0.5)} → "
        f"{_ms(result.busy_ms, 0.5)} | | |",
        f"| Other requests' p95, quiet → during (ms) | {_ms(result.quiet_ms, 0.95)} → "
        f"{_ms(result.busy_ms, 0.95)} | | |",
        f"| Other requests slowed (median) | {result.slowdown:+.0%} | ≤ +{TARGET_SLOWDOWN:.0%} "
        f"| {'yes' if result.slowdown <= TARGET_SLOWDOWN else 'no'} |",
        "",
    ]
    return "\n".join(lines)


def replace_section(markdown: str, section: str) -> str:
    return replaced(markdown, section, _SECTION)
