"""Lighthouse 13 (npm, on the project's Node 22) with Debian's Chromium, mobile and desktop.

Every audit of a run goes to `lighthouse_runner.mjs` (one Node process, one Chromium);
each audit's full Lighthouse JSON stays in `bench/out/lighthouse/` for a closer look.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

from bench import config
from bench.config import LIGHTHOUSE_MODULES
from bench.phone import median
from rcxsite.tools.chromium import CHROMIUM

RUNNER = Path(__file__).with_name("lighthouse_runner.mjs")
CHROME_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu")
# Lighthouse audit id -> the report's name.
METRICS = {
    "first-contentful-paint": "FCP",
    "largest-contentful-paint": "LCP",
    "total-blocking-time": "TBT",
    "cumulative-layout-shift": "CLS",
}


@dataclass
class Audit:
    """One audit: category scores 0-100 and metrics (ms; CLS unitless), by name."""

    values: dict[str, float | None] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    error: str | None = None


def version() -> str:
    package = LIGHTHOUSE_MODULES / "lighthouse" / "package.json"
    return json.loads(package.read_text())["version"] if package.exists() else "missing"


def _parse(report: Path, error: str | None) -> Audit:
    if not report.exists():
        return Audit(error=error or "no report written")
    lhr = json.loads(report.read_text())
    scores = {
        name: lhr["categories"].get(name, {}).get("score") for name in config.LIGHTHOUSE_CATEGORIES
    }
    return Audit(
        {
            **{
                name: None if score is None else round(score * 100)
                for name, score in scores.items()
            },
            **{
                name: lhr["audits"].get(audit_id, {}).get("numericValue")
                for audit_id, name in METRICS.items()
            },
        },
        [str(warning) for warning in lhr.get("runWarnings", [])],
        error,
    )


def medians(audits: list[Audit]) -> dict[str, float | None]:
    """Medians over the audits that did not fail, by name."""
    good = [audit for audit in audits if audit.error is None]
    return {
        name: median(audit.values.get(name) for audit in good)
        for name in (*config.LIGHTHOUSE_CATEGORIES, *METRICS.values())
    }


def run(
    base_url: str, pages: tuple[str, ...], runs: int, out_dir: Path
) -> dict[tuple[str, str], list[Audit]]:
    """Every page with every preset, `runs` times (run-major); keyed by (page, preset)."""
    if not (LIGHTHOUSE_MODULES / "lighthouse").exists():
        raise SystemExit("Lighthouse is missing: `make bench` installs it into .tools/lighthouse")
    out_dir.mkdir(parents=True, exist_ok=True)
    jobs = [
        {
            "url": base_url + page,
            "preset": preset,
            "page": page,
            "output": str(
                out_dir / f"{page.strip('/').replace('/', '_') or 'home'}.{preset}.{i}.json"
            ),
        }
        for i in range(1, runs + 1)
        for page in pages
        for preset in config.LIGHTHOUSE_PRESETS
    ]
    jobs_path = out_dir / "jobs.json"
    jobs_path.write_text(json.dumps({"chromeFlags": CHROME_FLAGS, "jobs": jobs}, indent=1))
    process = subprocess.Popen(
        [str(config.NODE), str(RUNNER), str(LIGHTHOUSE_MODULES), str(jobs_path)],
        env={**os.environ, "CHROME_PATH": str(CHROMIUM)},
        stdout=subprocess.PIPE,
        text=True,
    )
    # A hung audit must not hang `make bench`: the audits left are reported as failed.
    watchdog = threading.Timer(config.LIGHTHOUSE_TIMEOUT_S * len(jobs), process.kill)
    watchdog.start()
    errors: dict[str, str | None] = {}
    try:
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith("{"):
                done = json.loads(line)
                errors[done["output"]] = done["error"]
                print(
                    f"  lighthouse {len(errors)}/{len(jobs)} {Path(done['output']).name}"
                    + (f"  ERROR {done['error'][:200]}" if done["error"] else ""),
                    file=sys.stderr,
                    flush=True,
                )
        if process.wait() != 0:
            print(f"  lighthouse runner exited with {process.returncode}", file=sys.stderr)
    finally:
        watchdog.cancel()
    results: dict[tuple[str, str], list[Audit]] = {}
    for job in jobs:
        audit = _parse(Path(job["output"]), errors.get(job["output"], "runner stopped"))
        results.setdefault((job["page"], job["preset"]), []).append(audit)
    return results
