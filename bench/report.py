"""The Markdown report: where and with what it ran, the targets, then each part's figures."""

from __future__ import annotations

import datetime as dt
import os
import platform
import re
import subprocess
from dataclasses import dataclass
from importlib.metadata import version

from bench import config, lighthouse
from bench.config import PHONE
from bench.phone import PageLoads
from bench.targets import Check, limit
from bench.throughput import NGINX_ALONE, SCALED, Throughput
from rcxsite.platform.settings import get_settings
from rcxsite.tools.chromium import CHROMIUM
from rcxsite.tools.run_scaled import NGINX

DASH = "–"


def _output(*command: str) -> str:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=30, cwd=config.ROOT)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() or done.stderr.strip()  # nginx -v writes to stderr


def load_average(values: tuple[float, ...] = ()) -> str:
    return " ".join(f"{value:.2f}" for value in values or os.getloadavg())


def environment() -> dict[str, str]:
    """Taken at the start of a run: the date, the machine, the versions, the commit."""

    def tool(path: object, flag: str) -> str:  # "Chromium 156.0.8078.79 built on" -> number
        found = re.search(r"\d+(?:\.\d+)+", _output(str(path), flag))
        return found.group(0) if found else "missing"

    cpu = re.search(r"^model name\s*:\s*(.+)$", _output("cat", "/proc/cpuinfo"), re.MULTILINE)
    memory_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    # The report is rewritten by every run: its own changes do not make the code dirty.
    dirty = _output(
        "git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!bench/REPORT.md"
    )
    versions = {
        "Python": platform.python_version(),
        "Reflex": version("reflex"),
        "Playwright": version("playwright"),
        "Chromium": tool(CHROMIUM, "--version"),
        "Lighthouse": lighthouse.version(),
        "Node": tool(config.NODE, "--version"),
        "nginx": tool(NGINX, "-v"),
        "wrk": tool(config.WRK, "--version"),
    }
    return {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{cpu.group(1) if cpu else platform.processor()}, {os.cpu_count()} cores, "
        f"{memory_gib:.0f} GiB RAM, {platform.system()} {platform.release()}",
        "load": load_average(),
        "versions": ", ".join(f"{name} {value}" for name, value in versions.items()),
        "commit": _output("git", "rev-parse", "--short", "HEAD")
        + (" (with uncommitted changes)" if dirty else ""),
    }


@dataclass
class Results:
    options: config.Options
    environment: dict[str, str]
    wall_seconds: float
    checks: list[Check]
    loads: dict[str, PageLoads]
    audits: dict[tuple[str, str], list[lighthouse.Audit]] | None
    throughput: Throughput | None


def _f(value: float | None, pattern: str, scale: float = 1) -> str:
    return DASH if value is None else pattern.format(value / scale)


def _ms(value: float | None) -> str:
    return _f(value, "{:.2f} ms" if value is None or value < 100 else "{:.0f} ms")


def _table(header: list[str], rows: list[list[str]]) -> str:
    return "\n".join(
        [
            "| " + " | ".join(header) + " |",
            "|" + "---|" * len(header),
            *("| " + " | ".join(row) + " |" for row in rows),
        ]
    )


def _header(results: Results) -> str:
    env, options = results.environment, results.options
    minutes, seconds = divmod(round(results.wall_seconds), 60)
    measured = (
        "the throughput part only (3)"
        if options.only_scaled
        else (
            f"{options.runs} run(s) per page, pages "
            + ", ".join(f"`{p}`" for p in options.pages)
            + ("" if options.lighthouse else "; Lighthouse skipped")
            + ("" if options.scaled else "; throughput part skipped")
        )
    )
    if options.scaled:
        measured += f"; {options.seconds} s per throughput run, {options.workers} workers"
    scope = (
        "full run" if options == config.Options() else "**partial run** (quick iteration options)"
    )
    return "\n".join(
        [
            "# Performance bench (`make bench`)",
            "",
            f"- Date: {env['date']}; git commit `{env['commit']}`; wall time {minutes} min "
            f"{seconds} s",
            f"- Machine: {env['machine']}; load average (1, 5, 15 min) at start {env['load']}, "
            f"at end {load_average()}",
            f"- Versions: {env['versions']}",
            f"- Scope: {scope}: {measured}" + (f"; site at {options.url}" if options.url else ""),
            "",
            "Figures are medians of the runs. The targets (pages on a phone, throughput) are "
            "bench/targets.py's.",
        ]
    )


def _targets(checks: list[Check]) -> str:
    mark = {True: "yes", False: "**no**", None: DASH}
    return "## Targets (bench/targets.py)\n\n" + _table(
        ["What", "Target", "Measured", "Met", "How measured"],
        [[c.target.what, limit(c.target), c.measured, mark[c.met], c.target.how] for c in checks],
    )


def _phone(loads: dict[str, PageLoads]) -> str:
    rows = []
    for page, runs in loads.items():
        f = runs.figures()
        tapped = next((load.interaction for load in runs.tap if load.interaction), None)
        failed = sum(load.error is not None for load in [*runs.paint, *runs.tap])
        rows.append(
            [
                f"`{page}`",
                _f(f["fcp"], "{:.2f} s"),
                _f(f["lcp"], "{:.2f} s"),
                _f(f["tap"], "{:.2f} s")
                + (f" ({tapped})" if tapped not in {None, config.INTERACTIONS[0].label} else ""),
                _f(f["js"], "{:.0f} KiB"),
                _f(f["bytes"], "{:.0f} KiB"),
                _f(f["requests"], "{:g}"),
                _f(f["redirects"], "{:g}"),
                str(failed or ""),
            ]
        )
    return "\n".join(
        [
            "## 1. Phone profile, applied for real",
            "",
            f"Chromium via Playwright, {PHONE.width}x{PHONE.height} at "
            f"{PHONE.device_scale_factor}x, "
            f"cache off, fresh context per load; CDP network {PHONE.latency_ms:g} ms latency, "
            f"{PHONE.download_kbps:g} kbit/s down, {PHONE.upload_kbps:g} kbit/s up; CPU "
            f"{PHONE.cpu_slowdown:g}x slower. FCP and LCP from loads nobody touches; *tap "
            "answered*: a separate load, tapped from first paint on every "
            f"{config.TAP_INTERVAL_MS} ms until the menu (`/log-in`: the password) shows. Bytes "
            "as transferred (compressed, headers included) until the network is idle for "
            f"{config.SETTLE_MS} ms after `load`; every load in `bench/out/loads.json`.",
            "",
            _table(
                [
                    "Page",
                    "FCP",
                    "LCP",
                    "Tap answered",
                    "JavaScript",
                    "Transferred",
                    "Requests",
                    "Redirects",
                    "Failed loads",
                ],
                rows,
            ),
        ]
    )


def _lighthouse(audits: dict[tuple[str, str], list[lighthouse.Audit]]) -> str:
    parts = [
        "## 2. Lighthouse (simulated throttling, default settings per preset)",
        "",
        "One Node process, one headless Chromium, Lighthouse's own clean-up before each "
        "audit; every audit's JSON in `bench/out/lighthouse/`.",
    ]
    for preset in config.LIGHTHOUSE_PRESETS:
        rows = []
        for page, runs in ((page, runs) for (page, p), runs in audits.items() if p == preset):
            m = lighthouse.medians(runs)
            failed = sum(audit.error is not None for audit in runs)
            rows.append(
                [
                    f"`{page}`",
                    *(_f(m[c], "{:g}") for c in config.LIGHTHOUSE_CATEGORIES),
                    _f(m["FCP"], "{:.2f} s", 1000),
                    _f(m["LCP"], "{:.2f} s", 1000),
                    _f(m["TBT"], "{:.0f} ms"),
                    _f(m["CLS"], "{:.3f}"),
                    f"{failed}/{len(runs)}" if failed else "",
                ]
            )
        parts += [
            "",
            f"### {preset.capitalize()}",
            "",
            _table(
                [
                    "Page",
                    "Performance",
                    "Accessibility",
                    "Best practices",
                    "SEO",
                    *lighthouse.METRICS.values(),
                    "Failed runs",
                ],
                rows,
            ),
        ]
    warnings = sorted({w for runs in audits.values() for audit in runs for w in audit.warnings})
    if warnings:
        parts += ["", "Lighthouse warnings:", *(f"- {w}" for w in warnings)]
    return "\n".join(parts)


def _throughput(t: Throughput) -> str:
    parts = ["## 3. Throughput: run-scaled against nginx alone", ""]
    if t.skipped:
        return "\n".join([*parts, f"Not measured: {t.skipped}."])
    if t.failure:
        parts += [f"**Failed part-way:** `{t.failure}` (trace on stderr).", ""]
    scaled = f"{SCALED} ({t.workers} workers)"
    rows = [
        [
            f"`{page}`",
            scaled if target == SCALED else target,
            _f(run.requests_per_s, "{:,.0f}"),
            _ms(run.p50_ms),
            _ms(run.p99_ms),
            _f(t.ratio(page), "**{:.2f}x** nginx alone") if target == SCALED else "",
            str(run.errors or ""),
            run.failure or "",
        ]
        for page, runs in t.pages.items()
        for target, run in runs.items()
    ]
    if (run := t.logins) is not None:
        rows.append(
            [
                "logins",
                scaled,
                _f(run.requests_per_s, "{:.1f}"),
                _ms(run.p50_ms),
                _ms(run.p99_ms),
                _f(t.login_ratio, "**{:.2f}x** ") + _f(t.login_limit, "the hashing limit, {:.1f}"),
                str(run.errors or ""),
                run.failure or "",
            ]
        )
    wrk = " ".join(f'"{arg}"' if " " in arg else arg for arg in config.WRK_COMMAND[1:])
    argon2 = get_settings()
    limits = ", ".join(f"`{name}` {value}" for name, value in config.SCALED_LIMITS.items())
    return "\n".join(
        [
            *parts,
            _table(
                [
                    "Page",
                    "Target",
                    "Requests/s",
                    "p50",
                    "p99",
                    "Ratio",
                    "Failed requests",
                    "Failure",
                ],
                rows,
            ),
            "",
            f"- Pages: `wrk {wrk} -c{config.PAGE_CONNECTIONS} -d{t.seconds}s` over loopback after "
            f"{config.WARM_UP_SECONDS} s of warm-up per target and page; a page's two targets run "
            "one after the other. *Failed requests*: answers other than 2xx/3xx, socket errors.",
            f"- Logins: `POST /api/v1/Auth/Login` at {config.LOGIN_CONNECTIONS} connections (wrk, "
            f"`--timeout 30s`) with the right password of {config.LOGIN_ACCOUNTS} accounts "
            "registered through the API, in turn. The hashing limit is workers / the median time "
            "of one `verify_password` (argon2id m="
            f"{argon2.argon2_memory_cost_kib} KiB, t={argon2.argon2_time_cost}, p="
            f"{argon2.argon2_parallelism}) in the bench's own process, "
            f"{_ms(t.hash_ms)} this run.",
            f"- {SCALED}: `python -m rcxsite.tools.run_scaled`, a fresh database at "
            f"{config.POSTGRES} (dropped after), Redis {config.REDIS} with a key prefix of its "
            f"own, limits raised so that they are not what is measured ({limits}). {NGINX_ALONE}: "
            "the same build and nginx configuration (`rcxsite/tools/scaled_config.py`) without "
            "workers.",
            f"- wrk and every server share this machine's {os.cpu_count()} cores; load average "
            f"before the throughput runs {load_average(t.load[0])}, after "
            f"{load_average(t.load[1])}; they took {t.wall_seconds:.0f} s including run-scaled's "
            "build.",
        ]
    )


def render(results: Results) -> str:
    sections = [_header(results), _targets(results.checks)]
    if results.options.phone:
        sections.append(_phone(results.loads))
    if results.audits is not None:
        sections.append(_lighthouse(results.audits))
    if results.throughput is not None:
        sections.append(_throughput(results.throughput))
    return "\n\n".join(sections) + "\n"
