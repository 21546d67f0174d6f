"""One logging setup for the site (`make run`, `make run-scaled`'s workers), and the
security events it records.

Lines are JSON on stderr, and also in `LOG_FILE` when it is set: time, level, logger,
message, and for a security event its `event`, `outcome` and keyed hashes of the client
address and the account email (never a password, token, reset link or full address).
The same client or account gives the same hash in every line, so an operator can follow
one attacker or one victim without the log holding who they are.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from rcxsite.settings import keyed_hash

SECURITY = logging.getLogger("rcxsite.security")
_SITE_LOGGER = "rcxsite"
_FIELDS = "security"


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(getattr(record, _FIELDS, {}))
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def configure_logging(*, log_file: Path | None = None, stream: IO[str] | None = None) -> None:
    """Send the site's log records (logger `rcxsite` and below) as JSON lines to `stream`
    (stderr) and `log_file`. Called once per process; a second call replaces the first."""
    site = logging.getLogger(_SITE_LOGGER)
    for handler in [h for h in site.handlers if isinstance(h.formatter, JsonLines)]:
        site.removeHandler(handler)
        handler.close()
    handlers: list[logging.Handler] = [logging.StreamHandler(stream or sys.stderr)]
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
    event: str, outcome: str, *, client_ip: str | None = None, email: str | None = None,
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
