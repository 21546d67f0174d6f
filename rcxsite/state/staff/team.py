"""/staff/team (admins): a thin adapter over rcxsite.staff.members."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import reflex as rx
from reflex.event import EventSpec

from rcxsite.core.permissions import ROLE_LABELS, Permission
from rcxsite.staff import members
from rcxsite.staff.inputs import InviteInput, RoleInput
from rcxsite.state.one_time import show_once
from rcxsite.state.service_calls import FormCall, call_service
from rcxsite.state.staff.access import acting, staff_event, staff_screen
from rcxsite.state.staff.display import number_id, when

INVITE_FIELDS = InviteInput.field_names()
INVITE_LINK = "invite-link"
ROLE_OPTIONS = tuple(ROLE_LABELS.items())


@staff_screen
class StaffTeamState(rx.State):
    members: list[dict[str, str]] = []
    invite_errors: dict[str, str] = dict.fromkeys(INVITE_FIELDS, "")
    error: str = ""
    notice: str = ""
    # The link itself is shown once (state/one_time.py), never kept here.
    invite_shown: bool = False
    # A role picked in a member's row waits for "Change role": a role changes what the
    # member may see and do.
    role_question: str = ""
    _pending_role: list[str] = []  # [member id, role]

    async def _reload(self) -> None:
        actor = acting()
        outcome = await call_service(members.list_members, actor=actor)
        if outcome.ok:
            self.members = [
                {
                    "id": str(row.id),
                    "name": row.name,
                    "email": row.email,
                    "role": row.role,
                    "role_label": row.role_label,
                    "two_factor": "On" if row.two_factor else "Not set up",
                    "status": "Disabled" if row.disabled else "Enabled",
                    "last_sign_in": when(row.last_sign_in_at, actor.time_zone),
                }
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
        call = await FormCall.read(InviteInput, fields)
        outcome = await call.send(members.invite, actor=acting())
        self.invite_errors = outcome.field_messages(INVITE_FIELDS)
        if not outcome.ok:
            self.error = outcome.form_message()
            return
        self.invite_shown = True
        self.notice = f"Invitation sent to {fields['email'].strip()}."
        await self._reload()
        return show_once({INVITE_LINK: outcome.result().link})

    async def _change(
        self, service: Callable[..., Any], call: FormCall[Any] | None = None, **context: Any
    ) -> EventSpec | None:
        """One change to a member (with the form `call` read, if any): confirmed or
        refused, then the team shown again."""
        self.error = self.notice = ""
        self.invite_shown = False
        shown = None
        outcome = await (
            call.send(service, actor=acting(), **context)
            if call is not None
            else call_service(service, actor=acting(), **context)
        )
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
        """A role picked in a row: asked first (`confirm_role_change`)."""
        self.error = self.notice = ""
        self.invite_shown = False
        row = next((m for m in self.members if m["id"] == str(member_id)), None)
        labels = dict(ROLE_OPTIONS)
        if row is None or role not in labels or role == row["role"]:
            self._pending_role, self.role_question = [], ""
            return
        self._pending_role = [row["id"], role]
        self.role_question = (
            f"Change {row['name']}'s role from {row['role_label']} to {labels[role]}?"
        )

    @staff_event(Permission.MANAGE_TEAM)
    async def confirm_role_change(self):
        if not self._pending_role:
            return None
        (member_id, role), self._pending_role = self._pending_role, []
        self.role_question = ""
        call = await FormCall.read(RoleInput, {"role": role})
        return await self._change(members.change_role, call, member_id=number_id(member_id))

    @staff_event(Permission.MANAGE_TEAM)
    async def keep_role(self):
        self._pending_role, self.role_question = [], ""

    @staff_event(Permission.MANAGE_TEAM)
    async def set_disabled(self, member_id: str, disabled: bool):
        return await self._change(
            members.set_disabled, member_id=number_id(member_id), disabled=bool(disabled)
        )

    @staff_event(Permission.MANAGE_TEAM)
    async def reset_two_factor(self, member_id: str):
        return await self._change(members.reset_two_factor, member_id=number_id(member_id))
