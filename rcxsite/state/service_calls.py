"""How a Reflex state calls a service: off the event loop, a refusal turned into texts.

Services block (argon2, the database), so they run in a thread. What comes back is an
`Outcome`: the service's result, or its `ServiceError` (whose message and per-field
messages the screen shows as they are), or "broken" for anything unexpected (logged here
once, shown as the screen's own "Something went wrong" text).

A handler that sends a form does it through `FormCall`, the one pattern every screen
follows, customer and staff alike:

    call = await FormCall.read(LoginInput, raw)  # validated in a thread
    self.field_errors = call.field_messages(FIELDS)
    if not call.valid:
        return
    call.busy(self)
    yield  # the page shows the flag before the service runs
    outcome = await call.send(accounts.authenticate, client_ip=client_ip)
    self.error = outcome.form_message()

A refused input is the same `Outcome` as a service refusing it (the 422 of
`FormInput.parse`), so field and form texts come from one place whichever said no. A
button with no input uses `ServiceCall` (the busy flag and `run`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Concatenate, Generic, ParamSpec, Protocol, TypeVar

from rcxsite.core.forms import FormInput
from rcxsite.core.service_errors import ServiceError
from rcxsite.platform.outages import is_outage, log_outage
from rcxsite.state.messages import SOMETHING_WENT_WRONG

logger = logging.getLogger(__name__)

T = TypeVar("T")
M = TypeVar("M", bound=FormInput)
P = ParamSpec("P")


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

    def form_message(self, *, refused: str = "", broken: str = SOMETHING_WENT_WRONG) -> str:
        """The text above a form whose fields show their own messages: "" when the
        refusal named fields (its texts stand beside them), else `message`."""
        return "" if self.field_refusal else self.message(refused=refused, broken=broken)

    def field_messages(self, names: Iterable[str]) -> dict[str, str]:
        """One entry per form field, "" where the field has no message."""
        messages = self.refusal.fields if self.refusal else {}
        return {name: messages.get(name, "") for name in names}

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


class BusyState(Protocol):
    # False/"" when idle; True, or the name of the form that waits (a page with several).
    busy: Any


class ServiceCall:
    """One service call of a state handler, with the state's busy flag up while it runs.

    `busy` raises the flag (the handler yields right after, so the page shows it before
    the service runs); `run` calls the service and lowers the flag again, unless the call
    succeeded and the handler asked to keep it (the page moves on and must not offer the
    button again meanwhile)."""

    def __init__(self) -> None:
        self._state: BusyState | None = None
        self._idle: bool | str = False
        self._keep_after_success = False

    def busy(
        self, state: BusyState, flag: bool | str = True, *, keep_after_success: bool = False
    ) -> None:
        self._state, self._keep_after_success = state, keep_after_success
        self._idle = "" if isinstance(flag, str) else False
        state.busy = flag

    def _lower(self, outcome: Outcome[Any]) -> None:
        if self._state is not None and not (outcome.ok and self._keep_after_success):
            self._state.busy = self._idle

    async def run(
        self, service: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs
    ) -> Outcome[T]:
        """`service(*args, **kwargs)` through `call_service`."""
        outcome = await call_service(service, *args, **kwargs)
        self._lower(outcome)
        return outcome


class FormCall(ServiceCall, Generic[M]):
    """A submitted form on its way to its service: the input read against its model first
    (in a thread: a password is looked up among the common ones), then sent with the
    validated input as the service's first argument. For an input the model refuses
    nothing is sent and the busy flag is never raised."""

    def __init__(self, checked: Outcome[M]) -> None:
        super().__init__()
        self.checked = checked

    @classmethod
    async def read(cls, model: type[M], raw: Mapping[str, Any]) -> FormCall[M]:
        """`raw` read against `model`. Anything but the model's refusal is a fault of the
        event itself (the page then shows the form's own failure text)."""
        try:
            return cls(Outcome(value=await asyncio.to_thread(model.parse, raw)))
        except ServiceError as refusal:
            return cls(Outcome(refusal=refusal))

    @property
    def valid(self) -> bool:
        return self.checked.ok

    @property
    def input(self) -> M | None:
        return self.checked.value

    def field_messages(self, names: Iterable[str]) -> dict[str, str]:
        """The model's message per field ("" for a valid one)."""
        return self.checked.field_messages(names)

    def busy(
        self, state: BusyState, flag: bool | str = True, *, keep_after_success: bool = False
    ) -> None:
        if self.valid:
            super().busy(state, flag, keep_after_success=keep_after_success)

    async def send(
        self, service: Callable[Concatenate[M, P], T], /, *args: P.args, **kwargs: P.kwargs
    ) -> Outcome[T]:
        """`service(input, *args, **kwargs)`, or the model's refusal without a call."""
        if self.checked.value is None:
            return Outcome(refusal=self.checked.refusal)
        return await self.run(service, self.checked.value, *args, **kwargs)
