"""`make run-scaled` started once for these tests: nginx, 3 workers, PostgreSQL and Redis.

Every module here shares one site (`scaled_site`, started by the first test that asks);
the fault tests stop it first, since their own site needs the same port.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from rcxsite.tools import processes
from tests.support.scaled_site import (
    FAULT_REPORT,
    LOAD_REPORT,
    ScaledSite,
    SharedSite,
    site_on_local_services,
)
from tests.support.several_hosts import HOSTS_REPORT
from tests.support.smtp import Mailbox

_RUN_STARTED = time.time()


@pytest.fixture(scope="session")
def scaled_mailbox() -> Iterator[Mailbox]:
    mailbox = Mailbox().start()
    yield mailbox
    mailbox.stop()


@pytest.fixture(scope="session")
def scaled_port() -> int:
    """One port for every scaled site of the run: the frontend is built for its address,
    so the sites (started one after another) share one build."""
    return processes.free_port()


@pytest.fixture(scope="package")
def shared_scaled_site(
    tmp_path_factory: pytest.TempPathFactory, scaled_mailbox: Mailbox, scaled_port: int
) -> Iterator[SharedSite]:
    shared = SharedSite(
        lambda: site_on_local_services(
            port=scaled_port, data_dir=tmp_path_factory.mktemp("scaled"), mailbox=scaled_mailbox
        )
    )
    try:
        yield shared
    finally:
        shared.stop()


@pytest.fixture
def scaled_site(shared_scaled_site: SharedSite) -> ScaledSite:
    """The site on this machine's PostgreSQL and Redis, shared by the modules here: a test
    that kills workers leaves them restarting (`wait_for_all_workers`)."""
    return shared_scaled_site.get()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The load and fault tests' figures at the end of the report (no test asserts them)."""
    reports = (("load", LOAD_REPORT), ("faults", FAULT_REPORT), ("several hosts", HOSTS_REPORT))
    for name, report in reports:
        if report.exists() and report.stat().st_mtime > _RUN_STARTED:
            terminalreporter.write_sep("-", f"{name} on the scaled site ({report.name})")
            terminalreporter.write_line(report.read_text())
