"""The staff inbox at 100,000 requests, on SQLite and PostgreSQL.

Each database is a scratch one (a file in bench/out, a PostgreSQL database created here
and dropped after), migrated by alembic so that the indexes measured are the real ones,
seeded by bench/inbox_seed.py and analysed as autovacuum would. Then what /staff asks
for is timed in this process: `inbox_page` as the screen calls it (the total, one page of
rows, the counts per status, the owner list), BENCH_INBOX_RUNS times each after two
warm-up calls. Server time only: no Reflex, no network but the database's loopback.
Each SQL statement is timed too, and its plan (EXPLAIN) kept for the report.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from alembic.command import upgrade
from sqlalchemy import event
from sqlalchemy.engine import Engine

from bench import config, inbox_plans
from bench.databases import alembic_config, postgres_missing, scratch_postgres, sqlite_file
from bench.environment import environment
from bench.inbox_seed import MEMBERS, SEARCH_HIT, SEARCH_MISS, SEARCH_NAME, seed
from rcxsite.core.permissions import StaffActor
from rcxsite.platform.db import get_engine
from rcxsite.staff.inbox import InboxFilter, inbox_page

SQLITE, POSTGRESQL = "SQLite", "PostgreSQL"
PARTS = ("total", "rows", "counts", "members")  # the statements of one inbox_page call
# The member the calls are made as: the first sales member, owner of the most requests.
ACTOR = StaffActor(member_id=1, name=MEMBERS[0][0], email="member1@rcx.example", role="sales")


@dataclass(frozen=True)
class Scenario:
    label: str
    where: InboxFilter
    page: int = 1


def scenarios(now: datetime) -> tuple[Scenario, ...]:
    today = now.date()
    return (
        Scenario("First page (status New, the default)", InboxFilter()),
        Scenario(
            "Filtered: Contacted, owner Priya, a 9-month range, page 3",
            InboxFilter(
                status="contacted",
                owner="2",
                since=today - timedelta(days=300),
                until=today - timedelta(days=30),
            ),
            page=3,
        ),
        Scenario("All but spam, page 1", InboxFilter(status="all")),
        Scenario(f"Search “{SEARCH_HIT}” in all", InboxFilter(status="all", search=SEARCH_HIT)),
        Scenario(
            f"Search “{SEARCH_NAME}” in all (a surname)",
            InboxFilter(status="all", search=SEARCH_NAME),
        ),
        Scenario(
            f"Search “{SEARCH_MISS}” in all (no match)",
            InboxFilter(status="all", search=SEARCH_MISS),
        ),
    )


@dataclass
class Timing:
    scenario: str
    found: int = 0  # the total the page reports
    runs_ms: list[float] = field(default_factory=list)
    parts_ms: dict[str, list[float]] = field(default_factory=dict)
    plans: dict[str, str] = field(default_factory=dict)

    @property
    def median(self) -> float:
        return statistics.median(self.runs_ms)

    @property
    def p95(self) -> float:
        return (
            statistics.quantiles(self.runs_ms, n=20)[-1]
            if len(self.runs_ms) > 1
            else self.runs_ms[0]
        )

    def part(self, name: str) -> float | None:
        values = self.parts_ms.get(name)
        return statistics.median(values) if values else None


@dataclass
class DatabaseRun:
    database: str
    version: str = ""
    skipped: str | None = None
    failure: str | None = None
    seed_seconds: float = 0.0
    timings: list[Timing] = field(default_factory=list)


@dataclass
class InboxBench:
    rows: int
    runs: int
    databases: list[DatabaseRun] = field(default_factory=list)
    wall_seconds: float = 0.0
    load: tuple[tuple[float, ...], ...] = ((), ())  # load average before and after


@contextmanager
def _site(database_url: str, data_dir: Path) -> Iterator[Engine]:
    """The app's settings pointed at `database_url` while inside, then as they were."""
    with environment({"DATABASE_URL": database_url, "DATA_DIR": str(data_dir)}):
        yield get_engine()


def _kind(statement: str) -> str:
    if "GROUP BY" in statement:
        return "counts"
    if "quote_request" not in statement:
        return "members"
    return "total" if statement.lstrip().startswith("SELECT count(") else "rows"


@contextmanager
def _statements(engine: Engine) -> Iterator[list[tuple[str, Any]]]:
    """Every statement run on `engine` while inside, with its parameters."""
    seen: list[tuple[str, Any]] = []

    def before(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_args: Any) -> None:
        seen.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", before)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", before)


def _time(engine: Engine, scenario: Scenario, runs: int) -> Timing:
    """The whole call `runs` times; then each of its statements alone, as many times
    (SQL and driver, all rows fetched: what the database costs without the ORM)."""
    timing = Timing(scenario.label)

    def call() -> int:
        return inbox_page(actor=ACTOR, where=scenario.where, page=scenario.page).total

    for _ in range(2):
        timing.found = call()
    for _ in range(runs):
        started = time.perf_counter()
        call()
        timing.runs_ms.append(1000 * (time.perf_counter() - started))
    with _statements(engine) as seen:
        call()
    with engine.connect() as connection:
        for statement, parameters in seen:
            kind = _kind(statement)
            for _ in range(runs):
                started = time.perf_counter()
                connection.exec_driver_sql(statement, parameters).all()
                timing.parts_ms.setdefault(kind, []).append(1000 * (time.perf_counter() - started))
            if kind != "members":
                timing.plans[kind] = inbox_plans.summary(connection, statement, parameters)
    return timing


def _measure(database: DatabaseRun, url: str, work_dir: Path, rows: int, runs: int) -> None:
    with _site(url, work_dir) as engine:
        upgrade(alembic_config(), "head")
        started, now = time.monotonic(), datetime.now(UTC)
        seed(engine, rows, now)
        with engine.connect() as connection:
            if engine.dialect.name == "postgresql":
                connection.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql(
                    "VACUUM ANALYZE"
                )
                database.version = str(
                    connection.exec_driver_sql("SHOW server_version").scalar_one()
                ).split()[0]
            else:
                database.version = str(
                    connection.exec_driver_sql("SELECT sqlite_version()").scalar_one()
                )
        database.seed_seconds = time.monotonic() - started
        print(
            f"  {database.database}: {rows:,} requests seeded in {database.seed_seconds:.1f} s",
            file=sys.stderr,
            flush=True,
        )
        for scenario in scenarios(now):
            timing = _time(engine, scenario, runs)
            database.timings.append(timing)
            print(
                f"  {database.database}: {scenario.label}: {timing.found:,} found, median "
                f"{timing.median:.1f} ms, p95 {timing.p95:.1f} ms",
                file=sys.stderr,
                flush=True,
            )


def _run_one(
    database: DatabaseRun,
    url: Callable[[], AbstractContextManager[str]],
    work_dir: Path,
    rows: int,
    runs: int,
) -> None:
    try:
        with url() as database_url:
            _measure(database, database_url, work_dir, rows, runs)
    except Exception as error:  # reported, not raised: the other database still runs
        traceback.print_exc()
        database.failure = f"{type(error).__name__}: {error}"


def run(work_dir: Path, rows: int = config.INBOX_ROWS, runs: int = config.INBOX_RUNS) -> InboxBench:
    """Seed and time both databases; a missing PostgreSQL is a skip with its reason."""
    started, load_start = time.monotonic(), os.getloadavg()
    bench = InboxBench(rows=rows, runs=runs)
    sqlite = DatabaseRun(SQLITE)
    bench.databases.append(sqlite)
    _run_one(
        sqlite,
        lambda: sqlite_file(work_dir / "sqlite" / "rcx.db"),
        work_dir / "sqlite",
        rows,
        runs,
    )
    postgres = DatabaseRun(POSTGRESQL, skipped=postgres_missing())
    bench.databases.append(postgres)
    if postgres.skipped:
        print(f"  inbox on PostgreSQL skipped: {postgres.skipped}", file=sys.stderr, flush=True)
    else:
        _run_one(postgres, scratch_postgres, work_dir / "postgres", rows, runs)
    bench.wall_seconds, bench.load = time.monotonic() - started, (load_start, os.getloadavg())
    return bench
