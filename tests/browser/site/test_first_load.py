"""What the first load of a page does and does not do: it keeps the reader's scroll (a new
path starts at the top), breaks no CSP rule, and costs a visitor without a session no
session check."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from rcxsite.content import routes
from tests.support.csp import watch_csp
from tests.support.waiting import wait_for

# Runs when the prerendered HTML is parsed, before the app's deferred scripts start.
SCROLL_WHILE_STARTING = """
document.addEventListener("readystatechange", () => {
  if (document.readyState === "interactive") window.scrollTo(0, 400);
});
"""


def test_a_reader_who_scrolls_while_the_page_starts_keeps_the_position(page: Page) -> None:
    page.add_init_script(SCROLL_WHILE_STARTING)
    page.goto(routes.ABOUT.path)
    assert page.evaluate("window.scrollY") == 400


def test_a_change_of_path_starts_at_the_top(page: Page) -> None:
    page.goto(routes.ABOUT.path)
    page.evaluate("window.scrollTo(0, 400)")
    page.locator("footer").get_by_role("link", name="Careers").click()
    expect(page.locator("h1")).to_have_text(routes.CAREERS.title)
    page.wait_for_function("window.scrollY === 0")


def test_no_csp_violation_when_a_page_is_loaded_again(page: Page) -> None:
    """Every route's first load is checked with its axe check (test_accessibility.py)."""
    violations = watch_csp(page)
    page.goto(routes.HOME.path)
    # Visited again: the browser revalidates its copy and the server answers 304.
    page.goto(routes.HOME.path)
    page.reload()
    page.wait_for_selector("html[data-hydrated=true]", state="attached")
    assert violations == []


def test_a_visitor_without_a_session_costs_no_session_check(page: Page) -> None:
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(str(frame))))
    page.goto(routes.HOME.path)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Log in").click()
    expect(page.get_by_role("form", name="Log in")).to_be_visible()

    # The login page's own on_load leaves after any check the route change asked for.
    def login_page_loaded() -> bool:
        return any("on_load_internal" in frame and "/log-in" in frame for frame in sent)

    wait_for(login_page_loaded, page=page)  # a condition Playwright's expect cannot see
    assert login_page_loaded(), "the page's own on_load was sent"
    assert not any("session_state.check" in frame for frame in sent)
