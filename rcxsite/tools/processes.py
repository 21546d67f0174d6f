"""Start a process, wait until it answers, stop it: for run-scaled, the bench and the tests.

Every process starts in a session of its own and every signal goes to its process group:
what it started in turn (nginx's workers, the servers `reflex run` starts) stops with it,
and a Ctrl-C in the terminal reaches only the process that owns the terminal, which then
stops the others in order.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Mapping
from contextlib import suppress
from pathlib import Path


class NotReady(RuntimeError):
    """What `wait_until` waited for did not happen: the process exited, or time ran out."""

    def __init__(self, message: str, *, exited: bool) -> None:
        super().__init__(message)
        self.exited = exited


def migrate(env: Mapping[str, str]) -> None:
    """The database `env` names brought to the newest migration (raises if it fails)."""
    subprocess.run(
        [sys.executable, "-m", "rcxsite", "migrate"],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        check=True,
        capture_output=True,
    )


def free_port(host: str = "127.0.0.1") -> int:
    """A port nobody listens on now, chosen by the OS: servers started side by side (tests,
    workers, the bench's targets) never ask for the same one."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def port_open(host: str, port: int, timeout: float) -> bool:
    """Whether something accepts TCP connections on host:port."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def answers_http(url: str, timeout: float) -> bool:
    """Whether a GET of `url` is answered 200 OK: a server may accept connections before it
    can answer them (the site's frontend server, while the backend still starts)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def start(
    command: list[str],
    *,
    env: Mapping[str, str] | None,
    log_path: Path | None,
    cwd: Path | None = None,
) -> subprocess.Popen[bytes]:
    """`command` in a session of its own, both output streams appended to `log_path`
    (discarded when None). Appended: a worker started again keeps its earlier output,
    which says why it died."""
    if log_path is None:
        return subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    with log_path.open("ab") as log:
        return subprocess.Popen(
            command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )


def wait_until(
    check: Callable[[], bool],
    *,
    process: subprocess.Popen[bytes] | None = None,
    timeout_s: float | None,
    what: str,
    interval_s: float = 0.2,
) -> None:
    """Return once `check()` is true, or raise NotReady: as soon as `process` (the one that
    should make it true) has exited, rather than wait out a deadline it can no longer
    meet, or once `timeout_s` has passed (None: as long as `process` runs)."""
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    while not check():
        if process is not None and process.poll() is not None:
            raise NotReady(f"{what}: its process exited (code {process.returncode})", exited=True)
        if deadline is not None and time.monotonic() > deadline:
            raise NotReady(f"{what}: still not ready after {timeout_s:g} s", exited=False)
        time.sleep(interval_s)


def signal_group(pid: int, sig: int) -> None:
    """`sig` to the process group `pid` leads; nothing when it is gone already."""
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


def stop_all(
    processes: Iterable[subprocess.Popen[bytes]], timeout_s: float, *, sig: int = signal.SIGTERM
) -> bool:
    """`sig` (SIGTERM: shut down cleanly) to every group at once, so that they stop side by
    side; SIGKILL to each group still there when `timeout_s` has passed. True when none
    had to be killed."""
    running = [process for process in processes if process.poll() is None]
    for process in running:
        signal_group(process.pid, sig)
    deadline = time.monotonic() + timeout_s
    clean = True
    for process in running:
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            signal_group(process.pid, signal.SIGKILL)
            process.wait()
            clean = False
    return clean


def stop(
    process: subprocess.Popen[bytes] | None, timeout_s: float, *, sig: int = signal.SIGTERM
) -> bool:
    """`stop_all` for one process (None: nothing started)."""
    return stop_all([] if process is None else [process], timeout_s, sig=sig)
