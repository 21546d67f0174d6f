"""Requests per second through the load balancer (`make run-lb`) with one and with two app
hosts (`make run-scaled`, one worker each), every host a network namespace of its own
(tests/support/several_hosts.py). The same two cores serve every host, so no scale-up is
expected; no request may be lost.

    make bench BENCH_ONLY=hosts [BENCH_SECONDS=10]
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field

from bench.sections import replaced
from bench.throughput import WrkRun, wrk

PATHS = ("/", "/api/v1/Booking/Slots")
CONNECTIONS = 32
# The second balancer, in front of app1 only, beside the first on `lb`.
ONE_HOST_PORT = 3001
_SECTION = re.compile(r"^## Several hosts\b.*?(?=^## |\Z)", re.MULTILINE | re.DOTALL)


@dataclass
class HostsRun:
    hosts: int
    path: str
    run: WrkRun


@dataclass
class HostsBench:
    runs: list[HostsRun] = field(default_factory=list)
    skipped: str = ""  # a part this machine lacks (no namespaces, no nginx): said, not failed
    failure: str = ""  # what broke (a host that did not start): fails `make bench`


def run(seconds: int) -> HostsBench:
    from tests.support.several_hosts import PORT, several_hosts

    bench = HostsBench()
    try:
        with several_hosts() as site:
            site.start_balancer([site.apps["app1"]], ONE_HOST_PORT)
            with site.network.on("lb"):  # wrk runs where visitors reach the balancer
                for hosts, port in ((1, ONE_HOST_PORT), (2, PORT)):
                    for path in PATHS:
                        print(f"  {hosts} host(s): {path}", file=sys.stderr, flush=True)
                        url = f"http://localhost:{port}{path}"
                        bench.runs.append(HostsRun(hosts, path, wrk(url, seconds, CONNECTIONS)))
    except Exception as failure:
        first_line = str(failure).splitlines()[0] if str(failure) else ""
        bench.failure = f"{type(failure).__name__}: {first_line}"
    except BaseException as skipped:  # pytest's skip, raised where a part is missing
        if isinstance(skipped, KeyboardInterrupt | SystemExit):
            raise
        bench.skipped = str(skipped)
    return bench


def _cell(run: WrkRun) -> str:
    if run.failure:
        return f"failed: {run.failure[:120]}"
    return f"{run.requests_per_s:,.0f} req/s, p99 {run.p99_ms:.1f} ms, {run.errors} errors"


def render(bench: HostsBench, environment_facts: dict[str, str]) -> str:
    lines = [
        "## Several hosts through the balancer",
        "",
        f"wrk (2 threads, {CONNECTIONS} connections) on the balancer's host, `make run-lb` in "
        "front of `make run-scaled` hosts (1 worker and 1 job runner each) on PostgreSQL and Redis "
        "of a data host; four network namespaces on one bridge, all on the same cores: "
        "no scale-up is expected, and no request may be lost (errors: answers other than "
        "2xx/3xx and socket errors).",
        f"Machine: {environment_facts.get('cpu', '')} {environment_facts.get('load', '')}".rstrip(),
        "",
    ]
    if bench.skipped or bench.failure:
        said = f"Skipped: {bench.skipped}" if bench.skipped else f"**Failed**: {bench.failure}"
        return "\n".join([*lines, said, ""])
    lines += ["| Path | 1 app host | 2 app hosts |", "|---|---|---|"]
    for path in PATHS:
        cells = {r.hosts: _cell(r.run) for r in bench.runs if r.path == path}
        lines.append(f"| `{path}` | {cells.get(1, '')} | {cells.get(2, '')} |")
    return "\n".join([*lines, ""])


def failed(bench: HostsBench) -> bool:
    return bool(bench.failure) or any(r.run.failure or r.run.errors for r in bench.runs)


def replace_section(markdown: str, section: str) -> str:
    return replaced(markdown, section, _SECTION)
