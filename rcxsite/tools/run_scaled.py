"""`make run-scaled`: nginx in front of WORKERS Reflex backend processes.

    python -m rcxsite.tools.run_scaled

Needs `DATABASE_URL` (PostgreSQL; the database is created when missing) and `REDIS_URL`
(Reflex's state and the rate limits, shared by the workers). Migrates, builds the
frontend into its own folder (an unchanged build is reused: rcxsite/tools/scaled_build.py),
renders deploy/nginx.conf.template, then keeps nginx and the workers running in the
foreground: a worker that dies is started again, and Ctrl-C (SIGINT) or SIGTERM stops every
process it started. Everything it writes is under
`.run/scaled/` (git-ignored); `.run/scaled/processes.json` names the workers' ports and
process ids for tests and operators.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from rcxsite.platform.metrics import MULTIPROCESS_DIR, fresh_folder, let_go_of_dead_processes
from rcxsite.platform.settings import get_settings
from rcxsite.platform.shared_setup import SharedSetupMissing, require_shared_setup
from rcxsite.tools.processes import NotReady, free_port, port_open, start, stop_all, wait_until
from rcxsite.tools.scaled_build import WEB_DIR, BuildError, build_frontend, build_inputs
from rcxsite.tools.scaled_config import render_nginx_conf
from rcxsite.tools.web_build import CLIENT, STAMP, ArtifactError, build_id_of, unpack

ROOT = Path(__file__).resolve().parents[2]
# SCALED_RUN_DIR moves the run's files (config, logs, pids); SCALED_WEB_DIR the build
# (.run/web), for sites on other ports beside this one (the tests).
RUN_DIR = Path(os.environ.get("SCALED_RUN_DIR", ROOT / ".run" / "scaled"))
SCALED_WEB_DIR = Path(os.environ.get("SCALED_WEB_DIR") or WEB_DIR)
# Where WEB_BUILD files are unpacked (SCALED_BUILDS_DIR moves it); nginx's workers, another
# user, read the pages there, so not under a folder only this user may enter.
BUILDS_DIR = Path(os.environ.get("SCALED_BUILDS_DIR") or ROOT / ".run" / "builds")
NGINX = Path(os.environ.get("NGINX", "/usr/sbin/nginx"))
STOP_TIMEOUT_S = 10
RESTART_DELAY_S = 1.0
STARTUP_TIMEOUT_S = 120


class SetupError(Exception):
    """A problem the operator must fix; printed as is, without a trace."""


def check_services(env: dict[str, str]) -> tuple[str, str]:
    """The PostgreSQL and Redis URLs this mode needs, or a SetupError saying what is missing."""
    database_url, redis_url = env.get("DATABASE_URL", ""), env.get("REDIS_URL", "")
    missing = []
    if not database_url.startswith(("postgresql://", "postgresql+psycopg://", "postgres://")):
        missing.append(
            "DATABASE_URL must name a PostgreSQL database, e.g. "
            "postgresql://postgres@127.0.0.1:5432/rcx"
        )
    if not redis_url.startswith(("redis://", "rediss://", "unix://")):
        missing.append("REDIS_URL must name a Redis server, e.g. redis://127.0.0.1:6379/0")
    if missing:
        raise SetupError("make run-scaled needs PostgreSQL and Redis:\n  " + "\n  ".join(missing))
    return database_url, redis_url


# duplicate_database, or the unique index of pg_database when two CREATEs race.
_ALREADY_THERE = ("42P04", "23505")


def ensure_database(database_url: str) -> None:
    """Create the database when it does not exist yet (connecting to `postgres`)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError

    url = make_url(database_url)
    name = url.database or ""
    admin = create_engine(
        url.set(database="postgres"),
        isolation_level="AUTOCOMMIT",
        connect_args={"connect_timeout": 5},
    )
    try:
        with admin.connect() as connection:
            exists = connection.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}
            ).first()
            if not exists:
                quoted = admin.dialect.identifier_preparer.quote(name)
                try:
                    connection.execute(text(f"CREATE DATABASE {quoted}"))
                    print(f"Created database {name}", flush=True)
                except (ProgrammingError, IntegrityError) as error:
                    # Hosts started together: another one created it a moment ago.
                    if getattr(error.orig, "sqlstate", "") not in _ALREADY_THERE:
                        raise
    except OperationalError as error:
        raise SetupError(
            f"PostgreSQL at {url.host}:{url.port or 5432} cannot be reached: {error.orig}"
        ) from None
    finally:
        admin.dispose()


def _run(command: list[str], env: dict[str, str], what: str) -> None:
    result = subprocess.run(command, cwd=ROOT, env=env)
    if result.returncode != 0:
        raise SetupError(f"{what} failed (exit code {result.returncode})")


@dataclass
class Worker:
    port: int
    process: subprocess.Popen[bytes] | None = None
    started: float = field(default=0.0)


def worker_command(port: int) -> list[str]:
    # Granian builds the app by calling Reflex's App, as `reflex run --backend-only` does;
    # one process per worker, on 127.0.0.1 only whatever BIND_HOST says: a worker believes
    # the X-Forwarded-For of whoever reaches it (nginx), so only nginx may.
    return [
        sys.executable,
        "-m",
        "granian",
        "--interface",
        "asgi",
        "--factory",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        "1",
        "--log-level",
        "warning",
        "rcxsite.rcxsite:app",
    ]


# The job runners (rcxsite/jobs): processes of their own, so a worker restart never
# stops mail; several share the queue safely (claims, leases).
RUNNER_COMMAND = [sys.executable, "-m", "rcxsite.jobs", "run"]


def _answers(port: int, host: str = "127.0.0.1") -> bool:
    return port_open(host, port, timeout=1)


def _nginx_address() -> str:
    """Where nginx listens, as this host reaches it (BIND_HOST; its loopback for any)."""
    host = get_settings().bind_host
    return {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)


class Supervisor:
    def __init__(self, *, workers: int, port: int, env: dict[str, str], static_root: Path):
        self.env, self.port, self.static_root = env, port, static_root
        self.workers = [Worker(port=free_port()) for _ in range(workers)]
        self.runners: list[subprocess.Popen[bytes] | None] = [None] * get_settings().job_runners
        self.nginx: subprocess.Popen[bytes] | None = None
        self.stopping = False

    def _record(self) -> None:
        record = {
            "port": self.port,
            "nginx": self.nginx.pid if self.nginx else None,
            "workers": [
                {"port": w.port, "pid": w.process.pid if w.process else None} for w in self.workers
            ],
            "job_runners": [runner.pid if runner else None for runner in self.runners],
        }
        # Written aside and renamed: a reader (an operator's script, the tests) never sees
        # the file empty or half written while a restarted worker is recorded.
        partial = RUN_DIR / "processes.json.partial"
        partial.write_text(json.dumps(record, indent=2))
        partial.replace(RUN_DIR / "processes.json")

    def _start_worker(self, worker: Worker) -> None:
        from reflex_base.environment import environment

        # The build is done; each worker only evaluates the pages (as `reflex run` does).
        env = {**self.env, environment.REFLEX_SKIP_COMPILE.name: "true"}
        worker.process = start(
            worker_command(worker.port),
            env=env,
            cwd=ROOT,
            log_path=RUN_DIR / f"worker-{worker.port}.log",
        )
        worker.started = time.monotonic()

    def _start_runner(self, number: int) -> None:
        self.runners[number] = start(
            RUNNER_COMMAND, env=self.env, cwd=ROOT, log_path=RUN_DIR / f"job-runner-{number}.log"
        )

    def start(self) -> None:
        for number in range(len(self.runners)):
            self._start_runner(number)
        for worker in self.workers:
            self._start_worker(worker)
        deadline = time.monotonic() + STARTUP_TIMEOUT_S  # one for all: they start together
        for worker in self.workers:
            try:
                wait_until(
                    partial(_answers, worker.port),
                    process=worker.process,
                    timeout_s=max(0.0, deadline - time.monotonic()),
                    what=f"worker on port {worker.port}",
                )
            except NotReady as failure:
                raise SetupError(
                    f"worker on port {worker.port} exited; see "
                    f"{RUN_DIR / f'worker-{worker.port}.log'}"
                    if failure.exited
                    else f"worker on port {worker.port} did not start"
                ) from None
        conf = RUN_DIR / "nginx.conf"
        conf.write_text(
            render_nginx_conf(
                run_dir=RUN_DIR,
                static_root=self.static_root,
                listen=self.port,
                worker_ports=[w.port for w in self.workers],
                hsts=self.env.get("SITE_URL", "").startswith("https://"),
                settings=get_settings(),  # TRUSTED_PROXIES and the per-client limits
            )
        )
        test = subprocess.run(
            [str(NGINX), "-t", "-q", "-p", str(RUN_DIR), "-c", str(conf)],
            capture_output=True,
            text=True,
        )
        if test.returncode != 0:
            raise SetupError(f"nginx refused its configuration:\n{test.stderr}")
        self.nginx = start(
            [str(NGINX), "-p", str(RUN_DIR), "-c", str(conf)],
            env=self.env,
            cwd=ROOT,
            log_path=RUN_DIR / "nginx.log",
        )
        try:
            # No deadline: nginx that runs listens within moments, or exits saying why.
            wait_until(
                lambda: _answers(self.port, _nginx_address()),
                process=self.nginx,
                timeout_s=None,
                what="nginx",
                interval_s=0.1,
            )
        except NotReady:
            raise SetupError(f"nginx exited; see {RUN_DIR / 'nginx-error.log'}") from None
        self._record()

    def watch(self) -> None:
        """Restarts workers that die, until asked to stop."""
        while not self.stopping:
            for worker in self.workers:
                if worker.process is not None and worker.process.poll() is not None:
                    let_go_of_dead_processes(self.env.get(MULTIPROCESS_DIR, ""))
                    print(
                        f"worker on port {worker.port} exited "
                        f"({worker.process.returncode}); starting it again",
                        flush=True,
                    )
                    time.sleep(RESTART_DELAY_S)
                    if not self.stopping:
                        self._start_worker(worker)
                        self._record()
            for number, runner in enumerate(self.runners):
                if runner is not None and runner.poll() is not None and not self.stopping:
                    let_go_of_dead_processes(self.env.get(MULTIPROCESS_DIR, ""))
                    print(
                        f"job runner {number} exited ({runner.returncode}); starting it again",
                        flush=True,
                    )
                    self._start_runner(number)
                    self._record()
            if self.nginx is not None and self.nginx.poll() is not None and not self.stopping:
                raise SetupError(f"nginx exited; see {RUN_DIR / 'nginx-error.log'}")
            time.sleep(0.2)

    def stop(self) -> None:
        self.stopping = True
        stop_all(
            [p for p in [self.nginx, *(w.process for w in self.workers), *self.runners] if p],
            STOP_TIMEOUT_S,
        )


def scaled_env(base: dict[str, str], *, port: int) -> dict[str, str]:
    env = dict(base)
    env.setdefault("SITE_URL", f"http://localhost:{port}")
    env.update(
        PORT=str(port),
        # The workers see nginx's address; the visitor's is the last X-Forwarded-For entry,
        # the one nginx appends (behind TRUSTED_PROXIES, the address they reported).
        TRUSTED_PROXY_HOPS="1",
        REFLEX_WEB_WORKDIR=str(SCALED_WEB_DIR),
        # The frontend connects its websocket to the public address (nginx), not a worker.
        REFLEX_API_URL=env["SITE_URL"],
        REFLEX_TELEMETRY_ENABLED="false",
        REFLEX_CHECK_LATEST_VERSION="0",
        # Mail and jobs are the runner processes' work, not the workers'.
        JOB_RUNNER_IN_SITE="false",
        # Every worker's and runner's counters, added up by any worker's /metrics.
        PROMETHEUS_MULTIPROC_DIR=str(RUN_DIR / "metrics"),
    )
    return env


def _front_end(env: dict[str, str]) -> Path:
    """The static front end this host serves: the one `WEB_BUILD` names (`make build`'s
    file, the same on every host), else a build of its own; `env` gets its build id and
    folder for the workers."""
    artifact = env.get("WEB_BUILD", "")
    try:
        if not artifact:
            static_root = build_frontend(env, web_dir=SCALED_WEB_DIR)
            env["BUILD_ID"] = build_id_of(SCALED_WEB_DIR)
            return static_root
        build_id, web_dir = unpack(Path(artifact), builds=BUILDS_DIR)
    except (BuildError, ArtifactError) as failure:
        raise SetupError(str(failure)) from None
    if (web_dir / STAMP).read_text().strip() != build_inputs(env):
        raise SetupError(
            f"WEB_BUILD {artifact} was built from other sources or page settings than this"
            " host runs: make it with `make build` from this commit, with this host's SITE_URL"
            " and page settings"
        )
    env.update(BUILD_ID=build_id, REFLEX_WEB_WORKDIR=str(web_dir))
    return web_dir / CLIENT


def main() -> int:
    port = int(os.environ.get("PORT", "3000"))
    workers = int(os.environ.get("WORKERS", "2"))
    supervisor: Supervisor | None = None
    try:
        check_services(dict(os.environ))
        if workers < 1:
            raise SetupError("WORKERS must be at least 1")
        try:  # before anything starts: nginx would only name a line of its configuration
            trusted = get_settings().trusted_proxy_networks
        except ValueError as problem:
            raise SetupError(str(problem)) from None
        try:
            require_shared_setup(get_settings())
        except SharedSetupMissing as missing:
            raise SetupError(str(missing)) from None
        if not NGINX.exists():
            raise SetupError(f"nginx is not installed at {NGINX} (make run-scaled installs it)")
        RUN_DIR.mkdir(parents=True, exist_ok=True)
        env = scaled_env(dict(os.environ), port=port)
        fresh_folder(Path(env[MULTIPROCESS_DIR]))
        ensure_database(env["DATABASE_URL"])
        _run([sys.executable, "-m", "rcxsite", "migrate"], env, "Migrating the database")
        static_root = _front_end(env)
        supervisor = Supervisor(workers=workers, port=port, env=env, static_root=static_root)

        def request_stop(signum: int, _frame: object) -> None:
            if supervisor is not None:
                supervisor.stopping = True

        signal.signal(signal.SIGINT, request_stop)
        signal.signal(signal.SIGTERM, request_stop)
        supervisor.start()
        print(
            f"RCX is running on {env['SITE_URL']} (nginx on port {port}, {workers} "
            f"workers); Ctrl-C stops it.",
            flush=True,
        )
        print(
            "nginx believes X-Forwarded-For from "
            + (
                ", ".join(trusted)
                if trusted
                else "no one (TRUSTED_PROXIES is empty): each visitor is the address that connects"
            ),
            flush=True,
        )
        supervisor.watch()
        return 0
    except SetupError as problem:
        print(f"run-scaled: {problem}", file=sys.stderr, flush=True)
        return 2
    finally:
        if supervisor is not None:
            supervisor.stop()


if __name__ == "__main__":
    sys.exit(main())
