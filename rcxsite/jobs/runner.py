"""The runner: claims due jobs, does them, records how each went, and runs the periodic
jobs whose period has come. Any number of runners may share one database.

`make run` starts one inside the site's process (`start_in_background`, stopped with the
site); `make run-scaled` starts JOB_RUNNERS processes of their own
(`python -m rcxsite.jobs run`), supervised like the workers.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any

from rcxsite.jobs import queue
from rcxsite.jobs.kinds import HANDLERS, PERIODIC
from rcxsite.models.types import utcnow
from rcxsite.platform.logs import host_name
from rcxsite.platform.outages import is_outage
from rcxsite.platform.settings import get_settings

logger = logging.getLogger(__name__)

BATCH = 10


def runner_name() -> str:
    # HOST_NAME first: hosts cloned from one image may share the machine's name, and an
    # operator reading "claimed by" in "Mail and jobs" must tell which host holds a job.
    return f"{host_name()[:60]}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


class Runner:
    def __init__(
        self,
        name: str = "",
        *,
        kinds: tuple[str, ...] = (),
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self.name = name or runner_name()
        self.kinds = kinds  # only these kinds (all when empty)
        # What "due" and "retry in 5 s" are measured against: the wall clock, unless a
        # caller (a replay, a test of hours of retries) brings its own.
        self.clock = clock

    def _do(self, job: queue.Claimed) -> None:
        if not queue.renew(job, runner=self.name, now=self.clock()):
            return  # its lease ran out while earlier jobs of the batch were done
        do = HANDLERS.get(job.kind)
        if do is None:
            queue.finish(
                job,
                runner=self.name,
                now=self.clock(),
                permanent=True,
                error=LookupError(f"no handler for jobs of kind {job.kind!r}"),
            )
            return
        try:
            payload: dict[str, Any] = json.loads(job.payload) if job.payload else {}
            do(payload)
        except queue.Permanent as error:
            queue.finish(job, runner=self.name, now=self.clock(), error=error, permanent=True)
        except Exception as error:
            queue.finish(job, runner=self.name, now=self.clock(), error=error)
        else:
            queue.finish(job, runner=self.name, now=self.clock())

    def run_due(self) -> int:
        """Does every job due now (in batches); how many were attempted."""
        # Only kinds this code knows: during a rolling deploy a job of a newer version's
        # kind waits for a runner of that version (shown waiting in "Mail and jobs"),
        # rather than fail here for want of a handler.
        kinds = self.kinds or tuple(sorted(HANDLERS))
        if not kinds:
            return 0
        done = 0
        while True:
            claimed = queue.claim(runner=self.name, limit=BATCH, kinds=kinds, now=self.clock())
            for job in claimed:
                self._do(job)
            done += len(claimed)
            if len(claimed) < BATCH:
                return done

    def run_periodic(self) -> None:
        for job in list(PERIODIC.values()):
            if self.kinds:
                return
            if queue.claim_period(job.name, job.every_seconds, runner=self.name, now=self.clock()):
                try:
                    job.run()
                except Exception:
                    logger.exception("periodic job %s failed", job.name)

    def run_until(self, stop: threading.Event) -> None:
        """Runs jobs until `stop` is set; an idle runner looks again every JOB_POLL_SECONDS.
        A database outage is waited out, never the end of the runner."""
        logger.info("job runner %s started", self.name)
        while not stop.is_set():
            try:
                busy = self.run_due()
                self.run_periodic()
            except Exception as error:
                if not is_outage(error):
                    logger.exception("job runner %s: a round failed", self.name)
                busy = 0
            if not busy:
                stop.wait(get_settings().job_poll_seconds)
        logger.info("job runner %s stopped", self.name)


def drain(*, timeout: float, kinds: tuple[str, ...] = (), since: datetime | None = None) -> bool:
    """Run the due jobs of `kinds` in this thread until none added since `since` is
    queued (retries waited for) or `timeout` passes; whether none is left. For
    command-line tools that must not exit before their own mail has left (others' mail,
    say one failing for hours, is not theirs to wait for)."""
    from rcxsite.jobs.status import queued_count

    runner, deadline = Runner(kinds=kinds), time.monotonic() + timeout
    while True:
        runner.run_due()
        if not queued_count(kinds=kinds, since=since):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(min(0.2, max(0.0, deadline - time.monotonic())))


class BackgroundRunner:
    """A runner on a thread of this process, stopped (after its current job) by `stop`."""

    def __init__(self, runner: Runner | None = None) -> None:
        self.runner = runner or Runner()
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self.runner.run_until, args=(self._stop,), name="job-runner", daemon=True
        )

    def start(self) -> BackgroundRunner:
        self._thread.start()
        return self

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        self._thread.join(timeout)
