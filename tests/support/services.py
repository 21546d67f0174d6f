"""PostgreSQL and Redis for the tests: a visible skip when absent, a failure in CI."""

from __future__ import annotations

import os

import pytest


def service_missing(reason: str) -> None:
    """Skip the test with `reason`; with CI=true the run fails instead, so that a CI machine
    without its services cannot pass by skipping."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true: the service is required)")
    pytest.skip(reason)
