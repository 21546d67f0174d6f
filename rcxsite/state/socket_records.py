"""A tab whose worker died keeps its token when it reconnects, and so its state.

Reflex records in Redis which worker holds each tab's socket. On connect it takes a
record it finds for the tab's token as a second tab with that token (a duplicated
browser tab) and gives this tab a new token: a fresh state, so the visitor looks signed
out and loses what they typed. A worker killed without its clean-up leaves its records
behind for an hour, so every tab it held reconnected as new. Here a record counts only
while its worker still listens on its own channel: a publish there reports how many
listeners got it, and a dead worker has none. The probe names no tab, so a live worker
that gets it finds no socket to send it to.

A tab whose last socket closed keeps its state only CLOSED_TAB_STATE_SECONDS (then
Redis drops it) instead of TAB_STATE_MINUTES; a socket coming back with its token
gives it the full time again.
"""

from __future__ import annotations

import logging
import pickle
import uuid
from collections.abc import Awaitable
from typing import cast

from reflex.state import BaseState, State, StateUpdate
from reflex.utils.token_manager import LostAndFoundRecord, RedisTokenManager, TokenManager

from rcxsite.platform.settings import get_settings
from rcxsite.state.build_keys import state_key

logger = logging.getLogger(__name__)

# Random per process: no tab can connect with the token the probe names.
_PROBE = pickle.dumps(
    LostAndFoundRecord(token=f"rcx-probe-{uuid.uuid4().hex}", update=StateUpdate())
)
# Deletes the record only if it is still the one read: two tabs reconnecting with one
# token at once cannot delete each other's fresh record.
_DELETE_IF_UNCHANGED = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def _state_names() -> list[str]:
    names: list[str] = []
    pending: list[type[BaseState]] = [State]
    while pending:
        state = pending.pop()
        names.append(state.get_full_name())
        pending.extend(state.get_substates())
    return names


class LiveRecordsTokenManager(RedisTokenManager):
    """Reflex's Redis token manager, minus the records of workers that are gone, and
    minus the state of tabs that closed."""

    async def _expire_state(self, token: str, seconds: int, *, longer: bool) -> None:
        """Set the expiry of each of the tab's saved states (one key per state class,
        none scanned for), only lengthening or only shortening it."""
        try:
            async with self.redis.pipeline(transaction=False) as pipeline:
                for name in _state_names():
                    pipeline.expire(state_key(token, name), seconds, gt=longer, lt=not longer)
                await pipeline.execute()
        except Exception as error:  # the state then lapses at its usual time
            logger.warning("could not change how long a tab's state is kept: %s", error)

    async def disconnect_token(self, token: str, sid: str) -> None:
        await super().disconnect_token(token, sid)
        if not await self.is_token_connected(token):
            await self._expire_state(token, get_settings().closed_tab_state_seconds, longer=False)

    async def _worker_listens(self, instance_id: str) -> bool:
        channel = f"channel:{self._get_lost_and_found_key(instance_id)}"
        return bool(await self.redis.publish(channel, _PROBE))

    async def link_token_to_sid(self, token: str, sid: str) -> str | None:
        key = self._get_redis_key(token)
        try:
            # The asyncio client's commands are typed as the sync client's too (a value or
            # an awaitable); here they are awaited.
            raw = await cast("Awaitable[bytes | None]", self.redis.get(key))
            record = pickle.loads(raw) if raw else None
            if (
                raw is not None
                and record is not None
                and record.instance_id != self.instance_id
                and not await self._worker_listens(record.instance_id)
            ):
                await cast("Awaitable[int]", self.redis.eval(_DELETE_IF_UNCHANGED, 1, key, raw))
        except Exception as error:  # Redis trouble: Reflex's own handling applies next
            logger.warning("could not check a tab's socket record: %s", error)
        new_token = await super().link_token_to_sid(token, sid)
        await self._expire_state(new_token or token, get_settings().tab_state_seconds, longer=True)
        return new_token


def keep_tabs_of_stopped_workers() -> None:
    """Make Reflex create this token manager where it would create its Redis one."""
    create = TokenManager.create.__func__  # type: ignore[attr-defined]

    def create_live_records(cls: type[TokenManager]) -> TokenManager:
        manager = create(cls)
        if type(manager) is RedisTokenManager:
            manager.__class__ = LiveRecordsTokenManager
        return manager

    TokenManager.create = classmethod(create_live_records)  # type: ignore[method-assign, assignment]
