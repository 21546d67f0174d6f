"""`python -m rcxsite.jobs status|run|retry ID`: the job queue from the server's shell
(same DATABASE_URL and SECRET_KEY or data folder as the site).

- `status`: queued and failed jobs per kind, the oldest wait, the newest failures.
- `run`: a runner process (what `make run-scaled` starts JOB_RUNNERS of); stops on
  SIGTERM or SIGINT after its current job.
- `retry ID`: a failed job queued again.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from datetime import timedelta

from rcxsite.core.service_errors import ServiceError
from rcxsite.platform.logs import configure_logging
from rcxsite.platform.settings import get_settings
from rcxsite.platform.shared_setup import SharedSetupMissing, require_shared_setup


def _wait(value: timedelta | None) -> str:
    if value is None:
        return "-"
    seconds = int(value.total_seconds())
    return f"{seconds // 3600}h {seconds % 3600 // 60}m {seconds % 60}s"


def _status() -> int:
    from rcxsite.jobs.status import health

    report = health()
    print(f"queued: {report.queued}  failed: {report.failed_total}")
    for kind in report.kinds:
        print(
            f"  {kind.kind:<12} queued {kind.queued:>5}  failed {kind.failed:>5}  "
            f"oldest waiting {_wait(kind.oldest_waiting)}"
        )
    for job in report.failed:
        print(
            f"failed #{job.id} {job.kind} after {job.attempts} attempt(s) at "
            f"{job.finished_at:%Y-%m-%d %H:%M} UTC: {job.last_error}"
        )
    return 0


def _run() -> int:
    import rcxsite.job_kinds  # noqa: F401  (every kind and periodic job)
    from rcxsite.jobs.runner import Runner

    configure_logging(log_file=get_settings().log_file)
    try:
        require_shared_setup(get_settings())
    except SharedSetupMissing as missing:
        print(missing, file=sys.stderr)
        return 2
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    Runner().run_until(stop)
    return 0


def _retry(job_id: int) -> int:
    from rcxsite.jobs.status import retry

    try:
        retry(job_id)
    except ServiceError as refused:
        print(refused.message, file=sys.stderr)
        return 1
    print(f"Job #{job_id} is queued again.")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rcxsite.jobs")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("status", help="queued and failed jobs")
    commands.add_parser("run", help="a runner process")
    retry = commands.add_parser("retry", help="queue a failed job again")
    retry.add_argument("job_id", type=int)
    args = parser.parse_args(argv)
    if args.command == "status":
        return _status()
    if args.command == "run":
        return _run()
    return _retry(args.job_id)


if __name__ == "__main__":
    sys.exit(main())
