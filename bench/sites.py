"""The servers the bench measures, each started on a free port and stopped after.

- the single production process (`reflex run --env prod`, SQLite, no Redis): what the
  phone profile and Lighthouse load;
- `make run-scaled` (`python -m rcxsite.tools.run_scaled`) on a PostgreSQL database of
  its own (created by the runner, dropped after) and a Redis key prefix of its own;
- nginx alone: run-scaled's own nginx configuration (rcxsite/tools/scaled_config.py) on
  run-scaled's build, without workers: what serving the pages costs when no Python runs.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

from bench.config import POSTGRES, REDIS, ROOT, SCALED_LIMITS, WRK
from rcxsite.tools import processes
from rcxsite.tools.run_scaled import NGINX
from rcxsite.tools.scaled_build import STATIC_ROOT
from rcxsite.tools.scaled_config import render_nginx_conf

SITE_START_TIMEOUT_S = 600  # a fresh production build
SCALED_START_TIMEOUT_S = 900  # migrations and run-scaled's own build
NGINX_START_TIMEOUT_S = 20
STOP_TIMEOUT_S = 30


def _started(
    what: str,
    process: subprocess.Popen[bytes],
    url: str,
    timeout_s: float,
    log_dir: Path,
    logs: tuple[str, ...],
    ready: Path | None = None,
) -> None:
    """Wait until `url` answers 200 (and `ready` exists), or raise with the tails of the
    logs (glob patterns in `log_dir`)."""
    started = time.monotonic()
    try:
        processes.wait_until(
            lambda: (ready is None or ready.exists()) and processes.answers_http(url, 5),
            process=process,
            timeout_s=timeout_s,
            what=what,
            interval_s=0.5,
        )
    except processes.NotReady:
        tails = "\n".join(
            f"== {log.name}\n" + "\n".join(log.read_text(errors="replace").splitlines()[-30:])
            for pattern in logs
            for log in sorted(log_dir.glob(pattern))
        )
        raise RuntimeError(f"{what} did not start:\n{tails}") from None
    print(
        f"  {what} answered after {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True
    )


def _env(**values: str) -> dict[str, str]:
    # Mail goes nowhere: the bench's own accounts get no welcome mail through a real server.
    env = {key: value for key, value in os.environ.items() if not key.startswith("SMTP_")}
    return {
        **env,
        "REFLEX_TELEMETRY_ENABLED": "false",
        "REFLEX_CHECK_LATEST_VERSION": "0",
        **values,
    }


@contextmanager
def production_site(
    work_dir: Path, url: str | None, settings: dict[str, str] | None = None
) -> Iterator[str]:
    """The base URL of `reflex run --env prod` with its own data folder in `work_dir` (and
    `settings` in its environment), or `url` (a site already running) when given."""
    if url:
        yield url
        return
    shutil.rmtree(work_dir, ignore_errors=True)
    work_dir.mkdir(parents=True)
    port = processes.free_port()
    env = _env(
        PORT=str(port),
        SITE_URL=f"http://localhost:{port}",
        DATA_DIR=str(work_dir),
        OUTBOX_DIR=str(work_dir / "outbox"),
        REDIS_URL="",
        DATABASE_URL=f"sqlite:///{work_dir / 'rcx.db'}",
        REFLEX_STATES_WORKDIR=str(work_dir / "states"),
        **(settings or {}),
    )
    processes.migrate(env)
    print("building and starting the production site ...", file=sys.stderr, flush=True)
    process = processes.start(
        [sys.executable, "-m", "reflex", "run", "--env", "prod"],
        env=env,
        log_path=work_dir / "server.log",
        cwd=ROOT,
    )
    try:
        _started(
            "the production site",
            process,
            env["SITE_URL"] + "/",
            SITE_START_TIMEOUT_S,
            work_dir,
            ("server.log",),
        )
        yield env["SITE_URL"]
    finally:
        processes.stop(process, STOP_TIMEOUT_S)


def missing() -> str | None:
    """Why run-scaled cannot run here, or None."""
    reasons = [
        f"{name} not reachable at {url.hostname}:{url.port}"
        for name, url in (("PostgreSQL", urlsplit(POSTGRES)), ("Redis", urlsplit(REDIS)))
        if not processes.port_open(url.hostname or "", url.port or 0, timeout=2)
    ]
    reasons += [
        f"{tool} is missing (`make bench` installs it)"
        for tool in (NGINX, WRK)
        if not tool.exists()
    ]
    return "; ".join(reasons) or None


def _drop_database(database: str) -> None:
    from sqlalchemy import create_engine, text

    admin = create_engine(f"{POSTGRES}/postgres", isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))
    finally:
        admin.dispose()


@contextmanager
def run_scaled(work_dir: Path, workers: int) -> Iterator[str]:
    """`python -m rcxsite.tools.run_scaled` (migrates, builds into .run/web, starts nginx and
    the workers); yields its URL once nginx answers; stops it and drops its database. Its
    rate-limit keys in Redis (a prefix of their own) expire with their windows."""
    run_dir = work_dir / "run"
    run_dir.mkdir(parents=True, exist_ok=True)
    token = uuid.uuid4().hex[:10]
    database = f"rcx_bench_{token}"
    port = processes.free_port()
    env = _env(
        PORT=str(port),
        WORKERS=str(workers),
        SITE_URL=f"http://localhost:{port}",
        DATABASE_URL=f"{POSTGRES}/{database}",
        REDIS_URL=REDIS,
        RATE_LIMIT_KEY_PREFIX=f"rcx-bench-{token}",
        SECRET_KEY=f"bench-signing-key-{uuid.uuid4().hex}",
        # The bench sends no mail anywhere: the outbox folder, on purpose.
        MAIL_TO_OUTBOX="true",
        DATA_DIR=str(work_dir / "data"),
        OUTBOX_DIR=str(work_dir / "data" / "outbox"),
        SCALED_RUN_DIR=str(run_dir),
        **SCALED_LIMITS,
    )
    print(
        f"starting run-scaled ({workers} workers; builds the frontend) ...",
        file=sys.stderr,
        flush=True,
    )
    process = processes.start(
        [sys.executable, "-m", "rcxsite.tools.run_scaled"],
        env=env,
        log_path=run_dir / "runner.log",
        cwd=ROOT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _started(
            "run-scaled",
            process,
            url + "/",
            SCALED_START_TIMEOUT_S,
            run_dir,
            ("runner.log", "worker-*.log", "nginx-error.log"),
            run_dir / "processes.json",
        )
        yield url
    finally:
        # SIGTERM: the runner stops nginx and its workers; killed, it leaves them behind.
        if not processes.stop(process, STOP_TIMEOUT_S) and (run_dir / "processes.json").exists():
            record = json.loads((run_dir / "processes.json").read_text())
            for pid in [record.get("nginx"), *(w.get("pid") for w in record["workers"])]:
                if pid:
                    processes.signal_group(pid, signal.SIGKILL)
        try:
            _drop_database(database)
        except Exception as error:  # reported, not raised: the figures are still good
            print(f"  could not drop {database}: {error}", file=sys.stderr, flush=True)


@contextmanager
def nginx_alone(work_dir: Path, root: Path = STATIC_ROOT) -> Iterator[str]:
    """nginx serving `root` with run-scaled's configuration but no workers; yields its URL."""
    run_dir = work_dir / "nginx"
    run_dir.mkdir(parents=True, exist_ok=True)
    port = processes.free_port()
    conf = run_dir / "nginx.conf"
    conf.write_text(
        render_nginx_conf(
            run_dir=run_dir, static_root=root, listen=port, worker_ports=[], hsts=False
        )
    )
    process = processes.start(
        [str(NGINX), "-p", str(run_dir), "-c", str(conf)], env=None, log_path=run_dir / "nginx.log"
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _started(
            "nginx alone",
            process,
            url + "/",
            NGINX_START_TIMEOUT_S,
            run_dir,
            ("nginx.log", "nginx-error.log"),
        )
        yield url
    finally:
        processes.stop(process, STOP_TIMEOUT_S)
