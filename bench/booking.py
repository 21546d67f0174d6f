"""Booked calls: the free times' server time, and bookings under concurrent clients, on
SQLite and PostgreSQL.

Each database is a scratch one (a file in bench/out; a PostgreSQL database created here
and dropped after), migrated by alembic, so that the indexes and PostgreSQL's exclusion
constraint are the real ones. MEMBERS members who take calls (the default week, on four
different wall clocks) and BOOKED active calls spread over the month are inserted
directly. Then:

1. `free_slots` for the month (31 days) in the company's zone, in this process: median
   and p95 of SLOT_RUNS calls after two warm-up calls;
2. for each shape (CLIENTS threads of this process; then BENCH_WORKERS forked processes
   sharing them, as the site's workers do), a warm-up round and ROUNDS rounds of CLIENTS
   clients released together, each calling `book` (the fields parsed as the API parses
   them) for a start free before the round: all clients on one start, on a few, or each
   on its own, round after round. A 409 (the time was taken meanwhile) is an answer;
   anything else is an error. Afterwards the database is asked for double bookings: two
   active bookings of one host whose [starts_at, blocked_until) overlap.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import queue
import random
import re
import secrets
import statistics
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from alembic.command import upgrade
from sqlalchemy import text
from sqlmodel import Session

from bench import calendars, config
from bench.databases import alembic_config, postgres_missing, scratch_postgres, sqlite_file
from bench.environment import environment
from bench.sections import replaced

MEMBERS = 20
BOOKED = 500
SLOT_DAYS = 31
SLOT_RUNS = 30
SLOTS_TARGET_MS = 50.0
CLIENTS = 20
ROUNDS = 10
# Distinct starts the CLIENTS book in a round, round after round: all on one (the same
# slot clicked at once, the one most hosts are free at), four per start, each its own.
STARTS_PER_ROUND = (1, 5, 20)
BOOKING_TARGET_MS = 100.0
ALONE = 20  # bookings one at a time first: the cost without contention
# The month measured, and "now" a day before it (as tests/support/booking.py's).
FIRST_DAY = date(2027, 3, 1)
NOW = datetime(2027, 2, 28, 12, 0, tzinfo=UTC)
# The members' wall clocks ("" = the company's, Europe/London).
ZONES = ("", "America/New_York", "Asia/Kolkata", "Europe/Berlin")
_SECTION = re.compile(r"^## Booked calls\b.*?(?=^## |\Z)", re.MULTILINE | re.DOTALL)

# Two active bookings of one host whose held times overlap (must be none).
DOUBLE_BOOKINGS = text(
    "SELECT count(*) FROM booking a JOIN booking b ON a.host_id = b.host_id AND a.id < b.id "
    "WHERE a.active AND b.active AND a.starts_at < b.blocked_until "
    "AND b.starts_at < a.blocked_until"
)


def _percentile_95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


@dataclass
class Shape:
    processes: int
    booked_ms: list[float] = field(default_factory=list)
    taken: int = 0
    attempts: int = 0

    @property
    def name(self) -> str:
        plural = "es" if self.processes > 1 else ""
        return f"{self.processes} process{plural} x {CLIENTS // self.processes} threads"

    @property
    def median(self) -> float:
        return statistics.median(self.booked_ms)

    @property
    def p95(self) -> float:
        return _percentile_95(self.booked_ms)


@dataclass
class BookingRun:
    database: str
    skipped: str = ""
    failure: str = ""
    slots_found: int = 0
    slots_ms: list[float] = field(default_factory=list)
    # The same with each member's calendar holding calendars.BUSY_PER_MEMBER busy times,
    # and one calendar of calendars.SYNC_EVENTS events read.
    busy_slots_found: int = 0
    busy_slots_ms: list[float] = field(default_factory=list)
    sync_ms: list[float] = field(default_factory=list)
    sync_busy: int = 0
    alone_ms: list[float] = field(default_factory=list)
    # Each shape's rounds ("1 process x 20 threads", ...): its successful bookings' times,
    # its 409s (the time was booked meanwhile) and its attempts.
    shapes: dict[str, Shape] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    double_bookings: int = 0

    @property
    def slots_median(self) -> float:
        return statistics.median(self.slots_ms)

    @property
    def slots_p95(self) -> float:
        return _percentile_95(self.slots_ms)


@contextmanager
def _database(url: str, data_dir: Path) -> Iterator[None]:
    # A limit no client reaches: the clients' addresses differ, but the limit must not be
    # what is measured.
    with environment(
        {
            "DATABASE_URL": url,
            "DATA_DIR": str(data_dir),
            "OUTBOX_DIR": str(data_dir / "outbox"),
            "BOOKING_LIMIT": "1000000 per hour",
            "QUOTE_LIMIT": "1000000 per hour",
            "REDIS_URL": "",
            # Every client of a process holds a connection, as a worker's pool would.
            "DATABASE_POOL_SIZE": str(CLIENTS),
            # The synced calendar is served on 127.0.0.1.
            "CALENDAR_ALLOW_PRIVATE": "true",
        }
    ):
        upgrade(alembic_config(), "head")
        yield


def _weekdays() -> list[date]:
    days = (FIRST_DAY + timedelta(days=offset) for offset in range(SLOT_DAYS))
    return [day for day in days if day.weekday() < 5]


def _seed() -> list[int]:
    """MEMBERS hosts and BOOKED active calls on their grids, none overlapping; their ids."""
    from rcxsite.models import Booking, StaffMember
    from rcxsite.platform.at_rest import seal
    from rcxsite.platform.db import get_engine
    from tests.support.booking import at
    from tests.support.quotes import quote_row

    rng = random.Random(29)
    weekdays = _weekdays()
    with Session(get_engine()) as session:
        members = [
            StaffMember(
                name=f"Host {number}",
                email=f"host{number}@rcx.example",
                email_key=f"host{number}@rcx.example",
                role="sales",
                time_zone=ZONES[number % len(ZONES)],
                takes_calls=True,
                password_hash="(enrolled)",
            )
            for number in range(MEMBERS)
        ]
        session.add_all(members)
        session.flush()
        ids = [member.id for member in members if member.id is not None]
        # Every other half hour from 09:00: 60 minutes apart, more than call + buffer.
        grid = [(day, slot) for day in weekdays for slot in range(0, 16, 2)]
        for index, member in enumerate(members):
            per_member = BOOKED // MEMBERS + (index < BOOKED % MEMBERS)
            zone = member.time_zone or "Europe/London"
            for number, (day, slot) in enumerate(sorted(rng.sample(grid, per_member))):
                start = at(day, f"{9 + slot // 2:02d}:{30 * (slot % 2):02d}", zone)
                email = f"seeded{index}-{number}@client.example"
                request = quote_row(email=email, owner_id=member.id, created_at=NOW)
                session.add(request)
                session.flush()
                token = secrets.token_urlsafe(16)
                session.add(
                    Booking(
                        quote_request_id=request.id,
                        host_id=member.id,
                        starts_at=start,
                        ends_at=start + timedelta(minutes=30),
                        blocked_until=start + timedelta(minutes=45),
                        visitor_name="Seeded Visitor",
                        visitor_email=email,
                        email_key=email,
                        visitor_time_zone="Europe/London",
                        token_hash=hashlib.sha256(token.encode()).hexdigest(),
                        token_sealed=seal("booking-token", token),
                        uid=f"booking-bench-{secrets.token_hex(8)}@rcx.test",
                        created_at=NOW - timedelta(days=1),
                        updated_at=NOW - timedelta(days=1),
                    )
                )
        session.commit()
        if session.get_bind().dialect.name == "postgresql":
            session.connection().exec_driver_sql("ANALYZE")
            session.commit()
    return ids


def _slots(timings: list[float]) -> int:
    """SLOT_RUNS timings of the month's free times (after two warm-up calls); how many."""
    from rcxsite.booking import SlotQuery, free_slots

    query = SlotQuery.parse({"first_day": FIRST_DAY.isoformat(), "days": str(SLOT_DAYS)})
    for _ in range(2):
        found = len(free_slots(query, now=NOW).slots)
    for _ in range(SLOT_RUNS):
        started = time.perf_counter()
        free_slots(query, now=NOW)
        timings.append(1000 * (time.perf_counter() - started))
    return found


def _free_starts(day: date) -> list[datetime]:
    from rcxsite.booking import SlotQuery, free_slots

    query = SlotQuery.parse({"first_day": day.isoformat(), "days": "1"})
    return [slot.start for slot in free_slots(query, now=NOW).slots]


def _clients(
    number: int, starts: list[datetime], indices: range, barrier: Any, answers: Any
) -> None:
    """Client threads `indices` of round `number`, released by `barrier` with every other
    client of the round (in this process or another); each puts its answer on `answers`:
    ("booked", ms), ("taken", 0) or ("error", text)."""
    from rcxsite.booking import BookingInput, book
    from rcxsite.core.service_errors import ServiceError
    from tests.support.booking import booking_fields

    def client(index: int) -> None:
        fields = booking_fields(
            starts[index % len(starts)], email=f"client{number}-{index}@client.example"
        )
        address = f"198.51.{number}.{index + 1}"
        barrier.wait()
        started = time.perf_counter()
        try:
            book(BookingInput.parse(fields), client_ip=address, now=NOW)
        except ServiceError as error:
            answers.put(("taken", 0.0) if error.status == 409 else ("error", repr(error)))
            return
        except Exception as error:  # counted and reported: the round goes on
            answers.put(("error", f"{type(error).__name__}: {error}"))
            return
        answers.put(("booked", 1000 * (time.perf_counter() - started)))

    threads = [threading.Thread(target=client, args=(index,)) for index in indices]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _warm(connections: int) -> None:
    """Open `connections` pooled connections at once, as a worker that has served a while
    holds them: a round measures bookings, not PostgreSQL starting backends."""
    from rcxsite.platform.db import get_engine

    opened = [get_engine().connect() for _ in range(connections)]
    for connection in opened:
        connection.execute(text("SELECT 1"))
    for connection in opened:
        connection.close()


def _worker(indices: range, barrier: Any, rounds: Any, answers: Any) -> None:
    """A worker process of a shape, alive for all its rounds: each round's (number,
    starts) arrive on `rounds`, None ends it."""
    from rcxsite.platform.db import get_engine

    # A forked process must not use the parent's pooled connections.
    get_engine().dispose(close=False)
    _warm(len(indices))
    while (work := rounds.get()) is not None:
        number, starts = work
        _clients(number, starts, indices, barrier, answers)


@dataclass
class Workers:
    """The processes that serve a shape's clients (none: this process's threads)."""

    shape: Shape
    barrier: Any = None
    answers: Any = None
    inboxes: list[Any] = field(default_factory=list)
    children: list[Any] = field(default_factory=list)

    def __post_init__(self) -> None:
        share = CLIENTS // self.shape.processes
        self.groups = [range(first, first + share) for first in range(0, CLIENTS, share)]
        if self.shape.processes == 1:
            self.barrier, self.answers = threading.Barrier(CLIENTS), queue.SimpleQueue()
            _warm(CLIENTS)
            return
        fork = multiprocessing.get_context("fork")
        self.barrier, self.answers = fork.Barrier(CLIENTS), fork.SimpleQueue()
        for group in self.groups:
            inbox = fork.SimpleQueue()
            child = fork.Process(target=_worker, args=(group, self.barrier, inbox, self.answers))
            child.start()
            self.inboxes.append(inbox)
            self.children.append(child)

    def play(self, number: int, starts: list[datetime]) -> None:
        if not self.children:
            _clients(number, starts, self.groups[0], self.barrier, self.answers)
            return
        for inbox in self.inboxes:
            inbox.put((number, starts))

    def close(self) -> None:
        for inbox in self.inboxes:
            inbox.put(None)
        for child in self.children:
            child.join()


def _round(
    run: BookingRun, workers: Workers, shape: Shape, number: int, starts: list[datetime]
) -> None:
    """CLIENTS clients released together, client i booking starts[i % len(starts)], as
    the shape's processes of CLIENTS / processes threads each: one process is every
    client on one interpreter lock; several are the site's workers (each a long-lived
    process whose event handlers call the services in threads, behind nginx). The answers
    are counted in `shape`."""
    workers.play(number, starts)
    for _ in range(CLIENTS):
        kind, value = workers.answers.get()
        if kind == "booked":
            shape.booked_ms.append(value)
        elif kind == "taken":
            shape.taken += 1
        else:
            run.errors.append(value)
    shape.attempts += CLIENTS


def _hosts_free(start: datetime) -> int:
    from rcxsite.booking import rules
    from rcxsite.booking.slots import hosts_free_at
    from rcxsite.platform.db import session_scope

    with session_scope() as session:
        return len(hosts_free_at(session, start=start, now=NOW, rules=rules()))


def _choose(free: list[datetime], wanted: int) -> list[datetime]:
    """One start: the one the most hosts are free at (the clients then contend for its
    hosts); several: spread over the day."""
    if wanted == 1:
        return [max(free, key=_hosts_free)]
    return [free[i * len(free) // wanted] for i in range(wanted)]


def _alone(run: BookingRun, day: date) -> None:
    """ALONE bookings one after another, nothing else running: the uncontended cost."""
    from rcxsite.booking import BookingInput, book
    from rcxsite.core.service_errors import ServiceError
    from tests.support.booking import booking_fields

    free = _free_starts(day)
    for index in range(ALONE + 1):
        fields = booking_fields(
            free[index * len(free) // (ALONE + 1)], email=f"alone{index}@client.example"
        )
        started = time.perf_counter()
        try:
            book(BookingInput.parse(fields), client_ip=f"198.51.100.{index + 1}", now=NOW)
        except ServiceError as error:
            if error.status != 409:  # a start whose hosts the earlier ones took
                run.errors.append(repr(error))
            continue
        if index:  # the first warms up
            run.alone_ms.append(1000 * (time.perf_counter() - started))


def _concurrent(run: BookingRun) -> None:
    from rcxsite.platform.db import get_engine

    days = _weekdays()[1:]  # the first is partly within the notice
    _alone(run, days[-1])
    for processes in (1, config.Options.from_env().workers):
        shape = run.shapes.setdefault(f"{processes}", Shape(processes))
        workers = Workers(shape)
        # Round 0 warms the workers' connections up (PostgreSQL loads a backend's caches
        # on its first statements), as a worker that has served a while has them: its
        # times are not counted, its errors are.
        offset = ROUNDS + 1 if processes > 1 else 0
        for number in range(ROUNDS + 1):
            # Each shape books its own days: the later rounds find free hosts too.
            day = days[(number + offset) % len(days)]
            free = _free_starts(day)
            pattern = STARTS_PER_ROUND[(number - 1) % len(STARTS_PER_ROUND)]
            wanted = min(pattern, len(free))
            starts = _choose(free, wanted)
            counted = shape if number else Shape(processes)
            before = (len(counted.booked_ms), counted.taken, len(run.errors))
            _round(run, workers, counted, number + offset, starts)
            print(
                f"  {shape.name}, round {number}{' (warm-up)' if not number else ''}: "
                f"{wanted} start(s), {len(counted.booked_ms) - before[0]} booked, "
                f"{counted.taken - before[1]} taken, {len(run.errors) - before[2]} errors",
                file=sys.stderr,
                flush=True,
            )
        workers.close()
    with get_engine().connect() as connection:
        run.double_bookings = int(connection.execute(DOUBLE_BOOKINGS).scalar_one())


def _measure(run: BookingRun, url: str, data_dir: Path) -> None:
    with _database(url, data_dir):
        members = _seed()
        run.slots_found = _slots(run.slots_ms)
        print(
            f"  {run.database}: {run.slots_found} free slots in {SLOT_DAYS} days, median "
            f"{run.slots_median:.1f} ms, p95 {run.slots_p95:.1f} ms",
            file=sys.stderr,
            flush=True,
        )
        # The same bookings with the calendars added (then removed: the bookings below
        # are measured as before).
        calendars.seed_busy(members, FIRST_DAY, SLOT_DAYS, NOW)
        run.busy_slots_found = _slots(run.busy_slots_ms)
        calendars.remove_all()
        run.sync_ms, run.sync_busy = calendars.measure_sync(members[0], FIRST_DAY, NOW)
        calendars.remove_all()
        print(
            f"  {run.database}: with calendars, {run.busy_slots_found} free slots, p95 "
            f"{_percentile_95(run.busy_slots_ms):.1f} ms; a {calendars.SYNC_EVENTS}-event "
            f"sync, median {calendars.median(run.sync_ms):.0f} ms",
            file=sys.stderr,
            flush=True,
        )
        _concurrent(run)


def _run_one(
    run: BookingRun, url: Callable[[], AbstractContextManager[str]], work_dir: Path
) -> None:
    try:
        with url() as database_url, tempfile.TemporaryDirectory(dir=work_dir) as folder:
            _measure(run, database_url, Path(folder))
    except Exception as error:  # reported, not raised: the other database still runs
        traceback.print_exc()
        run.failure = f"{type(error).__name__}: {error}"


def run(work_dir: Path) -> list[BookingRun]:
    work_dir.mkdir(parents=True, exist_ok=True)
    sqlite, postgres = BookingRun("SQLite"), BookingRun("PostgreSQL")
    _run_one(sqlite, lambda: sqlite_file(work_dir / "sqlite" / "rcx.db"), work_dir)
    missing = postgres_missing()
    if missing:
        postgres.skipped = missing
        print(f"  booking on PostgreSQL skipped: {missing}", file=sys.stderr, flush=True)
    else:
        _run_one(postgres, scratch_postgres, work_dir)
    return [sqlite, postgres]


def _met(value: float, limit: float) -> str:
    return "yes" if value < limit else "**no**"


def render(runs: list[BookingRun], environment_facts: dict[str, str]) -> str:
    pattern = ", ".join(str(starts) for starts in STARTS_PER_ROUND)
    lines = [
        "## Booked calls",
        "",
        f"Server time in this process, no network but the database's loopback. {MEMBERS} "
        f"members who take calls (the default week, on {len(ZONES)} wall clocks) and "
        f"{BOOKED} active calls over the month, inserted directly into a migrated scratch "
        "database.",
        f"Machine: {environment_facts.get('cpu', '')} {environment_facts.get('load', '')}".rstrip(),
        "",
        f"`free_slots` for {SLOT_DAYS} days, median and p95 of {SLOT_RUNS} calls. "
        f"Target: under {SLOTS_TARGET_MS:.0f} ms (p95).",
        "",
        "| Database | free slots | median | p95 | met |",
        "|---|---|---|---|---|",
    ]
    done = [run for run in runs if not (run.skipped or run.failure)]
    for run in runs:
        if run.skipped or run.failure:
            reason = f"skipped: {run.skipped}" if run.skipped else f"failed: {run.failure}"
            lines.append(f"| {run.database} | {reason} | | | |")
            continue
        lines.append(
            f"| {run.database} | {run.slots_found} | {run.slots_median:.1f} ms | "
            f"{run.slots_p95:.1f} ms | {_met(run.slots_p95, SLOTS_TARGET_MS)} |"
        )
    lines += [
        "",
        f"Members' own calendars: the same month's `free_slots` once each member also holds "
        f"{calendars.BUSY_PER_MEMBER} synced busy intervals (half an hour each; removed "
        f"before the bookings below), median and p95 of {SLOT_RUNS} calls, target under "
        f"{SLOTS_TARGET_MS:.0f} ms (p95); and one calendar of {calendars.SYNC_EVENTS} "
        "events (one in ten weekly, 8 times) read over local HTTP, parsed with its "
        "recurring events expanded and its busy times stored, median of "
        f"{calendars.SYNC_RUNS} syncs, target under {calendars.SYNC_TARGET_MS / 1000:.0f} s.",
        "",
        "| Database | free slots | median | p95 | met | sync: busy times | median | met |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for run in done:
        if not run.busy_slots_ms:
            continue
        p95 = _percentile_95(run.busy_slots_ms)
        sync = calendars.median(run.sync_ms)
        lines.append(
            f"| {run.database} | {run.busy_slots_found} | "
            f"{statistics.median(run.busy_slots_ms):.1f} ms | {p95:.1f} ms | "
            f"{_met(p95, SLOTS_TARGET_MS)} | {run.sync_busy} | {sync:.0f} ms | "
            f"{_met(sync, calendars.SYNC_TARGET_MS)} |"
        )
    lines += [
        "",
        f"`book` (parse and book): first {ALONE} one at a time (the uncontended cost), then, "
        f"for each shape, a warm-up round (not counted) and {ROUNDS} rounds of {CLIENTS} "
        "clients released together, on "
        f"{pattern} distinct free start(s) in turn (one start: the one the most hosts are "
        "free at). A shape is how the clients are served: all 20 as threads of one process "
        "(one interpreter lock for all), or as the site's workers serve them (BENCH_WORKERS "
        "processes, as `make run-scaled` runs them behind nginx, each calling the services in "
        "threads). Median and p95 of the successful bookings. Target on PostgreSQL, with the "
        f"site's workers: p95 under {BOOKING_TARGET_MS:.0f} ms; always: no error (a 409 "
        "“taken” is an answer) and no double booking (two active bookings of one host whose "
        "held times overlap, counted in the database after both shapes).",
        "",
        "| Database | alone, median | clients served by | booked | 409 taken | median | p95 "
        "| met |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for run in done:
        alone = f"{statistics.median(run.alone_ms):.1f} ms" if run.alone_ms else "none"
        for shape in run.shapes.values():
            judged = run.database == "PostgreSQL" and shape.processes > 1 and shape.booked_ms
            met = _met(shape.p95, BOOKING_TARGET_MS) if judged else "(no target)"
            median, p95 = (
                (f"{shape.median:.1f} ms", f"{shape.p95:.1f} ms")
                if shape.booked_ms
                else ("none booked", "")
            )
            lines.append(
                f"| {run.database} | {alone} | {shape.name} | {len(shape.booked_ms)} of "
                f"{shape.attempts} | {shape.taken} | {median} | {p95} | {met} |"
            )
    lines += ["", "| Database | errors | double bookings |", "|---|---|---|"]
    for run in done:
        lines.append(
            f"| {run.database} | {len(run.errors)}{' **no**' if run.errors else ''} | "
            f"{run.double_bookings}{' **no**' if run.double_bookings else ''} |"
        )
    for run in done:
        for error in sorted(set(run.errors))[:5]:
            lines.append(f"\n{run.database} error: `{error}`")
    return "\n".join(lines) + "\n"


def replace_section(markdown: str, section: str) -> str:
    return replaced(markdown, section, _SECTION)
