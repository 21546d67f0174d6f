"""One logging setup for the site (`make run`, `make run-scaled`'s workers), and the
security events it records.

Lines are JSON on stdout, and also in `LOG_FILE` when it is set: time, level, logger,
message, the host (`HOST_NAME`, else the machine's name) and the request's id (the
`X-Request-ID` a load balancer gave it, else one made here: rcxsite/web/observed.py) when
the line was logged while answering one, and for a security event its `event`, `outcome`
and keyed hashes of the client address and the account email (never a password, token,
reset link or full address). The same client or account gives the same hash in every
line, so an operator can follow one attacker or one victim without the log holding who
they are.
"""

from __future__ import annotations

import json
import logging
import re
import socket
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from rcxsite.platform.settings import get_settings, keyed_hash

SECURITY = logging.getLogger("rcxsite.security")
# A value next to a key that names a secret, quoted as in a dict's repr or in JSON (also
# JSON inside a string, where the quotes are escaped), or a form's ["name", "value"]
# entry: what Reflex's warnings quote when they print an event's data ("Event data: ...").
# Clients choose much of what is logged, so every pattern here runs in linear time: a key
# is tried only where a run of letters starts (the lookbehind), the run is taken whole and
# never given back (possessive), the secret word is looked for inside it by a lookahead
# that cannot leave the run, and a value is read to its closing quote without going back.
# (The pattern this replaces retried every position of a run of letters: 60,000 letters in
# one websocket frame held the whole site for minutes.)
_SECRET_VALUE = re.compile(
    r"""(?P<key>(?<![A-Za-z_])(?:\\?["'])?+"""
    r"""(?=[A-Za-z_]*?(?:pass|to(?:c)?ken|ticket|secret|authorization))[A-Za-z_]++"""
    r"""(?:\\?["'])?+\s*+[:=,]\s*+)"""
    r"""(?P<quote>\\?["'])(?:(?!(?P=quote))(?:\\.|.))*+(?:(?P=quote)|$)""",
    re.IGNORECASE | re.MULTILINE,
)
# A JWT (a login token) wherever it stands, e.g. after "Bearer" or inside an escaped URL
# ("%22eyJ..."): a dotted word of three parts whose first holds "eyJ", tried only where
# a word starts.
_JWT = re.compile(r"(?<![\w-])(?=[\w-]*?eyJ)[\w-]++\.[\w-]++\.[\w-]++")
# What one log record may hold: a longer one is cut before it is redacted or written. A
# real traceback fits; a client's 64 KiB frame quoted whole by a library does not.
LOG_RECORD_MAX_CHARS = 16_000
_HIDDEN = "[hidden]"
_SITE_LOGGER = "rcxsite"
_FIELDS = "security"
# The request being answered in this task (and the threads it hands work to).
REQUEST_ID: ContextVar[str] = ContextVar("request_id", default="")


def host_name() -> str:
    return get_settings().host_name or socket.gethostname()


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "host": host_name(),
        }
        request_id = REQUEST_ID.get()
        if request_id:
            line["request_id"] = request_id
        line.update(getattr(record, _FIELDS, {}))
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def cut(text: str, limit: int) -> str:
    """`text`, or its first `limit` characters and how many more were left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... [{len(text) - limit} more characters cut]"


def redacted(text: str) -> str:
    """`text` (cut to LOG_RECORD_MAX_CHARS) with the value of every secret-named key
    replaced by "[hidden]"."""
    return hide_secrets(cut(text, LOG_RECORD_MAX_CHARS))


def hide_secrets(text: str) -> str:
    """`text` with secret values and JWTs replaced by "[hidden]", in time linear in its
    length."""
    text = _SECRET_VALUE.sub(lambda m: f"{m['key']}{m['quote']}{_HIDDEN}{m['quote']}", text)
    return _JWT.sub(_HIDDEN, text)


def _redact_every_record() -> None:
    """Every log record of the process, ours and the libraries' (Reflex prints whole
    events with their payloads when one arrives malformed), is redacted where it is made,
    whichever handler writes it; its traceback too, rendered here."""
    make_record = logging.getLogRecordFactory()
    if getattr(make_record, "redacts", False):
        return

    def redacting(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make_record(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a broken format string: logging reports that itself
            return record
        if record.exc_info:
            message += "\n" + logging.Formatter().formatException(record.exc_info)
            record.exc_info = record.exc_text = None
        record.msg, record.args = redacted(message), ()
        return record

    redacting.redacts = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(redacting)


class _Stdout(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever `sys.stdout` is when a line is written, not the one it was when
    logging was set up (a process that swaps it, pytest's capture, leaves no closed file)."""

    @property
    def stream(self) -> IO[str]:
        return sys.stdout

    @stream.setter
    def stream(self, _value: IO[str]) -> None:
        pass


def configure_logging(*, log_file: Path | None = None, stream: IO[str] | None = None) -> None:
    """Send the site's log records (logger `rcxsite` and below) as JSON lines to `stream`
    (stdout) and `log_file`. Called once per process; a second call replaces the first."""
    _redact_every_record()
    site = logging.getLogger(_SITE_LOGGER)
    for handler in [h for h in site.handlers if isinstance(h.formatter, JsonLines)]:
        site.removeHandler(handler)
        handler.close()
    handlers: list[logging.Handler] = [logging.StreamHandler(stream) if stream else _Stdout()]
    if log_file is not None:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(log_file, encoding="utf-8"))
    for handler in handlers:
        handler.setFormatter(JsonLines())
        site.addHandler(handler)
    site.setLevel(logging.INFO)


def account_hash(email: str) -> str:
    """How a log line names an email address: the same keyed hash for the same account."""
    return keyed_hash("account:" + email.strip().lower())[:16]


def security_event(
    event: str,
    outcome: str,
    *,
    client_ip: str | None = None,
    email: str | None = None,
    **details: str | int | None,
) -> None:
    """Record one security event (`login`/`failure`, `reset_requested`/`sent`, ...)."""
    fields: dict[str, Any] = {"event": event, "outcome": outcome}
    if client_ip is not None:
        fields["client"] = keyed_hash("client:" + client_ip)[:16]
    if email is not None:
        fields["account"] = account_hash(email)
    fields.update({name: value for name, value in details.items() if value is not None})
    SECURITY.info("%s %s", event, outcome, extra={_FIELDS: fields})
