"""The production build (`reflex run --env prod`) started once for the browser and HTTP tests.

It runs on a free port with its own data folder, SQLite file and signing key, and sends
mail to the test session's real SMTP server.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from rcxsite.tools import processes

ROOT = Path(__file__).resolve().parents[2]
BUILD_TIMEOUT_S = 600
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
    port = processes.free_port()
    env = server_env(data_dir=data_dir, port=port, extra=extra_env)
    processes.migrate(env)
    log_path = data_dir / "server.log"
    process = processes.start(
        [sys.executable, "-m", "reflex", "run", "--env", "prod"],
        env=env,
        log_path=log_path,
        cwd=ROOT,
    )
    server = LiveServer(
        url=f"http://localhost:{port}",
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
