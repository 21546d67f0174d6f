"""Medians over the runs of one page: the figures the report and the targets use."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field

from bench.lighthouse import Audit
from bench.network import KINDS
from bench.phone import Load


def median(values: Iterable[float | None]) -> float | None:
    """Median of the runs that produced a value; None if none did."""
    present = [value for value in values if value is not None]
    return statistics.median(present) if present else None


@dataclass
class PageLoads:
    """Every phone-profile load of one page, in run order."""

    paint: list[Load] = field(default_factory=list)
    tap: list[Load] = field(default_factory=list)
    floor: list[Load] = field(default_factory=list)


@dataclass(frozen=True)
class PhoneSummary:
    fcp: float | None
    lcp: float | None
    interactive: float | None
    interaction: str | None
    transferred: float | None
    requests: float | None
    redirects: float | None
    by_kind: dict[str, float | None]
    failures: int

    @classmethod
    def of(cls, paint: list[Load], tap: list[Load] | None = None) -> PhoneSummary:
        good = [load for load in paint if load.error is None]
        taps = tap or []
        return cls(
            fcp=median(load.fcp for load in good),
            lcp=median(load.lcp for load in good),
            interactive=median(load.interactive for load in taps if load.error is None),
            interaction=next((load.interaction for load in taps if load.interaction), None),
            transferred=median(load.transferred for load in good),
            requests=median(load.requests for load in good),
            redirects=median(load.redirects for load in good),
            by_kind={kind: median(_kind_bytes(load, kind) for load in good) for kind in KINDS},
            failures=sum(load.error is not None for load in [*paint, *taps]),
        )


def _kind_bytes(load: Load, kind: str) -> int:
    return sum(fetch.bytes for fetch in load.fetches if fetch.kind == kind)


@dataclass(frozen=True)
class LighthouseSummary:
    scores: dict[str, float | None]
    metrics: dict[str, float | None]
    runs: int
    failures: int
    warnings: tuple[str, ...]

    @classmethod
    def of(cls, audits: list[Audit]) -> LighthouseSummary:
        good = [audit for audit in audits if audit.error is None]
        categories = {name for audit in good for name in audit.scores}
        metrics = {name for audit in good for name in audit.metrics}
        return cls(
            scores={name: median(a.scores.get(name) for a in good) for name in categories},
            metrics={name: median(a.metrics.get(name) for a in good) for name in metrics},
            runs=len(audits),
            failures=len(audits) - len(good),
            warnings=tuple(sorted({w for audit in audits for w in audit.warnings})),
        )
