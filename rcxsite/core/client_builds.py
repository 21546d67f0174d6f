"""How a page names the build it was compiled in, shared by the build (rcxsite/tools),
the workers' HTTP (rcxsite/web/client_build.py) and the tabs' events
(rcxsite/state/stale_build.py)."""

from __future__ import annotations

# A build's backend address ends in this and its id: every websocket and call of its
# pages to the workers names it.
BUILD_PREFIX = "/_b/"
# What the workers' HTTP layer tells the tab's events: the page is of another build.
CLIENT_BUILD_HEADER = "x-rcx-client-build"


def build_path_prefix(build_id: str) -> str:
    """What a build's backend address ends in."""
    return f"{BUILD_PREFIX}{build_id}"
