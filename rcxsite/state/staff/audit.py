"""/staff/audit (admins): a thin adapter over rcxsite.staff.audit."""

from __future__ import annotations

from datetime import datetime

import reflex as rx

from rcxsite.core.audit import action_label
from rcxsite.core.permissions import Permission
from rcxsite.staff import audit
from rcxsite.state.service_calls import call_service
from rcxsite.state.staff.access import acting, staff_event, staff_screen
from rcxsite.state.staff.display import day, local, number_id, when


def _times(count: int, last_at: datetime | None, zone: str) -> str:
    """A repeated refusal's count and last time on the member's clock:
    " ×37 (last 14:05 Europe/London)"."""
    if count <= 1:
        return ""
    if last_at is None:
        return f" ×{count:,}"
    moment, name = local(last_at, zone)
    return f" ×{count:,} (last {moment:%H:%M} {name})"


@staff_screen
class StaffAuditState(rx.State):
    rows: list[dict[str, str]] = []
    actions: list[list[str]] = []  # [action, its words]
    actors: list[list[str]] = []
    page: int = 1
    pages: int = 1
    total: int = 0
    actor_filter: str = ""
    action_filter: str = ""
    since: str = ""
    until: str = ""
    error: str = ""

    def _where(self) -> audit.AuditFilter:
        return audit.AuditFilter(
            actor_id=number_id(self.actor_filter) or None,
            action=self.action_filter,
            since=day(self.since),
            until=day(self.until),
        )

    async def _reload(self) -> None:
        outcome = await call_service(
            audit.audit_page, actor=acting(), where=self._where(), page=self.page
        )
        if not outcome.ok:
            self.error = outcome.message()
            return
        result = outcome.result()
        self.error = ""
        self.page, self.pages, self.total = result.page, result.pages, result.total
        self.actions = [[action, action_label(action)] for action in result.actions]
        self.actors = [[str(i), name] for i, name in result.actors]
        zone = acting().time_zone
        self.rows = [
            {
                "time": when(row.created_at, zone),
                "actor": row.actor_name or "—",
                "action": action_label(row.action) + _times(row.count, row.last_at, zone),
                "target": row.target,
                "detail": row.detail,
                "client": row.client_address,
            }
            for row in result.rows
        ]

    @staff_event(Permission.READ_AUDIT)
    async def load(self):
        self.page = 1
        await self._reload()

    @staff_event(Permission.READ_AUDIT)
    async def apply_filter(self, form: dict[str, str]):
        self.actor_filter = str(form.get("actor", ""))[:12]
        self.action_filter = str(form.get("action", ""))[:64]
        self.since, self.until = str(form.get("since", ""))[:10], str(form.get("until", ""))[:10]
        self.page = 1
        await self._reload()

    @staff_event(Permission.READ_AUDIT)
    async def go_to_page(self, page: int):
        self.page = number_id(page) or 1
        await self._reload()

    @staff_event(Permission.READ_AUDIT)
    async def export_csv(self):
        outcome = await call_service(audit.audit_csv, actor=acting(), where=self._where())
        if not outcome.ok:
            self.error = outcome.message()
            return None
        return rx.download(data=outcome.result(), filename="rcx-audit-log.csv")
