"""What operators watch, in Prometheus's text format (`/metrics`, rcxsite/web/metrics.py).

Counters and gauges are kept per process. With several processes on a host (run-scaled's
workers and job runners) each writes its values to files in `PROMETHEUS_MULTIPROC_DIR`,
a fresh folder per start that run-scaled makes, and any worker's `/metrics` adds them up;
a process that died is let go of (`let_go_of_dead_processes`). Values measured at the time of asking
(the job queue) are read from the database by the collector the caller passes.

Labels are bounded: a route is its template (`/api/v1/users/{id}`) or its kind ("page",
"event", "other"), never a path a client typed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

MULTIPROCESS_DIR = "PROMETHEUS_MULTIPROC_DIR"

REQUESTS = Counter(
    "rcx_http_requests", "HTTP requests answered, by route and status", ["route", "status"]
)
OPEN_WEBSOCKETS = Gauge(
    "rcx_open_websockets", "Websockets open (one per browser tab)", multiprocess_mode="livesum"
)
MAIL_FAILURES = Counter("rcx_mail_failures", "Mail deliveries that failed, by outcome", ["outcome"])
BOOKING_CONFLICTS = Counter(
    "rcx_booking_conflicts", "Bookings refused because every host was taken meanwhile"
)
ANALYTICS_DROPS = Counter(
    "rcx_analytics_dropped_views", "Page views not stored, by reason", ["reason"]
)

OWN: tuple[Collector, ...] = (
    REQUESTS,
    OPEN_WEBSOCKETS,
    MAIL_FAILURES,
    BOOKING_CONFLICTS,
    ANALYTICS_DROPS,
)


class QueueCollector(Collector):
    """The job queue as the database says now: `read()` gives (kind, queued, oldest wait
    in seconds or None) per kind."""

    def __init__(self, read: Callable[[], Iterable[tuple[str, int, float | None]]]) -> None:
        self._read = read

    def collect(self) -> Iterable[GaugeMetricFamily]:
        depth = GaugeMetricFamily("rcx_job_queue_depth", "Jobs waiting, by kind", labels=["kind"])
        oldest = GaugeMetricFamily(
            "rcx_job_oldest_wait_seconds",
            "How long the oldest waiting job has been due, by kind",
            labels=["kind"],
        )
        for kind, queued, wait in self._read():
            depth.add_metric([kind], queued)
            oldest.add_metric([kind], wait or 0.0)
        yield depth
        yield oldest


def exposition(*extra: Collector) -> tuple[bytes, str]:
    """(body, content type) of every metric of this host, plus `extra` collectors."""
    registry = CollectorRegistry()
    if os.environ.get(MULTIPROCESS_DIR):
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        for metric in OWN:
            registry.register(metric)
    for collector in extra:
        registry.register(collector)
    return generate_latest(registry), CONTENT_TYPE_LATEST


def fresh_folder(folder: Path) -> None:
    """`folder` empty, for a start's multiprocess files (old ones would add up forever)."""
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*.db"):
        stale.unlink()


def let_go_of_dead_processes(folder: str) -> None:
    """Let go of the live gauges (open websockets) of every process in `folder` that is
    no longer running: a worker's server may run its app in a child process of its own,
    so the files are found by their pid rather than by the process that was started."""
    if not folder:
        return
    for file in Path(folder).glob("gauge_live*_*.db"):
        pid = int(file.stem.rsplit("_", 1)[-1])
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            multiprocess.mark_process_dead(pid, folder)  # type: ignore[no-untyped-call]
        except PermissionError:  # alive, another user's
            continue
