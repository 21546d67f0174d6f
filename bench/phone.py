"""Cold page loads in real Chromium with the phone profile applied for real (not simulated).

Each load gets a fresh browser context (empty cache, no cookies) and CDP throttling of
network and CPU before navigating. Two kinds of load per page and run:

- a *paint* load, never touched, gives FCP, LCP, bytes and requests. It must not be
  touched because Chromium stops reporting LCP candidates at the first user input. At
  its end it also finds which of INTERACTIONS the page offers;
- a *tap* load gives "interactive": from the first paint on, that control (the header's
  menu button) is tapped every TAP_INTERVAL_MS until what it shows (the menu) is
  visible. A tap before the app has hydrated does nothing, so the first tap that works
  marks the moment the page answers a visitor.

Times are read inside the page (relative to navigation start, `performance.timeOrigin`),
so the round trips between Playwright and the browser do not add to them.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Browser, Locator, Page, Playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from bench.config import (
    CHROMIUM,
    CHROMIUM_ARGS,
    INTERACTIONS,
    LOAD_TIMEOUT_MS,
    PHONE,
    SETTLE_MS,
    TAP_INTERVAL_MS,
    Interaction,
    PhoneProfile,
)
from bench.network import Fetch, NetworkLog

# Installed before any of the page's own scripts. The MutationObserver that watches for
# the answer to a tap starts only at the first touch, so it costs nothing while the page
# starts. `target` (a CSS selector) is set from Python before the first tap.
_PROBE = """
(() => {
  const probe = window.__bench = {fcp: null, lcp: null, target: null, answered: null};
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === "first-contentful-paint") probe.fcp = entry.startTime;
    }
  }).observe({type: "paint", buffered: true});
  new PerformanceObserver((list) => {
    const entries = list.getEntries();
    probe.lcp = entries[entries.length - 1].startTime;
  }).observe({type: "largest-contentful-paint", buffered: true});
  probe.visible = (selector) => {
    const element = document.querySelector(selector);
    return !!element && element.checkVisibility({visibilityProperty: true});
  };
  let watching = false;
  addEventListener("touchstart", () => {
    if (watching || probe.target === null) return;
    watching = true;
    const watch = new MutationObserver(() => {
      if (probe.answered === null && probe.visible(probe.target)) {
        // The frame that shows the answer: the next animation frame after the change.
        requestAnimationFrame(() => { probe.answered = performance.now(); });
        watch.disconnect();
      }
    });
    watch.observe(document, {childList: true, subtree: true, attributes: true});
  }, {capture: true, passive: true});
})();
"""


@dataclass
class Load:
    """One cold load: times in ms since navigation start, None when not reached."""

    fcp: float | None = None
    lcp: float | None = None
    interactive: float | None = None
    # Paint loads: the label of the first of INTERACTIONS the page offers, if any.
    interaction: str | None = None
    fetches: list[Fetch] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def transferred(self) -> int:
        return sum(fetch.bytes for fetch in self.fetches)

    @property
    def requests(self) -> int:
        return len(self.fetches)

    @property
    def redirects(self) -> int:
        return sum(fetch.redirect for fetch in self.fetches)


def interaction_named(label: str | None) -> Interaction | None:
    return next((i for i in INTERACTIONS if i.label == label), None)


def launch(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS))


def _throttle(page: Page, profile: PhoneProfile) -> NetworkLog:
    cdp = page.context.new_cdp_session(page)
    log = NetworkLog()
    log.attach(cdp)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False,
        "latency": profile.latency_ms,
        "downloadThroughput": profile.bytes_per_second(profile.download_kbps),
        "uploadThroughput": profile.bytes_per_second(profile.upload_kbps),
    })
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": profile.cpu_slowdown})
    return log


def _button(page: Page, interaction: Interaction) -> Locator:
    return page.get_by_role("button", name=interaction.button_name, exact=True).first


def _offered(page: Page) -> str | None:
    for interaction in INTERACTIONS:
        if _button(page, interaction).count():
            return interaction.label
    return None


def _tap_until_answered(page: Page, interaction: Interaction, load: Load) -> None:
    page.wait_for_function("() => window.__bench && window.__bench.fcp !== null",
                           polling=TAP_INTERVAL_MS, timeout=LOAD_TIMEOUT_MS)
    set_target = "(selector) => { __bench.target = selector; return __bench.visible(selector); }"
    if page.evaluate(set_target, interaction.answered):
        load.error = f"{interaction.answered} was visible before any tap"
        return
    button = _button(page, interaction)
    deadline = time.monotonic() + LOAD_TIMEOUT_MS / 1000
    while page.evaluate("() => __bench.answered") is None:
        if time.monotonic() > deadline:
            load.error = f"no answer to a tap on {interaction.button_name!r}"
            return
        # The button can drop out of the accessibility tree once the menu dialog is open
        # (aria-hidden on the rest of the page): then the tap times out, the loop decides.
        with contextlib.suppress(PlaywrightTimeout):
            # force: skip Playwright's actionability waits, a person just taps.
            button.tap(force=True, timeout=TAP_INTERVAL_MS * 20)
        page.wait_for_timeout(TAP_INTERVAL_MS)
    load.interactive = page.evaluate("() => __bench.answered")


def _settle(page: Page, log: NetworkLog) -> None:
    """Wait until no request has started or finished for SETTLE_MS.

    Playwright's "networkidle" can come before the favicon, which Chromium fetches only
    after `load`; without this the request count of a page varied between runs.
    """
    deadline = time.monotonic() + LOAD_TIMEOUT_MS / 1000
    seen = -1
    while (len(log.fetches) != seen or log.pending) and time.monotonic() < deadline:
        seen = len(log.fetches)
        page.wait_for_timeout(SETTLE_MS)


def measure(browser: Browser, url: str, *, tap: Interaction | None = None,
            profile: PhoneProfile = PHONE) -> Load:
    """One cold load of `url`: a paint load, or with `tap` the time until it is answered."""
    context = browser.new_context(
        viewport={"width": profile.width, "height": profile.height},
        device_scale_factor=profile.device_scale_factor,
        is_mobile=True,
        has_touch=True,
    )
    load = Load()
    try:
        context.add_init_script(_PROBE)
        page = context.new_page()
        page.set_default_timeout(LOAD_TIMEOUT_MS)
        page.on("pageerror", lambda error: load.page_errors.append(str(error)))
        log = _throttle(page, profile)
        if tap is not None:
            page.goto(url, wait_until="commit")
            _tap_until_answered(page, tap, load)
        else:
            page.goto(url, wait_until="load")
            # Late requests (lazy images, chunks fetched after hydration) count too.
            page.wait_for_load_state("networkidle")
            _settle(page, log)
            load.interaction = _offered(page)
        probe: dict[str, Any] = page.evaluate("() => ({fcp: __bench.fcp, lcp: __bench.lcp})")
        # After a tap Chromium reports no more LCP candidates: only untouched loads have one.
        load.fcp, load.lcp = probe["fcp"], None if tap else probe["lcp"]
        load.fetches = list(log.fetches)
    except PlaywrightTimeout as error:
        load.error = f"timeout: {error.message.splitlines()[0]}"
    finally:
        context.close()
    return load
