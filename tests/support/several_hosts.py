"""The site on hosts of the test's own (tests/support/network_hosts.py), as a company on
several machines runs it (README: "Running on several hosts"):

- `data`: its own PostgreSQL cluster (initdb), its own redis-server and an SMTP sink;
- `app1` and `app2`: `make run-scaled`, each from a folder of its own (nothing shared by
  disk), both from one `make build` file and the same settings;
- `lb`: `make run-lb` in front of the two, where the test's own thread and its browser sit.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rcxsite.tools import processes
from rcxsite.tools.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.support.live_server import ROOT
from tests.support.network_hosts import Network
from tests.support.plain_http import request
from tests.support.scaled_site import build_file, limits_for_tests
from tests.support.scratch_services import ScratchPostgres, ScratchRedis
from tests.support.services import service_missing
from tests.support.smtp import Mailbox

PORT = 3000
# What the browser on `lb` opens: the balancer, on that host's own loopback.
SITE_URL = f"http://localhost:{PORT}"
START_TIMEOUT_S = 300
# A runner that dies holding a job lets it go after this long (the default is minutes).
JOB_LEASE_SECONDS = 8
METRICS_TOKEN = uuid.uuid4().hex
# Under .run (not the tests' temporary folder, which only root may enter): each host's
# nginx workers, another user, read the pages it unpacked.
HOSTS_ROOT = ROOT / ".run" / "hosts"
# Builds kept between runs: the same sources and settings are not built twice.
BUILDS_ROOT = ROOT / ".run" / "hosts-builds"
_NOT_COPIED = ("tests/", "bench/", "docs/")
HOSTS_REPORT = ROOT / "test-artifacts" / "several-hosts.json"


def copy_of_the_sources(folder: Path) -> Path:
    """What a host has after a checkout: the working tree's files (tracked, and new ones
    not ignored), without the tests, the bench or the docs."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if name.startswith(_NOT_COPIED) or not source.is_file():
            continue
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    return folder


def make_build(sources: Path, env: dict[str, str], name: str) -> Path:
    """`make build` run in `sources`: the file every host is given."""
    dist = BUILDS_ROOT / name / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    return build_file({**env, "SCALED_WEB_DIR": str(BUILDS_ROOT / name / "web")}, dist, sources)


@dataclass
class AppHost:
    name: str
    network: Network
    env: dict[str, str]
    folder: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        return self.network.addresses[self.name]

    @property
    def url(self) -> str:
        """The host's own nginx, as the balancer reaches it."""
        return f"http://{self.address}:{PORT}"

    @property
    def run_dir(self) -> Path:
        return self.folder / ".run" / "scaled"

    def start(self, web_build: Path, folder: Path | None = None) -> None:
        """`WEB_BUILD=<file> make run-scaled` on this host (from `folder`, a new checkout,
        when given); returns at once (`wait_until_ready`)."""
        self.folder = folder or self.folder
        with self.network.on(self.name):
            self.process = processes.start(
                [sys.executable, "-m", "rcxsite.tools.run_scaled"],
                env={
                    **self.env,
                    "WEB_BUILD": str(web_build),
                    "DATA_DIR": str(self.folder / "data"),
                },
                log_path=self.folder / "run-scaled.log",
                cwd=self.folder,
            )

    def wait_until_ready(self) -> None:
        """Until the host's readiness check answers 200, through its nginx (from `lb`)."""
        try:
            with self.network.on("lb"):
                processes.wait_until(
                    lambda: processes.answers_http(self.url + "/healthz", timeout=5),
                    process=self.process,
                    timeout_s=START_TIMEOUT_S,
                    what=f"{self.name}'s run-scaled",
                    interval_s=0.5,
                )
        except processes.NotReady:
            raise RuntimeError(f"{self.name} did not start:\n{self.log_tail()}") from None

    def open_websockets(self) -> int:
        """Tabs connected to this host now, as its /metrics counts them."""
        status, _, body = request(
            self.url + "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}
        )
        assert status == 200, body
        [value] = re.findall(rb"^rcx_open_websockets (\S+)$", body, re.MULTILINE)
        return int(float(value))

    def processes_record(self) -> dict[str, Any]:
        return dict(json.loads((self.run_dir / "processes.json").read_text()))

    def runner_pids(self) -> list[int]:
        return [int(pid) for pid in self.processes_record()["job_runners"] if pid]

    def pause_runners(self) -> None:
        for pid in self.runner_pids():
            os.kill(pid, signal.SIGSTOP)

    def resume_runners(self) -> None:
        for pid in self.runner_pids():
            os.kill(pid, signal.SIGCONT)

    def stop(self) -> None:
        """SIGTERM, as a deploy stops a host: run-scaled stops what it started."""
        if self.process is not None and not processes.stop(self.process, 30):
            self.network.kill_everything_on(self.name)
        self.process = None

    def kill(self) -> None:
        """Every process on the host SIGKILLed at once: the machine lost power."""
        self.network.kill_everything_on(self.name)
        if self.process is not None:
            self.process.wait()
        self.process = None

    def log_tail(self, lines: int = 40) -> str:
        logs = [self.folder / "run-scaled.log", *sorted(self.run_dir.glob("*.log"))]
        return "\n".join(
            f"== {log.name}\n" + "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
            for log in logs
            if log.exists()
        )


@dataclass
class SeveralHosts:
    network: Network
    postgres: ScratchPostgres
    redis: ScratchRedis
    mailbox: Mailbox
    apps: dict[str, AppHost]
    env: dict[str, str]
    folder: Path
    web_build: Path
    balancer: subprocess.Popen[bytes] | None = None
    url: str = SITE_URL

    @property
    def database_url(self) -> str:
        return self.postgres.url

    def new_sources(self, name: str) -> Path:
        return copy_of_the_sources(self.folder / name)

    def build(self, sources: Path, name: str) -> Path:
        return make_build(sources, self.env, name)

    def start_balancer(self, apps: list[AppHost], port: int) -> subprocess.Popen[bytes]:
        """`make run-lb` on `lb` in front of `apps`, listening on `port`; stopped with the
        hosts (its process is on `lb`)."""
        run_dir = self.folder / f"lb-{port}"
        with self.network.on("lb"):
            balancer = processes.start(
                [sys.executable, "-m", "rcxsite.tools.run_lb"],
                env={
                    **self.env,
                    "LB_UPSTREAMS": ",".join(f"{app.address}:{PORT}" for app in apps),
                    "BIND_HOST": "0.0.0.0",
                    "PORT": str(port),
                    "LB_RUN_DIR": str(run_dir),
                },
                log_path=self.folder / f"lb-{port}.log",
                cwd=ROOT,
            )
            processes.wait_until(
                lambda: processes.answers_http(f"http://localhost:{port}/healthz", timeout=5),
                process=balancer,
                timeout_s=30,
                what="the balancer",
                interval_s=0.2,
            )
        return balancer

    @contextmanager
    def browser_on_lb(self, browser: Any) -> Iterator[Any]:
        """A Chromium of its own on `lb` (Playwright's, from the session's `browser`): its
        network is that host's, where the site is http://localhost:3000."""
        wrapper = self.folder / "chromium-on-lb"
        wrapper.write_text(
            f'#!/bin/sh\nexec ip netns exec {self.network.namespace("lb")} {CHROMIUM} "$@"\n'
        )
        wrapper.chmod(0o755)
        on_lb = browser.browser_type.launch(executable_path=str(wrapper), args=list(CHROMIUM_ARGS))
        try:
            yield on_lb
        finally:
            on_lb.close()


def _host_env(
    network: Network, postgres: ScratchPostgres, redis: ScratchRedis, mailbox: Mailbox
) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("SMTP_")}
    env.pop("PYTHONPATH", None)
    env.update(
        limits_for_tests(),
        PORT=str(PORT),
        WORKERS="1",
        JOB_RUNNERS="1",
        SITE_URL=SITE_URL,
        DATABASE_URL=postgres.url,
        REDIS_URL=redis.url,
        SECRET_KEY=f"several-hosts-{uuid.uuid4().hex}",
        SMTP_HOST=mailbox.host,
        SMTP_PORT=str(mailbox.port),
        SMTP_STARTTLS="false",
        # Each app host believes the balancer's X-Forwarded-For, and only its.
        TRUSTED_PROXIES=network.addresses["lb"],
        JOB_LEASE_SECONDS=str(JOB_LEASE_SECONDS),
        JOB_POLL_SECONDS="0.5",
        METRICS_TOKEN=METRICS_TOKEN,
    )
    return env


@contextmanager
def several_hosts() -> Iterator[SeveralHosts]:
    """The four hosts, the site running on them, all removed on exit."""
    for tool in ("/usr/sbin/nginx", "/usr/bin/redis-server"):
        if not Path(tool).exists():
            service_missing(f"{tool} is not installed (make test installs nginx)")
    with ExitStack() as stack:
        network = Network(["lb", "app1", "app2", "data"])
        stack.callback(network.remove)
        data = network.addresses["data"]
        with network.on("data"):
            postgres = ScratchPostgres(listen=data)
            stack.callback(postgres.remove)
            postgres.start()
            redis = ScratchRedis(listen=data)
            stack.callback(redis.remove)
            redis.start()
            mailbox = Mailbox(host=data).start()
            stack.callback(mailbox.stop)
        env = _host_env(network, postgres, redis, mailbox)
        hosts_folder = HOSTS_ROOT / network.tag
        stack.callback(shutil.rmtree, hosts_folder, ignore_errors=True)
        sources = {name: copy_of_the_sources(hosts_folder / name) for name in ("app1", "app2")}
        web_build = make_build(sources["app1"], env, "current")
        apps = {
            name: AppHost(
                name,
                network,
                {**env, "BIND_HOST": network.addresses[name], "HOST_NAME": name},
                folder,
            )
            for name, folder in sources.items()
        }
        site = SeveralHosts(network, postgres, redis, mailbox, apps, env, hosts_folder, web_build)
        for app in apps.values():
            stack.callback(app.kill)
        # Both at once, as after a power cut: one migrates, the other waits for it.
        for app in apps.values():
            app.start(web_build)
        for app in apps.values():
            app.wait_until_ready()
        site.balancer = site.start_balancer(list(apps.values()), PORT)
        yield site


@dataclass
class Answer:
    at: float
    path: str
    status: int  # 0: no answer at all (the connection failed or timed out)
    detail: str = ""
    seconds: float = 0.0


class SteadyLoad:
    """`clients` threads GETting `paths` in turn through `url` until stopped, each answer
    recorded. Threads started on a host's namespace stay on it (tests/support/network_hosts)."""

    def __init__(self, url: str, paths: list[str], clients: int = 4) -> None:
        self.url, self.paths = url, paths
        self.answers: list[Answer] = []
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=self._client, args=(n,), daemon=True) for n in range(clients)
        ]

    def _client(self, number: int) -> None:
        turn = number
        while not self._stop.is_set():
            path = self.paths[turn % len(self.paths)]
            turn += 1
            asked = time.monotonic()
            try:
                status, _, body = request(self.url + path, timeout=30)
                detail = body[:200].decode(errors="replace")
            except OSError as failure:
                status, detail = 0, repr(failure)
            now = time.monotonic()
            self.answers.append(Answer(now, path, status, detail, now - asked))

    def __enter__(self) -> SteadyLoad:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(60)

    def failures(self) -> list[Answer]:
        return [answer for answer in self.answers if answer.status != 200]

    def figures(self) -> dict[str, float]:
        """For the report: how many answers, and how long the slowest took."""
        waits = sorted(answer.seconds for answer in self.answers) or [0.0]
        return {
            "answers": len(self.answers),
            "failures": len(self.failures()),
            "median_ms": round(waits[len(waits) // 2] * 1000, 1),
            "slowest_ms": round(waits[-1] * 1000, 1),
        }


def note(name: str, figures: dict[str, float]) -> None:
    """Figures for the report (test-artifacts/several-hosts.json); nothing asserts them."""
    noted = json.loads(HOSTS_REPORT.read_text()) if HOSTS_REPORT.exists() else {}
    noted[name] = figures
    HOSTS_REPORT.parent.mkdir(exist_ok=True)
    HOSTS_REPORT.write_text(json.dumps(noted, indent=2))
