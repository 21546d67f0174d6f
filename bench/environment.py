"""Where and with what a run measured: the report's header."""

from __future__ import annotations

import datetime as dt
import os
import platform
import re
import subprocess
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from pathlib import Path

from bench import lighthouse
from bench.config import CHROMIUM, NGINX, NODE, ROOT, WRK


def _output(command: list[str]) -> str:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=30, cwd=ROOT)
    except (OSError, subprocess.TimeoutExpired):
        return "missing"
    # nginx -v writes to stderr.
    return (done.stdout.strip() or done.stderr.strip() or "missing").splitlines()[0]


def _tool_version(command: list[str]) -> str:
    """Just the number: "Chromium 156.0.8078.79 built on Debian ..." -> "156.0.8078.79"."""
    found = re.search(r"\d+(?:\.\d+)+", _output(command))
    return found.group(0) if found else "missing"


def _package(name: str) -> str:
    try:
        return package_version(name)
    except PackageNotFoundError:
        return "missing"


def cpu_model() -> str:
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def git_commit() -> str:
    commit = _output(["git", "rev-parse", "--short", "HEAD"])
    # The report itself is rewritten by every run: its changes do not make the code dirty.
    dirty = _output(["git", "status", "--porcelain", "--untracked-files=no", "--",
                     ".", ":!bench/REPORT.md"])
    return commit + (" (with uncommitted changes)" if dirty not in {"", "missing"} else "")


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


@dataclass(frozen=True)
class Environment:
    date: str
    machine: str
    load: str
    versions: dict[str, str]
    commit: str

    @classmethod
    def capture(cls) -> Environment:
        memory_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
        return cls(
            date=dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            machine=f"{cpu_model()}, {os.cpu_count()} cores, {memory_gib:.0f} GiB RAM, "
                    f"{platform.system()} {platform.release()}",
            load=load_average(),
            versions={
                "Python": platform.python_version(),
                "Reflex": _package("reflex"),
                "Playwright": _package("playwright"),
                "Chromium": _tool_version([str(CHROMIUM), "--version"]),
                "Lighthouse": lighthouse.version(),
                "Node": _tool_version([str(NODE), "--version"]),
                "nginx": _tool_version([str(NGINX), "-v"]),
                "wrk": _tool_version([str(WRK), "--version"]),
            },
            commit=git_commit(),
        )
