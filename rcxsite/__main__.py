"""`python -m rcxsite migrate`: the database brought to the newest migration, once however
many hosts run it at the same moment (rcxsite/platform/migrations.py)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rcxsite.platform.migrations import migrate


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rcxsite")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("migrate", help="bring the database to the newest migration")
    parser.parse_args(argv)
    print(f"The database is at migration {migrate()}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
