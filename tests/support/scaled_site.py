"""`make run-scaled` started for the tests: nginx, 3 workers, PostgreSQL and Redis, with
the limits the tests need, and stopped (every process it started) after."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import create_engine, text

from rcxsite.platform.settings import Settings
from rcxsite.tools import processes
from tests.support.live_server import ROOT
from tests.support.services import service_missing
from tests.support.smtp import Mailbox

POSTGRES = "postgresql://postgres@127.0.0.1:5432"
REDIS = "redis://127.0.0.1:6379/3"
WORKERS = 3
START_TIMEOUT_S = 600
STOP_TIMEOUT_S = 30
LOAD_REPORT = ROOT / "test-artifacts" / "load.json"
FAULT_REPORT = ROOT / "test-artifacts" / "faults.json"
# The test clients besides 127.0.0.1 connect from other loopback addresses (Linux routes all
# of 127/8 to lo); a proxy in front of nginx runs on 127.0.0.1, so that one is trusted.
TRUSTED_PROXY = "127.0.0.1"
WEBSOCKETS_PER_CLIENT: int = Settings.model_fields["websockets_per_client"].default


def run_scaled_setup(run_dir: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m rcxsite.tools.run_scaled` with `env` over this environment, run until it
    stops (a refused configuration stops it before anything starts)."""
    return subprocess.run(
        [sys.executable, "-m", "rcxsite.tools.run_scaled"],
        cwd=ROOT,
        env={**os.environ, "SCALED_RUN_DIR": str(run_dir), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


@dataclass
class ScaledSite:
    url: str
    run_dir: Path
    database_url: str
    process: subprocess.Popen[bytes]

    def processes(self) -> dict:
        return json.loads((self.run_dir / "processes.json").read_text())

    def worker_pids(self) -> list[int]:
        return [worker["pid"] for worker in self.processes()["workers"]]

    def kill_worker(self, index: int) -> None:
        """SIGKILL one worker (the runner starts it again; see wait_for_all_workers)."""
        old = self.processes()["workers"][index]
        os.killpg(old["pid"], signal.SIGKILL)

    def kill_job_runner(self, index: int) -> int:
        """SIGKILL one job runner process (the supervisor starts another); its pid."""
        pid = int(self.processes()["job_runners"][index])
        processes.signal_group(pid, signal.SIGKILL)
        return pid

    def kill_everything_it_started(self) -> None:
        """nginx, the workers and the job runners run in sessions of their own: a runner
        killed with SIGKILL leaves them behind, holding the port the next site needs (and
        polling its database)."""
        try:
            record = self.processes()
        except (OSError, ValueError):
            return
        pids = [
            record.get("nginx"),
            *(w["pid"] for w in record["workers"]),
            *record.get("job_runners", []),
        ]
        for pid in filter(None, pids):
            processes.signal_group(pid, signal.SIGKILL)

    def wait_for_all_workers(self, timeout_s: float = 120) -> None:
        def all_answer() -> bool:
            return all(
                processes.answers_http(f"http://127.0.0.1:{w['port']}/ping", timeout=5)
                for w in self.processes()["workers"]
            )

        try:
            processes.wait_until(all_answer, timeout_s=timeout_s, what="every worker")
        except processes.NotReady:
            raise AssertionError(f"workers did not come back:\n{self.log_tail()}") from None

    def log_tail(self, lines: int = 40) -> str:
        logs = sorted(self.run_dir.glob("*.log"))
        return "\n".join(
            f"== {log.name}\n" + "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
            for log in [self.run_dir / "runner.log", *logs]
            if log.exists()
        )


CLOSED_TAB_STATE_SECONDS = 4


def limits_for_tests() -> dict[str, str]:
    # Every test registers and logs in from 127.0.0.1, 200 visitors and 20 tabs at once in
    # the load test; the limits that are tested keep their defaults (reset mails per
    # address, reset submissions and open websockets per client).
    return dict(
        REGISTRATION_LIMIT="10000 per hour",
        LOGIN_FAILURE_LIMIT="10000 per 15 minutes",
        RESET_MAIL_CLIENT_LIMITS="10000 per hour",
        QUOTE_LIMIT="10000 per hour",
        BOOKING_LIMIT="10000 per hour",
        ACCOUNT_CHANGE_LIMIT="10000 per hour",
        ANALYTICS_VIEWS_PER_CLIENT_PER_MINUTE="100000",
        CONNECTIONS_PER_CLIENT="10000",
        WEBSOCKET_OPENS_PER_MINUTE="100000",
        API_REQUESTS_PER_SECOND="10000",
        API_BURST="10000",
        WEBSOCKETS_PER_CLIENT=str(WEBSOCKETS_PER_CLIENT),
        TRUSTED_PROXIES=TRUSTED_PROXY,
        # Seconds rather than minutes: a test watches closed tabs' state leave Redis.
        CLOSED_TAB_STATE_SECONDS=str(CLOSED_TAB_STATE_SECONDS),
    )


def build_file(env: dict[str, str], dist: Path, sources: Path = ROOT) -> Path:
    """`make build` run in `sources` with `env` (its SCALED_WEB_DIR, if any, holds the
    build): the file in `dist` that hosts are given."""
    made = subprocess.run(
        [sys.executable, "-m", "rcxsite.tools.web_build"],
        env={**env, "WEB_BUILD_DIST": str(dist)},
        cwd=sources,
        capture_output=True,
        text=True,
    )
    if made.returncode != 0:
        raise RuntimeError(f"make build failed:\n{made.stdout[-3000:]}\n{made.stderr[-3000:]}")
    [artifact] = dist.glob("rcx-web-*.tar.gz")
    return artifact


@contextmanager
def running_scaled_site(
    *,
    port: int,
    data_dir: Path,
    mailbox: Mailbox,
    database_url: str,
    redis_url: str,
    workers: int = WORKERS,
) -> Iterator[ScaledSite]:
    """`python -m rcxsite.tools.run_scaled` on `port`, stopped (every process) on exit."""
    if not Path("/usr/sbin/nginx").exists():
        service_missing("nginx is not installed (make test installs it)")
    env = {key: value for key, value in os.environ.items() if not key.startswith("SMTP_")}
    env.update(
        PORT=str(port),
        WORKERS=str(workers),
        SITE_URL=f"http://localhost:{port}",
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        RATE_LIMIT_KEY_PREFIX=f"rcx-test-{uuid.uuid4().hex[:8]}",
        # One key for every worker and runner, as several hosts must have.
        SECRET_KEY=f"scaled-test-key-{uuid.uuid4().hex}",
        DATA_DIR=str(data_dir),
        OUTBOX_DIR=str(data_dir / "outbox"),
        SCALED_RUN_DIR=str(data_dir / "run"),
        # A build of its own per port: a site on another port, started beside this one,
        # must not rebuild the pages this one serves (they name their port).
        SCALED_WEB_DIR=str(ROOT / ".run" / f"scaled-web-{port}"),
        SMTP_HOST=mailbox.host,
        SMTP_PORT=str(mailbox.port),
        SMTP_STARTTLS="false",
        **limits_for_tests(),
    )
    (data_dir / "run").mkdir()
    # As several hosts would: the front end built once into `make build`'s file, which
    # run-scaled unpacks and serves (its build id then keys the tabs' states).
    env["WEB_BUILD"] = str(build_file(env, data_dir / "dist"))
    process = processes.start(
        [sys.executable, "-m", "rcxsite.tools.run_scaled"],
        env=env,
        log_path=data_dir / "run" / "runner.log",
        cwd=ROOT,
    )
    site = ScaledSite(f"http://localhost:{port}", data_dir / "run", database_url, process)
    try:
        try:
            processes.wait_until(
                lambda: (
                    (site.run_dir / "processes.json").exists()
                    and processes.answers_http(site.url + "/", timeout=5)
                ),
                process=process,
                timeout_s=START_TIMEOUT_S,
                what="run-scaled",
                interval_s=0.5,
            )
        except processes.NotReady:
            raise RuntimeError(f"run-scaled did not start:\n{site.log_tail()}") from None
        yield site
    finally:
        # SIGTERM: the runner stops nginx and the workers; killed, it leaves them behind.
        if not processes.stop(process, STOP_TIMEOUT_S):
            site.kill_everything_it_started()


@contextmanager
def site_on_local_services(*, port: int, data_dir: Path, mailbox: Mailbox) -> Iterator[ScaledSite]:
    """The site on this machine's PostgreSQL (a database of its own) and Redis."""
    if not processes.port_open("127.0.0.1", 5432, timeout=2):
        service_missing("PostgreSQL not reachable at 127.0.0.1:5432")
    if not processes.port_open("127.0.0.1", 6379, timeout=2):
        service_missing("Redis not reachable at 127.0.0.1:6379")
    name = f"rcx_scaled_{uuid.uuid4().hex[:10]}"
    try:
        with running_scaled_site(
            port=port,
            data_dir=data_dir,
            mailbox=mailbox,
            database_url=f"{POSTGRES}/{name}",
            redis_url=REDIS,
        ) as site:
            yield site
    finally:
        admin = create_engine(f"{POSTGRES}/postgres", isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


class SharedSite:
    """One site for every module that uses `scaled_site`, started on first use: a start
    costs half a minute of the two cores."""

    def __init__(self, start: Callable[[], AbstractContextManager[ScaledSite]]) -> None:
        self._start = start
        self._running = ExitStack()
        self._site: ScaledSite | None = None
        self._failure: BaseException | None = None

    def get(self) -> ScaledSite:
        if self._failure is not None:  # a start that failed (or skipped) is not tried per test
            raise self._failure
        if self._site is None:
            try:
                self._site = self._running.enter_context(self._start())
            except BaseException as failure:
                self._failure = failure
                raise
        return self._site

    def stop(self) -> None:
        """Stopped now (a later `get` starts it again): another site needs the port."""
        self._site, self._failure = None, None
        self._running.close()
