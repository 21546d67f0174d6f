"""The reset token never reaches Reflex's (pickled) state: events carry its digest."""

from __future__ import annotations

import asyncio
import json

from rcxsite.core import tokens
from rcxsite.web.sealed_event_paths import ResetTokenDigestForEvents, digest_only_frame

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
    router = json.loads(rewritten[rewritten.index("[") :])[1]["router_data"]
    marked = tokens.marked(token)
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
        "router_data": {
            "pathname": PREFIX + token,
            "asPath": PREFIX + token,
            "query": {"token": token},
        },
    }
    frame = "40/_event," + json.dumps({"event": event, "state_schema": "c21d"})

    rewritten = digest_only_frame(frame)

    assert token not in rewritten and rewritten.startswith("40/_event,{")
    packet = json.loads(rewritten[len("40/_event,") :])
    assert packet["state_schema"] == "c21d"
    assert packet["event"]["payload"] == event["payload"]
    assert packet["event"]["router_data"]["query"] == {"token": tokens.marked(token)}
    assert tokens.marked_digest(tokens.marked(token)) == digest


def test_other_frames_pass_unchanged() -> None:
    for frame in (
        '42/_event,["event",{"router_data":{"pathname":"/about","asPath":"/about"}}]',
        "2",
        '42/_event,["event",{"router_data":' + '"' + PREFIX + 'x"',  # malformed, Reflex refuses
        '42/_event,["event", {"payload": {"note": "a \\"quote\\""},'
        ' "router_data": {"pathname": "\\/about"}}]',  # escapes, not the reset page
    ):
        assert digest_only_frame(frame) == frame


def _router_of(frame: str) -> dict:
    return json.loads(frame[frame.index("[") :])[1]["router_data"]


def _stored_digest_frame(digest: str) -> str:
    """What someone who read `password_reset_token.token_hash` would send."""
    forged = f"sha256:{digest}"
    event = {
        "name": "reflex___state____state.rcxsite___state___password_reset.verify",
        "payload": {},
        "router_data": {
            "pathname": PREFIX + forged,
            "asPath": PREFIX + forged,
            "query": {"token": forged},
        },
    }
    return f'42/_event,["event",{json.dumps(event)}]'


def test_a_stored_digest_in_the_path_is_never_taken_for_a_link() -> None:
    _, digest = tokens.new_token()

    router = _router_of(digest_only_frame(_stored_digest_frame(digest)))

    for value in (
        router["pathname"].rsplit("/", 1)[-1],
        router["asPath"].rsplit("/", 1)[-1],
        router["query"]["token"],
    ):
        assert tokens.marked_digest(value) != digest
    # Sent as it is (a frame shape the rewriting missed), the screens refuse it too.
    assert tokens.marked_digest(f"sha256:{digest}") is None
    assert tokens.marked_digest(f"sha256:{digest}.{'0' * 32}") is None


def test_a_rewritten_frame_sent_again_is_sealed_again() -> None:
    token, digest = tokens.new_token()
    once = digest_only_frame(_frame(token))

    twice = _router_of(digest_only_frame(once))

    assert tokens.marked_digest(twice["pathname"].rsplit("/", 1)[-1]) != digest


def test_the_reset_page_named_only_in_as_path_is_rewritten() -> None:
    token, digest = tokens.new_token()
    event = {
        "name": "x",
        "router_data": {"pathname": "/about", "asPath": PREFIX + token, "query": {"token": token}},
    }

    rewritten = digest_only_frame(f'42/_event,["event",{json.dumps(event)}]')

    assert token not in rewritten
    router = _router_of(rewritten)
    assert router["pathname"] == "/about"
    assert tokens.marked_digest(router["asPath"].rsplit("/", 1)[-1]) == digest
    assert tokens.marked_digest(router["query"]["token"]) == digest


def test_a_frame_with_json_escaped_slashes_is_rewritten() -> None:
    token, digest = tokens.new_token()
    escaped = _frame(token).replace("/", "\\/").replace("42\\/_event", "42/_event")
    assert PREFIX not in escaped

    rewritten = digest_only_frame(escaped)

    assert token not in rewritten
    assert tokens.marked_digest(_router_of(rewritten)["pathname"].rsplit("/", 1)[-1]) == digest


def test_the_middleware_rewrites_incoming_frames_and_drops_the_referer() -> None:
    token, _ = tokens.new_token()
    seen: dict[str, object] = {}

    async def app(scope, receive, send) -> None:
        seen["headers"] = dict(scope["headers"])
        seen["message"] = await receive()

    async def receive():
        return {"type": "websocket.receive", "text": _frame(token)}

    scope = {
        "type": "websocket",
        "path": "/_event/",
        "headers": [(b"referer", f"http://x{PREFIX}{token}".encode()), (b"origin", b"http://x")],
    }
    asyncio.run(ResetTokenDigestForEvents(app)(scope, receive, None))

    assert seen["headers"] == {b"origin": b"http://x"}
    assert token not in seen["message"]["text"]  # type: ignore[index]
