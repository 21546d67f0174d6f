"""Hosts of a test's own: Linux network namespaces on one private subnet, made by the test
and removed after it.

Each host is a namespace with its loopback and one veth whose other end sits on a bridge
in a namespace of its own (the switch), so the subnet exists nowhere else: not on this
machine's own interfaces, not in its routes. The test's thread steps onto a host (`on`,
with setns(2), which moves only the calling thread): the sockets it opens there, and the
processes it starts there, belong to that host for good, even after the thread steps back.
"""

from __future__ import annotations

import ctypes
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from tests.support.services import service_missing

_CLONE_NEWNET = 0x40000000
_NETNS_DIR = Path("/run/netns")
_libc = ctypes.CDLL(None, use_errno=True)


def _setns(fd: int) -> None:
    if _libc.setns(fd, _CLONE_NEWNET) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"setns: {os.strerror(error)}")


def _pids_in(namespace: str) -> list[int]:
    listed = subprocess.run(["ip", "netns", "pids", namespace], capture_output=True, text=True)
    return [int(pid) for pid in listed.stdout.split()]


def _kill_everything_in(namespace: str) -> None:
    for _ in range(5):  # a supervisor may start one more between the listing and the kill
        pids = _pids_in(namespace)
        if not pids:
            return
        for pid in pids:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _remove_namespaces_of_dead_runs() -> None:
    """A run killed outright (SIGKILL, a worker lost) leaves its hosts behind, processes
    and all; the next run removes those whose test process is gone."""
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    for name in (line.split()[0] for line in listed.splitlines() if line.strip()):
        owner = re.match(r"rcx(\d+)-[0-9a-f]+-", name)
        if owner is None or Path(f"/proc/{owner.group(1)}").exists():
            continue
        _kill_everything_in(name)
        subprocess.run(["ip", "netns", "del", name], capture_output=True)


def _ip(*args: str) -> None:
    done = subprocess.run(["ip", *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")


class Network:
    """`hosts` are given their addresses in order: the first .1, the next .2, and so on."""

    def __init__(self, hosts: list[str]) -> None:
        if shutil.which("ip") is None or os.geteuid() != 0:
            service_missing("network namespaces need `ip` (iproute2) and root")
        _remove_namespaces_of_dead_runs()
        self.tag = f"rcx{os.getpid()}-{secrets.token_hex(2)}"
        # A /24 of 10.231.0.0/16 drawn per test: two runs on one machine keep apart.
        self.prefix = f"10.231.{random.randrange(1, 255)}"
        self.addresses = {name: f"{self.prefix}.{n}" for n, name in enumerate(hosts, start=1)}
        self._made: list[str] = []
        try:
            self._build()
        except BaseException:
            self.remove()
            raise

    def namespace(self, host: str) -> str:
        return f"{self.tag}-{host}"

    def _add_namespace(self, name: str) -> None:
        try:
            _ip("netns", "add", name)
        except RuntimeError as refused:
            service_missing(f"network namespaces cannot be made here ({refused})")
        self._made.append(name)
        _ip("-n", name, "link", "set", "lo", "up")

    def _build(self) -> None:
        switch = self.namespace("switch")
        self._add_namespace(switch)
        _ip("-n", switch, "link", "add", "bridge", "type", "bridge")
        _ip("-n", switch, "link", "set", "bridge", "up")
        for host, address in self.addresses.items():
            name = self.namespace(host)
            self._add_namespace(name)
            _ip("link", "add", "eth0", "netns", name, "type", "veth", "peer", host, "netns", switch)
            _ip("-n", switch, "link", "set", host, "master", "bridge")
            _ip("-n", switch, "link", "set", host, "up")
            _ip("-n", name, "addr", "add", f"{address}/24", "dev", "eth0")
            _ip("-n", name, "link", "set", "eth0", "up")

    @contextmanager
    def on(self, host: str) -> Iterator[None]:
        """The calling thread on `host` until the block ends."""
        home = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
        try:
            there = os.open(_NETNS_DIR / self.namespace(host), os.O_RDONLY)
            try:
                _setns(there)
                try:
                    yield
                finally:
                    _setns(home)
            finally:
                os.close(there)
        finally:
            os.close(home)

    def cut(self, host: str, other: str) -> None:
        """`other` drops whatever it would send to `host`: from `host`'s side, packets to
        `other` vanish (connections hang, then time out), as when a link between them fails."""
        _ip("-n", self.namespace(other), "route", "add", "blackhole", self.addresses[host])

    def mend(self, host: str, other: str) -> None:
        _ip("-n", self.namespace(other), "route", "del", "blackhole", self.addresses[host])

    def pids_on(self, host: str) -> list[int]:
        return _pids_in(self.namespace(host))

    def kill_everything_on(self, host: str) -> None:
        """SIGKILL to every process on `host`, as when the machine loses power."""
        _kill_everything_in(self.namespace(host))

    def remove(self) -> None:
        for name in reversed(self._made):
            host = name.removeprefix(f"{self.tag}-")
            if host in self.addresses:
                self.kill_everything_on(host)
            subprocess.run(["ip", "netns", "del", name], capture_output=True)
        self._made.clear()
