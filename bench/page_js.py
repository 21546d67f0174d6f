"""The JavaScript each public page loads, in brotli bytes as nginx serves it, read from a
production build (`.web/build/client`): the scripts its prerendered HTML preloads.

`python -m bench.page_js [BUILD_DIR] [BASELINE_BUILD_DIR]` prints a table; with a
baseline (the same pages built at an earlier commit) it adds the difference.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from rcxsite.content import routes

_SCRIPTS = re.compile(r'<link rel="modulepreload" href="([^"]+)"|<script[^>]* src="([^"]+)"')


def _html(build: Path, path: str) -> Path:
    name = "index" if path == "/" else path.strip("/")
    return build / f"{name}.html"


def page_js_bytes(build: Path, path: str) -> int:
    """Brotli bytes of the scripts the page at `path` loads first."""
    html = _html(build, path).read_text(encoding="utf-8")
    scripts = {a or b for a, b in _SCRIPTS.findall(html)}
    total = 0
    for script in scripts:
        file = build / script.lstrip("/")
        compressed = file.with_name(file.name + ".br")
        total += (compressed if compressed.exists() else file).stat().st_size
    return total


def main(argv: list[str]) -> None:
    build = Path(argv[0] if argv else ".web/build/client")
    baseline = Path(argv[1]) if len(argv) > 1 else None
    print("| Page | JavaScript (brotli) |" + (" Before | Difference |" if baseline else ""))
    print("|---|---:|" + ("---:|---:|" if baseline else ""))
    for route in routes.ROUTES:
        if route.layout == "staff" or not _html(build, route.path).exists():
            continue
        now = page_js_bytes(build, route.path)
        row = f"| `{route.path}` | {now:,} B |"
        if baseline is not None and _html(baseline, route.path).exists():
            before = page_js_bytes(baseline, route.path)
            row += f" {before:,} B | {now - before:+,} B |"
        print(row)


if __name__ == "__main__":
    main(sys.argv[1:])
