"""Lighthouse 13 (npm, on the project's Node 22) with Debian's Chromium, mobile and desktop.

All audits of a run go to `lighthouse_runner.mjs` (one Node process, one Chromium); each
audit's full Lighthouse JSON stays in `bench/out/lighthouse/` for a closer look.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

from bench.config import (
    CHROMIUM,
    LIGHTHOUSE_CATEGORIES,
    LIGHTHOUSE_CHROME_FLAGS,
    LIGHTHOUSE_MODULES,
    LIGHTHOUSE_PRESETS,
    LIGHTHOUSE_TIMEOUT_S,
    NODE,
)

RUNNER = Path(__file__).with_name("lighthouse_runner.mjs")
# Lighthouse audit id -> the name the report uses.
METRICS: dict[str, str] = {
    "first-contentful-paint": "FCP",
    "largest-contentful-paint": "LCP",
    "total-blocking-time": "TBT",
    "cumulative-layout-shift": "CLS",
}


@dataclass
class Audit:
    """One Lighthouse run: category scores 0-100 and metric values (ms; CLS unitless)."""

    scores: dict[str, float | None] = field(default_factory=dict)
    metrics: dict[str, float | None] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    error: str | None = None


def version() -> str:
    package = LIGHTHOUSE_MODULES / "lighthouse" / "package.json"
    return json.loads(package.read_text())["version"] if package.exists() else "missing"


def parse(report_path: Path, error: str | None) -> Audit:
    if not report_path.exists():
        return Audit(error=error or "no report written")
    lhr = json.loads(report_path.read_text())
    audit = Audit(error=error, warnings=[str(w) for w in lhr.get("runWarnings", [])])
    for category in LIGHTHOUSE_CATEGORIES:
        score = lhr["categories"].get(category, {}).get("score")
        audit.scores[category] = None if score is None else round(score * 100)
    for audit_id, name in METRICS.items():
        audit.metrics[name] = lhr["audits"].get(audit_id, {}).get("numericValue")
    return audit


def run(base_url: str, pages: tuple[str, ...], runs: int,
        out_dir: Path) -> dict[tuple[str, str], list[Audit]]:
    """Audits of every page with every preset, `runs` times; keyed by (page, preset)."""
    if not LIGHTHOUSE_MODULES.joinpath("lighthouse").exists():
        raise SystemExit("Lighthouse is missing: `make bench` installs it into .tools/lighthouse")
    out_dir.mkdir(parents=True, exist_ok=True)
    jobs = []
    # Run-major order: a slow spell on the machine hits one run of every page, not
    # every run of one page, so the medians stay comparable.
    for run_index in range(runs):
        for page in pages:
            for preset in LIGHTHOUSE_PRESETS:
                slug = page.strip("/").replace("/", "_") or "home"
                output = out_dir / f"{slug}.{preset}.{run_index + 1}.json"
                jobs.append({"url": base_url + page, "preset": preset, "output": str(output),
                             "page": page})
    jobs_path = out_dir / "jobs.json"
    jobs_path.write_text(json.dumps({"chromeFlags": list(LIGHTHOUSE_CHROME_FLAGS),
                                     "jobs": jobs}, indent=1))
    env = {**os.environ, "CHROME_PATH": str(CHROMIUM)}
    process = subprocess.Popen(
        [str(NODE), str(RUNNER), str(LIGHTHOUSE_MODULES), str(jobs_path)],
        env=env, stdout=subprocess.PIPE, text=True,
    )
    # A hung audit must not hang `make bench`: the runs left get reported as failed.
    watchdog = threading.Timer(LIGHTHOUSE_TIMEOUT_S * len(jobs), process.kill)
    watchdog.start()
    errors: dict[str, str | None] = {}
    try:
        assert process.stdout is not None
        for line in process.stdout:
            if not line.startswith("{"):
                continue
            done = json.loads(line)
            errors[done["output"]] = done["error"]
            print(f"  lighthouse {len(errors)}/{len(jobs)} {Path(done['output']).name}"
                  + (f"  ERROR {done['error'][:200]}" if done["error"] else ""),
                  file=sys.stderr, flush=True)
        if process.wait() != 0:
            print(f"  lighthouse runner exited with {process.returncode}", file=sys.stderr)
    finally:
        watchdog.cancel()
    results: dict[tuple[str, str], list[Audit]] = {}
    for job in jobs:
        audit = parse(Path(job["output"]), errors.get(job["output"], "runner stopped"))
        results.setdefault((job["page"], job["preset"]), []).append(audit)
    return results
