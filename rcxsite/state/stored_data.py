"""A tab's stored data goes to no connection but one of the person it was loaded for.

Reflex keeps a tab's state under the tab's token (on disk, or in Redis when scaled), and
a connection that presents the token gets all of it in its first frame (the hydrate
event), before any handler has run. The token outlives the sign-in that filled the state:
the member signs out in another tab, their session idles out, they are disabled, or
someone else holds the token. So, before every hydrate, each state that holds a person's
data checks that this connection's own cookie resolves to that person, and forgets the
data when it does not. Handlers check again on every event (`staff_event`, My account's
actions), so this is the one place where data could otherwise leave unchecked.

Owners are the states with a `_forget_unless_owner` coroutine: the staff area's
`StaffState` and the customer's `SessionState`. Each keeps who the data is for (the
member, the customer) apart from the states that hold it, which Reflex stores under keys
of their own that may outlive the owner's; so a lapsed owner (nobody's) clears every state
that still holds anything.
"""

from __future__ import annotations

import logging
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

import reflex as rx
from reflex.middleware.middleware import Middleware
from reflex.state import BaseState
from reflex_base.utils.format import format_event_handler

logger = logging.getLogger(__name__)


@lru_cache(maxsize=1)
def _hydrate_events() -> frozenset[str]:
    # Both send the whole state: the reconnect's event and the older plain hydrate.
    return frozenset(
        format_event_handler(rx.State.event_handlers[name])
        for name in ("hydrate", "hydrate_and_load")
    )


def _owners() -> list[type[BaseState]]:
    found, pending = [], list(rx.State.get_substates())
    while pending:
        state = pending.pop()
        pending.extend(state.get_substates())
        if "_forget_unless_owner" in vars(state):
            found.append(state)
    return found


class StoredDataGuard(Middleware):
    """Runs before Reflex handles an event: forgets what this connection may not see.

    On every hydrate, and on the first event of every connection: Reflex also sends the
    whole state, bypassing any middleware, for an ordinary event on a tab whose stored
    root state has lapsed (its router data gone), so a new connection is checked before
    whatever event it sends first."""

    async def preprocess(self, app: Any, state: Any, event: Any) -> None:
        hydrating = event.name in _hydrate_events()
        for owner in _owners():
            held = await state.get_state(owner)
            connection = held.router.session.session_id
            if not hydrating and held._checked_connection == connection:
                continue
            try:
                await held._forget_unless_owner()
            except Exception:
                # When the check itself fails, the data is not sent either.
                logger.exception("could not check who may see a tab's stored data")
                await held._forget_stored_data()
            held._checked_connection = connection
        return None


def holds_data(state: Any) -> bool:
    """Whether any of `state`'s own public vars differs from its default."""
    cls = type(state)
    return any(
        field._owner is cls and not field._backend and getattr(state, name) != field.default_value()
        for name, field in cls.__fields__.items()
    )


def private_state_folder() -> None:
    """Tabs' stored states (the embedded default keeps them as files) readable by the
    site's own user only."""
    from reflex.utils.prerequisites import get_states_dir

    folder = Path(get_states_dir())
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
