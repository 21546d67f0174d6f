"""nginx started by a test: any configuration (`nginx_running`), and a load balancer in
front of the scaled site's nginx (`front_proxy`): a second nginx on 127.0.0.1 that, like
any proxy, appends the address it was connected from to X-Forwarded-For."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

from rcxsite.tools import processes
from rcxsite.tools.run_scaled import NGINX
from tests.support.scaled_site import TRUSTED_PROXY

_CONF = """
worker_processes 1;
daemon off;
pid {run_dir}/nginx.pid;
error_log {run_dir}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {run_dir}/client-body;
    proxy_temp_path {run_dir}/proxy;
    fastcgi_temp_path {run_dir}/fastcgi;
    uwsgi_temp_path {run_dir}/uwsgi;
    scgi_temp_path {run_dir}/scgi;
    server {{
        listen {listen_host}:{listen_port};
        location / {{
            proxy_pass http://127.0.0.1:{site_port};
            proxy_http_version 1.1;
            proxy_buffering off;
            proxy_set_header Host {site_host};
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        }}
    }}
}}
"""


@contextmanager
def front_proxy(site_url: str, run_dir: Path) -> Iterator[str]:
    """The proxy's base URL (on TRUSTED_PROXY, the address nginx trusts), stopped after."""
    run_dir.mkdir(parents=True, exist_ok=True)
    site = urlsplit(site_url)
    port = processes.free_port(TRUSTED_PROXY)
    conf = run_dir / "nginx.conf"
    conf.write_text(
        _CONF.format(
            run_dir=run_dir,
            listen_host=TRUSTED_PROXY,
            listen_port=port,
            site_port=site.port,
            site_host=site.netloc,
        )
    )
    with nginx_running(run_dir, conf, TRUSTED_PROXY, port, "the front proxy"):
        yield f"http://{TRUSTED_PROXY}:{port}"


@contextmanager
def nginx_running(run_dir: Path, conf: Path, host: str, port: int, what: str) -> Iterator[None]:
    """nginx with `conf` (its files in `run_dir`), once it listens on `host`:`port`;
    stopped on exit."""
    process = processes.start(
        [str(NGINX), "-p", str(run_dir), "-c", str(conf)], env=None, log_path=run_dir / "nginx.log"
    )
    try:
        processes.wait_until(
            lambda: processes.port_open(host, port, timeout=1),
            process=process,
            timeout_s=20,
            what=what,
            interval_s=0.05,
        )
        yield
    finally:
        processes.stop(process, 10)
