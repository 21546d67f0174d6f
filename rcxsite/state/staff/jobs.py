"""/staff/jobs (admins): a thin adapter over rcxsite.staff.operations."""

from __future__ import annotations

from datetime import timedelta

import reflex as rx

from rcxsite.core.permissions import Permission
from rcxsite.staff import operations
from rcxsite.state.service_calls import call_service
from rcxsite.state.staff.access import acting, staff_event, staff_screen
from rcxsite.state.staff.display import number_id, when


def _waited(value: timedelta | None) -> str:
    if value is None:
        return "—"
    minutes, seconds = divmod(int(value.total_seconds()), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if hours else f"{minutes} min {seconds} s"


@staff_screen
class StaffJobsState(rx.State):
    kinds: list[dict[str, str]] = []
    failed: list[dict[str, str]] = []
    queued: int = 0
    failed_total: int = 0
    error: str = ""
    notice: str = ""

    async def _reload(self) -> None:
        outcome = await call_service(operations.jobs_health, actor=acting())
        if not outcome.ok:
            self.error = outcome.message()
            return
        health = outcome.result()
        self.queued, self.failed_total = health.queued, health.failed_total
        self.kinds = [
            {
                "kind": kind.kind,
                "queued": str(kind.queued),
                "failed": str(kind.failed),
                "oldest": _waited(kind.oldest_waiting),
            }
            for kind in health.kinds
        ]
        zone = acting().time_zone
        self.failed = [
            {
                "id": str(job.id),
                "kind": job.kind,
                "attempts": str(job.attempts),
                "error": job.last_error,
                "when": when(job.finished_at, zone, never=""),
            }
            for job in health.failed
        ]

    @staff_event(Permission.OPERATE_JOBS)
    async def load(self):
        self.error = self.notice = ""
        await self._reload()

    @staff_event(Permission.OPERATE_JOBS)
    async def retry(self, job_id: str):
        self.error = self.notice = ""
        outcome = await call_service(operations.retry_job, actor=acting(), job_id=number_id(job_id))
        if outcome.ok:
            self.notice = outcome.result()
        else:
            self.error = outcome.message()
        await self._reload()


__all__ = ["StaffJobsState"]
