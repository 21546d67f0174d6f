"""Mail through the outbox with real parts: the aiosmtpd server down for a minute, a
process killed right after its request committed, two runners on one PostgreSQL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta

import pytest
from prometheus_client import REGISTRY

from rcxsite.jobs.runner import Runner
from rcxsite.mail import send_mail
from rcxsite.models.types import utcnow
from rcxsite.platform.db import session_scope
from rcxsite.platform.settings import get_settings
from rcxsite.tools.processes import free_port
from tests.support.customers import register_customer
from tests.support.fixtures import Configure
from tests.support.live_server import ROOT
from tests.support.parallel import at_once
from tests.support.postgres import scratch_postgres
from tests.support.quotes import quote_fields
from tests.support.service_calls import request_password_reset, submit_quote
from tests.support.site import jobs_of_kind
from tests.support.smtp import Mailbox

OUTAGE_SECONDS = 60


@pytest.fixture
def smtp_server(configure: Configure) -> Iterator[Mailbox]:
    """The real SMTP server, with no runner of this process delivering to it: each test
    runs the runners it is about."""
    box = Mailbox().start()
    configure(smtp_host=box.host, smtp_port=box.port, smtp_starttls=False)
    yield box
    box.stop()


def test_mail_made_while_the_server_is_down_arrives_once_within_a_minute_of_its_return(
    configure: Configure,
) -> None:
    """With the default retry schedule: a quote request and a reset request are made while
    nothing listens on the mail server's port; the server comes back a minute later. The
    runner's clock is the test's (a second a step), the refusals and deliveries are real."""
    port = free_port("127.0.0.1")
    configure(smtp_host="127.0.0.1", smtp_port=port, smtp_starttls=False)
    register_customer("dana@example.com")
    skipped = [timedelta(0)]
    runner = Runner(clock=lambda: utcnow() + skipped[0])

    def a_second_later() -> None:
        skipped[0] += timedelta(seconds=1)
        runner.run_due()

    failures = {"outcome": "will_retry"}
    failed_before = REGISTRY.get_sample_value("rcx_mail_failures_total", failures) or 0.0
    assert submit_quote(fields=quote_fields(), client_ip="10.0.0.1").ok
    request_password_reset(email="dana@example.com", client_ip="10.0.0.2")
    runner.run_due()
    for _ in range(OUTAGE_SECONDS):  # the outage itself: a minute of refused mail
        a_second_later()
    tried = {job.attempts for job in jobs_of_kind("mail")}
    assert min(tried) >= 3, f"too few attempts while the server was down: {tried}"
    # Each refused attempt is a mail failure operators see on /metrics.
    failed = (REGISTRY.get_sample_value("rcx_mail_failures_total", failures) or 0.0) - failed_before
    assert failed == sum(job.attempts for job in jobs_of_kind("mail"))
    assert {job.state for job in jobs_of_kind("mail")} == {"queued"}
    box = Mailbox().start(port)
    try:
        back = skipped[0]
        while {job.state for job in jobs_of_kind("mail")} != {"done"}:
            assert skipped[0] - back < timedelta(seconds=OUTAGE_SECONDS), "not within a minute"
            a_second_later()
        sales = box.wait_for(get_settings().sales_email, timeout=10)
        reset = box.wait_for("dana@example.com", timeout=10)
        assert sales["Subject"].startswith("Quote request from")
        assert "reset" in reset["Subject"].lower()
        for _ in range(OUTAGE_SECONDS):  # a minute more: nothing is sent again
            a_second_later()
        # Every mail once (the registration's address check among them), none twice.
        ids = [m["Message-ID"] for m in (*box.messages, *box.verification_messages)]
        assert len(ids) == len(jobs_of_kind("mail")) and len(set(ids)) == len(ids), ids
    finally:
        box.stop()


_COMMIT_THEN_DIE = """
import os, signal, sys
from rcxsite.mail import send_mail
from rcxsite.models.types import utcnow
from rcxsite.jobs import queue
send_mail(to="kim@example.com", subject="committed, then killed", text="t")
if sys.argv[1] == "holding":
    queue.claim(runner="doomed")  # claimed, not yet sent
os.kill(os.getpid(), signal.SIGKILL)
"""


def _env() -> dict[str, str]:
    keep = (
        "DATABASE_URL",
        "DATA_DIR",
        "OUTBOX_DIR",
        "SMTP_HOST",
        "SMTP_PORT",
        "SMTP_STARTTLS",
        "SECRET_KEY",
        "JOB_LEASE_SECONDS",
        "JOB_POLL_SECONDS",
    )
    env = {name: value for name, value in os.environ.items() if name not in keep}
    settings = get_settings()
    env.update(
        DATABASE_URL=settings.db_url,
        DATA_DIR=str(settings.data_dir),
        OUTBOX_DIR=str(settings.outbox_dir),
        SMTP_HOST=settings.smtp_host,
        SMTP_PORT=str(settings.smtp_port),
        SMTP_STARTTLS="false",
        JOB_LEASE_SECONDS=str(settings.job_lease_seconds),
        JOB_POLL_SECONDS="0.2",
        SECRET_KEY=settings.signing_key(),
    )
    return env


def test_a_process_killed_right_after_its_commit_still_has_its_mail_sent(
    smtp_server: Mailbox, configure: Configure
) -> None:
    """Killed before any runner saw the mail, and killed while holding its claim: the next
    runner process sends it (the claim's lease ran out first)."""
    configure(job_lease_seconds=5)
    for how in ("before", "holding"):
        died = subprocess.run(
            [sys.executable, "-c", _COMMIT_THEN_DIE, how],
            env=_env(),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert died.returncode == -signal.SIGKILL, died.stderr[-2000:]
    runner = subprocess.Popen(
        [sys.executable, "-m", "rcxsite.jobs", "run"],
        env=_env(),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        first = smtp_server.wait_for("kim@example.com", timeout=30)
        second = smtp_server.wait_for("kim@example.com", timeout=30)
    finally:
        runner.send_signal(signal.SIGTERM)
        runner.wait(30)
    assert first["Message-ID"] != second["Message-ID"]
    assert [job.state for job in jobs_of_kind("mail")] == ["done", "done"]
    # The second process claimed every due mail (the first one's too) and died holding
    # them: both were taken over once their lease ran out, each on a second attempt.
    assert [job.attempts for job in jobs_of_kind("mail")] == [2, 2]


def _send_many(count: int) -> None:
    with session_scope() as session:
        for number in range(count):
            send_mail(
                to=f"n{number}@example.com", subject=f"mail {number}", text="t", session=session
            )


def _two_runners_send(count: int, mailbox: Mailbox) -> None:
    _send_many(count)
    runners = [Runner("runner a", kinds=("mail",)), Runner("runner b", kinds=("mail",))]
    at_once([runner.run_due for runner in runners], timeout_s=600)
    subjects = Counter(str(message["Subject"]) for message in mailbox.messages)
    assert len(subjects) == count and set(subjects.values()) == {1}
    states = Counter(job.state for job in jobs_of_kind("mail"))
    assert states == {"done": count}
    by_runner = Counter(job.claimed_by for job in jobs_of_kind("mail"))
    assert set(by_runner) == {"runner a", "runner b"}, by_runner


def test_two_runners_never_send_the_same_mail_twice_on_sqlite(smtp_server: Mailbox) -> None:
    _two_runners_send(200, smtp_server)


def test_two_runners_never_send_the_same_mail_twice_in_1000_on_postgresql(
    smtp_server: Mailbox, configure: Configure
) -> None:
    with scratch_postgres(configure):
        _two_runners_send(1000, smtp_server)
