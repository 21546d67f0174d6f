"""What rxconfig.py hands to Reflex: the proxy hops and the websocket message limit."""

from __future__ import annotations

import os
import subprocess
import sys

from rcxsite.platform.settings import PROJECT_ROOT

_SCREEN_ADDRESS = """
from reflex.app import EventNamespace
from reflex_base.config import get_config
from reflex_base.environment import environment

environ = {"asgi.scope": {"client": ("10.0.0.2", 5000), "headers": [
    (b"x-forwarded-for", b"203.0.113.9, 198.51.100.7")]}}
router = EventNamespace._build_static_router_data(None, "sid", environ)
print(router["ip"] if "ip" in router else [v for k, v in router.items() if "ip" in str(k)][0])
print(get_config().trusted_proxy_hops, environment.REFLEX_SOCKET_MAX_HTTP_BUFFER_SIZE.get())
"""


def test_the_screens_see_the_visitor_behind_trusted_proxies() -> None:
    env = {**os.environ, "TRUSTED_PROXY_HOPS": "1"}
    env.pop("REFLEX_SOCKET_MAX_HTTP_BUFFER_SIZE", None)
    result = subprocess.run(
        [sys.executable, "-c", _SCREEN_ADDRESS],
        cwd=PROJECT_ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    address, settings = result.stdout.strip().splitlines()[-2:]
    # One trusted proxy: the address it saw, not the proxy's own nor the client's claim.
    assert address == "198.51.100.7"
    assert settings == f"1 {64 * 1024}"
