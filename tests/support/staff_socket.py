"""One staff tab over Reflex's websocket to the in-process site
(tests/support/in_process_site.py), as a test drives it: events sent by name with any
payload and cookie, each answer read to its end (see `StaffTab`)."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

from reflex.state import OnLoadInternalState, State

from rcxsite.content import routes
from rcxsite.state.staff.access import StaffState
from tests.support.in_process_site import InProcessSite
from tests.support.waiting import wait_for

REPLY_TIMEOUT_S = 20
FIELD = "_rx_state_"  # the suffix Reflex gives every var in a delta
ROOT_STATE = State.get_full_name()
STAFF_STATE = StaffState.get_full_name()
HYDRATED = f"{OnLoadInternalState.get_full_name()}.set_is_hydrated"


@dataclass
class Answer:
    frames: list[str]
    access: str  # the tab's StaffState.access once the event was handled
    redirects: list[str]
    failed: bool  # the event raised (the site's "something went wrong")


class StaffTab:
    """One tab's websocket (Engine.IO 4 / Socket.IO 5 frames, as Reflex's client sends
    them). `token` names a tab state to take over, as a reload of that tab would. Each
    event is followed by a flip of `is_hydrated`: the frames up to that flip are the
    event's whole answer, since a tab's events are handled one after the other."""

    def __init__(self, site: InProcessSite, cookie: str, token: str = "") -> None:
        self.token = token or str(uuid.uuid4())
        if not token:
            self._open(site, cookie)
            return

        def taken_over() -> bool:
            self._open(site, cookie)
            if any(_is_new_token(frame) for frame in self.opening):
                self.close()
                return False
            return True

        # Reflex hands a new token to a connection whose token another connection still
        # holds (its duplicate-tab rule), and lets go of a closed tab's a moment later:
        # taking over a tab means waiting until it has.
        assert wait_for(taken_over, timeout_s=REPLY_TIMEOUT_S), f"tab {token} never let go"

    def _open(self, site: InProcessSite, cookie: str) -> None:
        headers = {"Origin": site.url, **({"Cookie": cookie} if cookie else {})}
        self.socket = site.connect(
            f"/_event/?token={self.token}&EIO=4&transport=websocket", headers
        )
        self.hydrated = True
        self.access = ""
        self.path = routes.ABOUT.path
        # Opened on a public page, as a visitor's tab: no staff page's load runs first.
        first = {
            "name": f"{ROOT_STATE}.hydrate_and_load",
            "payload": {},
            "router_data": _router(routes.ABOUT.path),
        }
        self.socket.send("40/_event," + json.dumps({"event": first}))
        self.opening = self._until_flipped()

    def _frame(self) -> str:
        while True:
            frame = self.socket.receive(timeout=REPLY_TIMEOUT_S)
            assert frame is not None, f"no answer within {REPLY_TIMEOUT_S} s"
            if frame == "2":  # Engine.IO ping
                self.socket.send("3")
                continue
            return frame

    def _emit(self, name: str, payload: dict[str, Any], path: str) -> None:
        event = {"name": name, "payload": payload, "router_data": _router(path)}
        self.socket.send("42/_event," + json.dumps(["event", event]))

    def _until_flipped(self) -> list[str]:
        self.hydrated = not self.hydrated
        self._emit(HYDRATED, {"value": self.hydrated}, self.path)
        frames = []
        while True:
            frame = self._frame()
            update = _update(frame)
            if (
                update.get("delta", {}).get(ROOT_STATE, {}).get(f"is_hydrated{FIELD}")
                is self.hydrated
                and len(update["delta"]) == 1
            ):
                return frames
            frames.append(frame)
            access = update.get("delta", {}).get(STAFF_STATE, {}).get(f"access{FIELD}")
            if access is not None:
                self.access = access

    def send(self, name: str, payload: dict[str, Any], path: str) -> Answer:
        self.path = path
        self._emit(name, payload, path)
        frames = self._until_flipped()
        events = [event for frame in frames for event in _update(frame).get("events", [])]
        return Answer(
            frames=frames,
            access=self.access,
            redirects=[
                event["payload"]["path"] for event in events if event["name"] == "_redirect"
            ],
            failed=any("rcx-action-failed" in json.dumps(event) for event in events),
        )

    def close(self) -> None:
        self.socket.close()


def _router(path: str) -> dict[str, Any]:
    return {"pathname": path, "asPath": path, "query": {}}


def state_delta(frames: list[str], state_name: str) -> dict[str, Any]:
    """What `frames` set on one state, the last value of each var."""
    held: dict[str, Any] = {}
    for frame in frames:
        held.update(_update(frame).get("delta", {}).get(state_name, {}))
    return held


def _is_new_token(frame: str) -> bool:
    prefix = "42/_event,"
    return frame.startswith(prefix) and json.loads(frame[len(prefix) :])[0] == "new_token"


def _update(frame: str) -> dict[str, Any]:
    prefix = "42/_event,"
    if not frame.startswith(prefix):
        return {}
    kind, update, *_ = json.loads(frame[len(prefix) :])
    return update if kind == "event" else {}
