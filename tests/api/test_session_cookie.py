"""The login token never reaches Reflex's (pickled) state: the handshake carries its digest."""

from __future__ import annotations

import json
import urllib.parse
from datetime import timedelta

from rcxsite.accounts.sessions import login_digest
from rcxsite.core import tokens
from rcxsite.state.session import _handshake_digest, cookie_value
from rcxsite.web.sealed_event_cookies import _digest_only


def test_the_handshake_cookie_carries_the_digest_instead_of_the_token() -> None:
    from rcxsite.accounts import login_tokens
    from rcxsite.models import utcnow

    token = login_tokens.issue("a-session-id", issued_at=utcnow(), lifetime=timedelta(days=1))
    stored_digest = login_digest(token)
    login = {"EmailAddress": "a@example.com", "UserName": "A", "Token": token, "CustomerId": 7}
    header = f"other=1; userSession={urllib.parse.quote(json.dumps(login))}; last=2"

    rewritten = _digest_only(header)

    assert token not in rewritten
    assert "other=1" in rewritten and "last=2" in rewritten
    seen = json.loads(cookie_value(rewritten))
    assert {k: v for k, v in seen.items() if k != "Token"} == {
        k: v for k, v in login.items() if k != "Token"
    }
    assert _handshake_digest(seen) == stored_digest


def test_a_raw_token_in_the_handshake_is_not_accepted_as_a_digest() -> None:
    token, _ = tokens.new_token()
    assert _handshake_digest({"Token": token}) is None
    assert _handshake_digest({"Token": "sha256:" + "0" * 63 + "!"}) is None
    assert _digest_only("userSession=not-json") == "userSession=not-json"
