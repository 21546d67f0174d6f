"""Refused sign-ins and denied staff actions in the audit log: one row per kind, place and
quarter hour with a count, however many arrive at once; the audit CSV says the counts and
is bounded in size."""

from __future__ import annotations

import csv
import io
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlmodel import Session, col, select

from rcxsite.core.audit import record, record_denied, record_now
from rcxsite.core.permissions import NO_ACCESS, Permission, require
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import AuditEntry
from rcxsite.platform.db import get_engine
from rcxsite.staff import audit
from rcxsite.staff.inputs import StaffSignInInput
from rcxsite.staff.sign_in import sign_in
from tests.support.fixtures import Configure
from tests.support.postgres import scratch_postgres
from tests.support.rows_read import rows_loaded
from tests.support.staff import add_member, member

ADDRESSES = ("203.0.113.1", "203.0.113.2", "2001:db8:1:2::7", "198.51.100.9")
# Rows a flood may make per address and kind: a quarter hour may turn while it runs.
WINDOWS = 2


def _entries() -> list[AuditEntry]:
    with Session(get_engine()) as session:
        return list(session.exec(select(AuditEntry).order_by(col(AuditEntry.id))))


def _refused_rows() -> list[AuditEntry]:
    return [e for e in _entries() if e.action in ("sign_in_failed", "sign_in_locked")]


def _attempt(email: str, address: str) -> str:
    form = StaffSignInInput.parse(
        {"email": email, "password": "a wrong password 12", "code": "000000"}
    )
    try:
        sign_in(form, client_ip=address)
    except ServiceError as refused:
        return str(refused.status)
    return "signed in"


def _flood(attempts: int, email: Callable[[int], str]) -> list[str]:
    """`attempts` wrong sign-ins spread over ADDRESSES, eight at a time."""
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(
            pool.map(lambda n: _attempt(email(n), ADDRESSES[n % len(ADDRESSES)]), range(attempts))
        )


def test_2000_refused_sign_ins_from_4_addresses_make_a_handful_of_rows() -> None:
    member("sam@rcx.example")
    answers = _flood(2000, lambda _: "sam@rcx.example")
    assert set(answers) == {"401", "429"}
    rows = _refused_rows()
    # One row per address for the wrong attempts and one for the locked ones.
    assert len(rows) <= len(ADDRESSES) * 2 * WINDOWS
    assert sum(row.count for row in rows) == 2000
    assert {row.target for row in rows} == {"sam@rcx.example"}
    assert {row.client_address for row in rows} == {
        "203.0.113.1",
        "203.0.113.2",
        "2001:db8:1:2::/64",
        "198.51.100.9",
    }


def test_a_new_email_per_attempt_does_not_make_a_row_per_attempt() -> None:
    # The attacker chooses the target text: past the address's own limit (20 failures),
    # every attempt from it counts on one row, whatever email it names.
    answers = _flood(2000, lambda n: f"guess{n}@rcx.example")
    assert answers.count("401") == 20 * len(ADDRESSES)
    rows = _refused_rows()
    assert len(rows) <= len(ADDRESSES) * (20 + 1) * WINDOWS
    assert sum(row.count for row in rows) == 2000
    locked = [row for row in rows if row.action == "sign_in_locked"]
    assert {row.target for row in locked} == {""}


def test_the_audit_page_and_csv_show_the_count() -> None:
    admin = add_member("Ada Admin", "ada@rcx.example", "admin")
    _flood(40, lambda _: "nobody@rcx.example")
    page = audit.audit_page(actor=admin, where=audit.AuditFilter(action="sign_in_failed"))
    assert sorted(row.count for row in page.rows) == [5, 5, 5, 5]
    assert all(row.last_at is not None and row.last_at >= row.created_at for row in page.rows)
    reader = csv.DictReader(
        io.StringIO(audit.audit_csv(actor=admin, where=audit.AuditFilter(action="sign_in_locked")))
    )
    assert reader.fieldnames is not None and reader.fieldnames[-2:] == ["count", "last_time"]
    assert sorted(int(line["count"]) for line in reader) == [5, 5, 5, 5]


def test_a_large_audit_export_is_refused_with_what_to_do(configure: Configure) -> None:
    admin = add_member("Ada Admin", "ada@rcx.example", "admin")
    for number in range(30):
        record_now(
            action="member_invited",
            actor=admin,
            target=f"member number{number}@rcx.example",
            detail="x" * 200,
        )
    configure(staff_export_max_bytes=4000)
    with pytest.raises(ServiceError) as refused:
        audit.audit_csv(actor=admin, where=audit.AuditFilter())
    assert (refused.value.status, refused.value.message) == (
        413,
        "This export is larger than 4 kB, the most one download can hold: narrow the "
        "filters (actor, action or dates) and export it in parts.",
    )
    assert "audit_exported" not in [e.action for e in _entries()]
    narrowed = audit.audit_csv(actor=admin, where=audit.AuditFilter(action="audit_exported"))
    assert narrowed.splitlines()[0].startswith("time,actor,action")


def test_a_large_audit_export_stops_reading_the_log_once_it_is_too_large(
    configure: Configure,
) -> None:
    admin = add_member("Ada Admin", "ada@rcx.example", "admin")
    with Session(get_engine()) as session:
        for number in range(2000):
            record(
                session,
                action="member_invited",
                actor=admin,
                target=f"member number{number}@rcx.example",
                detail="x" * 200,
            )
        session.commit()
    configure(staff_export_max_bytes=20_000)  # about 80 of the 2000 entries
    with rows_loaded(AuditEntry) as loaded, pytest.raises(ServiceError) as refused:
        audit.audit_csv(actor=admin, where=audit.AuditFilter())
    assert refused.value.status == 413
    # Read in chunks: what was written, and at most the rest of one chunk, not the log.
    assert loaded[0] < 1000


def test_a_denied_staff_call_is_one_row_with_a_count_and_a_log_line_each(
    caplog: pytest.LogCaptureFixture,
) -> None:
    seller = add_member("Sam Seller", "sam@rcx.example", "sales", client_address="203.0.113.5")
    helper = add_member("Sue Support", "sue@rcx.example", "support", client_address="203.0.113.6")

    def deny(number: int) -> None:
        actor = seller if number % 4 else helper
        record_denied(actor, handler="StaffTeamState.invite", permission=Permission.MANAGE_TEAM)

    with (
        caplog.at_level(logging.INFO, logger="rcxsite.security"),
        ThreadPoolExecutor(max_workers=8) as pool,
    ):
        list(pool.map(deny, range(200)))

    rows = sorted(_entries(), key=lambda row: row.actor_name)
    assert [
        (row.actor_name, row.action, row.target, row.detail, row.client_address, row.count)
        for row in rows
    ] == [
        ("Sam Seller", "denied", "StaffTeamState.invite", "needs team.manage", "203.0.113.5", 150),
        ("Sue Support", "denied", "StaffTeamState.invite", "needs team.manage", "203.0.113.6", 50),
    ]
    lines = [
        record
        for record in caplog.records
        if getattr(record, "security", {}).get("event") == "staff_denied"
    ]
    assert len(lines) == 200
    assert {line.security["permission"] for line in lines} == {"team.manage"}  # type: ignore[attr-defined]


def test_a_service_refusing_a_member_says_so_in_the_security_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    seller = add_member("Sam Seller", "sam@rcx.example", "sales")
    with (
        caplog.at_level(logging.INFO, logger="rcxsite.security"),
        pytest.raises(ServiceError) as refused,
    ):
        require(seller, Permission.READ_AUDIT)
    assert (refused.value.status, refused.value.message) == (403, NO_ACCESS)
    [line] = [
        record.security
        for record in caplog.records  # type: ignore[attr-defined]
        if getattr(record, "security", {}).get("event") == "staff_denied"
    ]
    assert (line["actor"], line["permission"]) == (seller.member_id, "audit.read")


def test_refused_sign_ins_aggregate_on_postgresql(configure: Configure) -> None:
    with scratch_postgres(configure):
        member("sam@rcx.example")
        answers = _flood(400, lambda _: "sam@rcx.example")
        assert set(answers) == {"401", "429"}
        rows = _refused_rows()
        assert len(rows) <= len(ADDRESSES) * 2 * WINDOWS
        assert sum(row.count for row in rows) == 400
