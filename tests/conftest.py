"""Session-wide fixtures: the real SMTP server, the production site and Chromium."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Page

from rcxsite.tools.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.support.live_server import LiveServer, start_live_server
from tests.support.smtp import Mailbox

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 812}
HEADER_SESSION_SECONDS = 20


@pytest.fixture(scope="session")
def site_mailbox() -> Iterator[Mailbox]:
    mailbox = Mailbox().start()
    yield mailbox
    mailbox.stop()


@pytest.fixture(scope="session")
def live_site(
    tmp_path_factory: pytest.TempPathFactory, site_mailbox: Mailbox
) -> Iterator[LiveServer]:
    if os.environ.get("LIVE_SITE_URL"):
        # A developer shortcut: reuse a site already started with `make run`.
        yield LiveServer.external(os.environ["LIVE_SITE_URL"])
        return
    server = start_live_server(
        tmp_path_factory.mktemp("live-site"),
        {
            "SMTP_HOST": site_mailbox.host,
            "SMTP_PORT": str(site_mailbox.port),
            "SMTP_STARTTLS": "false",
            # Short enough for a test to watch the header entry expire.
            "HEADER_SESSION_MINUTES": str(HEADER_SESSION_SECONDS / 60),
            # Every browser test registers its own customers, logs them in and asks for their
            # reset links from the same address; the per-client limits have their own tests.
            "REGISTRATION_LIMIT": "1000 per hour",
            "LOGIN_FAILURE_LIMIT": "1000 per 15 minutes",
            "RESET_MAIL_CLIENT_LIMITS": "1000 per hour",
        },
    )
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (make test installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS)
        )
        yield chromium
        chromium.close()


@contextmanager
def open_tab(browser, site: LiveServer, viewport: dict[str, int] = DESKTOP) -> Iterator[Page]:
    """A browser tab in a context of its own on `site` (anything with a `url`), closed
    on exit."""
    context = browser.new_context(viewport=viewport, base_url=site.url)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.page_errors = errors  # type: ignore[attr-defined]
    plain_goto = page.goto

    def goto(url: str, *, hydrated: bool = True, **options):
        """Navigate, then wait until React owns the page: a click on prerendered HTML before
        hydration has no handler yet and is lost. `hydrated=False` for tests of the
        loading view, which keep the app from starting."""
        response = plain_goto(url, **options)
        if hydrated:
            page.wait_for_selector("html[data-hydrated=true]", state="attached")
        return response

    page.goto = goto  # type: ignore[method-assign]
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def page(browser, live_site: LiveServer) -> Iterator[object]:
    """A fresh desktop (1280 px) browser tab on the production site."""
    with open_tab(browser, live_site, DESKTOP) as tab:
        yield tab


@pytest.fixture
def phone(browser, live_site: LiveServer) -> Iterator[object]:
    """A fresh 375 px wide browser tab on the production site."""
    with open_tab(browser, live_site, PHONE) as tab:
        yield tab


@pytest.fixture(params=[DESKTOP, PHONE], ids=["desktop", "phone"])
def any_page(request: pytest.FixtureRequest, browser, live_site: LiveServer) -> Iterator[object]:
    with open_tab(browser, live_site, request.param) as tab:
        yield tab


os.environ.setdefault("REFLEX_TELEMETRY_ENABLED", "false")
