"""/staff/candidates and /staff/candidates/<id> (the hiring team): thin adapters over
`rcxsite.careers.pipeline`. Every handler is a `staff_event(Permission.HIRE)`: sales and
support are refused on the server whatever page they opened."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import reflex as rx

from rcxsite import booking, careers
from rcxsite.booking.inputs import start_time
from rcxsite.core import paths
from rcxsite.core.forms import FormInput, max_length
from rcxsite.core.permissions import Permission
from rcxsite.models import utcnow
from rcxsite.state.careers import one_of
from rcxsite.state.service_calls import FormCall, call_service
from rcxsite.state.staff.access import acting, staff_event, staff_screen
from rcxsite.state.staff.display import form_text, local, mailto_href, path_id, when

STAGE_FIELDS = ("stage", "text")
INTERVIEW_FIELDS = ("interviewers", "start")
# A checkbox per member who may interview, named by this prefix and their id.
INTERVIEWER_PREFIX = "interviewer-"


def _age(received: datetime, now: datetime) -> str:
    days = (now - received).days
    if days < 1:
        return "Today"
    return "1 day" if days == 1 else f"{days} days"


def _size(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB" if size >= 1024 * 1024 else f"{max(1, size // 1024)} KB"


@staff_screen
class CandidatesState(rx.State):
    openings: list[dict[str, str]] = []
    rows: list[dict[str, str]] = []
    opening: str = ""
    stage: str = ""
    # What the list shows, in words: "DevOps Engineer: Screening".
    heading: str = ""
    error: str = ""

    async def _reload(self) -> None:
        actor = acting()
        pipelines = await call_service(careers.pipelines, acting())
        if not pipelines.ok:
            self.error = pipelines.message()
            return
        slugs = tuple(pipeline.slug for pipeline in pipelines.result())
        self.opening = one_of(self.opening, slugs)
        self.stage = one_of(self.stage, careers.STAGES)
        titles = {p.slug: p.title for p in pipelines.result()}
        words = [
            titles.get(self.opening, ""),
            careers.stage_label(self.stage) if self.stage else "",
        ]
        self.heading = ": ".join(word for word in words if word)
        self.openings = [
            {
                "slug": p.slug,
                "title": p.title,
                "total": str(p.total),
                **{
                    stage: str(count) for stage, count in zip(careers.STAGES, p.counts, strict=True)
                },
            }
            for p in pipelines.result()
        ]
        listed = await call_service(
            careers.candidates, actor, opening=self.opening, stage=self.stage
        )
        if not listed.ok:
            self.error = listed.message()
            return
        now = utcnow()
        self.rows = [
            {
                "id": str(row.id),
                "name": row.name,
                "href": paths.staff_candidate_path(row.id),
                "opening": row.opening_title,
                "location": row.location,
                "stage": careers.stage_label(row.stage),
                "received": when(row.received, actor.time_zone),
                "age": _age(row.received, now),
                "source": row.source,
            }
            for row in listed.result()
        ]

    @staff_event(Permission.HIRE)
    async def load(self) -> None:
        """on_load: a link may name the opening and stage (?opening=...&stage=...)."""
        self.error = ""
        query = self.router.url.query_parameters
        self.opening, self.stage = str(query.get("opening", "")), str(query.get("stage", ""))
        await self._reload()

    @staff_event(Permission.HIRE)
    async def choose(self, opening: str, stage: str) -> None:
        self.error = ""
        self.opening, self.stage = str(opening), str(stage)
        await self._reload()


@staff_screen
class CandidateState(rx.State):
    candidate_id: int = 0
    found: bool = False
    name: str = ""
    opening_title: str = ""
    stage: str = ""
    stage_label: str = ""
    facts: list[list[str]] = []
    email_href: str = ""
    link: str = ""
    note: str = ""
    cv_href: str = ""
    cv_label: str = ""
    cv_is_pdf: bool = False
    rejection_pending: bool = False
    history: list[dict[str, str]] = []
    field_errors: dict[str, str] = dict.fromkeys(STAGE_FIELDS, "")
    error: str = ""
    notice: str = ""
    # Bumped after a saved note, so the note box empties (a `key`).
    note_revision: int = 0
    # The interview card: who may interview, the panel the times were found for, those
    # times (value: UTC, label: the member's clock), and the interviews booked.
    interviewer_options: list[dict[str, str]] = []
    panel: list[str] = []
    # The panel in words, above its times: a box ticked since is not in it.
    panel_names: str = ""
    interview_times: list[dict[str, str]] = []
    times_searched: bool = False
    interviews: list[dict[str, str]] = []
    interview_errors: dict[str, str] = dict.fromkeys(INTERVIEW_FIELDS, "")

    def _show(self, detail: careers.CandidateDetail) -> None:
        zone = acting().time_zone
        self.found = True
        self.name, self.opening_title = detail.name, detail.opening_title
        self.stage, self.stage_label = detail.stage, careers.stage_label(detail.stage)
        self.email_href = mailto_href(detail.email)
        self.link = detail.link
        self.note = detail.note
        self.facts = [
            ["Opening", detail.opening_title],
            ["Stage", careers.stage_label(detail.stage)],
            ["Email", detail.email],
            ["Phone", detail.phone or "—"],
            ["Based in", detail.location],
            ["Applied", when(detail.received, zone)],
            ["Source", detail.source],
        ]
        self.cv_href = paths.staff_candidate_cv_path(detail.id)
        kind = careers.KINDS.get(detail.cv_type, "file")
        self.cv_label = f"{detail.cv_name} ({kind}, {_size(detail.cv_size)})"
        self.cv_is_pdf = kind == "PDF"
        self.rejection_pending = detail.rejection_pending
        self.history = [
            {"when": when(line.when, zone), "who": line.who, "what": line.text}
            for line in detail.history
        ]
        now = utcnow()
        self.interviews = [
            {
                "id": str(line.id),
                "when": when(line.start, zone),
                "with": ", ".join(line.interviewers),
                "link": line.meeting_url if line.active else "",
                "status": "Booked" if line.active else "Cancelled",
                "can_cancel": "yes" if line.active and line.start > now else "",
            }
            for line in detail.interviews
        ]

    async def _read(self) -> None:
        outcome = await call_service(careers.candidate, acting(), self.candidate_id)
        if outcome.ok:
            self._show(outcome.result())
            return
        self.found = False
        self.error = outcome.message()

    @staff_event(Permission.HIRE)
    async def load(self) -> None:
        self.reset()
        self.candidate_id = path_id(self.router.url.path)
        await self._read()
        found = await call_service(careers.interviewers, acting())
        if found.ok:
            self.interviewer_options = [
                {"id": str(member.id), "name": member.name} for member in found.result()
            ]

    async def _save(
        self, model: type[FormInput], fields: dict[str, object], service: Callable[..., Any]
    ) -> careers.CandidateDetail | None:
        """One form of the page sent to its service; the candidate as now shown, or None
        (the refusal shown)."""
        self.error = self.notice = ""
        call = await FormCall.read(model, {"application_id": self.candidate_id, **fields})
        outcome = await call.send(service, actor=acting())
        self.field_errors = outcome.field_messages(STAGE_FIELDS)
        if not outcome.ok:
            self.error = outcome.form_message()
            return None
        detail = outcome.result()
        self._show(detail)
        return detail

    @staff_event(Permission.HIRE)
    async def move(self, form: dict[str, str]) -> None:
        """One save: the stage chosen in the form."""
        stage = form_text(form, "stage", max_length(careers.StageInput, "stage"))
        detail = await self._save(careers.StageInput, {"stage": stage}, careers.move)
        if detail is None:
            return
        self.notice = f"Moved to {careers.stage_label(detail.stage)}."
        if detail.rejection_due is not None:
            held = when(detail.rejection_due, acting().time_zone)
            self.notice += (
                f" The note to {detail.name} is held until {held}: move them to another "
                "stage before then and it is not sent."
            )

    @staff_event(Permission.HIRE)
    async def add_note(self, form: dict[str, str]) -> None:
        text = form_text(form, "text", max_length(careers.NoteInput, "text"))
        if await self._save(careers.NoteInput, {"text": text}, careers.add_note) is None:
            return
        self.notice = "Note added."
        self.note_revision += 1

    @staff_event(Permission.HIRE)
    async def find_times(self, form: dict[str, str]) -> None:
        """The chosen interviewers' common free times, for the booking form below."""
        self.error = self.notice = ""
        chosen = [
            key.removeprefix(INTERVIEWER_PREFIX)[:9]
            for key, value in list(form.items())[:50]
            if key.startswith(INTERVIEWER_PREFIX) and value
        ]
        call = await FormCall.read(
            careers.InterviewersInput,
            {"application_id": self.candidate_id, "interviewers": chosen},
        )
        outcome = await call.send(careers.interview_times, actor=acting())
        self.interview_errors = outcome.field_messages(INTERVIEW_FIELDS)
        self.interview_times, self.times_searched = [], False
        if not outcome.ok:
            self.error = outcome.form_message()
            return
        zone = acting().time_zone
        self.panel, self.times_searched = chosen, True
        names = ", ".join(
            option["name"] for option in self.interviewer_options if option["id"] in chosen
        )
        # The zone once, in the line above the times: a phone's select shows a whole time.
        self.panel_names = f"{names}, on {local(utcnow(), zone)[1]} time"
        self.interview_times = [
            {"value": booking.utc_text(start), "label": f"{local(start, zone)[0]:%a %-d %b, %H:%M}"}
            for start in outcome.result()
        ]

    @staff_event(Permission.HIRE)
    async def book_interview(self, form: dict[str, str]) -> None:
        """The time chosen, with the panel its times were found for."""
        start = form_text(form, "start", 64)
        detail = await self._interview_call(
            careers.InterviewInput,
            {"interviewers": list(self.panel), "start": start},
            careers.book_interview,
        )
        if detail is None:
            return
        self.notice = (
            f"Interview booked for {when(start_time(start), acting().time_zone)}. "
            f"{detail.name} and each interviewer have their invitation."
        )
        self.interview_times, self.times_searched, self.panel = [], False, []

    @staff_event(Permission.HIRE)
    async def cancel_interview(self, interview_id: str) -> None:
        detail = await self._interview_call(
            careers.InterviewCancelInput,
            {"interview_id": str(interview_id)[:9]},
            careers.cancel_interview,
        )
        if detail is not None:
            self.notice = f"Interview cancelled. {detail.name} and the interviewers are told."

    async def _interview_call(
        self, model: type[FormInput], fields: dict[str, object], service: Callable[..., Any]
    ) -> careers.CandidateDetail | None:
        self.error = self.notice = ""
        call = await FormCall.read(model, {"application_id": self.candidate_id, **fields})
        outcome = await call.send(service, actor=acting())
        self.interview_errors = outcome.field_messages(INTERVIEW_FIELDS)
        if not outcome.ok:
            self.error = outcome.form_message()
            return None
        detail: careers.CandidateDetail = outcome.result()
        self._show(detail)
        return detail


__all__ = ["CandidateState", "CandidatesState"]
