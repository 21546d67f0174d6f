"""The Markdown report: medians first, then how they were measured, then every load."""

from __future__ import annotations

from dataclasses import dataclass

from bench import report_throughput
from bench.config import (
    INTERACTIONS,
    LIGHTHOUSE_CATEGORIES,
    LIGHTHOUSE_PRESETS,
    PHONE,
    TAP_INTERVAL_MS,
    Options,
)
from bench.environment import Environment
from bench.lighthouse import METRICS, Audit
from bench.micro import Timing
from bench.network import KINDS
from bench.summary import LighthouseSummary, PageLoads, PhoneSummary
from bench.targets import Check
from bench.throughput import Throughput

DASH = "–"


@dataclass
class Results:
    options: Options
    environment: Environment
    wall_seconds: float
    loads: dict[str, PageLoads]
    lighthouse: dict[tuple[str, str], list[Audit]] | None
    micro: list[Timing] | None
    argon2: str
    checks: list[Check]
    load_end: str
    throughput: Throughput | None = None


def seconds(ms: float | None) -> str:
    return DASH if ms is None else f"{ms / 1000:.2f} s"


def kib(size: float | None) -> str:
    return DASH if size is None else f"{size / 1024:.0f} KiB"


def count(value: float | None) -> str:
    return DASH if value is None else f"{value:g}"


def ratio(ours: float | None, floor: float | None, fmt) -> str:
    if ours is None or floor is None:
        return f"{fmt(ours)} / {fmt(floor)}"
    factor = f"{ours / floor:.1f}x" if floor else DASH
    return f"{fmt(ours)} / {fmt(floor)} = **{factor}**"


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _header(results: Results) -> str:
    env, options = results.environment, results.options
    minutes, secs = divmod(round(results.wall_seconds), 60)
    versions = ", ".join(f"{name} {value}" for name, value in env.versions.items())
    scope = "full run" if options.is_full else "**partial run** (quick iteration options)"
    if options.only_scaled:
        measured = "the throughput part only (5)"
    else:
        measured = (f"{options.runs} run(s) per page, pages "
                    + ", ".join(f"`{page}`" for page in options.pages)
                    + ("" if options.lighthouse else "; Lighthouse skipped")
                    + ("" if options.floor else "; floor skipped")
                    + ("" if options.micro else "; micro-benchmarks skipped")
                    + ("" if options.scaled else "; throughput part skipped"))
    if options.scaled:
        measured += f"; {options.seconds} s per throughput run, {options.workers} workers"
    return "\n".join([
        "# Performance bench (`make bench`)",
        "",
        f"- Date: {env.date}; git commit `{env.commit}`; wall time {minutes} min {secs} s",
        f"- Machine: {env.machine}; load average (1, 5, 15 min) at start {env.load}, "
        f"at end {results.load_end}",
        f"- Versions: {versions}",
        f"- Scope: {scope}: {measured}"
        + (f"; site at {options.url}" if options.url else ""),
        "",
        "Figures are medians of the runs. Issues 8 (pages on a phone) and 10 (throughput) "
        "have the targets and why they matter.",
    ])


def _targets(checks: list[Check]) -> str:
    mark = {True: "yes", False: "**no**", None: DASH}
    rows = [[c.what, c.target, c.measured, mark[c.met]] for c in checks]
    return "## Targets (issues 8 and 10)\n\n" + _table(["What", "Target", "Measured", "Met"], rows)


def _phone(loads: dict[str, PageLoads]) -> str:
    rows = []
    for page, runs in loads.items():
        s = PhoneSummary.of(runs.paint, runs.tap)
        answered = seconds(s.interactive)
        if s.interaction and s.interaction != INTERACTIONS[0].label:
            answered += f" ({s.interaction})"
        rows.append([f"`{page}`", seconds(s.fcp), seconds(s.lcp), answered,
                     kib(s.transferred), count(s.requests), count(s.redirects),
                     str(s.failures) if s.failures else ""])
    return "\n".join([
        "## 1. Phone profile, applied for real",
        "",
        f"Chromium via Playwright, {PHONE.width}x{PHONE.height} at {PHONE.device_scale_factor}x, "
        f"cache off, fresh context per load; CDP network {PHONE.latency_ms:g} ms latency, "
        f"{PHONE.download_kbps:g} kbit/s down, {PHONE.upload_kbps:g} kbit/s up; CPU "
        f"{PHONE.cpu_slowdown:g}x slower.",
        "",
        _table(["Page", "FCP", "LCP", "Tap answered", "Transferred", "Requests",
                "Redirects", "Failed loads"], rows),
    ])


def _floor(loads: dict[str, PageLoads]) -> str:
    rows = []
    for page, runs in loads.items():
        ours, floor = PhoneSummary.of(runs.paint), PhoneSummary.of(runs.floor)
        rows.append([f"`{page}`", ratio(ours.fcp, floor.fcp, seconds),
                     ratio(ours.lcp, floor.lcp, seconds),
                     ratio(ours.transferred, floor.transferred, kib),
                     ratio(ours.requests, floor.requests, count)])
    return "\n".join([
        "## 2. Ours against the floor (same pages, static HTML without scripts, nginx gzip)",
        "",
        "Each cell: ours / floor = ratio, phone profile as in 1.",
        "",
        _table(["Page", "FCP", "LCP", "Transferred", "Requests"], rows),
    ])


def _lighthouse(audits: dict[tuple[str, str], list[Audit]], pages: tuple[str, ...]) -> str:
    parts = ["## 3. Lighthouse (simulated throttling, default settings per preset)"]
    warnings: set[str] = set()
    for preset in LIGHTHOUSE_PRESETS:
        rows = []
        for page in pages:
            runs = audits.get((page, preset), [])
            s = LighthouseSummary.of(runs)
            warnings.update(s.warnings)
            perf = [a.scores.get("performance") for a in runs if a.error is None]
            spread = sorted(p for p in perf if p is not None)
            scores = [count(s.scores.get(category)) for category in LIGHTHOUSE_CATEGORIES]
            if len(spread) > 1:
                scores[0] += f" ({spread[0]:g}{DASH}{spread[-1]:g})"
            cls = s.metrics.get("CLS")
            rows.append([f"`{page}`", *scores, seconds(s.metrics.get("FCP")),
                         seconds(s.metrics.get("LCP")),
                         DASH if s.metrics.get("TBT") is None else f"{s.metrics['TBT']:.0f} ms",
                         DASH if cls is None else f"{cls:.3f}",
                         f"{s.failures}/{s.runs}" if s.failures else ""])
        parts += ["", f"### {preset.capitalize()}", "",
                  _table(["Page", "Performance (range)", "Accessibility", "Best practices", "SEO",
                          *METRICS.values(), "Failed runs"], rows)]
    if warnings:
        parts += ["", "Lighthouse warnings:", *[f"- {w}" for w in sorted(warnings)]]
    return "\n".join(parts)


def _bytes(loads: dict[str, PageLoads]) -> str:
    rows = []
    for page, runs in loads.items():
        s = PhoneSummary.of(runs.paint)
        rows.append([f"`{page}`", *[kib(s.by_kind[kind]) for kind in KINDS], kib(s.transferred)])
    return "\n".join([
        "## 4. Bytes per page by kind (compressed, as transferred; headers included)",
        "",
        _table(["Page", "JS", "CSS", "HTML", "Images", "Fonts", "Other", "Total"], rows),
    ])


def _micro(timings: list[Timing], argon2: str) -> str:
    rows = [[t.label, f"{t.median_ms:.3f} ms", f"{t.min_ms:.3f} {DASH} {t.max_ms:.3f} ms",
             str(t.runs)] for t in timings]
    return "\n".join(["## Micro-benchmarks", "", argon2, "",
                      _table(["What", "Median", "Range", "Runs"], rows)])


_INTERACTIONS = "\n".join(
    f'  - "{i.button_name}", answered when `{i.answered}` is visible ({i.label});'
    for i in INTERACTIONS
)
_METHOD = f"""\
## How it is measured

- **FCP, LCP** (1, 2): `PerformanceObserver` entries (`paint`, `largest-contentful-paint`,
  buffered), read in the page, from navigation start. They come from loads nobody touches:
  Chromium stops reporting LCP candidates at the first input.
- **Tap answered** (1): a separate cold load. From first paint on, a button is tapped
  (touch events through CDP) every {TAP_INTERVAL_MS} ms until what it shows is visible;
  the time is the first animation frame after that, from navigation start. A tap before
  hydration does nothing, so this is when the page first answers a visitor. Resolution:
  about the tap interval plus the time the busy main thread takes to handle a tap. The
  button is the first of these the page has:
{_INTERACTIONS}
- **Transferred, requests** (1, 2, 4): every request until the network has been idle for
  500 ms after `load` (CDP `Network.loadingFinished` `encodedDataLength`; redirects count
  as requests; WebSocket traffic does not count).
- **Floor** (2): the built `.web/build/client` copied with every `<script>` and
  `<link rel=modulepreload>` removed, served by nginx (gzip level 6, about what the
  build's precompressed files are), measured like ours.
- **Lighthouse** (3): one Node process, one headless Chromium, every audit with Lighthouse's
  own clean-up (cache and origin storage) before it; JSON in `bench/out/lighthouse/`.
- Pages are requested without a trailing slash, as listed; a redirect to the slash form is
  part of what is measured (1, 2, 3).
- The machine was shared with other work; single figures can be off by a few hundred ms.
"""


def _raw(loads: dict[str, PageLoads]) -> str:
    rows = []
    for page, runs in loads.items():
        for label, series in (("paint", runs.paint), ("tap", runs.tap), ("floor", runs.floor)):
            for index, load in enumerate(series, 1):
                rows.append([f"`{page}`", label, str(index), seconds(load.fcp), seconds(load.lcp),
                             seconds(load.interactive), kib(load.transferred),
                             str(load.requests), str(len(load.page_errors)), load.error or ""])
    return "\n".join([
        "<details><summary>Every phone-profile load</summary>",
        "",
        _table(["Page", "Load", "Run", "FCP", "LCP", "Tap answered", "Transferred",
                "Requests", "JS errors", "Failure"], rows),
        "",
        "</details>",
    ])


def render(results: Results) -> str:
    sections = [_header(results), _targets(results.checks)]
    phone = results.options.phone
    if phone:
        sections.append(_phone(results.loads))
    if phone and results.options.floor:
        sections.append(_floor(results.loads))
    if results.lighthouse is not None:
        sections.append(_lighthouse(results.lighthouse, results.options.pages))
    if phone:
        sections.append(_bytes(results.loads))
    throughput = report_throughput.render(results.throughput)
    if throughput is not None:
        sections.append(throughput)
    if results.micro is not None:
        sections.append(_micro(results.micro, results.argon2))
    if phone:
        sections += [_METHOD.rstrip(), _raw(results.loads)]
    return "\n\n".join(sections) + "\n"
