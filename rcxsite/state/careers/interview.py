"""/careers/interview/<token>: the link in a candidate's interview invitation. No login: the
token is the key, sealed before Reflex reads it (rcxsite/web/sealed_event_paths.py); the
service (`rcxsite.careers.interviews`) decides what the link may still do. The new time is
picked with the booking pages' time picker, on the candidate's own clock."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import reflex as rx

from rcxsite import booking, careers
from rcxsite.booking.wording import spoken_time
from rcxsite.core import tokens
from rcxsite.state.booking.slot_picker import SlotPicker
from rcxsite.state.service_calls import FormCall, ServiceCall, call_service

LOAD_BROKEN = "Your interview could not be loaded. Please try again in a moment."
CHANGE_BROKEN = "Something went wrong and your interview was not changed. Please try again."
DONE_ID = "interview-done"


class InterviewState(SlotPicker, rx.State):
    # "loading", "shown" or "invalid" (`notice` says why).
    status: str = "loading"
    opening_title: str = ""
    when: str = ""
    when12: str = ""
    interviewers: str = ""
    meeting_url: str = ""
    interview_status: str = ""
    can_change: bool = False
    notice: str = ""
    # "" (looking), "move" or "cancel".
    mode: str = ""
    busy: bool = False
    error: str = ""
    done: str = ""
    start_error: str = ""

    def _show(self, shown: careers.CandidateInterview) -> None:
        self.status = "shown"
        self.opening_title, self.interviewers = shown.opening_title, shown.interviewers
        self.when = spoken_time(shown.start, shown.time_zone)
        self.when12 = spoken_time(shown.start, shown.time_zone, hour12=True)
        self.meeting_url, self.interview_status = shown.meeting_url, shown.status
        self.can_change, self.notice = shown.changeable, shown.notice
        self._set_zone(shown.time_zone)

    def _digest(self) -> str | None:
        return tokens.digest_in_path(self.router.url.path)

    def _free_times(self) -> Callable[..., booking.SlotList]:
        return partial(careers.times_to_move_to, link_digest=self._digest())

    @rx.event
    async def load(self):
        self.status, self.mode, self.error, self.done, self.notice = "loading", "", "", "", ""
        self.days, self.slots_loaded = [], False
        yield
        outcome = await call_service(careers.candidate_interview, link_digest=self._digest())
        if outcome.ok:
            self._show(outcome.result())
            return
        self.status = "invalid"
        self.notice = outcome.message(broken=LOAD_BROKEN)

    @rx.event
    async def start_move(self):
        self.mode, self.error, self.done, self.start_error = "move", "", "", ""
        await self._load_slots()

    @rx.event
    def ask_cancel(self) -> None:
        self.mode, self.error, self.done = "cancel", "", ""

    @rx.event
    def keep(self) -> None:
        self.mode, self.error = "", ""

    @rx.event
    async def move(self, form: dict[str, str]):
        self.error = ""
        call = await FormCall.read(
            careers.InterviewMoveInput,
            {"start": str(form.get("start", ""))[:64], "time_zone": self.time_zone},
        )
        call.busy(self)
        yield
        outcome = await call.send(
            careers.move_interview,
            link_digest=self._digest(),
            client_ip=self.router.session.client_ip,
        )
        self.start_error = outcome.field_messages(("start",))["start"]
        if outcome.ok:
            self._show(outcome.result())
            self.mode = ""
            self.done = careers.interviews.MOVED_MESSAGE
            yield rx.set_focus(DONE_ID)
            return
        self.error = outcome.form_message(broken=CHANGE_BROKEN)
        await self._load_slots()  # taken meanwhile or not: the times as they are now

    @rx.event
    async def cancel(self):
        self.error = ""
        call = ServiceCall()
        call.busy(self)
        yield
        outcome = await call.run(
            careers.cancel_by_candidate,
            link_digest=self._digest(),
            client_ip=self.router.session.client_ip,
        )
        if outcome.ok:
            self._show(outcome.result())
            self.mode, self.done = "", careers.interviews.CANCELLED_MESSAGE
            yield rx.set_focus(DONE_ID)
            return
        self.error = outcome.form_message(broken=CHANGE_BROKEN)
