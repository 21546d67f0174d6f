"""Durable mail: what the outbox adds to the request that writes it, and mails
per second through it, on SQLite and PostgreSQL.

1. A quote request's transaction (the row, plus its mail to sales as a job) against the
   same transaction without the mail: the difference is what the outbox costs the visitor.
2. MAILS mails queued in one transaction, then delivered by two runners (threads, as two
   runner processes would claim) to a real SMTP server (aiosmtpd) on this machine.
"""

from __future__ import annotations

import re
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from alembic.command import upgrade

from bench.databases import alembic_config, postgres_missing, scratch_postgres
from bench.environment import environment
from bench.sections import replaced

MAILS = 1000
REQUESTS = 200
TARGET_MS = 5.0
_SECTION = re.compile(r"^## Durable mail\b.*?(?=^## |\Z)", re.MULTILINE | re.DOTALL)


@dataclass
class OutboxRun:
    database: str
    plain_ms: float = 0.0  # median of the request's transaction without its mail
    with_mail_ms: float = 0.0
    with_mail_p95_ms: float = 0.0
    mails_per_second: float = 0.0
    delivered: int = 0
    skipped: str = ""

    @property
    def added_ms(self) -> float:
        return self.with_mail_ms - self.plain_ms


@contextmanager
def _database(url: str, data_dir: Path, smtp_port: int) -> Iterator[None]:
    with environment(
        {
            "DATABASE_URL": url,
            "DATA_DIR": str(data_dir),
            "SMTP_HOST": "127.0.0.1",
            "SMTP_PORT": str(smtp_port),
            "SMTP_STARTTLS": "false",
            "OUTBOX_DIR": str(data_dir / "outbox"),
        }
    ):
        upgrade(alembic_config(), "head")
        yield


def _request_ms(with_mail: bool) -> list[float]:
    from rcxsite.leads.notification import send_quote_mail
    from rcxsite.leads.validation import QuoteInput
    from rcxsite.models import QuoteRequest
    from rcxsite.platform.db import session_scope
    from tests.support.quotes import quote_fields

    quote = QuoteInput.parse(quote_fields())
    timings = []
    for _ in range(REQUESTS):
        start = time.perf_counter()
        with session_scope() as session:
            row = QuoteRequest(**quote.model_dump(exclude={"website"}), client_ip_hash="bench")
            session.add(row)
            session.flush()
            if with_mail:
                send_quote_mail(quote, request_id=row.id or 0, session=session)
        timings.append((time.perf_counter() - start) * 1000)
    return timings


def _throughput(run: OutboxRun, mailbox: object) -> None:
    from rcxsite.jobs.runner import Runner
    from rcxsite.mail import send_mail
    from rcxsite.platform.db import session_scope

    Runner("before", kinds=("mail",)).run_due()  # the request part's mails, not counted
    with session_scope() as session:
        for number in range(MAILS):
            send_mail(
                to=f"n{number}@example.com", subject=f"bench {number}", text="t", session=session
            )
    before = len(mailbox.messages)  # type: ignore[attr-defined]
    runners = [Runner(f"bench {n}", kinds=("mail",)) for n in range(2)]
    start = time.perf_counter()
    threads = [threading.Thread(target=runner.run_due) for runner in runners]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - start
    run.delivered = len(mailbox.messages) - before  # type: ignore[attr-defined]
    run.mails_per_second = run.delivered / seconds


def _measure(run: OutboxRun, url: str, data_dir: Path, mailbox: object) -> None:
    with _database(url, data_dir, mailbox.port):  # type: ignore[attr-defined]
        _request_ms(False)  # warm up
        plain, with_mail = _request_ms(False), _request_ms(True)
        run.plain_ms = statistics.median(plain)
        run.with_mail_ms = statistics.median(with_mail)
        run.with_mail_p95_ms = statistics.quantiles(with_mail, n=20)[-1]
        _throughput(run, mailbox)


def run(work_dir: Path) -> list[OutboxRun]:
    from tests.support.smtp import Mailbox

    work_dir.mkdir(parents=True, exist_ok=True)
    runs = [OutboxRun("SQLite"), OutboxRun("PostgreSQL")]
    mailbox = Mailbox().start()
    try:
        with tempfile.TemporaryDirectory(dir=work_dir) as folder:
            _measure(runs[0], f"sqlite:///{folder}/bench.db", Path(folder), mailbox)
        missing = postgres_missing()
        if missing:
            runs[1].skipped = missing
        else:
            with scratch_postgres() as url, tempfile.TemporaryDirectory(dir=work_dir) as folder:
                _measure(runs[1], url, Path(folder), mailbox)
    finally:
        mailbox.stop()
    return runs


def render(runs: list[OutboxRun], environment_facts: dict[str, str]) -> str:
    lines = [
        "## Durable mail",
        "",
        f"A quote request's transaction with and without its mail to sales ({REQUESTS} "
        f"each, median and p95), and {MAILS} mails delivered by two runners to a local "
        f"SMTP server. Target: the outbox adds under {TARGET_MS:.0f} ms to the request.",
        f"Machine: {environment_facts.get('cpu', '')} {environment_facts.get('load', '')}".rstrip(),
        "",
        "| Database | request alone | request + mail | p95 | added | target | mails/s |",
        "|---|---|---|---|---|---|---|",
    ]
    for run in runs:
        if run.skipped:
            lines.append(f"| {run.database} | skipped: {run.skipped} | | | | | |")
            continue
        met = "met" if run.added_ms < TARGET_MS else "NOT met"
        lines.append(
            f"| {run.database} | {run.plain_ms:.2f} ms | {run.with_mail_ms:.2f} ms | "
            f"{run.with_mail_p95_ms:.2f} ms | {run.added_ms:.2f} ms | {met} | "
            f"{run.mails_per_second:.0f} ({run.delivered} delivered) |"
        )
    return "\n".join(lines) + "\n"


def replace_section(markdown: str, section: str) -> str:
    return replaced(markdown, section, _SECTION)
