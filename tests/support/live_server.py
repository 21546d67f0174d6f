"""The production site started once per test process for the browser and HTTP tests.

The frontend is built once per commit (`reflex export --env prod`, into .run/test-web,
reused while its inputs are the same) and served by every test process's own site: a
backend (granian, as `make run-scaled` runs a worker) with its own data folder, SQLite file
and signing key, sending mail to the test session's real SMTP server.

The build's pages reach their backend at http://localhost:SITE_PORT, so every site has that
address, and each test process (an xdist worker) reaches its own site there: the site
listens on a loopback address of its own (127.0.0.11 for the first worker, 127.0.0.12 for
the next), which the process's Chromium (`--host-resolver-rules`) and its own sockets
(`route_site_address`) use for localhost:SITE_PORT and nothing else.
"""

from __future__ import annotations

import fcntl
import os
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rcxsite.tools import processes
from rcxsite.tools.scaled_build import build_frontend

ROOT = Path(__file__).resolve().parents[2]
BUILD_TIMEOUT_S = 600
# Below Linux's ephemeral ports, so no free_port() of the tests takes it.
SITE_PORT = 23880
SITE_URL = f"http://localhost:{SITE_PORT}"
TEST_WEB_DIR = ROOT / ".run" / "test-web"
STOP_TIMEOUT_S = 15
# The header's session lifetime the browser tests' site runs with: short enough for a test
# to watch the header entry expire.
HEADER_SESSION_SECONDS = 20
# How long the tests' site holds a tab's views for the browser's word
# (ANALYTICS_HOLD_SECONDS): a tab whose word comes later is not counted, so this leaves
# room for a loaded machine.
ANALYTICS_HOLD_SECONDS = 5


@dataclass
class LiveServer:
    url: str
    data_dir: Path
    database_url: str
    log_path: Path
    process: subprocess.Popen[bytes] | None

    @classmethod
    def external(cls, url: str) -> LiveServer:
        root = ROOT / "data"
        return cls(url.rstrip("/"), root, f"sqlite:///{root / 'rcx.db'}", root / "none.log", None)

    def log_tail(self, lines: int = 60) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def stop(self) -> None:
        processes.stop(self.process, STOP_TIMEOUT_S)


def site_address() -> str:
    """This test process's own loopback address for its site (xdist workers gw0, gw1...)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    return f"127.0.0.{11 + int(worker)}"


def chromium_args() -> list[str]:
    """Chromium reaches this process's site at localhost:SITE_PORT."""
    return [f"--host-resolver-rules=MAP localhost:{SITE_PORT} {site_address()}:{SITE_PORT}"]


_resolve = socket.getaddrinfo


def _site_getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
    if host == "localhost" and str(port) == str(SITE_PORT):
        host = site_address()
    return _resolve(host, port, *args, **kwargs)


def route_site_address() -> None:
    """This process's sockets (urllib, httpx, websockets) reach its own site at
    localhost:SITE_PORT; every other name and port resolves as before."""
    socket.getaddrinfo = _site_getaddrinfo


def server_env(*, data_dir: Path, port: int, extra: dict[str, str]) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("SMTP_")}
    env.update(
        PORT=str(port),
        SITE_URL=f"http://localhost:{port}",
        DATA_DIR=str(data_dir),
        OUTBOX_DIR=str(data_dir / "outbox"),
        DATABASE_URL=f"sqlite:///{data_dir / 'rcx.db'}",
        REDIS_URL="",
        # Reflex's pickled state, kept apart so that tests can read what it holds.
        REFLEX_STATES_WORKDIR=str(data_dir / "states"),
        REFLEX_TELEMETRY_ENABLED="false",
        REFLEX_CHECK_LATEST_VERSION="0",
    )
    env.update(extra)
    return env


def build_once(env: dict[str, str]) -> None:
    """The frontend for `env`, built by the first test process that needs it (the others
    wait for it, then find it built) and reused by later runs while its inputs stay."""
    TEST_WEB_DIR.mkdir(parents=True, exist_ok=True)
    with (TEST_WEB_DIR.parent / "test-web.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        build_frontend(env, web_dir=TEST_WEB_DIR)


def backend_command(address: str, port: int) -> list[str]:
    # As a `make run-scaled` worker runs, and `reflex run --env prod` would: one process.
    return [
        sys.executable,
        *("-m", "granian", "--interface", "asgi", "--factory"),
        *("--host", address, "--port", str(port), "--workers", "1"),
        *("--log-level", "warning", "rcxsite.rcxsite:app"),
    ]


def start_live_server(data_dir: Path, extra_env: dict[str, str]) -> LiveServer:
    from reflex_base.environment import environment

    route_site_address()
    env = server_env(data_dir=data_dir, port=SITE_PORT, extra=extra_env)
    env.update(
        REFLEX_WEB_WORKDIR=str(TEST_WEB_DIR), REFLEX_API_URL=SITE_URL, REFLEX_ENV_MODE="prod"
    )
    processes.migrate(env)
    build_once(env)
    log_path = data_dir / "server.log"
    env[environment.REFLEX_SKIP_COMPILE.name] = "true"
    env[environment.REFLEX_MOUNT_FRONTEND_COMPILED_APP.name] = "true"
    process = processes.start(
        backend_command(site_address(), SITE_PORT), env=env, log_path=log_path, cwd=ROOT
    )
    server = LiveServer(
        url=SITE_URL,
        data_dir=data_dir,
        database_url=env["DATABASE_URL"],
        log_path=log_path,
        process=process,
    )
    try:
        processes.wait_until(
            lambda: processes.answers_http(server.url + "/", timeout=5),
            process=process,
            timeout_s=BUILD_TIMEOUT_S,
            what="the production site",
            interval_s=0.5,
        )
    except processes.NotReady:  # pragma: no cover
        server.stop()
        raise RuntimeError(f"the production site did not start:\n{server.log_tail()}") from None
    return server
