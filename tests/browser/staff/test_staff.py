"""The staff back office in Chromium: invitation, enrolment, two-factor sign-in, access by
role, sign-out, and axe on the staff pages at both widths."""

from __future__ import annotations

import re
import stat
import time
import uuid
from pathlib import Path

import pyotp
from playwright.sync_api import Page, expect

from rcxsite.content import routes
from rcxsite.staff.sign_in import SIGN_IN_REFUSED
from tests.support.browser import DESKTOP, PHONE, axe_violations
from tests.support.live_server import LiveServer
from tests.support.plain_http import fetch
from tests.support.staff_ui import (
    enrol_in_page,
    invite_on_team_page,
    invite_with_command,
    sign_in,
    signed_in_member,
    wait_for_staff_cookie,
)
from tests.support.waiting import wait_for


def test_invitation_enrolment_sign_in_and_one_time_codes(page: Page, live_site: LiveServer) -> None:
    email, _, link = invite_with_command(live_site, "admin")
    key, recovery, enrolled_with = enrol_in_page(page, link)
    assert all(re.fullmatch(r"[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}", code) for code in recovery)
    with page.expect_download() as download:
        page.get_by_role("button", name="Download as a text file").click()
    saved = Path(download.value.path()).read_text(encoding="utf-8")
    assert all(code in saved for code in recovery)
    page.get_by_role("button", name="I have saved them, continue").click()
    expect(page.get_by_role("heading", name="Quote requests")).to_be_visible()
    wait_for_staff_cookie(page, held=True)
    [cookie] = [c for c in page.context.cookies() if c["name"] == "staffSession"]
    assert (cookie["httpOnly"], cookie["sameSite"]) == (True, "Strict")
    assert "staffSession" not in page.evaluate("document.cookie")

    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("heading", name="Staff sign-in")).to_be_visible()
    wait_for_staff_cookie(page, held=False)
    assert not [c for c in page.context.cookies() if c["name"] == "staffSession"]
    page.goto(routes.STAFF_TEAM.path)
    page.wait_for_url(re.compile(r"/staff/log-in\?next="))

    # The code that enrolled the app was used: the same one is refused inside its window.
    sign_in(page, email, enrolled_with, navigate=False)
    expect(page.get_by_role("alert")).to_have_text(SIGN_IN_REFUSED)
    # The app's next code, computed from the key the page showed, signs in.
    sign_in(page, email, pyotp.TOTP(key).at(time.time() + 30), navigate=False)
    expect(page.get_by_role("heading", name="Team")).to_be_visible()  # back to ?next=
    expect(page.get_by_role("cell", name=email)).to_be_visible()
    page.get_by_role("button", name="Sign out").click()
    # A recovery code works once.
    sign_in(page, email, recovery[0])
    expect(page.get_by_role("heading", name="Quote requests")).to_be_visible()
    page.get_by_role("button", name="Sign out").click()
    sign_in(page, email, recovery[0])
    expect(page.get_by_role("alert")).to_have_text(SIGN_IN_REFUSED)

    page.goto(routes.STAFF_AUDIT.path)
    page.wait_for_url(re.compile(r"/staff/log-in"))
    sign_in(page, email, recovery[1])
    expect(page.get_by_role("heading", name="Quote requests")).to_be_visible()
    page.goto(routes.STAFF_AUDIT.path)
    mine = page.get_by_role("row").filter(has_text=email)
    expect(mine.filter(has_text="Sign-in failed").first).to_be_visible()
    expect(mine.filter(has_text="invitation accepted")).to_have_count(1)
    for width, height in ((DESKTOP["width"], DESKTOP["height"]), (PHONE["width"], PHONE["height"])):
        page.set_viewport_size({"width": width, "height": height})
        for path in (routes.STAFF_TEAM.path, routes.STAFF_AUDIT.path):
            page.goto(path)
            expect(page.locator("h1")).to_be_visible()
            assert axe_violations(page) == [], f"{path} at {width} px"
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_a_sales_member_is_refused_the_team_page_on_a_phone(
    phone: Page, live_site: LiveServer
) -> None:
    _, _, link = invite_with_command(live_site, "sales")
    enrol_in_page(phone, link)
    phone.get_by_role("button", name="I have saved them, continue").click()
    expect(phone.get_by_role("heading", name="Quote requests")).to_be_visible()
    wait_for_staff_cookie(phone, held=True)  # the team page, opened anew, needs it
    nav = phone.get_by_role("navigation", name="Staff")
    expect(nav.get_by_role("link", name="Team")).to_have_count(0)
    phone.goto(routes.STAFF_TEAM.path)
    expect(phone.get_by_role("alert")).to_have_text("You don't have access to this page.")
    expect(phone.get_by_role("cell")).to_have_count(0)
    assert axe_violations(phone) == []
    phone.goto(routes.STAFF_LOG_IN.path)
    assert axe_violations(phone) == []


def test_staff_pages_are_noindex_disallowed_and_hold_no_data_before_the_check(
    page: Page, live_site: LiveServer
) -> None:
    robots = fetch(f"{live_site.url}/robots.txt")[1]
    assert "Disallow: /staff" in robots
    sitemap = fetch(f"{live_site.url}/sitemap.xml")[1]
    assert f"{live_site.url}/staff/" not in sitemap and f"{live_site.url}/staff<" not in sitemap
    for route in (r for r in routes.STAFF_ROUTES if "[" not in r.path):
        path = route.path
        html = fetch(f"{live_site.url}{path}")[1]
        assert 'content="noindex"' in html, path
        assert "@rcx.example" not in html
    home = fetch(f"{live_site.url}/")[1]
    assert 'href="/staff' not in home


def _stored_tab_states(site: LiveServer) -> bytes:
    """Every tab state the site has written (the embedded default keeps them as files)."""
    folder = site.data_dir / "states"
    return b"\n".join(path.read_bytes() for path in folder.rglob("*") if path.is_file())


def test_secrets_shown_once_are_never_stored_with_the_tab(
    page: Page, live_site: LiveServer
) -> None:
    """The authenticator key, the recovery codes and a new invitation's link reach the
    screen, and nothing of them the tab's stored state, which outlives the page."""
    member = signed_in_member(page, live_site, "admin")
    page.goto(routes.STAFF_TEAM.path)
    invited = f"once-{uuid.uuid4().hex[:8]}@rcx.example"
    invite_on_team_page(page, invited, "Oona Once", "support")
    link = page.locator(".staff-link")
    expect(link).to_contain_text("/staff/invite/")
    token = link.inner_text().rsplit("/", 1)[-1]
    # Written after the link was shown: once it is stored, so is everything before it.
    notice = f"Invitation sent to {invited}.".encode()
    expect(page.get_by_role("status")).to_have_text(notice.decode())
    assert wait_for(lambda: notice in _stored_tab_states(live_site), page=page), (
        "the team page's state was never stored"
    )
    stored = _stored_tab_states(live_site)
    secrets = {
        "invitation token": token,
        "authenticator key": member.key,
        **{f"recovery code {n}": code for n, code in enumerate(member.recovery)},
    }
    assert [name for name, secret in secrets.items() if secret.encode() in stored] == []
    folder = live_site.data_dir / "states"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
