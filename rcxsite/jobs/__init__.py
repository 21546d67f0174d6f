"""Durable work: what must happen later (a mail, a reminder, a nightly purge) is a row in
the site's own database, written in the same transaction as the change that causes it,
and done by a runner afterwards.

- `queue.py`: add a job in the caller's transaction (`add`), cancel by reason (`cancel`),
  and the runner's side: claim due jobs under a lease, finish or retry them.
- `kinds.py`: what a job of each kind does, and the periodic jobs with their periods.
- `runner.py`: the loop that claims and runs jobs (in the site's process with `make run`,
  in processes of its own with `make run-scaled`).
- `status.py`: the health an admin sees (queued, failed, oldest waiting) and "Retry".

Framework-free: no Reflex, FastAPI or Starlette here.
"""

from rcxsite.jobs.kinds import handler, periodic
from rcxsite.jobs.queue import Permanent, add, cancel, new

__all__ = ["Permanent", "add", "cancel", "handler", "new", "periodic"]
