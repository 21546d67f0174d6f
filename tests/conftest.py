"""Session-wide fixtures: the real SMTP server, the production site and Chromium."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from rcxsite.tools.chromium import CHROMIUM
from tests.support.browser import DESKTOP, PHONE, launch_chromium, open_tab
from tests.support.live_server import (
    ANALYTICS_HOLD_SECONDS,
    HEADER_SESSION_SECONDS,
    LiveServer,
    chromium_args,
    start_live_server,
)
from tests.support.smtp import Mailbox


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
            "HEADER_SESSION_MINUTES": str(HEADER_SESSION_SECONDS / 60),
            # Every browser test registers its own customers, logs them in and asks for their
            # reset links from the same address; the per-client limits have their own tests.
            "REGISTRATION_LIMIT": "1000 per hour",
            "LOGIN_FAILURE_LIMIT": "1000 per 15 minutes",
            "RESET_MAIL_CLIENT_LIMITS": "1000 per hour",
            "QUOTE_LIMIT": "1000 per hour",
            "BOOKING_LIMIT": "1000 per hour",
            # Every browser test's tabs are one client address; the analytics tests count
            # their views (the limits have tests of their own, in process).
            "ANALYTICS_VIEWS_PER_CLIENT_PER_MINUTE": "100000",
            # A tab's views wait this long for its browser's word (Global Privacy Control):
            # the tests that look for views left out wait this long, not ten seconds.
            "ANALYTICS_HOLD_SECONDS": str(ANALYTICS_HOLD_SECONDS),
            # The calendar servers the tests start listen on 127.0.0.1, as an on-premises
            # one would (the refusal of private addresses has its own tests, in process).
            "CALENDAR_ALLOW_PRIVATE": "true",
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
        chromium = launch_chromium(playwright, chromium_args())
        yield chromium
        chromium.close()


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

_SCALED = "scaled"


def _is_scaled(nodeid: str) -> bool:
    return nodeid.startswith(f"tests/{_SCALED}/")


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """For `pytest -n N` (make test): a module's tests stay on one worker, so its module
    fixtures are made once, and tests/scaled is one unit, so one worker runs one scaled
    site at a time (its minute of load beside nothing else of its own)."""
    from xdist.scheduler import LoadScopeScheduling

    class ModulesAndScaled(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _SCALED if _is_scaled(nodeid) else nodeid.split("::", 1)[0]

    return ModulesAndScaled(config, log)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The scaled tests, the longest unit, go first, so no worker waits for them at the
    end."""
    items.sort(key=lambda item: not _is_scaled(item.nodeid))
