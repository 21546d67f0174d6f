"""The load balancers' checks: /livez while the process answers, /healthz while the
database and Redis do too (503 when one does not), saying nothing secret."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from rcxsite.platform import readiness
from tests.support.fixtures import Configure

DEAD_POSTGRES = "postgresql://postgres:pg-secret@127.0.0.1:9/rcx"
DEAD_REDIS = "redis://:redis-secret@127.0.0.1:9/0"


@pytest.fixture(autouse=True)
def _fresh_look(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each test looks again rather than reading the last second's answer.
    monkeypatch.setattr(readiness, "KEPT_S", -1.0)


def test_livez_answers_while_the_process_does(client: TestClient) -> None:
    answer = client.get("/livez")
    assert (answer.status_code, answer.json()) == (200, {"status": "ok"})
    assert answer.headers["Cache-Control"] == "no-store"


def test_healthz_is_ready_when_the_database_answers(client: TestClient) -> None:
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok", "database": "ok", "redis": "not used"}
    assert answer.headers["Cache-Control"] == "no-store"


def test_healthz_is_unavailable_while_the_database_or_redis_is_not_there(
    client: TestClient, configure: Configure
) -> None:
    configure(database_url=DEAD_POSTGRES, redis_url=DEAD_REDIS)
    answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.json() == {
        "status": "unavailable",
        "database": "unreachable",
        "redis": "unreachable",
    }
    body = json.dumps(answer.json()) + str(answer.headers)
    assert "secret" not in body and "127.0.0.1" not in body
    assert client.get("/livez").status_code == 200


def test_one_look_serves_the_checks_of_a_second(
    client: TestClient, configure: Configure, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(readiness, "KEPT_S", 60.0)
    monkeypatch.setattr(readiness, "_last", (0.0, {}))
    assert client.get("/healthz").status_code == 200
    configure(database_url=DEAD_POSTGRES)
    assert client.get("/healthz").status_code == 200  # the same look, not another


def test_while_one_caller_looks_the_others_get_the_last_look_at_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(readiness, "_last", (0.0, {"database": "ok", "redis": "not used"}))
    looked: list[str] = []
    monkeypatch.setattr(readiness, "_looked_at", lambda: looked.append("again") or {})
    with readiness._looking:  # a look in progress
        answer = client.get("/healthz")
    assert answer.status_code == 200 and looked == []
