"""The file store keeps a file where every host reads it: the database by default (SQLite
and PostgreSQL), or an S3 bucket (a real S3 API here: moto in server mode); a store that
cannot be reached is an outage, never a lost file (rcxsite/platform/file_store.py)."""

from __future__ import annotations

import hashlib

import pytest
from pydantic import ValidationError
from sqlmodel import select

from rcxsite.platform.db import session_scope
from rcxsite.platform.file_store import (
    FileMissing,
    FileStoreUnavailable,
    StoredFile,
    get_file_store,
)
from rcxsite.platform.outages import is_outage
from rcxsite.platform.settings import Settings
from rcxsite.tools.processes import free_port
from tests.support.fixtures import (
    Configure,
    bucket,
    configure,
    fresh_state,
    object_store,
    site_root,
)
from tests.support.postgres import sqlite_or_postgres
from tests.support.scratch_services import ScratchObjectStore

# Fixtures: a site of this module's own, and a bucket on a real S3 API.
__all__ = ["bucket", "configure", "fresh_state", "object_store", "site_root"]

# Bytes a text decoder would mangle: every value, NUL, CR LF and an invalid UTF-8 run.
AWKWARD = bytes(range(256)) * 40 + b"\r\n\x00\xff\xfe%PDF-1.7"


def rows(model: type[StoredFile]) -> list[StoredFile]:
    with session_scope() as session:
        found = list(session.exec(select(model)))
        session.expunge_all()
        return found


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_database_keeps_a_file_byte_for_byte(database: str, configure: Configure) -> None:
    with sqlite_or_postgres(database, configure):
        store = get_file_store()
        key = store.put("cv", AWKWARD, "application/pdf")
        assert key.startswith("cv/") and len(key) > 30

        kept = store.get(key)
        assert (kept.data, kept.content_type, kept.size) == (
            AWKWARD,
            "application/pdf",
            len(AWKWARD),
        )
        [row] = rows(StoredFile)
        assert row.sha256 == hashlib.sha256(AWKWARD).hexdigest()

        store.delete(key)
        with pytest.raises(FileMissing):
            store.get(key)
        assert rows(StoredFile) == []


def test_keys_are_the_stores_own_never_a_typed_name() -> None:
    store = get_file_store()
    first, second = store.put("cv", b"a", "text/plain"), store.put("cv", b"a", "text/plain")
    assert first != second
    for foreign in ("../../etc/passwd", "cv/short", "CV/" + "a" * 30, first + "/x", ""):
        with pytest.raises(FileMissing):
            store.get(foreign)
    with pytest.raises(ValueError, match="lower-case word"):
        store.put("../cv", b"a", "text/plain")
    for odd in ("text/plain\r\nX-Injected: 1", "text/plain\rX: 1", "text/plain\x00", ""):
        with pytest.raises(ValueError, match="content type"):
            store.put("cv", b"a", odd)


def test_an_s3_bucket_keeps_a_file_under_its_prefix(
    bucket: str, object_store: ScratchObjectStore
) -> None:
    store = get_file_store()
    key = store.put("cv", AWKWARD, "application/pdf")

    listed = object_store.client().list_objects_v2(Bucket=bucket)["Contents"]
    assert [item["Key"] for item in listed] == [f"site/{key}"]
    assert rows(StoredFile) == []  # nothing on the database, nor on this host's disk

    kept = get_file_store().get(key)
    assert (kept.data, kept.content_type) == (AWKWARD, "application/pdf")

    store.delete(key)
    with pytest.raises(FileMissing):
        store.get(key)
    assert "Contents" not in object_store.client().list_objects_v2(Bucket=bucket)


def test_a_missing_bucket_or_a_store_that_does_not_answer_is_an_outage(
    bucket: str, configure: Configure, object_store: ScratchObjectStore
) -> None:
    configure(file_store="s3://no-such-bucket")
    with pytest.raises(FileStoreUnavailable, match="refused: NoSuchBucket") as refused:
        get_file_store().put("cv", b"a", "text/plain")
    assert is_outage(refused.value)

    configure(file_store=f"s3://{bucket}", file_store_endpoint=f"http://127.0.0.1:{free_port()}")
    with pytest.raises(FileStoreUnavailable, match="did not answer") as silent:
        get_file_store().get("cv/" + "a" * 32)
    assert is_outage(silent.value)


@pytest.mark.parametrize(
    "value", ["s3:/bucket", "s3://", "file:///srv/files", "s3://bucket?x=1", "disk"]
)
def test_a_file_store_setting_that_names_no_store_is_refused(value: str) -> None:
    with pytest.raises(ValidationError, match='FILE_STORE is "database" or "s3://bucket"'):
        Settings(file_store=value)
    assert Settings(file_store=" s3://bucket/cv ").file_store == "s3://bucket/cv"
