"""The address a request came from, as used for rate limits."""

from __future__ import annotations

from fastapi import Request

from rcxsite.platform.settings import get_settings


def client_address(request: Request) -> str:
    """The peer address, or with `TRUSTED_PROXY_HOPS` = n the n-th address from the right
    of X-Forwarded-For (each trusted proxy appends the address it saw; entries further left
    are whatever the client claimed and cannot be trusted)."""
    hops = get_settings().trusted_proxy_hops
    if hops:
        forwarded = [
            part.strip()
            for header in request.headers.getlist("x-forwarded-for")
            for part in header.split(",")
            if part.strip()
        ]
        if len(forwarded) >= hops:
            return forwarded[-hops]
    return request.client.host if request.client else "unknown"
