"""Where the site keeps files people send it (CVs first): never on one host's disk.

`FILE_STORE` chooses the place:
- `database` (the default): a `stored_file` row per file, in the site's own database. On
  SQLite it is the one machine's file; on PostgreSQL every host reads what any host kept,
  and the database's backup holds the files too.
- `s3://bucket` or `s3://bucket/prefix`: an S3-compatible object store (AWS, MinIO, Ceph,
  R2...), at `FILE_STORE_ENDPOINT` (empty: AWS's own) with `FILE_STORE_ACCESS_KEY`,
  `FILE_STORE_SECRET_KEY` and `FILE_STORE_REGION`. It then needs a backup of its own.

A file is kept under a key the store makes (`<kind>/<random>`): a caller keeps the key
(on its own row), never a name a visitor typed. A store that cannot be reached raises
`FileStoreUnavailable`, which the site treats as any other outage (a 503, "try again").
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol
from urllib.parse import urlsplit

from sqlalchemy import Column, DateTime, LargeBinary, String
from sqlmodel import Field, SQLModel, col, delete, select

from rcxsite.platform.db import session_scope
from rcxsite.platform.outages import (
    CONNECT_TIMEOUT_SECONDS,
    STATEMENT_TIMEOUT_SECONDS,
    ServiceUnreachable,
)
from rcxsite.platform.settings import Settings, get_settings

if TYPE_CHECKING:
    from botocore.client import BaseClient

KEY_MAX = 120
CONTENT_TYPE_MAX = 120
_KIND = re.compile(r"[a-z][a-z0-9-]{0,30}")
_KEY = re.compile(r"[a-z][a-z0-9-]{0,30}/[A-Za-z0-9_-]{20,64}")


class StoredFile(SQLModel, table=True):
    """A file kept in the database (`FILE_STORE=database`)."""

    __tablename__ = "stored_file"

    key: str = Field(primary_key=True, max_length=KEY_MAX)
    content_type: str = Field(max_length=CONTENT_TYPE_MAX)
    size: int
    sha256: str = Field(sa_column=Column(String(64), nullable=False))
    created_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    data: bytes = Field(sa_column=Column(LargeBinary, nullable=False))


@dataclass(frozen=True)
class KeptFile:
    key: str
    content_type: str
    data: bytes

    @property
    def size(self) -> int:
        return len(self.data)


class FileMissing(LookupError):
    """No file is kept under that key (never kept, or deleted)."""


class FileStoreUnavailable(ServiceUnreachable):
    """The object store did not answer, or refused the site's keys."""


class FileStore(Protocol):
    def put(self, kind: str, data: bytes, content_type: str) -> str: ...
    def get(self, key: str) -> KeptFile: ...
    def delete(self, key: str) -> None: ...


def new_key(kind: str) -> str:
    """An unguessable key for a new file of `kind` (a lower-case word: "cv")."""
    if not _KIND.fullmatch(kind):
        raise ValueError(f"a file's kind is a lower-case word, not {kind!r}")
    return f"{kind}/{secrets.token_urlsafe(24)}"


def _checked_key(key: str) -> str:
    if not _KEY.fullmatch(key):
        raise FileMissing(key)  # no key the store makes looks like that
    return key


def _checked_type(content_type: str) -> str:
    if (
        not content_type
        or len(content_type) > CONTENT_TYPE_MAX
        or not content_type.isprintable()
        or not content_type.isascii()
    ):
        raise ValueError("a file's content type is one short line, e.g. application/pdf")
    return content_type


class DatabaseStore:
    """Files as rows of `stored_file`."""

    def put(self, kind: str, data: bytes, content_type: str) -> str:
        key = new_key(kind)
        with session_scope() as session:
            session.add(
                StoredFile(
                    key=key,
                    content_type=_checked_type(content_type),
                    size=len(data),
                    sha256=hashlib.sha256(data).hexdigest(),
                    created_at=datetime.now(UTC),
                    data=data,
                )
            )
        return key

    def get(self, key: str) -> KeptFile:
        with session_scope() as session:
            row = session.exec(
                select(StoredFile).where(col(StoredFile.key) == _checked_key(key))
            ).first()
            if row is None:
                raise FileMissing(key)
            return KeptFile(key=row.key, content_type=row.content_type, data=bytes(row.data))

    def delete(self, key: str) -> None:
        with session_scope() as session:
            session.exec(delete(StoredFile).where(col(StoredFile.key) == _checked_key(key)))


class S3Store:
    """Files as objects in an S3-compatible bucket."""

    def __init__(self, settings: Settings) -> None:
        parts = urlsplit(settings.file_store)
        self.bucket = parts.netloc
        self.prefix = parts.path.strip("/")
        self._client = _s3_client(settings)

    def _object(self, key: str) -> str:
        return f"{self.prefix}/{key}" if self.prefix else key

    def put(self, kind: str, data: bytes, content_type: str) -> str:
        key = new_key(kind)
        with _answering():
            self._client.put_object(
                Bucket=self.bucket,
                Key=self._object(key),
                Body=data,
                ContentType=_checked_type(content_type),
                Metadata={"sha256": hashlib.sha256(data).hexdigest()},
            )
        return key

    def get(self, key: str) -> KeptFile:
        with _answering(missing=key):
            answer = self._client.get_object(
                Bucket=self.bucket, Key=self._object(_checked_key(key))
            )
            data = answer["Body"].read()
        return KeptFile(key=key, content_type=answer.get("ContentType") or "", data=data)

    def delete(self, key: str) -> None:
        with _answering():
            self._client.delete_object(Bucket=self.bucket, Key=self._object(_checked_key(key)))


@contextlib.contextmanager
def _answering(missing: str = "") -> Iterator[None]:
    """The object store's own errors as `FileStoreUnavailable`; "no such object" as
    `FileMissing(missing)` when a file was asked for."""
    from botocore.exceptions import BotoCoreError, ClientError

    try:
        yield
    except ClientError as error:
        code = str(error.response.get("Error", {}).get("Code", ""))
        if missing and code in ("NoSuchKey", "404", "NotFound"):
            raise FileMissing(missing) from error
        raise FileStoreUnavailable(f"the file store refused: {code or 'an error'}") from error
    except BotoCoreError as error:
        raise FileStoreUnavailable(
            f"the file store did not answer: {type(error).__name__}"
        ) from error


def _s3_client(settings: Settings) -> BaseClient:
    # Imported here: a site on the default store never loads boto3 (a second of start-up).
    import boto3
    from botocore.config import Config

    return boto3.client(
        "s3",
        endpoint_url=settings.file_store_endpoint or None,
        region_name=settings.file_store_region,
        aws_access_key_id=settings.file_store_access_key or None,
        aws_secret_access_key=settings.file_store_secret_key or None,
        config=Config(
            connect_timeout=CONNECT_TIMEOUT_SECONDS,
            read_timeout=STATEMENT_TIMEOUT_SECONDS,
            retries={"max_attempts": 2, "mode": "standard"},
            # Path-style (endpoint/bucket/key) works with every S3-compatible server.
            s3={"addressing_style": "path"},
        ),
    )


def store_for(settings: Settings) -> FileStore:
    """The store `settings.file_store` names."""
    if settings.file_store == "database":
        return DatabaseStore()
    return S3Store(settings)


@lru_cache
def get_file_store() -> FileStore:
    return store_for(get_settings())
