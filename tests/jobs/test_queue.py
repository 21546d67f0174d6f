"""The job queue on the site's database: added with the change that causes it, claimed once
under a lease, retried, cancelled with its reason, periodic jobs once per period."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import timedelta

import pytest

from rcxsite import jobs
from rcxsite.core.service_errors import ServiceError
from rcxsite.jobs import __main__ as jobs_cli
from rcxsite.jobs import queue
from rcxsite.jobs.kinds import PERIODIC
from rcxsite.jobs.runner import Runner, drain
from rcxsite.jobs.status import health, retry
from rcxsite.models.types import utcnow
from rcxsite.platform.db import session_scope
from tests.support.fixtures import Configure
from tests.support.parallel import at_once
from tests.support.site import jobs_of_kind

DONE: list[str] = []
LOCK = threading.Lock()


@jobs.handler("test-note")
def _note(payload: dict[str, object]) -> None:
    with LOCK:
        DONE.append(str(payload["text"]))


@jobs.handler("test-flaky")
def _flaky(payload: dict[str, object]) -> None:
    raise ConnectionError("the other side is down")


@pytest.fixture(autouse=True)
def _forget_runs() -> None:
    DONE.clear()


def _add(text: str, **options: object) -> None:
    with session_scope() as session:
        jobs.add(session, kind="test-note", payload={"text": text}, **options)  # type: ignore[arg-type]


def test_a_change_that_rolls_back_leaves_no_job() -> None:
    with pytest.raises(RuntimeError), session_scope() as session:
        jobs.add(session, kind="test-note", payload={"text": "never"})
        raise RuntimeError("the change failed")
    _add("kept")
    Runner().run_due()
    assert DONE == ["kept"]


def test_a_job_due_later_waits_for_its_time_and_then_runs_once() -> None:
    _add("later", due_at=utcnow() + timedelta(hours=1))
    runner = Runner()
    assert runner.run_due() == 0 and DONE == []
    [job] = queue.claim(runner="r", now=utcnow() + timedelta(hours=1, seconds=1))
    queue.finish(job, runner="r")
    assert Runner().run_due() == 0
    assert [row.state for row in jobs_of_kind("test-note")] == ["done"]


def test_a_job_whose_reason_is_cancelled_never_runs() -> None:
    _add("reminder", ref="booking:7", due_at=utcnow() + timedelta(seconds=1))
    _add("other", ref="booking:8", due_at=utcnow() + timedelta(seconds=1))
    with session_scope() as session:
        assert jobs.cancel(session, ref="booking:7") == 1
    [job] = queue.claim(runner="r", now=utcnow() + timedelta(minutes=5), kinds=("test-note",))
    assert job.payload == '{"text": "other"}'
    assert sorted(row.state for row in jobs_of_kind("test-note")) == ["cancelled", "queued"]


def test_a_killed_runners_job_is_taken_over_once_its_lease_runs_out(
    configure: Configure,
) -> None:
    configure(job_lease_seconds=30)
    _add("survives")
    [held] = queue.claim(runner="killed")  # ...and the runner dies without finishing
    assert queue.claim(runner="other") == []  # the lease holds
    later = utcnow() + timedelta(seconds=31)
    [taken] = queue.claim(runner="other", now=later)
    assert (taken.id, taken.attempts) == (held.id, 2)
    assert queue.finish(held, runner="killed") == ""  # the old claim counts for nothing
    assert queue.finish(taken, runner="other") == "done"


def test_a_failing_job_is_retried_on_schedule_then_given_up_and_can_be_retried(
    configure: Configure,
) -> None:
    configure(job_retry_seconds="5,15", job_give_up_hours=1)
    with session_scope() as session:
        jobs.add(session, kind="test-flaky", ref="quote:1")
    start = utcnow()
    [job] = queue.claim(runner="r", now=start)
    assert queue.finish(job, runner="r", error=ConnectionError("down"), now=start) == "queued"
    assert queue.claim(runner="r", now=start + timedelta(seconds=4)) == []
    [job] = queue.claim(runner="r", now=start + timedelta(seconds=5))
    queue.finish(job, runner="r", error=ConnectionError("down"), now=start + timedelta(seconds=5))
    assert queue.claim(runner="r", now=start + timedelta(seconds=19)) == []
    [job] = queue.claim(runner="r", now=start + timedelta(seconds=20))
    assert job.attempts == 3
    # The last wait repeats until the job is JOB_GIVE_UP_HOURS old.
    state = queue.finish(
        job,
        runner="r",
        error=ConnectionError("still down"),
        now=start + timedelta(hours=1, seconds=1),
    )
    assert state == "failed"
    [row] = jobs_of_kind("test-flaky")
    assert row.last_error == "ConnectionError: still down"
    report = health()
    assert [(k.kind, k.queued, k.failed) for k in report.kinds] == [("test-flaky", 0, 1)]
    assert [job.id for job in report.failed] == [row.id]
    retry(row.id or 0)
    assert jobs_of_kind("test-flaky")[0].state == "queued"
    with pytest.raises(ServiceError):
        retry(row.id or 0)  # queued, not failed


def test_runners_in_parallel_do_each_job_exactly_once() -> None:
    for number in range(200):
        _add(f"job {number}")
    runners = [Runner(f"runner {n}") for n in range(3)]
    at_once([runner.run_due for runner in runners])
    assert Counter(Counter(DONE).values()) == {1: 200}


def test_a_periodic_job_runs_once_per_period_with_three_runners() -> None:
    ran: list[str] = []
    registered = dict(PERIODIC)
    PERIODIC.clear()
    jobs.periodic("test-every-hour", every_seconds=3600)(lambda: ran.append("x"))
    try:
        runners = [Runner(f"runner {n}") for n in range(3)]
        for _ in range(2):  # the same period twice over
            at_once([runner.run_periodic for runner in runners], timeout_s=30)
        assert ran == ["x"]
        assert queue.claim_period(
            "test-every-hour", 3600, runner="next hour", now=utcnow() + timedelta(hours=1)
        )
    finally:
        PERIODIC.clear()
        PERIODIC.update(registered)


def test_a_job_whose_lease_ran_out_in_a_batch_is_left_to_the_runner_that_took_it(
    configure: Configure,
) -> None:
    configure(job_lease_seconds=30)
    _add("slow batch")
    [held] = queue.claim(runner="slow")
    later = utcnow() + timedelta(seconds=31)
    [taken] = queue.claim(runner="fast", now=later)
    assert not queue.renew(held, runner="slow", now=later)  # skipped: not done twice
    assert queue.renew(taken, runner="fast", now=later)


def test_a_tool_waits_for_its_own_jobs_not_for_one_failing_since_before() -> None:
    """A command-line tool (say `python -m rcxsite.staff invite`) waits until its own mail
    has left; another job, failing and due again later, is not its to wait for."""
    with session_scope() as session:
        jobs.add(session, kind="test-flaky")
    Runner().run_due()  # failed once, due again in a few seconds
    started = utcnow()
    _add("mine")
    assert drain(timeout=5, since=started)
    assert DONE == ["mine"]
    # Without `since`, the failing job is waited for until the deadline.
    assert not drain(timeout=0.5)


def test_a_runner_on_a_shared_database_without_its_settings_does_not_start(
    configure: Configure, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(database_url="postgresql://postgres@127.0.0.1:9/none", secret_key="")
    assert jobs_cli.main(["run"]) == 2
    assert "SECRET_KEY: the same key on every host" in capsys.readouterr().err


def test_a_kind_this_code_does_not_know_waits_for_a_runner_that_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # As during a rolling deploy: a newer host queued a kind the older runner has no
    # handler for.
    with session_scope() as session:
        jobs.add(session, kind="test-from-a-newer-version", payload={"text": "new"})
    _add("known")
    assert Runner().run_due() == 1 and DONE == ["known"]
    [waiting] = jobs_of_kind("test-from-a-newer-version")
    assert (waiting.state, waiting.attempts, waiting.last_error) == ("queued", 0, "")
    [shown] = [kind for kind in health().kinds if kind.kind == "test-from-a-newer-version"]
    assert (shown.queued, shown.failed) == (1, 0) and shown.oldest_waiting is not None

    monkeypatch.setitem(jobs.kinds.HANDLERS, "test-from-a-newer-version", _note)
    assert Runner().run_due() == 1 and DONE == ["known", "new"]
    assert [row.state for row in jobs_of_kind("test-from-a-newer-version")] == ["done"]
