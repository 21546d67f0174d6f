"""`make bench` (python -m bench): build the production site once, measure it, write the report.

Options come from the environment; see `bench/config.py` and the README.
"""

from __future__ import annotations

import shutil
import signal
import sys
import time
from contextlib import ExitStack

from playwright.sync_api import Browser, sync_playwright

from bench import floor, lighthouse, micro, report, scaled, throughput
from bench.config import OUT_DIR, REPORT_PATH, Options
from bench.environment import Environment, load_average
from bench.phone import Load, interaction_named, launch, measure
from bench.server import production_site
from bench.summary import LighthouseSummary, PageLoads, PhoneSummary
from bench.targets import check, check_throughput


def _log(load: Load, label: str) -> None:
    parts = [f"FCP {load.fcp or 0:.0f}"]
    if load.lcp is not None:
        parts.append(f"LCP {load.lcp:.0f}")
    if load.interactive is not None:
        parts.append(f"{load.interaction} {load.interactive:.0f}")
    parts.append(f"{load.transferred / 1024:.0f} KiB/{load.requests}")
    print(f"  {label}: " + " ".join(parts) + (f"  FAILED {load.error}" if load.error else ""),
          file=sys.stderr, flush=True)


def phone_runs(browser: Browser, site: str, floor_site: str | None,
               options: Options) -> dict[str, PageLoads]:
    loads = {page: PageLoads() for page in options.pages}
    # Run-major, and ours beside the floor: a slow spell on the shared machine then hits
    # one run of several pages, and both sides of a ratio alike.
    for run in range(1, options.runs + 1):
        for page, runs in loads.items():
            label = f"run {run}/{options.runs} {page}"
            runs.paint.append(measure(browser, site + page))
            _log(runs.paint[-1], f"{label} paint")
            # What to tap comes from this page's untouched load (a failed one: an earlier).
            offered = [load.interaction for load in runs.paint if load.interaction]
            interaction = interaction_named(offered[-1] if offered else None)
            if interaction is None:
                runs.tap.append(Load(error="nothing to tap: no control of INTERACTIONS"))
            else:
                runs.tap.append(measure(browser, site + page, tap=interaction))
                runs.tap[-1].interaction = interaction.label
            _log(runs.tap[-1], f"{label} tap")
            if floor_site is not None:
                runs.floor.append(measure(browser, floor_site + page))
                _log(runs.floor[-1], f"{label} floor")
    return loads


def _stop_on_sigterm(signum: int, _frame: object) -> None:
    # As Ctrl-C does: the `finally` blocks stop every server the bench started.
    raise SystemExit(128 + signum)


def main() -> int:
    options = Options.from_env()
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    started = time.monotonic()
    environment = Environment.capture()
    if OUT_DIR.exists():
        shutil.rmtree(OUT_DIR)
    OUT_DIR.mkdir(parents=True)
    loads: dict[str, PageLoads] = {}
    audits = timings = rates = None
    with ExitStack() as stack:
        # Only the throughput part, and it cannot run: no build, the report says why.
        wanted = options.phone or scaled.missing() is None
        site = (stack.enter_context(production_site(OUT_DIR / "server", options.url))
                if wanted else "")
        if options.phone:
            with ExitStack() as floor_stack:  # idle until the throughput runs: stopped before
                floor_site = (floor_stack.enter_context(floor.serve(OUT_DIR / "floor"))
                              if options.floor else None)
                print("phone profile ...", file=sys.stderr, flush=True)
                with sync_playwright() as playwright:
                    browser = launch(playwright)
                    loads = phone_runs(browser, site, floor_site, options)
                    browser.close()
            if options.lighthouse:
                print("lighthouse ...", file=sys.stderr, flush=True)
                audits = lighthouse.run(site, options.pages, options.runs, OUT_DIR / "lighthouse")
            if options.micro:
                print("micro-benchmarks ...", file=sys.stderr, flush=True)
                timings = micro.run(site)
        if options.scaled:
            print("throughput (issue 10) ...", file=sys.stderr, flush=True)
            rates = throughput.run(options, site, OUT_DIR / "scaled")
    checks = check(
        {page: PhoneSummary.of(runs.paint, runs.tap) for page, runs in loads.items()},
        None if audits is None else {key: LighthouseSummary.of(a) for key, a in audits.items()},
    ) if options.phone else []
    checks += check_throughput(rates)
    markdown = report.render(report.Results(
        options=options, environment=environment, wall_seconds=time.monotonic() - started,
        loads=loads, lighthouse=audits, micro=timings, argon2=micro.argon2_parameters(),
        checks=checks, load_end=load_average(), throughput=rates,
    ))
    REPORT_PATH.write_text(markdown)
    print(markdown)
    print(f"written to {REPORT_PATH.relative_to(REPORT_PATH.parents[1])}", file=sys.stderr)
    # A throughput part that broke (not one skipped for want of services) fails the run.
    return 1 if rates is not None and rates.failure else 0


if __name__ == "__main__":
    sys.exit(main())
