"""A PostgreSQL cluster and a Redis server of the test's own, on free ports, that a test may
stop and start again: faults are never rehearsed on the machine's shared services."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from rcxsite.tools.processes import free_port, port_open, start, wait_until
from tests.support.services import service_missing

START_TIMEOUT_S = 30


def _wait_for_port(port: int, *, up: bool, host: str = "127.0.0.1") -> None:
    wait_until(
        lambda: port_open(host, port, timeout=2) == up,
        timeout_s=START_TIMEOUT_S,
        interval_s=0.05,
        what=f"port {port} to {'open' if up else 'close'}",
    )


class ScratchPostgres:
    """initdb into a temporary folder; PostgreSQL refuses to run as root, so as root the
    cluster belongs to the `postgres` user that Debian's package creates."""

    def __init__(self, listen: str = "127.0.0.1") -> None:
        binaries = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
        if not binaries:
            service_missing("PostgreSQL's initdb is not installed (/usr/lib/postgresql)")
        self.bin = binaries[-1].parent
        self.listen = listen
        self.port = free_port(listen)
        self.dir = Path(tempfile.mkdtemp(prefix="rcx-scratch-pg-"))
        self.url = f"postgresql://postgres@{listen}:{self.port}/rcx"
        self._as_owner: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
            self._as_owner = ["runuser", "-u", "postgres", "--"]
        try:
            self._run(
                "initdb",
                "-D",
                str(self.dir / "data"),
                "-A",
                "trust",
                "-U",
                "postgres",
                "--no-sync",
                "-E",
                "UTF8",
            )
            if listen != "127.0.0.1":
                # initdb trusts the loopback only; this cluster's hosts are on a test subnet.
                with (self.dir / "data" / "pg_hba.conf").open("a") as rules:
                    rules.write(f"host all all {listen}/24 trust\n")
        except BaseException:
            shutil.rmtree(self.dir, ignore_errors=True)
            raise

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run(
            [*self._as_owner, str(self.bin / tool), *args],
            check=True,
            capture_output=True,
            cwd=self.dir,
        )

    def start(self) -> None:
        options = (
            f"-c port={self.port} -c listen_addresses={self.listen} "
            f"-c unix_socket_directories={self.dir} -c fsync=off"
        )
        self._run(
            "pg_ctl",
            "start",
            "-D",
            str(self.dir / "data"),
            "-w",
            "-o",
            options,
            "-l",
            str(self.dir / "server.log"),
        )
        _wait_for_port(self.port, up=True, host=self.listen)

    def stop(self) -> None:
        # "immediate" is a crash: open connections break, as when the host goes away.
        self._run("pg_ctl", "stop", "-D", str(self.dir / "data"), "-m", "immediate", "-w")
        _wait_for_port(self.port, up=False, host=self.listen)

    def remove(self) -> None:
        subprocess.run(
            [
                *self._as_owner,
                str(self.bin / "pg_ctl"),
                "stop",
                "-D",
                str(self.dir / "data"),
                "-m",
                "immediate",
            ],
            capture_output=True,
        )
        shutil.rmtree(self.dir, ignore_errors=True)


class ScratchRedis:
    def __init__(self, listen: str = "127.0.0.1") -> None:
        if shutil.which("redis-server") is None:
            service_missing("redis-server is not installed")
        self.listen = listen
        self.port = free_port(listen)
        self.url = f"redis://{listen}:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = start(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                self.listen,
                "--save",
                "",
                "--appendonly",
                "no",
                # Off the loopback, Redis without a password answers only DENIED.
                "--protected-mode",
                "no" if self.listen != "127.0.0.1" else "yes",
            ],
            env=None,
            log_path=None,
        )
        _wait_for_port(self.port, up=True, host=self.listen)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()  # a crash: nothing is saved, connections break
            self.process.wait()
            self.process = None
        _wait_for_port(self.port, up=False, host=self.listen)

    def remove(self) -> None:
        if self.process is not None:
            self.stop()


class ScratchObjectStore:
    """A real S3 API on localhost: moto in server mode, in a process of its own (its
    buckets live in that process's memory, gone when it stops)."""

    def __init__(self) -> None:
        try:
            import moto.server  # noqa: F401
        except ImportError:
            service_missing("moto is not installed (requirements-dev.txt)")
        self.port = free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = start(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)],
            env=None,
            log_path=None,
        )
        _wait_for_port(self.port, up=True)

    def client(self) -> Any:
        import boto3

        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            region_name="us-east-1",
            aws_access_key_id="test",
            aws_secret_access_key="test",
        )

    def remove(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
