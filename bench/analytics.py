"""First-party analytics: the dashboard over a year of page views, what recording costs a
page event, and views stored at 500 a second across worker processes.

Each database is a scratch one (a file in bench/out; a PostgreSQL database created here and
dropped after), migrated by alembic. A year of views (VIEWS_POSTGRESQL on PostgreSQL,
VIEWS_SQLITE on SQLite, three views a visit, 40 pages, a dozen sources and campaigns) is
inserted by the database itself, then the hourly job counts every day (`roll_up`, timed).
Then:

1. `dashboard` for the last 30 days and the last 12 months, unfiltered (the targets) and
   filtered by a source or a page (the target) and by both (read from the views: no
   target): median and p95 of RUNS calls
   after a warm-up call, in this process;
2. what a page event pays to be counted: building the view and handing it to the
   per-process queue (`CountPageViews` minus the tab state lookup Reflex does for every
   event anyway), p95 of 20,000;
3. PostgreSQL only: WORKERS processes each storing RATE / WORKERS views a second (in the
   site's batches, one a second) for SECONDS seconds; then the dashboard's count of page
   views for today must equal the views sent.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import statistics
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import text

from bench.databases import alembic_config, postgres_missing, scratch_postgres, sqlite_file
from bench.environment import environment
from bench.sections import replaced

VIEWS_POSTGRESQL = 12_000_000
VIEWS_SQLITE = 1_000_000
VIEWS_PER_VISIT = 3
RUNS = 10
TARGET_30_DAYS_MS = 200.0
TARGET_12_MONTHS_MS = 500.0
TARGET_FILTERED_MS = 500.0  # 30 days under one filter (issue 45)
TARGET_RECORDING_MS = 1.0
RATE = 500
WORKERS = 2
SECONDS = 60
# "Now": noon of a day whose previous 365 days hold the views.
NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
_SECTION = re.compile(r"^## Analytics\b.*?(?=^## |\Z)", re.MULTILINE | re.DOTALL)

PAGES = (
    [
        "/",
        "/about",
        "/services",
        "/pricing",
        "/request-a-quote",
        "/careers",
        "/products",
        "/insights/blogs",
        "/contact",
        "/gallery",
    ]
    + [f"/services/s{n}" for n in range(10)]
    + [f"/insights/a{n}" for n in range(20)]
)
SOURCES = [
    "Direct",
    "Direct",
    "Direct",
    "Google",
    "Google",
    "Bing",
    "LinkedIn",
    "newsletter",
    "X",
    "blog.example.org",
    "Google Ads",
    "Facebook",
]
CAMPAIGNS = ["", "", "", "", "autumn", "launch", "webinar", "retargeting"]
COUNTRIES = ["GB", "US", "DE", "FR", "IN", "NL", "ES", "CA"]
DEVICES = ["Desktop", "Desktop", "Mobile", "Mobile", "Tablet"]
BROWSERS = ["Chrome", "Chrome", "Safari", "Firefox", "Edge", "Mobile Safari"]


def _array(values: list[str]) -> str:
    return "ARRAY[" + ", ".join(f"'{value}'" for value in values) + "]"


def _pick(values: list[str], number: str, postgres: bool) -> str:
    """The SQL for values[number % len] (PostgreSQL arrays count from 1)."""
    if postgres:
        return f"({_array(values)})[1 + ({number}) % {len(values)}]"
    cases = " ".join(f"WHEN {n} THEN '{value}'" for n, value in enumerate(values))
    return f"(CASE ({number}) % {len(values)} {cases} END)"


def _seed(engine: object, views: int) -> None:
    """A year of visits and their views, spread evenly, inserted by the database."""
    postgres = engine.dialect.name == "postgresql"  # type: ignore[attr-defined]
    visits = views // VIEWS_PER_VISIT
    start = NOW.replace(hour=0) - timedelta(days=365)
    seconds = 365 * 86400
    if postgres:
        numbers = f"generate_series(1, {visits}) AS g(n)"
        moment = (
            f"timestamptz '{start.isoformat()}' "
            f"+ (n * {seconds}.0 / {visits}) * interval '1 second'"
        )
        visitor = "md5((n / 2)::text || 'v')"
        offset = "(v.started_at + k * interval '1 minute')"
        steps = f"generate_series(0, {VIEWS_PER_VISIT - 1}) AS s(k)"
    else:
        numbers = (
            "(WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c "
            f"WHERE n < {visits}) SELECT n FROM c)"
        )
        moment = (
            f"datetime('{start.strftime('%Y-%m-%d %H:%M:%S')}', "
            f"'+' || (n * {seconds} / {visits}) || ' seconds')"
        )
        visitor = "printf('%032x', n / 2)"
        offset = "datetime(v.started_at, '+' || k || ' minutes')"
        steps = (
            "(WITH RECURSIVE s(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM s "
            f"WHERE k < {VIEWS_PER_VISIT - 1}) SELECT k FROM s)"
        )
    pick = lambda values, number: _pick(values, number, postgres)  # noqa: E731
    with engine.begin() as connection:  # type: ignore[attr-defined]
        if postgres:  # the site's statement timeout is for pages, not for a year of rows
            connection.execute(text("SET LOCAL statement_timeout = 0"))
        connection.execute(
            text(
                "INSERT INTO analytics_visit (id, visitor, started_at, last_at, views, "
                "entry_path, referrer_host, source, medium, campaign, country, device, "
                f"browser, os) SELECT n, {visitor}, {moment}, {moment}, {VIEWS_PER_VISIT}, "
                f"{pick(PAGES, 'n * 7')}, '', {pick(SOURCES, 'n')}, '', "
                f"{pick(CAMPAIGNS, 'n / 3')}, {pick(COUNTRIES, 'n / 5')}, "
                f"{pick(DEVICES, 'n / 11')}, {pick(BROWSERS, 'n / 13')}, 'Other' FROM {numbers}"
            )
        )
        connection.execute(
            text(
                "UPDATE analytics_visit SET last_at = "
                + (
                    "started_at + interval '2 minutes'"
                    if postgres
                    else "datetime(started_at, '+2 minutes')"
                )
            )
        )
        connection.execute(
            text(
                "INSERT INTO analytics_view (visit_id, visitor, at, path, referrer_host, source, "
                "medium, campaign, term, content, country, device, browser, os) "
                f"SELECT v.id, v.visitor, {offset}, {pick(PAGES, 'v.id * 7 + k * 3')}, '', "
                "CASE WHEN k = 0 THEN v.source ELSE 'Direct' END, '', "
                "CASE WHEN k = 0 THEN v.campaign ELSE '' END, '', '', v.country, v.device, "
                f"v.browser, v.os FROM analytics_visit v, {steps}"
            )
        )
        if postgres:
            connection.execute(
                text(
                    "SELECT setval('analytics_visit_id_seq', (SELECT max(id) FROM analytics_visit))"
                )
            )
    with engine.connect() as connection:  # type: ignore[attr-defined]
        connection = connection.execution_options(isolation_level="AUTOCOMMIT")
        if postgres:
            connection.execute(text("SET statement_timeout = 0"))
        connection.execute(text("ANALYZE"))


@dataclass
class AnalyticsRun:
    database: str
    views: int = 0
    seed_s: float = 0.0
    rollup_s: float = 0.0
    timings: dict[str, list[float]] = field(default_factory=dict)
    recording_ms: list[float] = field(default_factory=list)
    sent: int = 0
    counted: int | None = None
    store_s: float = 0.0
    skipped: str = ""
    failure: str = ""


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


def _time(call: Callable[[], object], runs: int) -> list[float]:
    call()  # warm-up: caches, the salt, the statements
    found = []
    for _ in range(runs):
        began = time.perf_counter()
        call()
        found.append((time.perf_counter() - began) * 1000)
    return found


def _recording_cost() -> list[float]:
    from rcxsite.analytics.recording import PageView, Recorder
    from rcxsite.analytics.sources import arrival_of

    recorder = Recorder(write=lambda views: len(views), flush_seconds=3600)
    query = {"utm_source": "newsletter", "utm_campaign": "autumn"}
    found = []
    for n in range(20_000):
        began = time.perf_counter()
        recorder.offer(
            f"bench-tab-{n}",
            PageView(
                at=datetime.now(UTC),
                path="/pricing",
                address=f"81.2.{n % 250}.{n % 200}",
                user_agent="Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36",
                host="rcx.example",
                arrival=arrival_of(query),
            ),
        )
        found.append((time.perf_counter() - began) * 1000)
        if n % 1000 == 999:
            recorder.flush()
    return found


def _store_worker(
    url: str, data_dir: str, worker: int, rate: int, seconds: int, out: object
) -> None:
    with environment({"DATABASE_URL": url, "DATA_DIR": data_dir, "REDIS_URL": ""}):
        from rcxsite.analytics.recording import PageView, store
        from rcxsite.analytics.sources import arrival_of

        sent = 0
        began = time.monotonic()
        for second in range(seconds):
            now = datetime.now(UTC)
            batch = [
                PageView(
                    at=now,
                    path=PAGES[n % len(PAGES)],
                    address=f"10.{worker}.{(second * rate + n) // 250 % 250}.{n % 250}",
                    user_agent=f"Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.{n % 50}",
                    host="rcx.example",
                    arrival=arrival_of({}),
                )
                for n in range(rate)
            ]
            sent += store(batch)
            pause = began + second + 1 - time.monotonic()
            if pause > 0:
                time.sleep(pause)
        out.put((sent, time.monotonic() - began))  # type: ignore[attr-defined]


def _settle(engine: Any) -> None:
    """What autovacuum does on a live site long before anyone reads the dashboard: the
    planner's statistics of the tables a year's count just filled (timed straight after
    the count, the dashboard shared the machine with that work)."""
    if engine.dialect.name != "postgresql":
        return
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(text("VACUUM ANALYZE"))


def _measure(run: AnalyticsRun, url: str, data_dir: Path, views: int) -> None:
    from alembic.command import upgrade

    with environment({"DATABASE_URL": url, "DATA_DIR": str(data_dir), "REDIS_URL": ""}):
        upgrade(alembic_config(), "head")
        from rcxsite.analytics.dashboard import dashboard
        from rcxsite.analytics.inputs import DashboardQuery
        from rcxsite.analytics.rollups import roll_up
        from rcxsite.core.permissions import StaffActor
        from rcxsite.platform.db import get_engine

        engine = get_engine()
        began = time.monotonic()
        _seed(engine, views)
        run.seed_s = time.monotonic() - began
        with engine.connect() as connection:
            run.views = int(
                connection.execute(text("SELECT count(*) FROM analytics_view")).scalar_one()
            )
        print(
            f"  {run.database}: {run.views:,} views seeded in {run.seed_s:.0f} s",
            file=sys.stderr,
            flush=True,
        )
        began = time.monotonic()
        roll_up(now=NOW)
        run.rollup_s = time.monotonic() - began
        _settle(engine)
        admin = StaffActor(member_id=1, name="Bench", email="bench@rcx.example", role="admin")
        for name, query in (
            ("30 days", DashboardQuery(period="30d")),
            ("12 months", DashboardQuery(period="12m")),
            ("30 days, one source", DashboardQuery(period="30d", filters={"source": "Google"})),
            ("30 days, one page", DashboardQuery(period="30d", filters={"page": "/pricing"})),
            (
                "30 days, two filters",
                DashboardQuery(period="30d", filters={"source": "Google", "page": "/pricing"}),
            ),
        ):
            run.timings[name] = _time(lambda q=query: dashboard(q, actor=admin, now=NOW), RUNS)
        run.recording_ms = _recording_cost()
        if engine.dialect.name != "postgresql":
            return
        results: multiprocessing.Queue[tuple[int, float]] = multiprocessing.Queue()
        processes = [
            multiprocessing.get_context("fork").Process(
                target=_store_worker,
                args=(url, str(data_dir), worker, RATE // WORKERS, SECONDS, results),
            )
            for worker in range(WORKERS)
        ]
        engine.dispose()
        for process in processes:
            process.start()
        for _ in processes:
            sent, spent = results.get(timeout=SECONDS * 5)
            run.sent += sent
            run.store_s = max(run.store_s, spent)
        for process in processes:
            process.join()
        today = dashboard(DashboardQuery(period="today"), actor=admin, now=datetime.now(UTC))
        run.counted = today.figures.views


def _run_one(
    run: AnalyticsRun, url: Callable[[], AbstractContextManager[str]], work_dir: Path, views: int
) -> None:
    try:
        with url() as database_url, tempfile.TemporaryDirectory(dir=work_dir) as folder:
            _measure(run, database_url, Path(folder), views)
    except Exception as error:  # reported, not raised: the other database still runs
        traceback.print_exc()
        run.failure = f"{type(error).__name__}: {str(error).splitlines()[0][:200]}"


def run(work_dir: Path) -> list[AnalyticsRun]:
    """`BENCH_ANALYTICS_SCALE` (default 1) shrinks the year of views, for a quick try."""
    scale = float(os.environ.get("BENCH_ANALYTICS_SCALE", "1"))
    work_dir.mkdir(parents=True, exist_ok=True)
    postgres, sqlite = AnalyticsRun("PostgreSQL"), AnalyticsRun("SQLite")
    missing = postgres_missing()
    if missing:
        postgres.skipped = missing
    else:
        _run_one(postgres, scratch_postgres, work_dir, int(VIEWS_POSTGRESQL * scale))
    _run_one(
        sqlite,
        lambda: sqlite_file(work_dir / "sqlite" / "rcx.db"),
        work_dir,
        int(VIEWS_SQLITE * scale),
    )
    return [postgres, sqlite]


def _met(value: float, limit: float) -> str:
    return "yes" if value < limit else "**no**"


TARGETS = {
    "30 days": TARGET_30_DAYS_MS,
    "12 months": TARGET_12_MONTHS_MS,
    "30 days, one source": TARGET_FILTERED_MS,
    "30 days, one page": TARGET_FILTERED_MS,
}


def render(runs: list[AnalyticsRun], environment_facts: dict[str, str], page_js: str = "") -> str:
    lines = [
        "## Analytics",
        "",
        f"A year of page views inserted into a migrated scratch database ({VIEWS_POSTGRESQL:,} "
        f"on PostgreSQL, {VIEWS_SQLITE:,} on SQLite; {VIEWS_PER_VISIT} a visit, {len(PAGES)} "
        "pages), then every day counted by the hourly job. Server time of `dashboard` in this "
        f"process, median and p95 of {RUNS} calls after a warm-up. Targets on PostgreSQL: 30 "
        f"days under {TARGET_30_DAYS_MS:.0f} ms, 12 months under {TARGET_12_MONTHS_MS:.0f} ms "
        f"(p95), 30 days under one filter under {TARGET_FILTERED_MS:.0f} ms (the counted "
        "days under each filter, pair_rollups.py); two filters read the views themselves (no "
        "target). Counting now includes each day's counts under every filter.",
        f"Machine: {environment_facts.get('cpu', '')} {environment_facts.get('load', '')}".rstrip(),
        "",
        "| Database | views | seeded in | days counted in | dashboard | median | p95 | met |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for run in runs:
        if run.skipped or run.failure:
            reason = f"skipped: {run.skipped}" if run.skipped else f"failed: {run.failure}"
            lines.append(f"| {run.database} | {reason} | | | | | | |")
            continue
        for name, values in run.timings.items():
            target = TARGETS.get(name) if run.database == "PostgreSQL" else None
            met = _met(_p95(values), target) if target else "(no target)"
            lines.append(
                f"| {run.database} | {run.views:,} | {run.seed_s:.0f} s | {run.rollup_s:.0f} s | "
                f"{name} | {statistics.median(values):.0f} ms | {_p95(values):.0f} ms | {met} |"
            )
    lines += [
        "",
        "What counting adds to a page event (building the view, handing it to the worker's "
        f"queue; the database write happens on the worker's own thread once a second), p95 of "
        f"20,000. Target: under {TARGET_RECORDING_MS:.0f} ms.",
        "",
        "| Database | median | p95 | met |",
        "|---|---|---|---|",
    ]
    for run in runs:
        if run.recording_ms:
            lines.append(
                f"| (any) | {statistics.median(run.recording_ms) * 1000:.0f} µs | "
                f"{_p95(run.recording_ms) * 1000:.0f} µs | "
                f"{_met(_p95(run.recording_ms), TARGET_RECORDING_MS)} |"
            )
            break
    lines += [
        "",
        f"{RATE} views a second for {SECONDS} s across {WORKERS} worker processes, each "
        "writing its second's views as the site's recorder does (one batch a second), on "
        "PostgreSQL; then the dashboard's page views for today. Target: equal to the views "
        "sent.",
        "",
        "| views sent | took | dashboard's count | met |",
        "|---|---|---|---|",
    ]
    for run in runs:
        if run.database == "PostgreSQL" and run.counted is not None:
            lines.append(
                f"| {run.sent:,} | {run.store_s:.0f} s | {run.counted:,} | "
                f"{'yes' if run.counted == run.sent == RATE * SECONDS else '**no**'} |"
            )
    if page_js:
        lines += ["", page_js.rstrip("\n")]
    return "\n".join(lines) + "\n"


def replace_section(markdown: str, section: str) -> str:
    return replaced(markdown, section, _SECTION)
