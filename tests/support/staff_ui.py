"""Staff members on a running site, made as people make them: invited with the command
line, enrolled and signed in through the pages."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pyotp
from playwright.sync_api import Page, expect

from rcxsite.content import routes
from rcxsite.staff.sessions import COOKIE_NAME as STAFF_COOKIE
from tests.support.live_server import ROOT, LiveServer
from tests.support.staff import STAFF_PASSWORD
from tests.support.waiting import wait_for

if TYPE_CHECKING:
    from tests.support.scaled_site import ScaledSite


@dataclass(frozen=True)
class Member:
    email: str
    name: str
    key: str
    recovery: tuple[str, ...]


def _site_dir(site: LiveServer | ScaledSite) -> Path:
    return site.data_dir if isinstance(site, LiveServer) else site.run_dir


def command_env(site: LiveServer | ScaledSite) -> dict[str, str]:
    """The environment of a command run against `site`: its database, its address and a
    mail folder of its own (a live site's data folder too, which holds its signing key)."""
    env = dict(
        os.environ,
        DATABASE_URL=site.database_url,
        SITE_URL=site.url,
        OUTBOX_DIR=str(_site_dir(site) / "cli-outbox"),
    )
    if isinstance(site, LiveServer):
        env["DATA_DIR"] = str(site.data_dir)
    return env


def invite_with_command(
    site: LiveServer | ScaledSite, role: str, name: str = ""
) -> tuple[str, str, str]:
    """`python -m rcxsite.staff invite` on the site's database: (email, name, link)."""
    email = f"{role}-{uuid.uuid4().hex[:8]}@rcx.example"
    name = name or f"Pat {role.title()} {uuid.uuid4().hex[:4]}"
    env = command_env(site)
    done = subprocess.run(
        [sys.executable, "-m", "rcxsite.staff", "invite", email, "--name", name, "--role", role],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    link = done.stdout.strip().splitlines()[-1]
    assert link.startswith(f"{site.url}/staff/invite/")
    return email, name, link


def enrol_in_page(page: Page, link: str) -> tuple[str, list[str], str]:
    """Accept the invitation as a new member would: (the key shown, the recovery codes,
    the one-time code that enrolled the app)."""
    page.goto(link)
    page.get_by_label("New password", exact=True).fill(STAFF_PASSWORD)
    page.get_by_label("Confirm new password", exact=True).fill(STAFF_PASSWORD)
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
    """A new member of `role`, enrolled and signed in on `page` (at the inbox; the hiring
    team at Candidates)."""
    email, name, link = invite_with_command(site, role)
    key, recovery, _ = enrol_in_page(page, link)
    page.get_by_role("button", name="I have saved them, continue").click()
    if role == "hiring":  # the hiring team starts at Candidates, not the inbox
        expect(page.get_by_role("heading", name="Candidates", level=1)).to_be_visible()
        expect(page.get_by_role("region", name="Pipelines")).to_be_visible()
    else:
        expect(page.get_by_role("heading", name="Quote requests")).to_be_visible()
        # The inbox has loaded (its counts show): no event of the sign-in is on its way.
        expect(page.get_by_role("button", name=re.compile(r"^New \d+"))).to_be_visible()
    wait_for_staff_cookie(page, held=True)  # a page opened next needs it
    return Member(email=email, name=name, key=key, recovery=tuple(recovery))


def invite_on_team_page(page: Page, email: str, name: str, role: str) -> None:
    """Fill in and send the team page's invitation form; what follows is the caller's."""
    form = page.get_by_role("form", name="Invite a member")
    form.get_by_label("Email").fill(email)
    form.get_by_label("Name").fill(name)
    form.get_by_label("Role").select_option(role)
    form.get_by_role("button", name="Invite").click()


def sign_in(page: Page, email: str, code: str, *, navigate: bool = True) -> None:
    if navigate:
        page.goto(routes.STAFF_LOG_IN.path)
    page.get_by_label("Email", exact=True).fill(email)
    page.get_by_label("Password", exact=True).fill(STAFF_PASSWORD)
    page.get_by_label("Code", exact=True).fill(code)
    page.get_by_role("button", name="Sign in").click()


def wait_for_staff_cookie(page: Page, *, held: bool) -> None:
    """The staff cookie is set and removed by the answers to requests the page sends after
    the enrolment or sign-out event, which a loaded machine may delay: waits until the
    browser holds one (`held`) or none, or until the deadline."""
    wait_for(
        lambda: any(cookie["name"] == STAFF_COOKIE for cookie in page.context.cookies()) == held,
        page=page,
    )
