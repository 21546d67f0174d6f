"""Request a quote (book a call): the form that reaches the sales team."""

from typing import Any, cast

import reflex as rx

from rcxsite.components.blocks import section
from rcxsite.components.calendar_actions import calendar_actions, join_link
from rcxsite.components.form_fields import (
    ModelFields,
    action_button,
    form,
    honeypot,
    select_field,
    status_message,
    submit_button,
    text_field,
    textarea_field,
)
from rcxsite.components.react import OneTimeSecret
from rcxsite.content import quote as options
from rcxsite.content import routes
from rcxsite.content.company import EMAIL, PHONE, PHONE_HREF
from rcxsite.core.forms import max_length
from rcxsite.leads import FOLLOW_UP_FIELD, WITHOUT_CALL, QuoteInput
from rcxsite.pages.booking.slot_picker import slot_picker
from rcxsite.state.quote import (
    MANAGE_LINK_SLOT,
    QUOTE_FORM_ID,
    SUBMIT_BROKEN,
    QuotePrefillState,
    QuoteState,
)
from rcxsite.templates.page_top import page_hero

ON_LOAD: dict[routes.RouteKind, list[rx.EventHandler]] = {
    "quote": [QuoteState.open_form, QuoteState.detect_time_zone, QuotePrefillState.load]
}

STEPS = (
    "Tell us about your project and pick a time for a call.",
    "A senior consultant calls you and asks the right questions.",
    "Within two working days you receive a proposal with a fixed price.",
)


def _error(name: str):
    return QuoteState.field_errors[name]


def _limit(name: str) -> int:
    return max_length(QuoteInput, name)


def _prefilled(name: str) -> dict[str, Any]:
    """A signed-in customer's own detail to start with; remounted when it changes."""
    return {
        "default_value": getattr(QuotePrefillState, name),
        "key": QuotePrefillState.version.to_string(),
    }


_FIELDS = ModelFields(QuoteInput, QuoteState.field_errors, "quote")


def _field(label: str, name: str, **props: Any) -> rx.Component:
    """One of the visitor's details, which a signed-in customer's own start with."""
    return _FIELDS.text(label, name, **props, **_prefilled(name))


def _choice(label: str, name: str, choices: Any) -> rx.Component:
    return select_field(
        label, name, choices, error=_error(name), field_id=f"quote-{name}", aria_required="true"
    )


def _preferred_time() -> rx.Component:
    """No one takes calls online (a fresh install): a preference, and sales propose a time."""
    return rx.fragment(
        rx.el.p(
            "No times can be booked online right now: tell us what suits you and we will "
            "propose a time by email.",
            class_name="form-note field-wide",
        ),
        text_field(
            "Preferred call date",
            "call_date",
            error=_error("call_date"),
            field_id="quote-call_date",
            input_type="date",
            aria_required="true",
        ),
        _choice(
            f"Preferred call time ({options.CALL_TIMEZONE_LABEL})", "call_time", options.CALL_TIMES
        ),
    )


# The form's ways of hearing back: (value, label, what follows), the call first.
VIDEO_CALL = ("video", "Video call (recommended)", "The link comes with your invitation.")
PHONE_CALL = ("phone", "Phone call", "We call the phone number you give above.")
NO_CALL = (WITHOUT_CALL, "Send without a call", "We reply by email within one working day.")
# With nobody taking calls online, a call is proposed by email: how is settled then.
PREFERRED_CALL = ("video", "Book a call (recommended)", "We propose a time by email.")


def _follow_up_option(choice: tuple[str, str, str], *, first: bool = False) -> rx.Component:
    value, label, detail = choice
    # The whole box picks the choice; its name is the label, the rest describes it.
    return rx.el.label(
        rx.el.input(
            type="radio",
            name=FOLLOW_UP_FIELD,
            value=value,
            default_checked=first,
            on_change=QuoteState.choose_follow_up(value),
            class_name="follow-up-radio",
            aria_labelledby=f"follow-up-{value}",
            aria_describedby=f"follow-up-{value}-detail",
        ),
        rx.el.span(
            rx.el.strong(label, id=f"follow-up-{value}", class_name="follow-up-label"),
            rx.el.span(detail, id=f"follow-up-{value}-detail", class_name="follow-up-detail"),
            class_name="follow-up-text",
        ),
        class_name="follow-up-option",
    )


def _follow_up() -> rx.Component:
    """A call, recommended (video or phone when times can be booked), or a reply by email:
    the last hides the call's time."""
    return rx.el.fieldset(
        rx.el.legend("How should we get back to you?", class_name="follow-up-legend"),
        rx.cond(
            QuoteState.taking_calls,
            rx.fragment(_follow_up_option(VIDEO_CALL, first=True), _follow_up_option(PHONE_CALL)),
            _follow_up_option(PREFERRED_CALL, first=True),
        ),
        _follow_up_option(NO_CALL),
        class_name="follow-up field-wide",
    )


def _form() -> rx.Component:
    return form(
        rx.el.div(
            _field("Name", "name", autocomplete="name", aria_required="true"),
            _field(
                "Work email",
                "email",
                input_type="email",
                autocomplete="email",
                aria_required="true",
            ),
            _field(
                "Company",
                "company",
                autocomplete="organization",
                aria_required="true",
            ),
            _field(
                # Required for a phone call (the number it is made on).
                cast(str, rx.cond(QuoteState.by_phone, "Phone", "Phone (optional)")),
                "phone",
                input_type="tel",
                autocomplete="tel",
                aria_required=rx.cond(QuoteState.by_phone, "true", "false"),
            ),
            _choice("Service of interest", "service", options.SERVICE_CHOICES),
            _choice("Budget range", "budget", options.BUDGETS),
            _choice("Timeline", "timeline", options.TIMELINES),
            _follow_up(),
            rx.cond(
                QuoteState.without_call,
                rx.fragment(),
                rx.cond(
                    QuoteState.taking_calls,
                    slot_picker(QuoteState, prefix="quote", error=_error("start")),
                    _preferred_time(),
                ),
            ),
            textarea_field(
                "Tell us about your project",
                "message",
                error=_error("message"),
                field_id="quote-message",
                aria_required="true",
                max_length=_limit("message"),
            ),
            honeypot("quote-website", max_length=_limit("website")),
            class_name="quote-grid",
        ),
        status_message(QuoteState.error, kind="error"),
        rx.el.p("All fields are required unless marked optional.", class_name="form-note"),
        rx.cond(
            QuoteState.without_call,
            submit_button("Send my request", "Sending...", busy=QuoteState.busy),
            submit_button("Book my call", "Sending...", busy=QuoteState.busy),
        ),
        id=QUOTE_FORM_ID,
        on_submit=QuoteState.submit,
        aria_label="Request a quote",
        class_name="quote-form",
        failure=SUBMIT_BROKEN,
    )


def _confirmation() -> rx.Component:
    return rx.el.div(
        rx.el.h2(QuoteState.confirmation, class_name="section-title"),
        rx.el.p(QuoteState.next_steps, class_name="lead"),
        rx.cond(
            QuoteState.calendar_google != "",
            rx.fragment(
                calendar_actions(QuoteState),
                rx.el.p(
                    OneTimeSecret.create(
                        slot=MANAGE_LINK_SLOT, kind="link", label="Change or cancel"
                    ),
                    class_name="lead",
                ),
            ),
        ),
        rx.cond(
            QuoteState.meeting_url != "",
            rx.el.p(
                join_link(QuoteState.meeting_url),
                rx.el.br(),
                rx.el.span(QuoteState.meeting_url, class_name="meeting-url"),
                class_name="lead",
            ),
        ),
        action_button("Send another request", on_click=QuoteState.start_over),
        role="status",
        class_name="quote-confirmation",
    )


def quote_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        page_hero(route, "Book a call", "quote", cta=False),
        section(
            "Book a call",
            rx.cond(QuoteState.confirmation != "", _confirmation(), _form()),
            intro="Tell us a little about your project. We only use your details to reply.",
        ),
        section(
            "What happens next",
            rx.el.ol(*[rx.el.li(step) for step in STEPS], class_name="steps"),
            rx.el.p(
                "Prefer email or phone? Write to ",
                rx.el.a(EMAIL, href=f"mailto:{EMAIL}"),
                " or call ",
                rx.el.a(PHONE, href=PHONE_HREF),
                ".",
                class_name="lead",
            ),
            tone="muted",
        ),
    )
