"""The throughput part's other two targets: `make run-scaled` and nginx alone.

run-scaled (`python -m rcxsite.tools.run_scaled`) gets a PostgreSQL database of its own
(created by the runner, dropped afterwards), its own Redis key prefix for the rate limits
and its run folder under `bench/out/scaled/`. nginx alone serves the folder run-scaled
built, with the same static-file settings as deploy/nginx.conf.template (precompressed
brotli and gzip, nothing compressed on the fly) but none of its headers or proxying.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from bench.config import NGINX, POSTGRES, REDIS, ROOT, SCALED_LIMITS, SCALED_START_TIMEOUT_S, WRK
from bench.floor import _answers, running_nginx
from rcxsite.tools.scaled_build import STATIC_ROOT
from rcxsite.tools.scaled_config import BROTLI_MODULE
from tests.support.live_server import free_port

STOP_TIMEOUT_S = 30

_NGINX_ALONE_CONF = """\
{load_module}
worker_processes auto;
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    sendfile on;
    tcp_nopush on;
    client_body_temp_path {tmp}/client_body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    gzip_static on;
    gzip_vary on;
    {brotli_static}
    server {{
        listen 127.0.0.1:{port};
        root {root};
        location / {{ try_files $uri/index.html $uri.html $uri =404; }}
    }}
}}
"""


def _address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or 0


def _reachable(url: str) -> bool:
    try:
        with socket.create_connection(_address(url), timeout=2):
            return True
    except OSError:
        return False


def missing() -> str | None:
    """Why the throughput part cannot run here, or None."""
    reasons = []
    for name, url in (("PostgreSQL", POSTGRES), ("Redis", REDIS)):
        if not _reachable(url):
            host, port = _address(url)
            reasons.append(f"{name} not reachable at {host}:{port}")
    for tool in (NGINX, WRK):
        if not tool.exists():
            reasons.append(f"{tool} is missing (`make bench` installs it)")
    return "; ".join(reasons) or None


@dataclass
class ScaledSite:
    url: str
    run_dir: Path
    static_root: Path
    workers: int


def _log_tail(run_dir: Path, lines: int = 30) -> str:
    logs = [run_dir / "runner.log", *sorted(run_dir.glob("worker-*.log")),
            run_dir / "nginx-error.log"]
    return "\n".join(
        f"== {log.name}\n" + "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
        for log in logs if log.exists()
    )


def _scaled_env(work_dir: Path, port: int, workers: int, database: str,
                key_prefix: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("SMTP_")}
    env.update(
        PORT=str(port), WORKERS=str(workers), SITE_URL=f"http://localhost:{port}",
        DATABASE_URL=f"{POSTGRES}/{database}", REDIS_URL=REDIS,
        RATE_LIMIT_KEY_PREFIX=key_prefix,
        DATA_DIR=str(work_dir / "data"), OUTBOX_DIR=str(work_dir / "data" / "outbox"),
        SCALED_RUN_DIR=str(work_dir / "run"),
        **SCALED_LIMITS,
    )
    return env


def _kill_group(pid: int | None, sig: int) -> None:
    if pid is None:
        return
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


def _still_ours(pid: int | None, marker: str) -> bool:
    """Whether `pid` is still the process the runner started (its command line names
    `marker`), not one that got the number since."""
    if pid is None:
        return False
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return False
    return marker in cmdline


def _stop_runner(process: subprocess.Popen[bytes], run_dir: Path) -> None:
    """SIGTERM: the runner stops its workers and nginx. Whatever it left is killed after."""
    _kill_group(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        _kill_group(process.pid, signal.SIGKILL)
        process.wait()
    record = run_dir / "processes.json"
    if not record.exists():
        return
    started = json.loads(record.read_text())
    leftovers = [(started.get("nginx"), str(run_dir))] + [
        (worker.get("pid"), f"--port {worker.get('port')} ") for worker in started["workers"]
    ]
    for pid, marker in leftovers:
        if _still_ours(pid, marker):
            _kill_group(pid, signal.SIGKILL)  # each runs in a session of its own


def _forget(database: str, key_prefix: str) -> None:
    from redis import Redis
    from sqlalchemy import create_engine, text

    admin = create_engine(f"{POSTGRES}/postgres", isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))
    finally:
        admin.dispose()
    client = Redis.from_url(REDIS)
    try:
        keys = list(client.scan_iter(match=f"{key_prefix}*", count=1000))
        for start in range(0, len(keys), 500):
            client.delete(*keys[start:start + 500])
    finally:
        client.close()


@contextmanager
def run_scaled(work_dir: Path, workers: int) -> Iterator[ScaledSite]:
    """Start `python -m rcxsite.tools.run_scaled` (migrates, builds into `.run/web`, starts
    nginx and the workers); yield once nginx answers; stop it and drop its data."""
    (work_dir / "run").mkdir(parents=True, exist_ok=True)
    token = uuid.uuid4().hex[:10]
    database, key_prefix = f"rcx_bench_{token}", f"rcx-bench-{token}"
    port = free_port()
    env = _scaled_env(work_dir, port, workers, database, key_prefix)
    site = ScaledSite(f"http://127.0.0.1:{port}", work_dir / "run",
                      STATIC_ROOT, workers)
    started = time.monotonic()
    print(f"starting run-scaled ({workers} workers; builds the frontend) ...",
          file=sys.stderr, flush=True)
    with (site.run_dir / "runner.log").open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "rcxsite.tools.run_scaled"], cwd=ROOT, env=env,
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
    try:
        deadline = time.monotonic() + SCALED_START_TIMEOUT_S
        while not ((site.run_dir / "processes.json").exists() and _answers(site.url + "/")):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"run-scaled did not start:\n{_log_tail(site.run_dir)}")
            time.sleep(0.5)
        print(f"  {site.url} answered after {time.monotonic() - started:.0f} s",
              file=sys.stderr, flush=True)
        yield site
    finally:
        _stop_runner(process, site.run_dir)
        try:
            _forget(database, key_prefix)
        except Exception as error:  # reported, not raised
            print(f"  could not drop {database} / Redis keys {key_prefix}*: {error}",
                  file=sys.stderr, flush=True)


@contextmanager
def nginx_alone(work_dir: Path, root: Path) -> Iterator[str]:
    """nginx serving `root` as it is, with deploy's static-file settings; yields its URL."""
    if not (root / "index.html").exists():
        raise RuntimeError(f"no build in {root}")
    tmp = work_dir / "nginx"
    tmp.mkdir(parents=True, exist_ok=True)
    port = free_port()
    brotli = BROTLI_MODULE.exists()
    conf_text = _NGINX_ALONE_CONF.format(
        load_module=f"load_module {BROTLI_MODULE};" if brotli else "",
        brotli_static="brotli_static on;" if brotli else "", tmp=tmp, port=port, root=root,
    )
    with running_nginx(tmp, conf_text, port, "nginx alone") as url:
        yield url
