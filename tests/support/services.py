"""PostgreSQL and Redis for the tests: a visible skip when absent, a failure in CI."""

from __future__ import annotations

import os

import pytest

# `make unit`: the tests that need no browser, nginx or services; those that would use
# PostgreSQL or Redis say so and skip.
WITHOUT_SERVICES = "RCX_TESTS_WITHOUT_SERVICES"


def services_wanted(what: str) -> None:
    """Skip at once under `make unit` (before any connection is tried)."""
    if os.environ.get(WITHOUT_SERVICES, "") == "1":
        pytest.skip(f"{what}: not in `make unit` (make test runs it)")


def service_missing(reason: str) -> None:
    """Skip the test with `reason`; with CI=true the run fails instead, so that a CI machine
    without its services cannot pass by skipping."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true: the service is required)")
    pytest.skip(reason)
