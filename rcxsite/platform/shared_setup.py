"""What a site must be told before its hosts share a database.

On SQLite the site is one process on one machine, and the embedded defaults are right: a
signing key generated into its data folder, limits in memory, links to localhost, mail
kept in the outbox folder. On any other database several hosts may serve it, and each of
those defaults would be a different one on each host: a login made on one host refused
on the next, a runner unable to unseal another host's mail, limits counted per host,
links to a host's own name, mail on whichever disk queued it. So such a site refuses to
start until each is set, naming the setting.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

from rcxsite.platform.settings import Settings, get_settings

logger = logging.getLogger(__name__)


class SharedSetupMissing(Exception):
    """The settings a shared database needs, in the words an operator reads."""


def missing_settings(settings: Settings) -> list[str]:
    """What `settings` lack for a shared database; nothing on SQLite."""
    if settings.db_url.startswith("sqlite"):
        return []
    missing = []
    if not settings.secret_key:
        missing.append(
            "SECRET_KEY: the same key on every host (a key each host generated for itself"
            " would refuse the others' logins, links and sealed data)"
        )
    if not settings.redis_url:
        missing.append("REDIS_URL: the rate limits and the tabs' states every host must share")
    if not settings.site_url_given:
        missing.append(
            "SITE_URL: the address visitors use, for the links in mail and the allowed"
            " origin (else each host would name itself localhost)"
        )
    if not settings.smtp_host and not settings.mail_to_outbox:
        missing.append(
            "SMTP_HOST: the mail server (or MAIL_TO_OUTBOX=true to keep mail in"
            " OUTBOX_DIR on purpose, on the disk of whichever host queued it)"
        )
    return missing


def require_shared_setup(settings: Settings) -> None:
    """Raises `SharedSetupMissing` listing what `settings` lack for a shared database."""
    missing = missing_settings(settings)
    if missing:
        raise SharedSetupMissing(
            "The site runs on a shared database (DATABASE_URL is not SQLite), so it needs:\n  "
            + "\n  ".join(missing)
        )


@contextlib.asynccontextmanager
async def checked_at_start() -> AsyncIterator[None]:
    """A site worker's lifespan step: on a shared database without its settings the worker
    stops at start, saying which (in its log), rather than serve."""
    try:
        require_shared_setup(get_settings())
    except SharedSetupMissing as missing:
        logger.critical("%s", missing)
        raise
    yield
