"""Staff members on the live site, made as people make them: invited with the command
line, enrolled and signed in through the pages."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pyotp
from playwright.sync_api import Page, expect
from sqlalchemy import create_engine
from sqlmodel import Session, col, update

from rcxsite import routes
from rcxsite.models import Customer, QuoteRequest, utcnow
from tests.support.live_server import ROOT, LiveServer

if TYPE_CHECKING:
    from tests.scaled.conftest import ScaledSite

PASSWORD = "a long staff password 1"


@dataclass(frozen=True)
class Member:
    email: str
    name: str
    key: str
    recovery: tuple[str, ...]


def _site_dir(site: LiveServer | ScaledSite) -> Path:
    return site.data_dir if isinstance(site, LiveServer) else site.run_dir


def invite(site: LiveServer | ScaledSite, role: str, name: str = "") -> tuple[str, str, str]:
    """`python -m rcxsite.staff invite` on the site's database: (email, name, link)."""
    email = f"{role}-{uuid.uuid4().hex[:8]}@rcx.example"
    name = name or f"Pat {role.title()} {uuid.uuid4().hex[:4]}"
    env = dict(os.environ, DATABASE_URL=site.database_url, SITE_URL=site.url,
               OUTBOX_DIR=str(_site_dir(site) / "cli-outbox"))
    done = subprocess.run(
        [sys.executable, "-m", "rcxsite.staff", "invite", email, "--name", name,
         "--role", role], env=env, cwd=ROOT, capture_output=True, text=True, check=True,
    )
    link = done.stdout.strip().splitlines()[-1]
    assert link.startswith(f"{site.url}/staff/invite/")
    return email, name, link


def enrol(page: Page, link: str) -> tuple[str, list[str], str]:
    """Accept the invitation as a new member would: (the key shown, the recovery codes,
    the one-time code that enrolled the app)."""
    page.goto(link)
    page.get_by_label("New password", exact=True).fill(PASSWORD)
    page.get_by_label("Confirm new password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("img", name="QR code with your sign-in key")).to_be_visible()
    key = page.locator("#staff-key").inner_text().replace(" ", "")
    code = pyotp.TOTP(key).now()
    page.get_by_label("Code", exact=True).fill(code)
    page.get_by_role("button", name="Verify").click()
    codes = page.locator(".staff-recovery-codes li")
    expect(codes).to_have_count(10)
    return key, [text.strip() for text in codes.all_inner_texts()], code


def signed_in_member(page: Page, site: LiveServer | ScaledSite, role: str) -> Member:
    """A new member of `role`, enrolled and signed in on `page` (at the inbox)."""
    email, name, link = invite(site, role)
    key, recovery, _ = enrol(page, link)
    page.get_by_role("button", name="I have saved them, continue").click()
    expect(page.get_by_role("heading", name="Quote requests")).to_be_visible()
    # The inbox has loaded (its counts show): no event of the sign-in is still on its way.
    expect(page.get_by_role("button", name=re.compile(r"^New \d+$"))).to_be_visible()
    return Member(email=email, name=name, key=key, recovery=tuple(recovery))


def sign_in(page: Page, email: str, code: str, *, navigate: bool = True) -> None:
    if navigate:
        page.goto(routes.STAFF_LOG_IN.path)
    page.get_by_label("Email", exact=True).fill(email)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Code", exact=True).fill(code)
    page.get_by_role("button", name="Sign in").click()


def add_quotes(site: LiveServer | ScaledSite, count: int, *, company: str, status: str = "new",
               email: str = "", message: str = "We need a new booking site.") -> list[int]:
    """`count` requests stored on the site as the quote form stores them, newest last."""
    engine = create_engine(site.database_url)
    rows = [
        QuoteRequest(
            name=f"Lead {number:03d}",
            email=email or f"lead{number}.{uuid.uuid4().hex[:6]}@example.com",
            company=company, service="web-development", budget="25k-75k", timeline="asap",
            message=message, call_date=date.today() + timedelta(days=7), call_time="10:30",
            client_ip_hash="0" * 64, status=status,
        )
        for number in range(count)
    ]
    with Session(engine) as session:
        session.add_all(rows)
        session.commit()
        ids = [row.id for row in rows]
    engine.dispose()
    return [quote_id for quote_id in ids if quote_id is not None]


def mark_verified(site: LiveServer | ScaledSite, email: str) -> None:
    """The customer with `email` counts as having opened the link registration mailed, for
    tests of what a verified address unlocks (tests/browser/test_verify_email.py opens the
    link itself)."""
    engine = create_engine(site.database_url)
    with Session(engine) as session:
        session.exec(update(Customer).where(col(Customer.email_key) == email.lower())
                     .values(email_verified_at=utcnow()))
        session.commit()
    engine.dispose()


def watch_csp(page: Page) -> list[str]:
    """Every Content-Security-Policy violation the page reports from now on."""
    seen: list[str] = []
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => "
        "console.error('Content Security Policy: ' + e.violatedDirective + ' ' + e.blockedURI))"
    )
    page.on("console", lambda message: seen.append(message.text)
            if "Content Security Policy" in message.text else None)
    return seen
