"""Security events are logged as JSON lines: who (hashed), what and how it ended; never a
password, token, reset link or address in clear."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from rcxsite import accounts
from rcxsite.core.service_errors import ServiceError
from rcxsite.platform.logs import configure_logging
from tests.support import service_calls as calls
from tests.support.customers import PASSWORD, register_customer
from tests.support.fixtures import Configure
from tests.support.site import outbox_messages, reset_token_in

IP = "203.0.113.77"
EMAIL = "log-me@example.com"
NEW_PASSWORD = "fresh-long-pass"


@pytest.fixture
def log_lines() -> Iterator[io.StringIO]:
    stream = io.StringIO()
    configure_logging(stream=stream)
    yield stream
    site = logging.getLogger("rcxsite")
    for handler in list(site.handlers):
        site.removeHandler(handler)


def _events(stream: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def _outcomes(stream: io.StringIO) -> list[tuple[str, str]]:
    return [(e["event"], e["outcome"]) for e in _events(stream) if "event" in e]


def test_the_account_lifecycle_is_logged_without_secrets(
    log_lines: io.StringIO, configure: Configure
) -> None:
    customer_id = register_customer(email=EMAIL)
    with pytest.raises(ServiceError):
        calls.authenticate(email=EMAIL, password="wrong-guess", client_ip=IP)
    login = calls.authenticate(email=EMAIL, password=PASSWORD, client_ip=IP)
    accounts.log_out(login.token)
    calls.request_password_reset(email=EMAIL, client_ip=IP)
    link_token = reset_token_in(outbox_messages()[-1])
    with pytest.raises(ServiceError):
        calls.reset_password(
            email="someone-else@example.com",
            new_password=NEW_PASSWORD,
            token=link_token,
            client_ip=IP,
        )
    calls.reset_password(email=EMAIL, new_password=NEW_PASSWORD, token=link_token, client_ip=IP)
    calls.change_password(
        customer_id=customer_id,
        keep_session=None,
        client_ip=IP,
        current_password=NEW_PASSWORD,
        new_password=PASSWORD,
        confirm_password=PASSWORD,
    )
    accounts.sign_out_everywhere(customer_id=customer_id, client_ip=IP)
    calls.delete_account(customer_id=customer_id, client_ip=IP, password=PASSWORD, confirm=True)

    outcomes = _outcomes(log_lines)
    for expected in [
        ("registration", "success"),
        ("login", "failure"),
        ("login", "success"),
        ("logout", "success"),
        ("reset_requested", "sent"),
        ("reset", "refused"),
        ("reset", "used"),
        ("password_change", "success"),
        ("sign_out_everywhere", "success"),
        ("account_deleted", "success"),
    ]:
        assert expected in outcomes, (expected, outcomes)
    text = log_lines.getvalue()
    for secret in (PASSWORD, NEW_PASSWORD, "wrong-guess", login.token, link_token, IP):
        assert secret not in text
    # The mail queue names its recipients (an operator resends by them); events never do.
    security = "\n".join(line for line in text.splitlines() if '"event"' in line)
    assert EMAIL not in security
    logins = [e for e in _events(log_lines) if e.get("event") == "login"]
    # One client and one account give one hash each, so lines can be followed.
    assert len({e["client"] for e in logins}) == 1 and len({e["account"] for e in logins}) == 1
    assert all({"time", "level", "event", "outcome"} <= set(e) for e in logins)


def test_a_lockout_and_the_rate_limit_are_logged(
    log_lines: io.StringIO, configure: Configure
) -> None:
    configure(login_failure_limit="2 per 15 minutes")
    register_customer(email=EMAIL)
    for _ in range(2):
        with pytest.raises(ServiceError):
            calls.authenticate(email=EMAIL, password="wrong-guess", client_ip=IP)
    with pytest.raises(ServiceError) as locked:
        calls.authenticate(email=EMAIL, password=PASSWORD, client_ip=IP)

    assert locked.value.status == 429
    outcomes = _outcomes(log_lines)
    assert ("login", "locked") in outcomes
    assert ("rate_limit", "refused") in outcomes
    assert PASSWORD not in log_lines.getvalue()


def test_log_lines_also_go_to_the_log_file(tmp_path, log_lines: io.StringIO) -> None:
    log_file = tmp_path / "logs" / "site.log"
    configure_logging(log_file=log_file, stream=io.StringIO())
    register_customer(email=EMAIL)

    lines = [json.loads(line) for line in log_file.read_text().splitlines()]
    assert ("registration", "success") in [(e.get("event"), e.get("outcome")) for e in lines]


def test_no_log_record_holds_a_password_whoever_writes_it(log_lines: io.StringIO) -> None:
    # As Reflex's warnings quote a malformed event, and an exception quoting a payload.
    captured = io.StringIO()
    handler = logging.StreamHandler(captured)
    library = logging.getLogger("reflex_base.some_module")
    library.addHandler(handler)
    try:
        event = {
            "name": "state.log_in",
            "payload": {"form": {"email": "a@b.c", "password": "hunter2-secret"}},
        }
        library.warning(f"Received event data as a string. Event data: {json.dumps(event)}")
        library.warning("Event data: %s", event)
        entries = {"__reflex_form_data_entries": [["password", "hunter2-secret"]]}
        library.warning(f"Event data: {json.dumps(entries)}")
        try:
            raise ValueError(f"bad value {event}")
        except ValueError:
            library.exception("Error processing event")
            logging.getLogger("rcxsite.state").exception("An event failed")
    finally:
        library.removeHandler(handler)

    written = captured.getvalue() + log_lines.getvalue()
    assert "hunter2-secret" not in written
    assert written.count("[hidden]") >= 5 and "a@b.c" in captured.getvalue()
