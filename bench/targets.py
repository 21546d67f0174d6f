"""Issue 8's targets, checked against a run's medians; issue 10's against the throughput runs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bench.config import HOME, NOINDEX_PAGES, THROUGHPUT_PAGES
from bench.summary import LighthouseSummary, PhoneSummary
from bench.throughput import SCALED, Throughput

KIB = 1024


@dataclass(frozen=True)
class Check:
    what: str
    target: str
    measured: str
    met: bool | None  # None: not measured in this run


def _seconds(ms: float) -> str:
    return f"{ms / 1000:.2f} s"


def _kib(size: float) -> str:
    return f"{size / KIB:.0f} KiB"


def _score(score: float) -> str:
    return f"{score:.0f}"


def _check(what: str, target: str, values: dict[str, float | None], limit: float,
           fmt: Callable[[float], str], *, at_most: bool) -> Check:
    """The worst page's median against `limit`; names the page when there are several."""
    present = {page: value for page, value in values.items() if value is not None}
    if not present or len(present) < len(values):
        return Check(what, target, "not measured", None)
    worst_page = (max if at_most else min)(present, key=present.__getitem__)
    worst = present[worst_page]
    # Name the worst page only where pages differ: "100 (`/`)" would read as a finding.
    differ = len(set(present.values())) > 1
    measured = fmt(worst) + (f" (`{worst_page}`)" if differ else "")
    return Check(what, target, measured, worst <= limit if at_most else worst >= limit)


def _home(values: dict[str, float | None]) -> dict[str, float | None]:
    return {HOME: values.get(HOME)}


def check(phone: dict[str, PhoneSummary],
          lighthouse: dict[tuple[str, str], LighthouseSummary] | None) -> list[Check]:
    fcp = {page: s.fcp for page, s in phone.items()}
    checks = [
        _check("FCP, home", "<= 1.2 s", _home(fcp), 1200, _seconds, at_most=True),
        _check("FCP, every page", "<= 1.5 s", fcp, 1500, _seconds, at_most=True),
        _check("LCP, home", "<= 1.5 s", _home({p: s.lcp for p, s in phone.items()}), 1500,
               _seconds, at_most=True),
        _check("A tap opens the menu, every page (`/log-in`: shows the password)", "<= 2.5 s",
               {p: s.interactive for p, s in phone.items()}, 2500, _seconds, at_most=True),
        _check("Bytes transferred, home", "<= 180 KiB",
               _home({p: s.transferred for p, s in phone.items()}), 180 * KIB, _kib,
               at_most=True),
        _check("JavaScript transferred, home", "<= 150 KiB",
               _home({p: s.by_kind["js"] for p, s in phone.items()}), 150 * KIB, _kib,
               at_most=True),
    ]
    if lighthouse is None:
        return checks

    def scores(preset: str, category: str, pages: list[str] | None = None
               ) -> dict[str, float | None]:
        return {page: summary.scores.get(category)
                for (page, run_preset), summary in lighthouse.items()
                if run_preset == preset and (pages is None or page in pages)}

    pages = sorted({page for page, _ in lighthouse})
    indexed = [page for page in pages if page not in NOINDEX_PAGES]
    checks += [
        _check("Lighthouse mobile performance, home", "100",
               _home(scores("mobile", "performance")), 100, _score, at_most=False),
        _check("Lighthouse mobile performance, every page", ">= 95",
               scores("mobile", "performance"), 95, _score, at_most=False),
        _check("Lighthouse desktop performance, every page", "100",
               scores("desktop", "performance"), 100, _score, at_most=False),
    ]
    for category, label in (("accessibility", "accessibility"),
                            ("best-practices", "best practices")):
        for preset in ("mobile", "desktop"):
            checks.append(_check(f"Lighthouse {preset} {label}, every page", "100",
                                 scores(preset, category), 100, _score, at_most=False))
    for preset in ("mobile", "desktop"):
        checks.append(_check(f"Lighthouse {preset} SEO, every indexed page", "100",
                             scores(preset, "seo", indexed), 100, _score, at_most=False))
    return checks


# Issue 10: run-scaled serves pages at >= 0.8x nginx alone's rate; logins reach >= 0.8x the
# rate password hashing allows, without errors.
PAGES_VS_NGINX = 0.8
LOGINS_VS_HASHING = 0.8


def _times(value: float) -> str:
    return f"{value:.2f}x"


def check_throughput(throughput: Throughput | None) -> list[Check]:
    if throughput is None:
        return []
    pages = _check("Pages per second at 50 connections, run-scaled vs nginx alone, "
                   + " and ".join(f"`{page}`" for page in THROUGHPUT_PAGES),
                   f">= {PAGES_VS_NGINX:g}x",
                   {page: throughput.ratio(page, SCALED) for page in THROUGHPUT_PAGES},
                   PAGES_VS_NGINX, _times, at_most=False)
    page_errors = sum(runs[SCALED].result.errors for runs in throughput.pages.values()
                      if SCALED in runs)
    if page_errors and pages.met is not None:  # fast error answers are no throughput
        pages = Check(pages.what, pages.target,
                      f"{pages.measured}, {page_errors} failed requests", False)
    # run-scaled answered something else than the page, or wrk failed on it: a miss.
    broken = []
    for page, runs in throughput.pages.items():
        run = runs.get(SCALED)
        if run is not None and (run.result.failure or run.answer.status != 200):
            what_went_wrong = "wrk failed" if run.result.failure else run.answer.describe()
            broken.append(f"`{page}`: {what_went_wrong}")
    if broken:
        pages = Check(pages.what, pages.target, "; ".join(broken), False)
    what = "Logins per second at 16 clients vs the hashing limit (workers / one hash)"
    logins = throughput.logins
    if logins is None or logins.ratio is None:
        return [pages, Check(what, f">= {LOGINS_VS_HASHING:g}x", "not measured", None),
                Check("Login errors", "0", "not measured", None)]
    errors = sum(logins.errors.values())
    return [
        pages,
        Check(what, f">= {LOGINS_VS_HASHING:g}x",
              f"{_times(logins.ratio)} ({logins.per_second:.1f} of "
              f"{logins.limit_per_second:.1f} per s)",
              logins.ratio >= LOGINS_VS_HASHING),
        Check("Login errors", "0",
              f"{errors} of {logins.ok + errors}" if errors else "0", errors == 0),
    ]
