"""Which tab keeps its token on connect: Reflex's socket records in a real Redis."""

from __future__ import annotations

import asyncio
import pickle
import uuid
from concurrent.futures import ThreadPoolExecutor

import redis.asyncio as aioredis
from reflex.state import State
from reflex.utils.token_manager import SocketRecord

from rcxsite.platform.settings import get_settings
from rcxsite.state.build_keys import state_key
from rcxsite.state.socket_records import LiveRecordsTokenManager
from tests.support.services import service_missing

REDIS_URL = "redis://127.0.0.1:6379/7"


async def _redis() -> aioredis.Redis:
    client = aioredis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        await client.ping()
    except Exception as error:
        await client.aclose()
        service_missing(f"Redis not reachable at 127.0.0.1:6379: {error}")
    return client


async def _link_after_a_record_of(*, owner_listening: bool) -> tuple[str | None, str]:
    client = await _redis()
    manager = LiveRecordsTokenManager(client)
    token, other_worker = str(uuid.uuid4()), f"worker-{uuid.uuid4().hex}"
    key = manager._get_redis_key(token)
    await client.set(key, pickle.dumps(SocketRecord(instance_id=other_worker, sid="old")), ex=60)
    listener = client.pubsub()
    if owner_listening:  # as a live worker does from its first connection on
        await listener.psubscribe(f"channel:{manager._get_lost_and_found_key(other_worker)}")
    try:
        new_token = await manager.link_token_to_sid(token, "new-sid")
        return new_token, token
    finally:
        await listener.aclose()
        await client.delete(key, manager._get_redis_key(new_token or token))
        for task in (manager._socket_record_task, manager._lost_and_found_task):
            if task is not None:
                task.cancel()
        await client.aclose()


def _run(owner_listening: bool) -> tuple[str | None, str]:
    # A thread of its own: Playwright's sync API may hold this thread's event loop.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(
            asyncio.run, _link_after_a_record_of(owner_listening=owner_listening)
        ).result()


def test_a_tab_whose_worker_died_keeps_its_token() -> None:
    new_token, _ = _run(owner_listening=False)
    assert new_token is None


def test_a_duplicated_tab_of_a_live_worker_still_gets_a_token_of_its_own() -> None:
    new_token, token = _run(owner_listening=True)
    assert new_token is not None and new_token != token


async def _state_ttls_after_close_and_return() -> tuple[int, int, int]:
    """TTLs of a tab's saved state: before, once its socket closed, once it came back."""
    client = await _redis()
    manager = LiveRecordsTokenManager(client)
    token = str(uuid.uuid4())
    key = state_key(token, State.get_full_name())
    full = get_settings().tab_state_seconds
    try:
        await client.set(key, b"state", ex=full)
        await manager.link_token_to_sid(token, "sid-1")
        before = await client.ttl(key)
        await manager.disconnect_token(token, "sid-1")
        closed = await client.ttl(key)
        await manager.link_token_to_sid(token, "sid-2")
        back = await client.ttl(key)
        await manager.disconnect_token(token, "sid-2")
        return before, closed, back
    finally:
        await client.delete(key, manager._get_redis_key(token))
        for task in (manager._socket_record_task, manager._lost_and_found_task):
            if task is not None:
                task.cancel()
        await client.aclose()


def test_a_closed_tabs_state_lapses_soon_unless_it_comes_back() -> None:
    settings = get_settings()
    with ThreadPoolExecutor(1) as pool:
        before, closed, back = pool.submit(
            asyncio.run, _state_ttls_after_close_and_return()
        ).result()
    assert before > settings.closed_tab_state_seconds
    assert 0 < closed <= settings.closed_tab_state_seconds
    assert back > settings.closed_tab_state_seconds
