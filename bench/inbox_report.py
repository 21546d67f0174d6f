"""The inbox part's section of bench/REPORT.md, and putting it in place of an older one."""

from __future__ import annotations

import re

from alembic.config import Config
from alembic.script import ScriptDirectory

from bench import config
from bench.inbox import PARTS, POSTGRESQL, InboxBench, Timing
from bench.inbox_seed import SEARCH_HIT, SEARCH_HIT_SHARE, STATUSES
from bench.report import load_average
from bench.sections import replaced
from rcxsite.platform.settings import PROJECT_ROOT

TITLE = "## Staff inbox at 100,000 requests"
_SECTION = re.compile(r"^## Staff inbox at [\d,]+ requests.*?(?=^## |\Z)", re.MULTILINE | re.DOTALL)
DASH = "–"


def _ms(value: float | None) -> str:
    return DASH if value is None else f"{value:.1f} ms" if value < 100 else f"{value:.0f} ms"


def _met(database: str, timing: Timing) -> str:
    if database != POSTGRESQL:
        return ""
    return "yes" if timing.median < config.INBOX_TARGET_MS else "**no**"


def _head() -> str:
    alembic = Config(str(PROJECT_ROOT / "alembic.ini"))
    return str(ScriptDirectory.from_config(alembic).get_current_head())


def render(bench: InboxBench, environment: dict[str, str]) -> str:
    rows, plans, notes = [], [], []
    for database in bench.databases:
        name = f"{database.database} {database.version}".strip()
        if database.skipped or database.failure:
            notes.append(
                f"- {name}: "
                + (
                    f"not measured: {database.skipped}"
                    if database.skipped
                    else f"**failed part-way:** `{database.failure}`"
                )
            )
        for timing in database.timings:
            rows.append(
                [
                    timing.scenario,
                    name,
                    f"{timing.found:,}",
                    _ms(timing.median),
                    _ms(timing.p95),
                    *(_ms(timing.part(part)) for part in PARTS),
                    _met(database.database, timing),
                ]
            )
            plans.append(
                f"- {name}, {timing.scenario}: "
                + "; ".join(f"*{kind}* {plan}" for kind, plan in timing.plans.items())
            )
        if database.seed_seconds:
            notes.append(
                f"- {name}: seeded in {database.seed_seconds:.1f} s (bulk insert of "
                f"{bench.rows:,} rows"
                + (
                    ", then `VACUUM ANALYZE`)"
                    if database.database == POSTGRESQL
                    else "; no `ANALYZE`, as the site's SQLite file has none)"
                )
            )
    header = [
        "Call",
        "Database",
        "Found",
        "Median",
        "p95",
        *(f"{part} query" for part in PARTS),
        f"< {config.INBOX_TARGET_MS:g} ms",
    ]
    table = "\n".join(
        [
            "| " + " | ".join(header) + " |",
            "|" + "---|" * len(header),
            *("| " + " | ".join(row) + " |" for row in rows),
        ]
    )
    spread = ", ".join(f"{status} {weight} %" for status, weight in STATUSES)
    return "\n".join(
        [
            TITLE.replace("100,000", f"{bench.rows:,}"),
            "",
            f"- Date: {environment['date']}; git commit `{environment['commit']}`; the part took "
            f"{bench.wall_seconds:.0f} s",
            f"- Machine: {environment['machine']}, shared with the database server; load average "
            f"(1, 5, 15 min) before the part {load_average(bench.load[0])}, after "
            f"{load_average(bench.load[1])}: on a busy machine the p95 figures are its noise",
            f"- Data: {bench.rows:,} requests made up by `bench/inbox_seed.py` over two years "
            f"({spread}; owners uneven, new and spam mostly unassigned; “{SEARCH_HIT}” in about "
            f"{SEARCH_HIT_SHARE:.1%} of the messages), in scratch databases migrated to alembic "
            f"head `{_head()}`.",
            f"- What is timed: `inbox_page(...)` called in the bench's process as /staff calls it, "
            f"{bench.runs} times after 2 warm-up calls: server time (SQL and Python), no Reflex "
            "or network. Then each of its four statements alone, as often, rows fetched but no "
            "ORM (*total*: the count of the filter, *rows*: the page of 50 with owner names, "
            "*counts*: the count per status tab, *members*: the owner list); their medians. "
            f"Target: under {config.INBOX_TARGET_MS:g} ms on PostgreSQL, median of "
            "the calls.",
            *notes,
            "",
            table,
            "",
            "How each statement reads the tables (EXPLAIN):",
            "",
            *plans,
        ]
    )


def replace_section(markdown: str, section: str) -> str:
    """`markdown` with its inbox section (if any) replaced by `section`, else with it added."""
    return replaced(markdown, section, _SECTION)
