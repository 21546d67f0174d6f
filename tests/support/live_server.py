"""The production build (`reflex run --env prod`) started once for the browser and HTTP tests.

It runs on a free port with its own data folder, SQLite file and signing key, and sends
mail to the test session's real SMTP server.
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
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD_TIMEOUT_S = 600


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


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
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status == 200
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


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


def start_live_server(data_dir: Path, extra_env: dict[str, str]) -> LiveServer:
    port = free_port()
    env = server_env(data_dir=data_dir, port=port, extra=extra_env)
    subprocess.run(
        [sys.executable, "-m", "alembic", "upgrade", "head"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    log_path = data_dir / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "reflex", "run", "--env", "prod"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = LiveServer(
        url=f"http://localhost:{port}",
        data_dir=data_dir,
        database_url=env["DATABASE_URL"],
        log_path=log_path,
        process=process,
    )
    deadline = time.monotonic() + BUILD_TIMEOUT_S
    while not _answers(server.url + "/"):
        if process.poll() is not None or time.monotonic() > deadline:  # pragma: no cover
            server.stop()
            raise RuntimeError(f"the production site did not start:\n{server.log_tail()}")
        time.sleep(0.5)
    return server
