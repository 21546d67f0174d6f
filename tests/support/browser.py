"""Browser tabs for the tests: the two viewports, a tab of its own on a site, texts that
show for a moment only, answers held back, and what axe-core finds wrong on a page."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Error, Page, Playwright, WebSocketRoute, expect

from rcxsite.tools.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.support.waiting import wait_for

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

# What a test waits for a page to show: the same as for an action (`set_default_timeout`
# below). Playwright's own 5 s for `expect` is too short on a loaded 2-core machine, and a
# passing check returns as soon as it holds, so only a failure waits this long.
WAIT_MS = 15_000
expect.set_options(timeout=WAIT_MS)


# Headless Chromium builds a whole browser window for every tab, and that window's address
# bar popup is a WebUI page in a renderer of its own: about a quarter of the CPU a tab
# costs on this 2-core machine, for a popup no test opens.
UNUSED_WINDOW_PARTS = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup")
_DISABLE_FEATURES = "--disable-features="


def launch_chromium(playwright: Playwright, extra_args: Sequence[str] = ()) -> Browser:
    """Debian's Chromium with the site's flags and without `UNUSED_WINDOW_PARTS`.

    Chromium honours only the last --disable-features, and Playwright passes a list of its
    own (features that would break its automation), so a first launch reads that list and
    the real one passes both, in place of Playwright's."""
    probe = playwright.chromium.launch(
        executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, "--enable-automation"]
    )
    try:
        arguments = probe.new_browser_cdp_session().send("Browser.getBrowserCommandLine")
    finally:
        probe.close()
    defaults = [a for a in arguments["arguments"] if a.startswith(_DISABLE_FEATURES)]
    features = [f for a in defaults for f in a.removeprefix(_DISABLE_FEATURES).split(",") if f]
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM),
        args=[
            *CHROMIUM_ARGS,
            *extra_args,
            _DISABLE_FEATURES + ",".join([*features, *UNUSED_WINDOW_PARTS]),
        ],
        ignore_default_args=defaults,
    )


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
    page.set_default_timeout(WAIT_MS)
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


_WATCH_TEXTS = """texts => {
    window.__shown = window.__shown || new Set();
    for (const text of texts) window.__shown.delete(text);  // shown from now on
    const look = () => {
        const now = document.body ? document.body.innerText : "";
        for (const text of texts) if (now.includes(text)) window.__shown.add(text);
    };
    new MutationObserver(look).observe(document, {
        childList: true, subtree: true, characterData: true });
    look();
}"""


def watch_texts(page: Page, *texts: str) -> None:
    """Notes each of `texts` the moment `page` shows it, on the page shown now and on those
    it loads later. A confirmation shown for a moment before a redirect ("Logged in
    successfully!") is then seen even when a check for it would come too late on a loaded
    machine: see `expect_shown`."""
    script = f"({_WATCH_TEXTS})({json.dumps(texts)})"
    page.add_init_script(script)
    page.evaluate(script)


def expect_shown(page: Page, text: str) -> None:
    """`text`, watched with `watch_texts`, has shown on the page (it may be gone again)."""

    def shown() -> bool:
        try:
            return page.evaluate("text => Boolean(window.__shown?.has(text))", text)
        except Error:  # the page was being replaced: ask the next one
            return False

    assert wait_for(shown, page=page, timeout_s=WAIT_MS / 1000), f"{text!r} never showed"


def hold_answers(page: Page, carrying: str) -> Callable[[], None]:
    """Holds back each frame the server sends `page` that carries `carrying` (an answer's
    text) until the returned `release()`: what the page shows while it waits (a busy
    button, a "Verifying..." text) can then be checked however loaded the machine is.
    Call it before the page opens its connection (before `goto`)."""
    held: list[tuple[WebSocketRoute, str | bytes]] = []
    released = False

    def relay(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            if not released and carrying in str(message):
                held.append((ws, message))
            else:
                ws.send(message)

        server.on_message(to_page)
        ws.on_message(server.send)

    page.route_web_socket(re.compile(r".*/_event.*"), relay)

    def release() -> None:
        nonlocal released
        # The relay's callbacks run while the page waits.
        assert wait_for(lambda: held, page=page), f"no answer carrying {carrying!r} came"
        released = True
        for ws, message in held:
            ws.send(message)

    return release


def axe_violations(page: Page) -> list[str]:
    """axe-core's findings on the page as shown (WCAG 2.2 A/AA rules and best practices):
    rule, impact and the first target of each element."""
    results = AXE.run(page).response
    return [
        f"{violation['id']} ({violation['impact']}): "
        + "; ".join(node["target"][0] if node["target"] else "?" for node in violation["nodes"])
        for violation in results["violations"]
    ]
