"""The reset token never reaches Reflex's (pickled) state: events carry its digest."""

from __future__ import annotations

import asyncio
import json

from rcxsite.accounts import tokens
from rcxsite.api.reset_link_events import ResetTokenDigestForEvents, digest_only_frame

PREFIX = "/authentication/reset-password/"


def _frame(token: str, *, ack: str = "") -> str:
    event = {
        "name": "reflex___state____state.rcxsite___state___password_reset.verify",
        "payload": {},
        "router_data": {
            "pathname": PREFIX + token,
            "asPath": PREFIX + token + "?utm=mail#top",
            "query": {"token": token, "utm": "mail"},
        },
    }
    return f'42/_event,{ack}["event",{json.dumps(event)}]'


def test_an_event_from_the_reset_page_carries_the_tokens_digest_only() -> None:
    token, digest = tokens.new_token()

    rewritten = digest_only_frame(_frame(token, ack="7"))

    assert token not in rewritten
    assert rewritten.startswith('42/_event,7["event",')
    router = json.loads(rewritten[rewritten.index("["):])[1]["router_data"]
    marked = f"sha256:{digest}"
    assert router == {
        "pathname": PREFIX + marked,
        "asPath": PREFIX + marked + "?utm=mail#top",
        "query": {"token": marked, "utm": "mail"},
    }
    assert tokens.marked_digest(router["pathname"].rsplit("/", 1)[-1]) == digest


def test_the_first_event_in_the_connect_packet_carries_the_digest_only() -> None:
    token, digest = tokens.new_token()
    event = {
        "name": "reflex___state____state.hydrate_and_load",
        "payload": {"hashes": ["eb85a6a4d77f9c8e"]},
        "router_data": {"pathname": PREFIX + token, "asPath": PREFIX + token,
                        "query": {"token": token}},
    }
    frame = "40/_event," + json.dumps({"event": event, "state_schema": "c21d"})

    rewritten = digest_only_frame(frame)

    assert token not in rewritten and rewritten.startswith("40/_event,{")
    packet = json.loads(rewritten[len("40/_event,"):])
    assert packet["state_schema"] == "c21d"
    assert packet["event"]["payload"] == event["payload"]
    assert packet["event"]["router_data"]["query"] == {"token": f"sha256:{digest}"}


def test_other_frames_pass_unchanged() -> None:
    for frame in (
        '42/_event,["event",{"router_data":{"pathname":"/about","asPath":"/about"}}]',
        "2",
        '42/_event,["event",{"router_data":' + '"' + PREFIX + 'x"',  # malformed, Reflex refuses
        digest_only_frame(_frame("already")),
    ):
        assert digest_only_frame(frame) == frame


def test_the_middleware_rewrites_incoming_frames_and_drops_the_referer() -> None:
    token, _ = tokens.new_token()
    seen: dict[str, object] = {}

    async def app(scope, receive, send) -> None:
        seen["headers"] = dict(scope["headers"])
        seen["message"] = await receive()

    async def receive():
        return {"type": "websocket.receive", "text": _frame(token)}

    scope = {
        "type": "websocket", "path": "/_event/",
        "headers": [(b"referer", f"http://x{PREFIX}{token}".encode()), (b"origin", b"http://x")],
    }
    asyncio.run(ResetTokenDigestForEvents(app)(scope, receive, None))

    assert seen["headers"] == {b"origin": b"http://x"}
    assert token not in seen["message"]["text"]  # type: ignore[index]
