"""Every rule and message of the quote form, without a database."""

from __future__ import annotations

from datetime import date

import pytest

from rcxsite.content.quote import BUDGETS, CALL_TIMES, SERVICE_CHOICES, TIMELINES
from rcxsite.content.services import SERVICES
from rcxsite.leads import FORM_FIELDS, QuoteInput
from tests.support.quotes import quote_fields

TODAY = date(2027, 1, 6)  # a Wednesday
NOT_ALLOWED = "Contains characters that are not allowed"

# Per field: each message, with the values that earn it.
RULES: dict[str, dict[str, list[str]]] = {
    "name": {
        "Name must be at most 100 characters": ["x" * 101],
        NOT_ALLOWED: ["Alice\x00Smith", "Alice\tSmith"],
    },
    "email": {"Invalid email": ["not-an-email", "alice@", "a\x00@client.example"]},
    "company": {
        NOT_ALLOWED: ["ACME\x1b[31m"],
        "Company must be at most 200 characters": ["x" * 201],
    },
    "phone": {
        "Invalid phone number": [
            "call me",
            "123 456",
            "+1234567890123456",
            "49+30 1234567",
            "+49 30 1234567\x00",
        ],
    },
    "service": {"Please choose a service": ["hacking", "Web Development"]},
    "budget": {"Please choose a budget range": ["a million"]},
    "timeline": {"Please choose a timeline": ["yesterday"]},
    "message": {
        "Please tell us a little more (at least 20 characters)": ["Too short to help"],
        "Message must be at most 5000 characters": ["x" * 5001],
        NOT_ALLOWED: [
            "A long enough message\x07 with a bell",
            "A long enough message\x00 with NUL",
        ],
    },
    "call_date": {
        "Please choose a date for the call": ["next tuesday", "2027-02-30", "20270107"],
        "Please choose a date from tomorrow on": ["2027-01-06", "2026-12-31"],
        "Please choose a date within the next 90 days": ["2027-04-07"],
        "Please choose a weekday": ["2027-01-09", "2027-01-10"],
    },
    "call_time": {"Please choose a time for the call": ["09:15", "08:30", "17:30", "10:30:00"]},
    "website": {"Leave this field empty": ["https://spam.example"]},
}
RULE_CASES = [
    (field, value, message)
    for field, messages in RULES.items()
    for message, values in messages.items()
    for value in values
]


def problems(**overrides: str) -> dict[str, str]:
    fields = quote_fields(**{"call_date": "2027-01-07", **overrides})
    return QuoteInput.read(fields, today=TODAY)[1]


def test_a_complete_form_is_accepted_stripped_and_normalized() -> None:
    fields = quote_fields(
        name="  Alice Smith ",
        email=" Alice@Client.EXAMPLE ",
        message="  Line one of our brief.\r\nLine two\twith a tab.\rEnd. ",
        call_date="2027-01-07",
    )
    quote, errors = QuoteInput.read(fields, today=TODAY)

    assert errors == {}
    assert quote is not None
    assert quote.name == "Alice Smith"
    assert quote.email == "Alice@client.example"
    assert quote.message == "Line one of our brief.\nLine two\twith a tab.\nEnd."
    assert quote.call_date == date(2027, 1, 7)
    assert (quote.service, quote.budget, quote.timeline) == (
        "web-development",
        "25k-75k",
        "1-3-months",
    )


def test_an_empty_form_names_every_required_field() -> None:
    quote, errors = QuoteInput.read({}, today=TODAY)

    assert quote is None
    assert errors == {
        "name": "Name is required",
        "email": "Work email is required",
        "company": "Company is required",
        "service": "Please choose a service",
        "budget": "Please choose a budget range",
        "timeline": "Please choose a timeline",
        "message": "Message is required",
        "call_date": "Please choose a date for the call",
        "call_time": "Please choose a time for the call",
    }


def test_blank_and_non_string_values_count_as_missing() -> None:
    fields: dict[str, object] = {**quote_fields(), "name": "   ", "company": None, "email": 42}
    errors = QuoteInput.read(fields, today=TODAY)[1]
    assert errors["name"] == "Name is required"
    assert errors["company"] == "Company is required"
    assert errors["email"] == "Work email is required"


@pytest.mark.parametrize(("field", "value", "message"), RULE_CASES)
def test_each_rule_has_its_message(field: str, value: str, message: str) -> None:
    assert problems(**{field: value}) == {field: message}


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", "x" * 100),
        ("company", "Smith & Sons <Ltd>"),
        ("phone", ""),
        ("phone", "+49 (30) 123-4567"),
        ("phone", "1234567"),
        ("phone", "123456789012345"),
        ("message", "x" * 20),
        ("message", "x" * 5000),
        ("call_date", "2027-01-07"),
        ("call_date", "2027-04-06"),
        ("call_time", "09:00"),
        ("call_time", "17:00"),
    ],
)
def test_values_on_the_edge_are_accepted(field: str, value: str) -> None:
    assert problems(**{field: value}) == {}


@pytest.mark.parametrize(
    ("field", "choices"),
    [
        ("service", SERVICE_CHOICES),
        ("budget", BUDGETS),
        ("timeline", TIMELINES),
        ("call_time", CALL_TIMES),
    ],
)
def test_every_offered_option_is_accepted(field: str, choices: tuple[tuple[str, str], ...]) -> None:
    for value, _label in choices:
        assert problems(**{field: value}) == {}, value


def test_the_service_choices_follow_the_site_services() -> None:
    expected = (
        *((service.slug, service.name) for service in SERVICES),
        ("other", "Something else"),
    )
    assert expected == SERVICE_CHOICES
    assert CALL_TIMES[0] == ("09:00", "09:00")
    assert CALL_TIMES[-1] == ("17:00", "17:00")


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\x1b"])
def test_line_separators_and_controls_are_refused_in_every_text_field(separator: str) -> None:
    # U+2028 in a quote used to pass, then break the mail to sales after "received".
    for field in ("name", "company", "message"):
        quote, errors = QuoteInput.read(
            quote_fields(**{field: f"Needs a new website, soon{separator}please"})
        )
        assert quote is None
        assert errors[field] == "Contains characters that are not allowed"


def test_the_form_fields_are_the_model_fields_in_form_order() -> None:
    in_form_order = "name email company phone service budget timeline call_date call_time message"
    assert tuple(in_form_order.split()) == FORM_FIELDS


@pytest.mark.parametrize("field", [*FORM_FIELDS, "website"])
def test_a_200000_character_value_gets_its_message_at_once(field: str) -> None:
    # Length first: no normalising, pattern or e-mail parsing ever sees the long text (the
    # message is the length's, never a parser's).
    fields = quote_fields(**{"call_date": "2027-01-07", field: "9" * 200_000})
    quote, errors = QuoteInput.read(fields, today=TODAY)
    assert quote is None
    assert errors == {field: OVERSIZED_MESSAGES[field]}


OVERSIZED_MESSAGES = {
    "name": "Name must be at most 100 characters",
    "email": "Invalid email",
    "company": "Company must be at most 200 characters",
    "phone": "Invalid phone number",
    "service": "Please choose a service",
    "budget": "Please choose a budget range",
    "timeline": "Please choose a timeline",
    "call_date": "Please choose a date for the call",
    "call_time": "Please choose a time for the call",
    "message": "Message must be at most 5000 characters",
    "website": "Leave this field empty",
}
