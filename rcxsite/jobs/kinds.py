"""What each kind of job does, and which jobs run periodically.

A feature registers its kinds where it defines them (`@handler("mail")`); the runner
imports `rcxsite.job_kinds`, which imports every module that registers one, so a runner
process knows every kind without importing the web app.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Handler = Callable[[dict[str, Any]], None]

HANDLERS: dict[str, Handler] = {}


@dataclass(frozen=True, slots=True)
class Periodic:
    name: str
    every_seconds: int
    run: Callable[[], object]


PERIODIC: dict[str, Periodic] = {}


def handler(kind: str) -> Callable[[Handler], Handler]:
    """Register the function that does a job of `kind` (given its payload). It raises to
    have the job retried, or `Permanent` when a retry cannot help."""

    def register(function: Handler) -> Handler:
        HANDLERS[kind] = function
        return function

    return register


def periodic(
    name: str, *, every_seconds: int
) -> Callable[[Callable[[], object]], Callable[[], object]]:
    """Register a job run once per period of `every_seconds` across all runners."""

    def register(function: Callable[[], object]) -> Callable[[], object]:
        PERIODIC[name] = Periodic(name, every_seconds, function)
        return function

    return register
