"""wrk (Debian's package) against one URL: requests per second, p50 and p99 from its output."""

from __future__ import annotations

import http.client
import re
import subprocess
from dataclasses import dataclass
from urllib.parse import urlsplit

from bench.config import WRK, WRK_CONNECTIONS, WRK_HEADERS, WRK_THREADS

# wrk prints durations as e.g. "812.00us", "1.23ms", "2.01s", "1.50m".
_UNIT_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0, "h": 3_600_000.0}
_PERCENTILE = re.compile(r"^\s*(50|99)(?:\.0+)?%\s+([\d.]+)(us|ms|s|m|h)\s*$", re.MULTILINE)
_RATE = re.compile(r"^Requests/sec:\s+([\d.]+)", re.MULTILINE)
_TOTAL = re.compile(r"^\s*(\d+) requests in ([\d.]+)(us|ms|s|m|h)", re.MULTILINE)
_NON_2XX = re.compile(r"Non-2xx or 3xx responses:\s+(\d+)")
_SOCKET = re.compile(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)")


@dataclass(frozen=True)
class WrkResult:
    requests_per_s: float | None = None
    p50_ms: float | None = None
    p99_ms: float | None = None
    requests: int = 0
    # Answers other than 2xx/3xx plus socket errors (connect, read, write, timeout).
    errors: int = 0
    failure: str | None = None


def parse(output: str) -> WrkResult:
    rate, total = _RATE.search(output), _TOTAL.search(output)
    percentiles = {int(p): float(v) * _UNIT_MS[unit] for p, v, unit in _PERCENTILE.findall(output)}
    if rate is None or total is None or 50 not in percentiles or 99 not in percentiles:
        return WrkResult(failure="wrk's output not understood:\n" + output.strip()[-800:])
    non_2xx = _NON_2XX.search(output)
    socket = _SOCKET.search(output)
    errors = (int(non_2xx.group(1)) if non_2xx else 0) + (
        sum(int(n) for n in socket.groups()) if socket else 0)
    return WrkResult(float(rate.group(1)), percentiles[50], percentiles[99],
                     int(total.group(1)), errors)


def run(url: str, seconds: int) -> WrkResult:
    command = [str(WRK), f"-t{WRK_THREADS}", f"-c{WRK_CONNECTIONS}", f"-d{seconds}s", "--latency"]
    for header in WRK_HEADERS:
        command += ["-H", header]
    try:
        done = subprocess.run([*command, url], capture_output=True, text=True,
                              timeout=seconds + 60)
    except subprocess.TimeoutExpired:
        return WrkResult(failure=f"wrk did not finish within {seconds + 60} s")
    if done.returncode != 0:
        return WrkResult(failure=f"wrk exited with {done.returncode}: {done.stderr.strip()}")
    return parse(done.stdout)


@dataclass(frozen=True)
class Answer:
    """One request as wrk sends it, redirects not followed: what each target answers."""

    status: int | None
    encoding: str
    size: int
    failure: str | None = None

    def describe(self) -> str:
        if self.failure:
            return f"failed: {self.failure}"
        return f"{self.status} {self.encoding}, {self.size / 1024:.1f} KiB"


def probe(url: str) -> Answer:
    parts = urlsplit(url)
    headers = dict(header.split(": ", 1) for header in WRK_HEADERS)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=10)
    try:
        connection.request("GET", parts.path or "/", headers=headers)
        response = connection.getresponse()
        body = response.read()
        return Answer(response.status, response.getheader("Content-Encoding") or "identity",
                      len(body))
    except (OSError, http.client.HTTPException) as error:
        return Answer(None, "", 0, failure=f"{type(error).__name__}: {error}")
    finally:
        connection.close()
