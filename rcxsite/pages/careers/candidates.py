"""/staff/candidates (each opening's pipeline and the candidates) and /staff/candidates/<id>
(one candidate: details, CV, stage, notes, history). Only the hiring team's events are
answered; the prerendered pages hold no data."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from rcxsite import careers
from rcxsite.components.form_fields import control_attrs, field_error, textarea_field
from rcxsite.components.staff_ui import badge, data_table, notices, page_heading
from rcxsite.content import routes
from rcxsite.core.forms import max_length
from rcxsite.pages.staff.shared import facts, link, staff_form
from rcxsite.state.careers.candidates import (
    INTERVIEWER_PREFIX,
    CandidatesState,
    CandidateState,
)


def _count(opening: ObjectVar[dict[str, str]], stage: str, label: str) -> rx.Component:
    """A count that lists those candidates (pressed while it is the list shown)."""
    return rx.el.button(
        opening[stage if stage else "total"],
        type="button",
        on_click=CandidatesState.choose(opening["slug"], stage),
        aria_label=opening["title"] + f": {label}",
        aria_pressed=rx.cond(
            (CandidatesState.opening == opening["slug"]) & (CandidatesState.stage == stage),
            "true",
            "false",
        ),
        class_name="staff-chip",
    )


_STAGE_COLUMNS = tuple(careers.STAGE_LABELS[stage] for stage in careers.STAGES)


def staff_candidates_page(route: routes.Route) -> rx.Component:
    return rx.el.div(
        page_heading("Candidates"),
        notices(CandidatesState.error, ""),
        # Each opening's pipeline: a row per opening, a count per stage (phones: a card).
        data_table(
            "Pipelines",
            ("Opening", *_STAGE_COLUMNS, "All"),
            CandidatesState.openings,
            lambda opening: (
                rx.el.strong(opening["title"]),
                *[
                    _count(opening, stage, label)
                    for stage, label in zip(careers.STAGES, _STAGE_COLUMNS, strict=True)
                ],
                _count(opening, "", "all candidates"),
            ),
            empty="No openings.",
        ),
        rx.el.p(
            rx.el.button(
                "All openings",
                type="button",
                on_click=CandidatesState.choose("", ""),
                aria_pressed=rx.cond(
                    (CandidatesState.opening == "") & (CandidatesState.stage == ""), "true", "false"
                ),
                class_name="link-button",
            ),
            class_name="staff-note",
        ),
        rx.el.h2(
            rx.cond(CandidatesState.heading != "", CandidatesState.heading, "All candidates"),
            class_name="staff-subtitle",
        ),
        data_table(
            "Candidates",
            ("Name", "Opening", "Stage", "Applied", "Waiting", "Based in", "Source"),
            CandidatesState.rows,
            lambda row: (
                link(row["name"], row["href"]),
                row["opening"],
                badge(row["stage"]),
                row["received"],
                row["age"],
                row["location"],
                row["source"],
            ),
            empty="No candidates here yet.",
        ),
    )


def _stage_form() -> rx.Component:
    field_id = "candidate-stage"
    error = CandidateState.field_errors["stage"]
    return staff_form(
        rx.el.div(
            rx.el.label("Move to", html_for=field_id, class_name="field-label"),
            rx.el.select(
                *[
                    rx.el.option(label, value=stage)
                    for stage, label in careers.STAGE_LABELS.items()
                ],
                name="stage",
                default_value=CandidateState.stage,
                # Remounted with each loaded stage; the member's choice until then.
                key=CandidateState.stage,
                **control_attrs(field_id, error),
            ),
            field_error(field_id, error),
            class_name="field",
        ),
        rx.el.p(
            "Moving to Rejected mails the candidate a kind note two working days later; "
            "moving them back before then cancels it.",
            class_name="staff-hint",
        ),
        submit="Save stage",
        on_submit=CandidateState.move,
        aria_label="Stage",
    )


def _note_form() -> rx.Component:
    return staff_form(
        rx.el.div(
            textarea_field(
                "Note",
                "text",
                error=CandidateState.field_errors["text"],
                field_id="candidate-note",
                rows=3,
                max_length=max_length(careers.NoteInput, "text"),
            ),
            key=CandidateState.note_revision.to_string(),
        ),
        submit="Add note",
        on_submit=CandidateState.add_note,
        aria_label="Add a note",
    )


def _cv() -> rx.Component:
    return rx.el.p(
        rx.el.a(
            rx.cond(CandidateState.cv_is_pdf, "Open CV", "Download CV"),
            href=CandidateState.cv_href,
            target=rx.cond(CandidateState.cv_is_pdf, "_blank", ""),
            rel="noopener",
            class_name="button button-outline",
        ),
        " ",
        rx.el.span(CandidateState.cv_label, class_name="staff-note"),
        class_name="candidate-cv",
    )


def _interview_line(line: ObjectVar[dict[str, str]]) -> rx.Component:
    return rx.el.li(
        rx.el.strong(line["when"]),
        " with ",
        line["with"],
        " ",
        badge(line["status"]),
        rx.cond(
            line["link"] != "",
            rx.el.span(
                " ",
                rx.el.a(
                    "Meeting link", href=line["link"], target="_blank", rel="noopener noreferrer"
                ),
            ),
        ),
        rx.cond(
            line["can_cancel"] != "",
            rx.el.span(
                " ",
                rx.el.button(
                    "Cancel interview",
                    type="button",
                    on_click=CandidateState.cancel_interview(line["id"]),
                    class_name="link-button",
                ),
            ),
        ),
        class_name="interview-line",
    )


def _interviewer_choice(member: ObjectVar[dict[str, str]]) -> rx.Component:
    return rx.el.label(
        rx.el.input(
            type="checkbox",
            name=INTERVIEWER_PREFIX + member["id"],
            default_checked=CandidateState.panel.contains(member["id"]),
        ),
        " ",
        member["name"],
        class_name="checkbox-row",
    )


def _find_times_form() -> rx.Component:
    error = CandidateState.interview_errors["interviewers"]
    return staff_form(
        rx.el.fieldset(
            rx.el.legend("Interviewers", class_name="staff-legend"),
            rx.foreach(CandidateState.interviewer_options, _interviewer_choice),
            field_error("interview-panel", error),
            aria_describedby=rx.cond(error != "", "interview-panel-error", ""),
            class_name="staff-fieldset interview-panel",
        ),
        rx.el.p(
            "Times when every interviewer chosen is free (their hours, time off, own "
            "calendars, calls and other interviews) over the next two weeks.",
            class_name="staff-hint",
        ),
        submit="Find free times",
        kind="outline",
        on_submit=CandidateState.find_times,
        aria_label="Find interview times",
    )


def _book_form() -> rx.Component:
    field_id = "interview-start"
    error = CandidateState.interview_errors["start"]
    return rx.cond(
        CandidateState.interview_times.length() > 0,
        staff_form(
            rx.el.p(
                "Free times of ",
                CandidateState.panel_names,
                class_name="staff-note interview-times-of",
            ),
            rx.el.div(
                rx.el.label("Time", html_for=field_id, class_name="field-label"),
                rx.el.select(
                    rx.foreach(
                        CandidateState.interview_times,
                        lambda time: rx.el.option(time["label"], value=time["value"]),
                    ),
                    name="start",
                    **control_attrs(field_id, error),
                ),
                field_error(field_id, error),
                class_name="field",
            ),
            rx.el.p(
                "The candidate and each interviewer get an invitation with the meeting link; "
                "the candidate can move or cancel it from theirs.",
                class_name="staff-hint",
            ),
            submit="Book interview",
            on_submit=CandidateState.book_interview,
            aria_label="Book the interview",
        ),
        rx.cond(
            CandidateState.times_searched,
            rx.el.p(
                "No time in the next two weeks suits every interviewer chosen. Try fewer "
                "interviewers.",
                class_name="staff-note",
                role="status",
            ),
        ),
    )


def _interviews() -> rx.Component:
    return rx.el.section(
        rx.el.h2("Interviews", class_name="staff-subtitle"),
        rx.cond(
            CandidateState.interviews.length() > 0,
            rx.el.ul(
                rx.foreach(CandidateState.interviews, _interview_line), class_name="interviews"
            ),
        ),
        _find_times_form(),
        _book_form(),
        class_name="staff-card",
    )


def _card(heading: str, content: rx.Component) -> rx.Component:
    return rx.el.section(
        rx.el.h2(heading, class_name="staff-subtitle"), content, class_name="staff-card"
    )


def staff_candidate_page(route: routes.Route) -> rx.Component:
    return rx.el.div(
        rx.el.p(link("← All candidates", routes.STAFF_CANDIDATES.path), class_name="staff-back"),
        notices(CandidateState.error, CandidateState.notice),
        rx.cond(
            CandidateState.found,
            rx.fragment(
                page_heading(CandidateState.name),
                facts(CandidateState.facts),
                rx.cond(
                    CandidateState.link != "",
                    rx.el.p(
                        rx.el.a(
                            CandidateState.link,
                            href=CandidateState.link,
                            rel="noopener noreferrer nofollow",
                            target="_blank",
                        ),
                        class_name="staff-note",
                    ),
                ),
                rx.cond(
                    CandidateState.note != "",
                    rx.el.blockquote(CandidateState.note, class_name="staff-message"),
                ),
                _cv(),
                rx.cond(
                    CandidateState.rejection_pending,
                    rx.el.p(
                        "A rejection note is waiting to be sent.",
                        class_name="staff-note",
                        role="status",
                    ),
                ),
                rx.el.section(
                    rx.el.h2("Stage", class_name="staff-subtitle"),
                    _stage_form(),
                    class_name="staff-card",
                ),
                _interviews(),
                rx.el.section(
                    rx.el.h2("Notes", class_name="staff-subtitle"),
                    _note_form(),
                    class_name="staff-card",
                ),
                rx.el.h2("History", class_name="staff-subtitle"),
                data_table(
                    "History",
                    ("When", "Who", "What"),
                    CandidateState.history,
                    lambda row: (row["when"], row["who"], row["what"]),
                    empty="Nothing has happened yet.",
                ),
            ),
        ),
        class_name="candidate-page",
    )
