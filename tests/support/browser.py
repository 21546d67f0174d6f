"""Browser tabs for the tests: the two viewports, a tab of its own on a site, and what
axe-core finds wrong on a page."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 812}

# A desktop Chrome as people run it (not headless).
CHROME = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Safari/537.36"
)
# What a person's browser says: Playwright's says it is driven (navigator.webdriver).
NOT_DRIVEN = "Object.defineProperty(Navigator.prototype, 'webdriver', {get: () => false})"

AXE = Axe()


@contextmanager
def open_tab(
    browser: Any,
    site: Any,
    viewport: dict[str, int] = DESKTOP,
    *,
    time_zone: str | None = None,
    **context_options: Any,
) -> Iterator[Page]:
    """A browser tab in a context of its own on `site` (anything with a `url`), closed
    on exit; `time_zone`: the browser's own (the machine's when None); `context_options`:
    Playwright's (`user_agent`, `extra_http_headers`...)."""
    context = browser.new_context(
        viewport=viewport, base_url=site.url, timezone_id=time_zone, **context_options
    )
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


def axe_violations(page: Page) -> list[str]:
    """axe-core's findings on the page as shown (WCAG 2.2 A/AA rules and best practices):
    rule, impact and the first target of each element."""
    results = AXE.run(page).response
    return [
        f"{violation['id']} ({violation['impact']}): "
        + "; ".join(node["target"][0] if node["target"] else "?" for node in violation["nodes"])
        for violation in results["violations"]
    ]
