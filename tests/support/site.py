"""An isolated site for tests: its own data folder, SQLite file, outbox and signing key."""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from alembic.command import upgrade
from alembic.config import Config
from sqlmodel import Session, SQLModel, col, delete, select

from rcxsite.analytics import visitors
from rcxsite.mail import wait_for_outgoing_mail
from rcxsite.models import (
    Job,
)
from rcxsite.platform.db import get_engine
from rcxsite.platform.file_store import get_file_store
from rcxsite.platform.settings import PROJECT_ROOT, get_settings
from tests.support.rate_limits import reset_rate_limits
from tests.support.smtp import VERIFY_LINK, is_address_verification

SITE_URL = "https://rcx.test"
_RESET_LINK = re.compile(re.escape(SITE_URL) + r"/authentication/reset-password/([A-Za-z0-9_-]+)")


def refresh_settings() -> None:
    """Make the next get_settings()/get_engine() read the environment again."""
    if get_engine.cache_info().currsize:
        get_engine().dispose()
    get_engine.cache_clear()
    get_settings.cache_clear()
    get_file_store.cache_clear()


def alembic_config() -> Config:
    config = Config(str(PROJECT_ROOT / "alembic.ini"))
    config.attributes["configure_logger"] = False
    return config


_migrated: list[Path] = []


def _migrate(database: Path) -> None:
    """`database` migrated to head: by alembic the first time in this test process, then
    as a copy of that first file (a migration run per test package costs more)."""
    if _migrated:
        shutil.copyfile(_migrated[0], database)
        return
    upgrade(alembic_config(), "head")
    get_engine().dispose()  # closed, so the file holds everything
    template = Path(tempfile.mkdtemp(prefix="rcx-migrated-")) / "rcx.db"
    shutil.copyfile(database, template)
    _migrated.append(template)


@contextmanager
def isolated_site(root: Path) -> Iterator[Path]:
    """Point every setting at `root`, migrate an empty SQLite file there, undo on exit."""
    env = {
        "DATA_DIR": str(root),
        "DATABASE_URL": f"sqlite:///{root / 'rcx.db'}",
        "OUTBOX_DIR": str(root / "outbox"),
        "SECRET_KEY": "test-signing-key-" + "x" * 60,
        "SITE_URL": SITE_URL,
        "SMTP_HOST": "",
        "SMTP_STARTTLS": "false",
        "REDIS_URL": "",
        "MAIL_RETRY_DELAY_SECONDS": "0",
        "TRUSTED_PROXY_HOPS": "0",
    }
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, value)
        refresh_settings()
        _migrate(root / "rcx.db")
        try:
            yield root
        finally:
            wait_for_outgoing_mail(30)
    refresh_settings()


def empty_tables(*roots: type[SQLModel]) -> None:
    """Empties `roots`' tables and every table that refers to one of them, children first
    (so it works with foreign keys enforced); no roots: every table. Derived from the
    models, so a new table needs no edit here."""
    tables = SQLModel.metadata.sorted_tables  # parents before children
    chosen = {model.__table__ for model in roots} if roots else set(tables)  # type: ignore[attr-defined]
    for table in tables:
        if any(key.column.table in chosen for key in table.foreign_keys):
            chosen.add(table)
    with Session(get_engine()) as session:
        for table in reversed(tables):
            if table in chosen:
                session.exec(delete(table))  # type: ignore[call-overload]
        session.commit()


def reset_state() -> None:
    """Empty tables (queued mail and jobs among them), rate limits and outbox between
    tests."""
    empty_tables()
    visitors._cache.clear()  # the salts it held were just deleted
    reset_rate_limits()
    for path in get_settings().outbox_dir.glob("*.eml"):
        path.unlink()


def outbox_messages(*, verification: bool = False) -> list[EmailMessage]:
    """Messages the outbox mode wrote, oldest first (after the queue has drained): those
    with an address-verification link if `verification`, else all others (every
    registration sends one, and tests of other mails need not step over it)."""
    assert wait_for_outgoing_mail(30), "mail queue did not drain"
    parser = BytesParser(policy=policy.default)
    messages = [
        parser.parsebytes(path.read_bytes())  # type: ignore[misc]
        for path in sorted(get_settings().outbox_dir.glob("*.eml"))
    ]
    return [message for message in messages if is_address_verification(message) == verification]


def verification_token_in(message: EmailMessage) -> str:
    """The token of the address-verification link in a mail's plain-text part."""
    body = message.get_body(("plain",))
    assert body is not None, "mail has no plain-text part"
    match = VERIFY_LINK.search(body.get_content())
    assert match, "no verification link in the mail"
    return match.group(1)


def reset_token_in(message: EmailMessage) -> str:
    """The token of the reset link in a mail's plain-text part."""
    body = message.get_body(("plain",))
    assert body is not None, "mail has no plain-text part"
    match = _RESET_LINK.search(body.get_content())
    assert match, "no reset link in the mail"
    return match.group(1)


def jobs_of_kind(kind: str, *, state: str = "") -> list[Job]:
    """The job table's rows of one kind (in one state), oldest first."""
    query = select(Job).where(col(Job.kind) == kind)
    if state:
        query = query.where(col(Job.state) == state)
    with Session(get_engine()) as session:
        rows = list(session.exec(query.order_by(col(Job.id))))
        for row in rows:
            session.expunge(row)
        return rows
