"""The production site under test: built and served once per run, or one already running."""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.live_server import start_live_server


@contextmanager
def production_site(work_dir: Path, url: str | None = None) -> Iterator[str]:
    """Yield the base URL of `reflex run --env prod` on a free port with its own data folder
    (SQLite file, outbox, signing key) in `work_dir`, or `url` when given."""
    if url:
        yield url
        return
    if work_dir.exists():
        shutil.rmtree(work_dir)
    work_dir.mkdir(parents=True)
    started = time.monotonic()
    print("building and starting the production site ...", file=sys.stderr, flush=True)
    server = start_live_server(work_dir, {})
    print(f"  {server.url} answered after {time.monotonic() - started:.0f} s", file=sys.stderr)
    try:
        yield server.url
    finally:
        server.stop()
