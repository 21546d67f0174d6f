"""`Vary: Origin` once per answer.

Reflex wraps the server in three copies of the same CORS middleware: around its own
backend, around this app (`api_transformer`) and around the whole. Each appends `Origin` to
`Vary`, so every answer said `Vary: Origin, Origin, Origin`. The outermost copy always
appends it (whether or not the request had an Origin, allowed or not), so the inner ones'
are dropped here, just inside it: the whole app's stack is wrapped (first in the list of
rcxsite/web/server.py), because Reflex adds its CORS layer to this app only after
`create_server` has returned.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import Scope

from rcxsite.web.response_headers import ResponseHeadersEdited


def without_origin(vary: str) -> str:
    return ", ".join(
        part.strip()
        for part in vary.split(",")
        if part.strip() and part.strip().lower() != "origin"
    )


class InnerVaryOriginDropped(ResponseHeadersEdited):
    def edit(self, scope: Scope, status: int, headers: MutableHeaders) -> None:
        values = headers.getlist("vary")
        if values:
            del headers["vary"]
            kept = without_origin(", ".join(values))
            if kept:
                headers["Vary"] = kept
