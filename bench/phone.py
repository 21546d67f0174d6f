"""Cold page loads in real Chromium with the phone profile applied for real (not simulated).

Each load gets a fresh browser context (empty cache) and CDP throttling of network and
CPU. A *paint* load is never touched (Chromium stops reporting LCP candidates at the first
input): FCP, LCP, every fetch. A *tap* load taps the page's control from the first paint
on until what it shows is visible: a tap before hydration does nothing, so the first that
works is when the page answers a visitor. Times are read inside the page, from navigation
start: the round trips between Playwright and the browser do not add to them.
"""

from __future__ import annotations

import contextlib
import statistics
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Browser, Locator, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from bench import config
from bench.config import INTERACTIONS, LOAD_TIMEOUT_MS, PHONE, Interaction
from rcxsite.tools.chromium import CHROMIUM, CHROMIUM_ARGS

# Installed before the page's own scripts. The observer that watches for the answer to a
# tap starts at the first touch, so it costs nothing while the page starts.
_PROBE = """(() => {
  const probe = window.__bench = {fcp: null, lcp: null, target: null, answered: null};
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.name === "first-contentful-paint") probe.fcp = e.startTime;
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
})();"""


@dataclass
class Load:
    """One cold load: times in ms since navigation start, None when not reached; bytes as
    transferred (CDP `encodedDataLength`: compressed, headers included)."""

    fcp: float | None = None
    lcp: float | None = None
    interactive: float | None = None
    interaction: str | None = None  # paint loads: the first of INTERACTIONS the page has
    bytes: int = 0
    js_bytes: int = 0  # by MIME type, or CDP's resource type for answers without one
    requests: int = 0
    redirects: int = 0
    page_errors: int = 0
    error: str | None = None


class _NetworkLog:
    """Every fetch of a page from CDP's Network events. A redirect reuses its request's id:
    the hop just answered is a fetch of its own. WebSocket traffic is no request here."""

    def __init__(self, cdp: Any, load: Load) -> None:
        self.load, self.open, self.events = load, {}, 0
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.responseReceived", self._response)
        cdp.on(
            "Network.loadingFinished",
            lambda e: self._close(e["requestId"], e.get("encodedDataLength", 0)),
        )
        cdp.on("Network.loadingFailed", lambda e: self._close(e["requestId"], 0))

    def _sent(self, event: dict[str, Any]) -> None:
        if not event["request"]["url"].startswith("data:"):
            if (redirect := event.get("redirectResponse")) and event["requestId"] in self.open:
                self.load.redirects += 1
                self._close(event["requestId"], redirect.get("encodedDataLength", 0))
            self.open[event["requestId"]] = ("", event.get("type", ""))
            self.events += 1

    def _response(self, event: dict[str, Any]) -> None:
        if event["requestId"] in self.open:
            self.open[event["requestId"]] = (
                event["response"].get("mimeType", ""),
                event.get("type", ""),
            )

    def _close(self, request_id: str, size: float) -> None:
        if (entry := self.open.pop(request_id, None)) is not None:
            self.load.bytes += int(size)
            if "javascript" in entry[0].lower() or entry[1] == "Script":
                self.load.js_bytes += int(size)
            self.load.requests += 1
            self.events += 1


def _button(page: Page, interaction: Interaction) -> Locator:
    return page.get_by_role("button", name=interaction.button_name, exact=True).first


def _tap_until_answered(page: Page, interaction: Interaction, load: Load) -> None:
    page.wait_for_function(
        "() => window.__bench && window.__bench.fcp !== null",
        polling=config.TAP_INTERVAL_MS,
        timeout=LOAD_TIMEOUT_MS,
    )
    if page.evaluate(
        "(s) => { __bench.target = s; return __bench.visible(s); }", interaction.answered
    ):
        load.error = f"{interaction.answered} was visible before any tap"
        return
    deadline = time.monotonic() + LOAD_TIMEOUT_MS / 1000
    while (answered := page.evaluate("() => __bench.answered")) is None:
        if time.monotonic() > deadline:
            load.error = f"no answer to a tap on {interaction.button_name!r}"
            return
        # Once the menu dialog is open the button may leave the accessibility tree and the
        # tap time out: the loop decides. force: no actionability waits, a person just taps.
        with contextlib.suppress(PlaywrightTimeout):
            _button(page, interaction).tap(force=True, timeout=config.TAP_INTERVAL_MS * 20)
        page.wait_for_timeout(config.TAP_INTERVAL_MS)
    load.interactive = answered


def measure(browser: Browser, url: str, tap: Interaction | None = None) -> Load:
    """One cold load of `url`: a paint load, or with `tap` the time until it is answered."""
    context = browser.new_context(
        viewport={"width": PHONE.width, "height": PHONE.height},
        device_scale_factor=PHONE.device_scale_factor,
        is_mobile=True,
        has_touch=True,
    )
    load = Load()
    try:
        context.add_init_script(_PROBE)
        page = context.new_page()
        page.set_default_timeout(LOAD_TIMEOUT_MS)
        page.on("pageerror", lambda _error: setattr(load, "page_errors", load.page_errors + 1))
        cdp = context.new_cdp_session(page)
        log = _NetworkLog(cdp, load)
        for method, params in (
            ("Network.enable", {}),
            ("Network.setCacheDisabled", {"cacheDisabled": True}),
            (
                "Network.emulateNetworkConditions",
                {
                    "offline": False,
                    "latency": PHONE.latency_ms,
                    "downloadThroughput": PHONE.download_kbps * 1024 / 8,
                    "uploadThroughput": PHONE.upload_kbps * 1024 / 8,
                },
            ),
            ("Emulation.setCPUThrottlingRate", {"rate": PHONE.cpu_slowdown}),
        ):
            cdp.send(method, params)
        if tap is not None:
            page.goto(url, wait_until="commit")
            _tap_until_answered(page, tap, load)
        else:
            page.goto(url, wait_until="load")
            page.wait_for_load_state("networkidle")
            # "networkidle" can come before the favicon, fetched only after `load`.
            deadline, seen = time.monotonic() + LOAD_TIMEOUT_MS / 1000, -1
            while (log.events != seen or log.open) and time.monotonic() < deadline:
                seen = log.events
                page.wait_for_timeout(config.SETTLE_MS)
            load.interaction = next(
                (i.label for i in INTERACTIONS if _button(page, i).count()), None
            )
            load.lcp = page.evaluate("() => __bench.lcp")
        load.fcp = page.evaluate("() => __bench.fcp")
    except PlaywrightTimeout as error:
        load.error = f"timeout: {error.message.splitlines()[0]}"
    finally:
        context.close()
    return load


def median(values: Iterable[float | None]) -> float | None:
    present = [value for value in values if value is not None]
    return statistics.median(present) if present else None


@dataclass
class PageLoads:
    paint: list[Load] = field(default_factory=list)
    tap: list[Load] = field(default_factory=list)

    def figures(self) -> dict[str, float | None]:
        """Medians over the loads that did not fail, in seconds and KiB."""
        paint = [load for load in self.paint if load.error is None]
        taps = [load.interactive for load in self.tap if load.error is None]
        return {
            "fcp": median(load.fcp and load.fcp / 1000 for load in paint),
            "lcp": median(load.lcp and load.lcp / 1000 for load in paint),
            "tap": median(ms and ms / 1000 for ms in taps),
            "bytes": median(load.bytes / 1024 for load in paint),
            "js": median(load.js_bytes / 1024 for load in paint),
            "requests": median(load.requests for load in paint),
            "redirects": median(load.redirects for load in paint),
        }


def run(site: str, pages: tuple[str, ...], runs: int) -> dict[str, PageLoads]:
    """Run-major: a slow spell of the shared machine hits one run of every page, not every
    run of one page."""
    loads = {page: PageLoads() for page in pages}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS)
        )
        for index in range(1, runs + 1):
            for page, done in loads.items():
                done.paint.append(measure(browser, site + page))
                # What to tap comes from this page's untouched loads.
                offered = [load.interaction for load in done.paint if load.interaction]
                tap = next((i for i in INTERACTIONS if offered and i.label == offered[-1]), None)
                done.tap.append(
                    measure(browser, site + page, tap)
                    if tap
                    else Load(error="nothing to tap: no control of INTERACTIONS")
                )
                done.tap[-1].interaction = tap and tap.label
                for kind, load in (("paint", done.paint[-1]), ("tap", done.tap[-1])):
                    print(
                        f"  run {index}/{runs} {page} {kind}: FCP {load.fcp or 0:.0f} LCP "
                        f"{load.lcp or 0:.0f} tap {load.interactive or 0:.0f} "
                        f"{load.bytes / 1024:.0f} KiB/{load.requests} "
                        f"{load.error or ''}",
                        file=sys.stderr,
                        flush=True,
                    )
        browser.close()
    return loads
