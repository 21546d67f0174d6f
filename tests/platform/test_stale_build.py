"""A tab whose page came from another build (a rolling deploy: its websocket reached a
worker of the other version) is asked, in the site's words, to reload; no event of it is
handled there. A tab of this worker's build, or of a site that names no build (`make
run`), is served as ever (rcxsite/web/client_build.py, rcxsite/state/stale_build.py)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from rcxsite.content import routes
from rcxsite.state.stale_build import RELOAD_QUESTION
from rcxsite.web.client_build import _renamed
from tests.support.fixtures import Configure, configure, fresh_state, site_root
from tests.support.in_process_site import InProcessSite, in_process_site
from tests.support.staff_socket import ROOT_STATE, _router

__all__ = ["configure", "fresh_state", "site_root"]  # fixtures: a site of this module's own

THIS_BUILD = "ab12ab12ab12ab12"
OLD_BUILD = "0123456789abcdef"


@pytest.fixture(scope="module")
def site(site_root: Path) -> Iterator[InProcessSite]:
    with in_process_site() as running:
        yield running


def _first_answer(site: InProcessSite, prefix: str, **headers: str) -> list[dict]:
    """The events and deltas answering a tab's first load, opened under `prefix`."""
    token = str(uuid.uuid4())
    socket = site.connect(
        f"{prefix}/_event/?token={token}&EIO=4&transport=websocket",
        {"Origin": site.url, **headers},
    )
    try:
        first = {
            "name": f"{ROOT_STATE}.hydrate_and_load",
            "payload": {},
            "router_data": _router(routes.ABOUT.path),
        }
        # As the page's client speaks: its namespace is the socket's path.
        namespace = f"{prefix}/_event"
        socket.send(f"40{namespace}," + json.dumps({"event": first}))
        while True:
            frame = socket.receive(timeout=20)
            assert frame is not None, "no answer to the first load"
            if frame.startswith(f"42{namespace},"):
                return [json.loads(frame[len(f"42{namespace},") :])[1]]
    finally:
        socket.close()


def _asks_to_reload(answer: list[dict]) -> bool:
    return any(
        event["name"] == "_call_script" and RELOAD_QUESTION in event["payload"]["javascript_code"]
        for update in answer
        for event in update.get("events", [])
    )


def test_a_tab_of_another_build_is_asked_to_reload(
    site: InProcessSite, configure: Configure
) -> None:
    configure(build_id=THIS_BUILD)
    answer = _first_answer(site, f"/_b/{OLD_BUILD}")
    assert _asks_to_reload(answer)
    assert not any(update.get("delta") for update in answer)  # nothing of it was handled


def test_a_tab_of_this_build_or_of_a_site_without_builds_is_served(
    site: InProcessSite, configure: Configure
) -> None:
    configure(build_id=THIS_BUILD)
    for prefix in (f"/_b/{THIS_BUILD}", ""):
        answer = _first_answer(site, prefix)
        assert not _asks_to_reload(answer)
        assert any(update.get("delta") for update in answer)
    configure(build_id="")
    assert not _asks_to_reload(_first_answer(site, f"/_b/{OLD_BUILD}"))


def test_a_client_cannot_mark_itself_or_reach_paths_through_the_prefix(
    site: InProcessSite, configure: Configure
) -> None:
    configure(build_id=THIS_BUILD)
    assert site.request("GET", f"/_b/{THIS_BUILD}/livez").status_code == 200
    assert site.request("GET", "/_b/not-a-build/livez").status_code == 404
    # The header the prefix sets, sent by the client itself, is dropped.
    assert not _asks_to_reload(_first_answer(site, "", **{"X-RCX-Client-Build": OLD_BUILD}))


@pytest.mark.parametrize(
    ("frame", "renamed"),
    [
        ('40/_b/x/_event,{"a":1}', '40/_event,{"a":1}'),
        ("41/_b/x/_event", "41/_event"),
        ('42/_b/x/_event,7["event",{}]', '42/_event,7["event",{}]'),
        (
            '451-/_b/x/_event,["e",{"_placeholder":true,"num":0}]',
            '451-/_event,["e",{"_placeholder":true,"num":0}]',
        ),
        ('42/_b/x/_eventual,["e"]', '42/_b/x/_eventual,["e"]'),  # another namespace
        ("2", "2"),  # a ping
        ('42["e",{"n":"/_b/x/_event"}]', '42["e",{"n":"/_b/x/_event"}]'),  # a value, not a name
    ],
)
def test_the_pages_namespace_is_translated_in_every_packet_shape(frame: str, renamed: str) -> None:
    assert _renamed(frame, "/_b/x/_event", "/_event") == renamed
    assert _renamed(renamed, "/_event", "/_b/x/_event") == frame or renamed == frame
