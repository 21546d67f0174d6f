"""The floor: the same prerendered pages with their scripts removed, served by nginx.

What is left (HTML, CSS, images, fonts) is what a visitor needs before anything can
paint, so its timings are the best this markup and styling can do on the phone profile.
nginx runs in the foreground as a child process with a config rendered into
`bench/out/floor/`, compressing with gzip on the fly.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.config import BUILD_DIR, NGINX
from tests.support.live_server import free_port

_SCRIPT = re.compile(r"<script\b[^>]*>.*?</script\s*>", re.IGNORECASE | re.DOTALL)
_MODULE_PRELOAD = re.compile(
    r"""<link\b[^>]*\brel\s*=\s*["']?modulepreload["']?[^>]*>""", re.IGNORECASE
)
# Precompressed copies would be stale after the rewrite; nginx compresses on the fly.
_PRECOMPRESSED = (".gz", ".br", ".zst")

_NGINX_CONF = """\
worker_processes 1;
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 256; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    sendfile on;
    client_body_temp_path {tmp}/client_body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    gzip on;
    gzip_comp_level 6;
    gzip_min_length 256;
    gzip_vary on;
    gzip_types text/css application/javascript text/javascript application/json
               image/svg+xml text/plain application/xml font/ttf font/otf;
    server {{
        listen 127.0.0.1:{port};
        root {root};
        # /pricing -> pricing.html: answered directly, as a static host would.
        location / {{ try_files $uri $uri.html $uri/index.html =404; }}
    }}
}}
"""


def strip_scripts(html: str) -> str:
    return _MODULE_PRELOAD.sub("", _SCRIPT.sub("", html))


def build_site(source: Path, target: Path) -> int:
    """Copy the build to `target` without scripts in its HTML; return the pages rewritten."""
    if target.exists():
        shutil.rmtree(target)
    skip = shutil.ignore_patterns(*(f"*{suffix}" for suffix in _PRECOMPRESSED))
    shutil.copytree(source, target, ignore=skip)
    pages = 0
    for page in target.rglob("*.html"):
        page.write_text(strip_scripts(page.read_text(encoding="utf-8")), encoding="utf-8")
        pages += 1
    return pages


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


@contextmanager
def serve(work_dir: Path, source: Path = BUILD_DIR) -> Iterator[str]:
    """Serve a script-free copy of `source` with nginx; yields its base URL."""
    if not NGINX.exists():
        raise SystemExit(f"{NGINX} is missing (`make bench` installs Debian's nginx)")
    if not (source / "index.html").exists():
        raise SystemExit(f"no production build in {source}")
    root, tmp = work_dir / "site", work_dir / "nginx"
    build_site(source, root)
    tmp.mkdir(parents=True, exist_ok=True)
    port = free_port()
    with running_nginx(tmp, _NGINX_CONF.format(tmp=tmp, port=port, root=root), port,
                       "nginx") as url:
        yield url


@contextmanager
def running_nginx(tmp: Path, conf_text: str, port: int, what: str) -> Iterator[str]:
    """nginx in the foreground with `conf_text` (written to `tmp`), listening on `port`;
    yields its URL and stops it gracefully (SIGQUIT), or kills it, on exit."""
    conf = tmp / "nginx.conf"
    conf.write_text(conf_text)
    process = subprocess.Popen(
        [str(NGINX), "-p", str(tmp), "-c", str(conf), "-e", str(tmp / "error.log")],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while not _answers(url + "/"):
            if process.poll() is not None or time.monotonic() > deadline:
                error_log = tmp / "error.log"
                log = error_log.read_text(errors="replace") if error_log.exists() else ""
                raise RuntimeError(f"{what} did not start:\n{log}")
            time.sleep(0.2)
        yield url
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGQUIT)  # graceful: the master stops its worker
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
