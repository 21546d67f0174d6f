"""/staff/team and /staff/audit (admins): thin adapters over rcxsite.staff."""

from __future__ import annotations

from datetime import date
from typing import Any

import reflex as rx

from rcxsite.staff import audit, members
from rcxsite.staff.inputs import InviteInput, RoleInput
from rcxsite.staff.permissions import ROLE_LABELS, Permission
from rcxsite.state.one_time import show_once
from rcxsite.state.service_calls import call_service
from rcxsite.state.staff.access import acting, staff_event

INVITE_FIELDS = InviteInput.field_names()
INVITE_LINK = "invite-link"


def _when(moment: Any) -> str:
    return moment.strftime("%d %b %Y, %H:%M UTC") if moment else "Never"


class StaffTeamState(rx.State):
    members: list[dict[str, str]] = []
    invite_errors: dict[str, str] = dict.fromkeys(INVITE_FIELDS, "")
    error: str = ""
    notice: str = ""
    # The link itself is shown once (state/one_time.py), never kept here.
    invite_shown: bool = False

    async def _reload(self) -> None:
        outcome = await call_service(members.list_members, actor=acting())
        if outcome.ok:
            self.members = [
                {"id": str(row.id), "name": row.name, "email": row.email, "role": row.role,
                 "role_label": row.role_label,
                 "two_factor": "On" if row.two_factor else "Not set up",
                 "status": "Disabled" if row.disabled else "Enabled",
                 "last_sign_in": _when(row.last_sign_in_at)}
                for row in outcome.result()
            ]
        else:
            self.error = outcome.message()

    @staff_event(Permission.MANAGE_TEAM)
    async def load(self):
        self.error = self.notice = ""
        self.invite_shown = False
        await self._reload()

    @staff_event(Permission.MANAGE_TEAM)
    async def invite(self, form: dict[str, str]):
        self.error = self.notice = ""
        self.invite_shown = False
        fields = {name: str(form.get(name, "")) for name in INVITE_FIELDS}
        outcome = await call_service(_invite, fields, actor=acting())
        self.invite_errors = outcome.field_messages(INVITE_FIELDS)
        if not outcome.ok:
            self.error = "" if outcome.field_refusal else outcome.message()
            return
        self.invite_shown = True
        self.notice = f"Invitation sent to {fields['email'].strip()}."
        await self._reload()
        return show_once({INVITE_LINK: outcome.result().link})

    async def _change(self, call: Any, **kwargs: Any) -> rx.event.EventSpec | None:
        self.error = self.notice = ""
        self.invite_shown = False
        shown = None
        outcome = await call_service(call, actor=acting(), **kwargs)
        if outcome.ok:
            result = outcome.result()
            if isinstance(result, members.Invited):
                self.invite_shown = True
                shown = show_once({INVITE_LINK: result.link})
                self.notice = "Two-factor sign-in was reset; a new invitation was sent."
            else:
                self.notice = str(result)
        else:
            self.error = outcome.message()
        await self._reload()
        return shown

    @staff_event(Permission.MANAGE_TEAM)
    async def change_role(self, member_id: str, role: str):
        return await self._change(_change_role, member_id=_id(member_id), role=role)

    @staff_event(Permission.MANAGE_TEAM)
    async def set_disabled(self, member_id: str, disabled: bool):
        return await self._change(members.set_disabled, member_id=_id(member_id),
                                  disabled=bool(disabled))

    @staff_event(Permission.MANAGE_TEAM)
    async def reset_two_factor(self, member_id: str):
        return await self._change(members.reset_two_factor, member_id=_id(member_id))


def _id(value: object) -> int:
    try:
        return int(str(value))
    except ValueError:
        return 0


def _invite(fields: dict[str, str], *, actor: Any) -> members.Invited:
    return members.invite(InviteInput.parse(fields), actor=actor)


def _change_role(*, actor: Any, member_id: int, role: str) -> str:
    return members.change_role(RoleInput.parse({"role": role}), actor=actor, member_id=member_id)


ROLE_OPTIONS = tuple(ROLE_LABELS.items())


def _times(count: int, last_at: Any) -> str:
    """A repeated refusal's count and last time: " ×37 (last 14:05 UTC)"."""
    if count <= 1:
        return ""
    return f" ×{count:,}" + (f" (last {last_at.strftime('%H:%M UTC')})" if last_at else "")


def _day(value: object) -> date | None:
    try:
        return date.fromisoformat(str(value)) if value else None
    except ValueError:
        return None


class StaffAuditState(rx.State):
    rows: list[dict[str, str]] = []
    actions: list[str] = []
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
            actor_id=_id(self.actor_filter) or None if self.actor_filter else None,
            action=self.action_filter, since=_day(self.since), until=_day(self.until),
        )

    async def _reload(self) -> None:
        outcome = await call_service(audit.audit_page, actor=acting(), where=self._where(),
                                     page=self.page)
        if not outcome.ok:
            self.error = outcome.message()
            return
        result = outcome.result()
        self.error = ""
        self.page, self.pages, self.total = result.page, result.pages, result.total
        self.actions = list(result.actions)
        self.actors = [[str(i), name] for i, name in result.actors]
        self.rows = [
            {"time": _when(row.created_at), "actor": row.actor_name or "—",
             "action": row.action.replace("_", " ") + _times(row.count, row.last_at),
             "target": row.target,
             "detail": row.detail, "client": row.client_address}
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
        self.page = _id(page) or 1
        await self._reload()

    @staff_event(Permission.READ_AUDIT)
    async def export_csv(self):
        outcome = await call_service(audit.audit_csv, actor=acting(), where=self._where())
        if not outcome.ok:
            self.error = outcome.message()
            return None
        return rx.download(data=outcome.result(), filename="rcx-audit-log.csv")
