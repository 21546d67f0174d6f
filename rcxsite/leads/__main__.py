"""`python -m rcxsite.leads export --csv PATH [--since YYYY-MM-DD]`; PATH `-` is stdout."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path

from sqlalchemy.exc import SQLAlchemyError

from rcxsite.leads.export import write_csv


def _day(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {value!r}") from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m rcxsite.leads")
    commands = parser.add_subparsers(dest="command", required=True)
    export = commands.add_parser(
        "export", help="write the stored quote requests as CSV (database from DATABASE_URL)"
    )
    export.add_argument("--csv", required=True, metavar="PATH", help="output file, - for stdout")
    export.add_argument("--since", type=_day, metavar="YYYY-MM-DD", help="from this UTC day on")
    return parser


def _write_file(path: Path, *, since: date | None) -> int:
    # Written aside and moved into place, so a failed export never leaves a cut-off file
    # (or truncates last week's export) where a spreadsheet would pick it up.
    partial = path.with_name(f".{path.name}.partial")
    try:
        # The BOM makes Excel read UTF-8 (£, accents) instead of the local code page.
        with partial.open("w", encoding="utf-8-sig", newline="") as out:
            count = write_csv(out, since=since)
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)
    return count


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.csv == "-":
            count = write_csv(sys.stdout, since=args.since)
            target = "stdout"
        else:
            count = _write_file(Path(args.csv), since=args.since)
            target = args.csv
    except (SQLAlchemyError, OSError) as error:
        print(f"Export failed: {error}", file=sys.stderr)
        return 1
    noun = "quote request" if count == 1 else "quote requests"
    # On stdout the CSV itself is the output, so the summary goes to stderr.
    summary_stream = sys.stderr if args.csv == "-" else sys.stdout
    print(f"Wrote {count} {noun} to {target}", file=summary_stream)
    return 0


if __name__ == "__main__":
    sys.exit(main())
