"""How a Reflex state calls a service: off the event loop, a refusal turned into texts.

Services block (argon2, the database), so they run in a thread. What comes back is an
`Outcome`: the service's result, or its `ServiceError` (whose message and per-field
messages the screen shows as they are), or "broken" for anything unexpected (logged here
once, shown as the screen's own "Something went wrong" text).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from rcxsite.outages import is_outage, log_outage
from rcxsite.service_errors import ServiceError
from rcxsite.state.messages import SOMETHING_WENT_WRONG

logger = logging.getLogger(__name__)

T = TypeVar("T")


def messages_for(names: Iterable[str], messages: Mapping[str, str]) -> dict[str, str]:
    """One entry per form field, "" where the field has no message."""
    return {name: messages.get(name, "") for name in names}


@dataclass(frozen=True, slots=True)
class Outcome(Generic[T]):
    value: T | None = None
    refusal: ServiceError | None = None
    broken: bool = False

    @property
    def ok(self) -> bool:
        return self.refusal is None and not self.broken

    @property
    def field_refusal(self) -> bool:
        """Refused with messages for particular fields (shown beside them)."""
        return self.refusal is not None and bool(self.refusal.fields)

    def message(self, *, refused: str = "", broken: str = SOMETHING_WENT_WRONG) -> str:
        """The form's text: the refusal's own message (`refused` if it has none), `broken`
        when the call failed unexpectedly, "" on success."""
        if self.broken:
            return broken
        if self.refusal is not None:
            return self.refusal.message or refused
        return ""

    def field_messages(self, names: Iterable[str]) -> dict[str, str]:
        return messages_for(names, self.refusal.fields if self.refusal else {})

    def result(self) -> T:
        if self.value is None:
            raise ValueError("the call did not succeed")
        return self.value


async def call_service(call: Callable[..., T], /, *args: Any, **kwargs: Any) -> Outcome[T]:
    """Run `call(*args, **kwargs)` in a thread; never raises."""
    try:
        value = await asyncio.to_thread(call, *args, **kwargs)
    except ServiceError as refusal:
        return Outcome(refusal=refusal)
    except Exception as error:
        name = getattr(call, "__name__", repr(call))
        if is_outage(error):
            log_outage(error, name)
        else:
            logger.exception("%s failed unexpectedly", name)
        return Outcome(broken=True)
    return Outcome(value=value)
