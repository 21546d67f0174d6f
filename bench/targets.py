"""The bench's targets for pages on a phone and for throughput, in one table.

A target names a figure of the run (see `figures` in bench/__main__.py: a value per page)
and the pages whose worst value counts. A figure missing from a run (a part skipped by
its options) leaves its targets out of the report; a figure without a value on a page
that should have one is "not measured".
"""

from __future__ import annotations

from dataclasses import dataclass

from bench.config import HOME, LIGHTHOUSE_PRESETS, NOINDEX_PAGES


@dataclass(frozen=True)
class Target:
    what: str
    figure: str
    at_most: bool
    limit: float
    unit: str
    how: str
    pages: str = "every"  # "home", "every" or "indexed" (not NOINDEX_PAGES)


_PHONE = "phone profile, median of the cold loads"
_LH = "Lighthouse, median of the audits"
_SCORES = (
    ("performance", "performance"),
    ("accessibility", "accessibility"),
    ("best-practices", "best practices"),
)

TARGETS: tuple[Target, ...] = (
    Target("FCP, home", "fcp", True, 1.2, "s", _PHONE, "home"),
    Target("FCP, every page", "fcp", True, 1.5, "s", _PHONE),
    Target("LCP, home", "lcp", True, 1.5, "s", _PHONE, "home"),
    Target(
        "A tap opens the menu, every page (`/log-in`: shows the password)",
        "tap",
        True,
        2.5,
        "s",
        _PHONE,
    ),
    Target("Bytes transferred, home", "bytes", True, 180, "KiB", _PHONE, "home"),
    Target("JavaScript transferred, home", "js", True, 150, "KiB", _PHONE, "home"),
    Target(
        "Lighthouse mobile performance, home", "mobile performance", False, 100, "", _LH, "home"
    ),
    Target("Lighthouse mobile performance, every page", "mobile performance", False, 95, "", _LH),
    Target(
        "Lighthouse desktop performance, every page", "desktop performance", False, 100, "", _LH
    ),
    *(
        Target(
            f"Lighthouse {preset} {label}, every page", f"{preset} {category}", False, 100, "", _LH
        )
        for category, label in _SCORES[1:]
        for preset in LIGHTHOUSE_PRESETS
    ),
    *(
        Target(
            f"Lighthouse {preset} SEO, every indexed page",
            f"{preset} seo",
            False,
            100,
            "",
            _LH,
            "indexed",
        )
        for preset in LIGHTHOUSE_PRESETS
    ),
    Target(
        "Pages per second at 50 connections, run-scaled vs nginx alone",
        "pages vs nginx",
        False,
        0.8,
        "x",
        "wrk, one run per page and target",
    ),
    Target(
        "Failed page requests, run-scaled",
        "page errors",
        True,
        0,
        "",
        "wrk: answers other than 2xx/3xx, socket errors",
    ),
    Target(
        "Logins per second at 16 connections vs the hashing limit (workers / one hash)",
        "logins vs hashing",
        False,
        0.8,
        "x",
        "wrk on the REST API; one hash timed here",
    ),
    Target("Login errors", "login errors", True, 0, "", "wrk on the REST API"),
)


@dataclass(frozen=True)
class Check:
    target: Target
    measured: str
    met: bool | None  # None: not measured in this run


def _format(value: float, unit: str) -> str:
    if unit == "s":
        return f"{value:.2f} s"
    if unit == "x":
        return f"{value:.2f}x"
    return f"{value:.0f}" + (f" {unit}" if unit else "")


def limit(target: Target) -> str:
    if target.unit == "" and target.limit in {0, 100}:
        return f"{target.limit:g}"  # a perfect score, no errors
    unit = target.unit if target.unit in {"", "x"} else f" {target.unit}"
    return f"{'<=' if target.at_most else '>='} {target.limit:g}{unit}"


def check(figures: dict[str, dict[str, float | None]]) -> list[Check]:
    """Every target whose figure the run has, against the worst of its pages."""
    checks = []
    for target in TARGETS:
        if target.figure not in figures:
            continue
        values = figures[target.figure]
        if target.pages == "home":
            values = {HOME: values.get(HOME)}
        elif target.pages == "indexed":
            values = {page: v for page, v in values.items() if page not in NOINDEX_PAGES}
        present = {page: value for page, value in values.items() if value is not None}
        if not present or len(present) < len(values):
            checks.append(Check(target, "not measured", None))
            continue
        worst_page = (max if target.at_most else min)(present, key=present.__getitem__)
        worst = present[worst_page]
        # Name the worst page only where pages differ: "100 (`/`)" would read as a finding.
        differ = len(set(present.values())) > 1 and worst_page
        measured = _format(worst, target.unit) + (f" (`{worst_page}`)" if differ else "")
        checks.append(
            Check(
                target, measured, worst <= target.limit if target.at_most else worst >= target.limit
            )
        )
    return checks
