"""Debian's Chromium and the flags it needs here: as root, and on a closed network where
its background connections would only be refused. Shared by the OG-image tool, the
browser tests and the bench."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS: tuple[str, ...] = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
