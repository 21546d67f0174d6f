"""`make run-lb`: nginx in front of several app hosts, rendered from LB_UPSTREAMS, steps
around a host that is down or answers 503 (rcxsite/tools/run_lb.py). The hosts here are
two small HTTP servers that say who they are; the several-hosts test puts real ones
behind it."""

from __future__ import annotations

import http.server
import os
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from pydantic import ValidationError

from rcxsite.platform.settings import Settings
from rcxsite.tools.processes import free_port, port_open, wait_until
from rcxsite.tools.run_lb import NGINX, render_lb_conf

ROOT = Path(__file__).resolve().parents[2]


class Host:
    """An app host stand-in: answers every request with its name (or 503 when told)."""

    def __init__(self, name: str) -> None:
        self.name, self.status, self.seen = name, 200, Counter[str]()
        self.forwarded: list[str] = []
        self.upgrades: list[str] = []
        host = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                host.seen[self.command] += 1
                host.forwarded.append(self.headers.get("X-Forwarded-For", ""))
                host.upgrades.append(self.headers.get("Upgrade", ""))
                body = host.name.encode()
                self.send_response(host.status)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = _answer

            def log_message(self, *_args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _run_lb(tmp_path: Path, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "rcxsite.tools.run_lb"],
        cwd=ROOT,
        env={**os.environ, "LB_RUN_DIR": str(tmp_path / "lb"), **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture
def hosts() -> Iterator[tuple[Host, Host]]:
    pair = (Host("app1"), Host("app2"))
    yield pair
    for host in pair:
        host.stop()


@pytest.fixture
def balancer(tmp_path: Path, hosts: tuple[Host, Host]) -> Iterator[str]:
    if not NGINX.exists():
        pytest.skip(f"nginx is not installed at {NGINX}")
    port = free_port()
    process = _run_lb(
        tmp_path,
        LB_UPSTREAMS=",".join(f"127.0.0.1:{host.port}" for host in hosts),
        PORT=str(port),
        BIND_HOST="127.0.0.1",
    )
    try:
        wait_until(
            lambda: port_open("127.0.0.1", port, timeout=1),
            process=process,
            timeout_s=30,
            what="the balancer",
        )
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


def _names(url: str, count: int, method: str = "GET") -> Counter[str]:
    with httpx.Client(timeout=10) as client:
        return Counter(
            f"{answer.status_code} {answer.text}"
            for answer in (client.request(method, url + "/x") for _ in range(count))
        )


def test_requests_are_spread_over_the_hosts_and_name_the_visitor(
    balancer: str, hosts: tuple[Host, Host]
) -> None:
    assert _names(balancer, 20) == Counter({"200 app1": 10, "200 app2": 10})
    assert set(hosts[0].forwarded + hosts[1].forwarded) == {"127.0.0.1"}


def test_a_builds_websocket_reaches_a_host_as_an_upgrade(
    balancer: str, hosts: tuple[Host, Host]
) -> None:
    upgrade = {"Upgrade": "websocket", "Connection": "Upgrade"}
    with httpx.Client(timeout=10) as client:
        for path in ("/_event/", "/_b/0123456789abcdef/_event/"):
            client.get(balancer + path + "?EIO=4&transport=websocket", headers=upgrade)
    assert hosts[0].upgrades + hosts[1].upgrades == ["websocket", "websocket"]


def test_a_host_that_is_down_or_answers_503_is_stepped_around(
    balancer: str, hosts: tuple[Host, Host]
) -> None:
    app1, app2 = hosts
    app2.status = 503  # cut from the database: the site's 503 page
    assert _names(balancer, 10) == Counter({"200 app1": 10})

    app2.status = 200
    app1.stop()  # down: refused connections
    assert _names(balancer, 10) == Counter({"200 app2": 10})


def test_a_post_that_reached_a_host_is_never_sent_to_another(
    balancer: str, hosts: tuple[Host, Host]
) -> None:
    app1, app2 = hosts
    app2.status = 503
    answers = _names(balancer, 10, method="POST")
    # Each POST was handled once: those app2 answered 503 are not repeated on app1.
    assert app1.seen["POST"] + app2.seen["POST"] == 10
    assert answers["503 app2"] == app2.seen["POST"] > 0


def test_a_balancer_without_its_hosts_refuses_to_start_naming_the_setting(tmp_path) -> None:
    for value, said in (
        ("", "LB_UPSTREAMS must list the app hosts"),
        ("app1:3000", "LB_UPSTREAMS: 'app1:3000' is not an address:port"),
        ("10.0.0.2:99999", "is not an address:port"),
    ):
        process = _run_lb(tmp_path, LB_UPSTREAMS=value)
        _out, err = process.communicate(timeout=30)
        assert process.returncode == 2, err
        assert said in err and "Traceback" not in err


def test_the_rendered_balancer_lists_each_host() -> None:
    conf = render_lb_conf(
        run_dir=Path("/tmp/lb"),
        settings=Settings(
            lb_upstreams="10.0.0.2:3000, [fd00::3]:3000", bind_host="10.0.0.1", port=80
        ),
    )
    assert "server 10.0.0.2:3000 max_fails=1" in conf
    assert "server [fd00::3]:3000 max_fails=1" in conf
    assert "listen 10.0.0.1:80;" in conf and "${" not in conf
    with pytest.raises(ValidationError, match="BIND_HOST is an IP address"):
        Settings(bind_host="app1")
