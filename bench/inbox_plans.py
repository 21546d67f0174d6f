"""One line per query plan for the inbox bench: how each table is read.

PostgreSQL: `EXPLAIN (FORMAT JSON)`, every node that reads a table or an index ("Index
Scan Backward on ix_quote_request_status_created_at", "Seq Scan on quote_request").
SQLite: `EXPLAIN QUERY PLAN`, its SCAN and SEARCH lines.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from sqlalchemy.engine import Connection

_READS = ("Seq Scan", "Index Scan", "Index Only Scan", "Bitmap Index Scan")


def _nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for child in node.get("Plans", ()):
        yield from _nodes(child)


def _postgres(connection: Connection, statement: str, parameters: Any) -> list[str]:
    found = connection.exec_driver_sql(
        "EXPLAIN (FORMAT JSON) " + statement, parameters
    ).scalar_one()
    plan = json.loads(found) if isinstance(found, str) else found
    reads: list[tuple[str, list[str]]] = []  # one entry per run of nodes of one kind
    for node in _nodes(plan[0]["Plan"]):
        kind = node["Node Type"]
        if kind not in _READS:
            continue
        if kind == "Index Scan" and node.get("Scan Direction") == "Backward":
            kind = "Index Scan Backward"
        what = str(node.get("Index Name") or node.get("Relation Name"))
        if reads and reads[-1][0] == kind:
            reads[-1][1].append(what)
        else:
            reads.append((kind, [what]))
    return [f"{kind} on {', '.join(names)}" for kind, names in reads]


def _sqlite(connection: Connection, statement: str, parameters: Any) -> list[str]:
    rows = connection.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters).all()
    return [str(row[-1]) for row in rows if str(row[-1]).startswith(("SCAN", "SEARCH", "USE TEMP"))]


def summary(connection: Connection, statement: str, parameters: Any) -> str:
    """How `statement` reads its tables, as the database plans it now."""
    explain = _postgres if connection.dialect.name == "postgresql" else _sqlite
    return "; ".join(explain(connection, statement, parameters)) or "?"
