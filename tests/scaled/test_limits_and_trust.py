"""Who a client is behind proxies, and how much one client may take.

Each client is a loopback address of its own (Linux routes all of 127/8 to lo). The
site's nginx trusts X-Forwarded-For from TRUSTED_PROXY (127.0.0.1, where the proxy in
front of it runs) only; the clients below connect from other addresses.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis
from limits import parse

from rcxsite.content import routes
from rcxsite.platform.settings import Settings
from rcxsite.tools import processes
from rcxsite.tools.run_scaled import NGINX
from rcxsite.tools.scaled_config import render_nginx_conf
from tests.support.accounts_ui import PASSWORD, new_customer
from tests.support.front_proxy import front_proxy, nginx_running
from tests.support.load import LOG_IN_EVENT, QUOTE_EVENT, Tab, quote_form
from tests.support.plain_http import bearer_for, request, request_from
from tests.support.scaled_site import (
    CLOSED_TAB_STATE_SECONDS,
    REDIS,
    TRUSTED_PROXY,
    WEBSOCKETS_PER_CLIENT,
    ScaledSite,
    run_scaled_setup,
)
from tests.support.services import service_missing
from tests.support.websocket_flood import flood_in_background

CLIENT_A, CLIENT_B, CLIENT_C = "127.0.0.2", "127.0.0.3", "127.0.0.4"
# Reset-link submissions per client: a limit the scaled site keeps at its default.
RESET_SUBMISSIONS = parse(Settings.model_fields["reset_submit_limit"].default).amount
FLOOD_SOCKETS = 2000


def _submit_reset(base_url: str, source: str, headers: dict[str, str] | None = None) -> int:
    """A new password with a link that does not exist: 400, counted against the client."""
    return request_from(
        source,
        base_url + "/api/v1/Auth/ResetPasswordLink",
        method="POST",
        headers=headers,
        body={
            "NewPassword": "Sturdy-Lantern-Orbit-58",
            "email": "nobody@example.com",
            "ResetToken": "no-such-link",
        },
    )[0]


def test_clients_behind_a_trusted_proxy_are_counted_apart_and_no_one_else_is_believed(
    scaled_site: ScaledSite,
    tmp_path: Path,
) -> None:
    email = new_customer(scaled_site.url, "behind-a-proxy")
    with front_proxy(scaled_site.url, tmp_path / "front") as front:
        # A uses up its own submissions; B, through the same proxy, still has all of its,
        # and logs in.
        assert [_submit_reset(front, CLIENT_A) for _ in range(RESET_SUBMISSIONS + 1)] == [
            400
        ] * RESET_SUBMISSIONS + [429]
        assert _submit_reset(front, CLIENT_B) == 400
        assert (
            request_from(
                CLIENT_B,
                front + "/api/v1/Auth/Login",
                method="POST",
                body={"UserName": email, "Password": PASSWORD},
            )[0]
            == 200
        )
        # A client's own X-Forwarded-For, even through the trusted proxy, names nobody: the
        # entry the proxy appends (C) is the first from the right that is not trusted.
        assert _submit_reset(front, CLIENT_C, {"X-Forwarded-For": CLIENT_A}) == 400
    # Straight to nginx, from an address it does not trust: the header is ignored.
    direct = scaled_site.url.replace("localhost", TRUSTED_PROXY)
    assert _submit_reset(direct, CLIENT_C, {"X-Forwarded-For": CLIENT_A}) == 400


@contextmanager
def _nginx_alone(tmp_path: Path, settings: Settings) -> Iterator[str]:
    """run-scaled's nginx with `settings` and no workers (the backend's paths answer 502)."""
    if not NGINX.exists():
        service_missing(f"nginx is not installed at {NGINX} (make test installs it)")
    (tmp_path / "run").mkdir()
    port = processes.free_port()
    conf = tmp_path / "run" / "nginx.conf"
    conf.write_text(
        render_nginx_conf(
            run_dir=tmp_path / "run",
            static_root=tmp_path,
            listen=port,
            worker_ports=[],
            hsts=False,
            settings=settings,
        )
    )
    with nginx_running(tmp_path / "run", conf, "127.0.0.1", port, "nginx"):
        yield f"http://127.0.0.1:{port}"


def test_nginx_limits_each_clients_requests_to_the_backend(tmp_path: Path) -> None:
    settings = Settings(
        _env_file=None, trusted_proxies=TRUSTED_PROXY, api_requests_per_second=1, api_burst=3
    )
    with _nginx_alone(tmp_path, settings) as url:

        def login(source: str, headers: dict[str, str] | None = None) -> int:
            return request_from(
                source, url + "/api/v1/Auth/Login", method="POST", body={}, headers=headers
            )[0]

        # A burst of 1 + 3 reaches the (missing) workers; then 429, at most a token a
        # second coming back (a pause of the test's own may let one more through).
        statuses = [login(CLIENT_A) for _ in range(10)]
        assert statuses[:4] == [502] * 4
        assert statuses.count(429) >= 4
        answers = [request_from(CLIENT_A, url + "/api/v1/User/Me") for _ in range(3)]
        refused = [(headers, body) for status, headers, body in answers if status == 429]
        assert refused, answers
        headers, body = refused[0]
        assert headers["Retry-After"] == "1"
        assert json.loads(body)["status"] == 429  # the API's own envelope
        assert login(CLIENT_B) == 502  # a budget of its own
        # X-Forwarded-For is believed from the trusted proxy only.
        assert 429 in [login(TRUSTED_PROXY, {"X-Forwarded-For": CLIENT_A}) for _ in range(3)]
        assert login(CLIENT_B, {"X-Forwarded-For": CLIENT_A}) == 502


def _keys(client: redis.Redis, pattern: str) -> list[bytes]:
    return list(client.scan_iter(match=pattern, count=1000))


def test_one_client_with_2000_websockets_is_capped_while_another_carries_on(
    scaled_site: ScaledSite,
) -> None:
    scaled_site.wait_for_all_workers()  # an earlier test may have killed one
    email = new_customer(scaled_site.url, "flood-bystander")
    store = redis.Redis.from_url(REDIS)
    baseline = set(_keys(store, "*"))
    started = time.monotonic()
    flood, opened, release, thread = flood_in_background(
        scaled_site.url, source=CLIENT_A, sockets=FLOOD_SOCKETS
    )
    try:
        assert opened.wait(60), "the flood's sockets were not all answered"
        print(
            f"{FLOOD_SOCKETS} websockets answered in {time.monotonic() - started:.1f} s: "
            f"{dict(flood.statuses)}"
        )
        # Meanwhile 127.0.0.1: a page, a login through the API, a tab that logs in and asks
        # for a quote.
        status, _, body = request(scaled_site.url + routes.QUOTE.path)
        assert status == 200 and b"<h1" in body
        bearer_for(scaled_site.url, email, PASSWORD)
        tab = Tab(scaled_site.url, routes.LOG_IN.path)
        try:
            tab.send(LOG_IN_EVENT, {"email": email, "password": PASSWORD}, routes.LOG_IN.path)
            tab.wait_for("Logged in successfully!")
            tab.send(QUOTE_EVENT, quote_form(email), routes.QUOTE.path)
            tab.wait_for("Your request has been received")
        finally:
            tab.close()
    finally:
        release.set()
        thread.join(60)

    assert set(flood.statuses) <= {101, 429}, flood.statuses
    assert 0 < flood.statuses[101] <= WEBSOCKETS_PER_CLIENT, flood.statuses
    assert flood.connected == flood.statuses[101]

    # Closed, the flood's sockets leave no record of their worker behind, and the state
    # Reflex saved for each tab lapses CLOSED_TAB_STATE_SECONDS after its socket closed:
    # Redis is back to what it held before, but for counters that expire on their own.
    try:
        processes.wait_until(
            lambda: not _keys(store, f"*{flood.token_prefix}*"),
            timeout_s=CLOSED_TAB_STATE_SECONDS + 30,
            interval_s=0.5,
            what="the flood's socket records and tab states to go",
        )
        processes.wait_until(
            lambda: all(
                store.ttl(key) > 0 for key in set(_keys(store, "*")) - baseline if store.exists(key)
            ),
            timeout_s=CLOSED_TAB_STATE_SECONDS + 30,
            interval_s=0.5,
            what="every key the test added to expire",
        )
    finally:
        store.close()


def test_run_scaled_refuses_a_trusted_proxy_that_is_not_an_address(tmp_path: Path) -> None:
    result = run_scaled_setup(
        tmp_path,
        DATABASE_URL="postgresql://127.0.0.1:9/none",
        REDIS_URL="redis://127.0.0.1:9/0",
        TRUSTED_PROXIES="10.0.0.0/8, lb.internal",
    )
    assert result.returncode == 2
    assert "TRUSTED_PROXIES: 'lb.internal' is not an address or CIDR" in result.stderr
    assert "Traceback" not in result.stderr
