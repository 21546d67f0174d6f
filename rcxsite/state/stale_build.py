"""A tab whose page came from another build than this worker's is asked to reload.

During a rolling deploy a tab's websocket may reach a worker of the other version
(rcxsite/web/client_build.py marks such a connection). Its events would name states and
handlers this version may not have, and its state here starts fresh (states are kept
per build: rcxsite/state/build_keys.py). So no event of it is handled: the browser asks
the visitor, in the site's words, to reload the page, which then comes from the new
build.
"""

from __future__ import annotations

import json
from typing import Any

import reflex as rx
from reflex.middleware.middleware import Middleware
from reflex.state import StateUpdate
from reflex_base.event import Event

from rcxsite.core.client_builds import CLIENT_BUILD_HEADER

RELOAD_QUESTION = (
    "This site has just been updated. Reload the page to continue with the new version?"
)


class AskStaleTabsToReload(Middleware):
    async def preprocess(self, app: Any, state: Any, event: Any) -> StateUpdate | None:
        headers = (event.router_data or {}).get("headers") or {}
        if not headers.get(CLIENT_BUILD_HEADER):
            return None
        ask = rx.call_script(
            f"if (window.confirm({json.dumps(RELOAD_QUESTION)})) window.location.reload()"
        )
        return StateUpdate(events=Event.from_event_type([ask]), final=True)
