"""`make bench` (python -m bench): measure the production site, write bench/REPORT.md.

1. the phone profile applied for real and 2. Lighthouse, on the single production process
(`reflex run --env prod`, built once per run); 3. throughput: wrk at 50 connections on
run-scaled against nginx alone, and logins against the hashing limit; then the staff inbox
at 100,000 requests on SQLite and PostgreSQL (bench/inbox.py: its own section, with its
own target), the site search's server time per query (bench/search.py, likewise),
durable mail (bench/outbox.py, likewise), booked calls: the free times and concurrent
bookings (bench/booking.py, likewise) and analytics: the dashboard over a year of views,
recording's cost and views at 500 a second (bench/analytics.py, likewise), and job
applications with a 10 MB CV (bench/careers.py, likewise). The targets
are in bench/targets.py, the options (BENCH_* variables) in bench/config.py.
"""

from __future__ import annotations

import json
import shutil
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import asdict

from bench import (
    analytics,
    booking,
    careers,
    hosts,
    inbox,
    inbox_report,
    lighthouse,
    outbox,
    phone,
    report,
    search,
    throughput,
)
from bench.config import LIGHTHOUSE_CATEGORIES, OUT_DIR, REPORT_PATH, THROUGHPUT_PAGES, Options
from bench.sites import production_site
from bench.targets import check


def figures(
    loads: dict[str, phone.PageLoads],
    audits: dict[tuple[str, str], list[lighthouse.Audit]] | None,
    rates: throughput.Throughput | None,
) -> dict[str, dict[str, float | None]]:
    """What bench/targets.py checks: each figure by page ("" when it has no page)."""
    result: dict[str, dict[str, float | None]] = {}
    for page, runs in loads.items():
        for name, value in runs.figures().items():
            result.setdefault(name, {})[page] = value
    for (page, preset), runs in (audits or {}).items():
        medians = lighthouse.medians(runs)
        for category in LIGHTHOUSE_CATEGORIES:
            result.setdefault(f"{preset} {category}", {})[page] = medians.get(category)
    if rates is not None:
        scaled = {
            page: rates.pages.get(page, {}).get(throughput.SCALED) for page in THROUGHPUT_PAGES
        }
        result["pages vs nginx"] = {page: rates.ratio(page) for page in THROUGHPUT_PAGES}
        result["page errors"] = {
            page: None if run is None or run.failure else run.errors for page, run in scaled.items()
        }
        result["logins vs hashing"] = {"": rates.login_ratio}
        result["login errors"] = {
            "": None if rates.logins is None or rates.logins.failure else rates.logins.errors
        }
    return result


def _stop_on_sigterm(signum: int, _frame: object) -> None:
    # As Ctrl-C does: the `finally` blocks stop every server the bench started.
    raise SystemExit(128 + signum)


def _inbox(options: Options, environment: dict[str, str]) -> str:
    print("staff inbox ...", file=sys.stderr, flush=True)
    figures = inbox.run(OUT_DIR / "inbox", options.inbox_rows, options.inbox_runs)
    return inbox_report.render(figures, environment)


def _search(environment: dict[str, str]) -> str:
    print("site search ...", file=sys.stderr, flush=True)
    return search.render(search.run(OUT_DIR / "search"), environment)


def _outbox(environment: dict[str, str]) -> str:
    print("durable mail ...", file=sys.stderr, flush=True)
    return outbox.render(outbox.run(OUT_DIR / "outbox"), environment)


def _booking(environment: dict[str, str]) -> str:
    print("booked calls ...", file=sys.stderr, flush=True)
    return booking.render(booking.run(OUT_DIR / "booking"), environment)


def _analytics(environment: dict[str, str]) -> str:
    print("analytics ...", file=sys.stderr, flush=True)
    return analytics.render(analytics.run(OUT_DIR / "analytics"), environment)


def _careers(options: Options, environment: dict[str, str]) -> str:
    print("job applications with a 10 MB CV ...", file=sys.stderr, flush=True)
    return careers.render(careers.run(OUT_DIR / "careers", options.url), environment)


def _hosts(options: Options, environment: dict[str, str]) -> tuple[str, bool]:
    print("several hosts through the balancer ...", file=sys.stderr, flush=True)
    runs = hosts.run(options.seconds)
    return hosts.render(runs, environment), hosts.failed(runs)


def _only(section: str, replace: Callable[[str, str], str]) -> int:
    """A part run alone: only its own section of the report changes."""
    old = REPORT_PATH.read_text() if REPORT_PATH.exists() else ""
    REPORT_PATH.write_text(replace(old, section))
    print(section)
    print(f"written to {REPORT_PATH.relative_to(REPORT_PATH.parents[1])}", file=sys.stderr)
    return 0


def main() -> int:
    options = Options.from_env()
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    started, environment = time.monotonic(), report.environment()
    shutil.rmtree(OUT_DIR, ignore_errors=True)
    OUT_DIR.mkdir(parents=True)
    if options.only_inbox:
        return _only(_inbox(options, environment), inbox_report.replace_section)
    if options.only_search:
        return _only(_search(environment), search.replace_section)
    if options.only_outbox:
        return _only(_outbox(environment), outbox.replace_section)
    if options.only_booking:
        return _only(_booking(environment), booking.replace_section)
    if options.only_analytics:
        return _only(_analytics(environment), analytics.replace_section)
    if options.only_careers:
        return _only(_careers(options, environment), careers.replace_section)
    if options.only_hosts:
        hosts_section, hosts_failed = _hosts(options, environment)
        return _only(hosts_section, hosts.replace_section) or int(hosts_failed)
    loads: dict[str, phone.PageLoads] = {}
    audits = rates = None
    if options.phone:
        with production_site(OUT_DIR / "server", options.url) as site:
            print("phone profile ...", file=sys.stderr, flush=True)
            loads = phone.run(site, options.pages, options.runs)
            (OUT_DIR / "loads.json").write_text(
                json.dumps({page: asdict(runs) for page, runs in loads.items()}, indent=1)
            )
            if options.lighthouse:
                print("lighthouse ...", file=sys.stderr, flush=True)
                audits = lighthouse.run(site, options.pages, options.runs, OUT_DIR / "lighthouse")
    if options.scaled:
        print("throughput ...", file=sys.stderr, flush=True)
        rates = throughput.run(options, OUT_DIR / "scaled")
    section = _inbox(options, environment) if options.inbox else None
    search_section = _search(environment) if options.search else None
    outbox_section = _outbox(environment) if options.outbox else None
    booking_section = _booking(environment) if options.booking else None
    analytics_section = _analytics(environment) if options.analytics else None
    careers_section = _careers(options, environment) if options.careers else None
    hosts_section, hosts_failed = _hosts(options, environment) if options.hosts else (None, False)
    markdown = report.render(
        report.Results(
            options=options,
            environment=environment,
            wall_seconds=time.monotonic() - started,
            checks=check(figures(loads, audits, rates)),
            loads=loads,
            audits=audits,
            throughput=rates,
        )
    )
    if section:
        markdown = inbox_report.replace_section(markdown, section)
    if search_section:
        markdown = search.replace_section(markdown, search_section)
    if outbox_section:
        markdown = outbox.replace_section(markdown, outbox_section)
    if booking_section:
        markdown = booking.replace_section(markdown, booking_section)
    if analytics_section:
        markdown = analytics.replace_section(markdown, analytics_section)
    if careers_section:
        markdown = careers.replace_section(markdown, careers_section)
    if hosts_section:
        markdown = hosts.replace_section(markdown, hosts_section)
    REPORT_PATH.write_text(markdown)
    print(markdown)
    print(f"written to {REPORT_PATH.relative_to(REPORT_PATH.parents[1])}", file=sys.stderr)
    # A throughput part that broke (not one skipped for want of services) fails the run.
    return 1 if (rates is not None and rates.failure) or hosts_failed else 0


if __name__ == "__main__":
    sys.exit(main())
