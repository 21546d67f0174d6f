"""Where test code lives: helpers in tests/support only, and no module importing a test module
(`test_*.py` or a conftest). A test module imported as a library hides its helpers where
nobody looks for them, and ties the importer to that module's fixtures and tests."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
SUPPORT = TESTS / "support"
# Every module that may import from tests/: the tests themselves and the bench.
IMPORTERS = sorted([*TESTS.rglob("*.py"), *(ROOT / "bench").rglob("*.py")])
TEST_MODULE = re.compile(r"^tests(\..+)?\.(test_\w*|conftest)$")


def _imported(path: Path, source: str | None = None) -> Iterator[tuple[int, str]]:
    """(line, dotted name) of everything `path` (or `source` as if it were at `path`)
    imports: modules, and for `from m import n` also `m.n` (n may be a module)."""
    package = path.relative_to(ROOT).with_suffix("").parts[:-1]
    text = path.read_text() if source is None else source
    for node in ast.walk(ast.parse(text, filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            parts = [*package[: len(package) - node.level + 1]] if node.level else []
            base = ".".join([*parts, *([node.module] if node.module else [])])
            yield node.lineno, base
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"


def test_no_module_imports_a_test_module_or_a_conftest() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in IMPORTERS
        for line, name in _imported(path)
        if TEST_MODULE.match(name)
    ]
    assert found == [], "move what they import to tests/support:\n" + "\n".join(found)


def test_helper_modules_live_in_tests_support_only() -> None:
    elsewhere = [
        str(path.relative_to(ROOT))
        for path in TESTS.rglob("*.py")
        if SUPPORT not in path.parents
        and path.name not in ("__init__.py", "conftest.py")
        and not path.name.startswith("test_")
    ]
    assert elsewhere == [], "helpers belong in tests/support:\n" + "\n".join(elsewhere)


def test_the_rule_sees_every_way_of_importing_a_test_module() -> None:
    probe = TESTS / "site" / "probe.py"
    for source in (
        "from tests.conftest import open_tab",
        "import tests.site.test_http",
        "from tests.site import test_http",
        "from .conftest import X",
        "from . import test_http",
    ):
        assert any(TEST_MODULE.match(name) for _, name in _imported(probe, source)), source
    assert not any(
        TEST_MODULE.match(name)
        for _, name in _imported(probe, "from tests.support.browser import open_tab")
    )
