"""The app's settings changed for one part of the bench, then as they were: parts that
call the services in the bench's own process (the inbox, the site search)."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from rcxsite.platform.db import get_engine
from rcxsite.platform.settings import get_settings


def refresh() -> None:
    """Make the next get_settings()/get_engine() read the environment again."""
    if get_engine.cache_info().currsize:
        get_engine().dispose()
    get_engine.cache_clear()
    get_settings.cache_clear()


@contextmanager
def environment(values: Mapping[str, str]) -> Iterator[None]:
    """`values` in the environment (and so in the settings) while inside."""
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    refresh()
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        refresh()
