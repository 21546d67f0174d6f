"""`python -m rcxsite.leads export`, run as a separate process against the test database."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import update
from sqlmodel import Session, col

from rcxsite.leads.__main__ import main
from rcxsite.leads.export import HEADER
from rcxsite.mail import wait_for_outgoing_mail
from rcxsite.models import QuoteRequest
from rcxsite.platform.db import get_engine
from rcxsite.platform.settings import PROJECT_ROOT, get_settings
from tests.support.fixtures import Configure
from tests.support.quotes import quote_fields, stored_requests
from tests.support.service_calls import submit_quote


def run_export(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": get_settings().db_url}
    return subprocess.run(
        [sys.executable, "-m", "rcxsite.leads", "export", *args],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )


def set_times(request_id: int, *, created: datetime, mailed: datetime | None) -> None:
    with Session(get_engine()) as session:
        session.exec(
            update(QuoteRequest)
            .where(col(QuoteRequest.id) == request_id)
            .values(created_at=created, mailed_at=mailed)
        )
        session.commit()


def seed() -> tuple[int, int]:
    """Two requests; the second was made first and its mail never went out."""
    formulas = {  # what a spreadsheet would run, unless the export defuses it
        "name": '=HYPERLINK("http://evil.example","x")',
        "company": "@SUM(A1:A9)",
        "message": "-2+3 is not a formula, it is our budget maths. Also: ünïcödé, “quotes”.",
    }
    first = submit_quote(
        fields=quote_fields(**formulas, budget="under-25k"), client_ip="10.0.0.1"
    ).request_id
    second = submit_quote(
        fields=quote_fields(name="Bob", company="Bob's Bikes", phone="", service="other"),
        client_ip="10.0.0.2",
    ).request_id
    assert first is not None and second is not None
    assert wait_for_outgoing_mail(10)
    first_mailed = datetime(2026, 3, 2, 9, 0, 5, tzinfo=UTC)
    set_times(first, created=datetime(2026, 3, 2, 9, 0, tzinfo=UTC), mailed=first_mailed)
    set_times(second, created=datetime(2026, 3, 1, 8, 0, tzinfo=UTC), mailed=None)
    return first, second


def test_export_writes_every_request_oldest_first_with_formulas_defused(tmp_path: Path) -> None:
    first, second = seed()
    target = tmp_path / "leads.csv"

    done = run_export("--csv", str(target))

    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"Wrote 2 quote requests to {target}"
    with target.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == list(HEADER)
    call_date = quote_fields()["call_date"]
    assert rows[1] == [
        str(second),
        "2026-03-01T08:00:00+00:00",
        "Bob",
        "alice@client.example",
        "Bob's Bikes",
        "",
        "Something else",
        "£25,000 – £75,000",
        "In 1–3 months",
        call_date,
        "10:30",
        "We need a new customer portal with single sign-on.",
        "",
        # Sent through the API: no visit to come from.
        "",
        "",
        "",
    ]
    assert rows[2] == [
        str(first),
        "2026-03-02T09:00:00+00:00",
        '\'=HYPERLINK("http://evil.example","x")',
        "alice@client.example",
        "'@SUM(A1:A9)",
        "'+49 30 1234567",
        "Web Development",
        "Under £25,000",
        "In 1–3 months",
        call_date,
        "10:30",
        "'-2+3 is not a formula, it is our budget maths. Also: ünïcödé, “quotes”.",
        "2026-03-02T09:00:05+00:00",
        "",
        "",
        "",
    ]
    assert len(rows) == 3
    # Each cell stands under its own column name, whatever the order of HEADER.
    named = dict(zip(rows[0], rows[2], strict=True))
    assert (named["id"], named["email"], named["call_time"], named["mailed"]) == (
        str(first),
        "alice@client.example",
        "10:30",
        "2026-03-02T09:00:05+00:00",
    )


def test_export_since_a_day_and_to_stdout() -> None:
    first, _second = seed()

    done = run_export("--csv", "-", "--since", "2026-03-02")

    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "Wrote 1 quote request to stdout"
    rows = list(csv.reader(io.StringIO(done.stdout)))
    assert rows[0] == list(HEADER)
    assert [row[0] for row in rows[1:]] == [str(first)]


def test_export_of_an_empty_table_writes_the_header_only(tmp_path: Path) -> None:
    target = tmp_path / "empty.csv"
    done = run_export("--csv", str(target))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"Wrote 0 quote requests to {target}"
    assert target.read_text(encoding="utf-8-sig").splitlines() == [",".join(HEADER)]
    assert stored_requests() == []


def test_export_refuses_bad_arguments_and_reports_database_errors(
    tmp_path: Path, configure: Configure, capsys: pytest.CaptureFixture[str]
) -> None:
    # In-process: the subprocess tests above already cover the real entry point.
    with pytest.raises(SystemExit) as bad_day:
        main(["export", "--csv", "-", "--since", "last week"])
    assert bad_day.value.code == 2
    assert "not a date (YYYY-MM-DD)" in capsys.readouterr().err

    with pytest.raises(SystemExit) as missing_csv:
        main(["export"])
    assert missing_csv.value.code == 2
    capsys.readouterr()

    configure(database_url=f"sqlite:///{tmp_path / 'unmigrated.db'}")
    (tmp_path / "out.csv").write_text("last week's export")
    assert main(["export", "--csv", str(tmp_path / "out.csv")]) == 1
    assert capsys.readouterr().err.startswith("Export failed:")
    assert [path.name for path in tmp_path.glob("*.csv*")] == ["out.csv"]
    assert not list(tmp_path.glob(".*partial"))
    assert (tmp_path / "out.csv").read_text() == "last week's export"
