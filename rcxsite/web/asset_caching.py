"""Cache headers for the built frontend, which the same server hands out in production.

Files under /assets/ carry a content hash in their names, so browsers may keep them for a
year; a new build links new names. Everything else (HTML, our own unhashed files) is left
to the default revalidation. Behind nginx the same rule can move to its config.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import Scope

from rcxsite.web.response_headers import ResponseHeadersEdited

HASHED_PREFIX = "/assets/"
IMMUTABLE = "public, max-age=31536000, immutable"


class HashedAssetCaching(ResponseHeadersEdited):
    def applies(self, scope: Scope) -> bool:
        path: str = scope["path"]
        return path.startswith(HASHED_PREFIX)

    def edit(self, scope: Scope, status: int, headers: MutableHeaders) -> None:
        if status == 200:
            headers["Cache-Control"] = IMMUTABLE
