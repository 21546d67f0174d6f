"""`make run-lb`: the load balancer in front of several app hosts.

    LB_UPSTREAMS=10.0.0.2:3000,10.0.0.3:3000 BIND_HOST=10.0.0.1 PORT=80 \
        python -m rcxsite.tools.run_lb

Renders deploy/lb.conf.template into `.run/lb/` (LB_RUN_DIR moves it), checks it with
`nginx -t`, then becomes nginx in the foreground (SIGTERM or SIGQUIT stop it). Each app
host runs `make run-scaled` with TRUSTED_PROXIES naming this host, so their per-address
limits count visitors, not the balancer.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from string import Template

from pydantic import ValidationError

from rcxsite.platform.settings import Settings, get_settings

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "deploy" / "lb.conf.template"
NGINX = Path(os.environ.get("NGINX", "/usr/sbin/nginx"))
# A host that failed is left out this long before it is tried again.
FAIL_S = 5


def render_lb_conf(*, run_dir: Path, settings: Settings) -> str:
    """The balancer's nginx.conf; ValueError naming the setting when LB_UPSTREAMS is
    empty or wrong."""
    upstreams = settings.lb_upstream_addresses
    if not upstreams:
        raise ValueError("LB_UPSTREAMS must list the app hosts, e.g. 10.0.0.2:3000,10.0.0.3:3000")
    host = settings.bind_host
    listen = f"[{host}]:{settings.port}" if ":" in host else f"{host}:{settings.port}"
    servers = "\n".join(
        f"        server {address} max_fails=1 fail_timeout={FAIL_S}s;" for address in upstreams
    )
    return Template(TEMPLATE.read_text()).safe_substitute(
        RUN_DIR=str(run_dir),
        UPSTREAM_SERVERS=servers,
        LISTEN=listen,
        TRIES=str(len(upstreams)),
    )


def main() -> int:
    run_dir = Path(os.environ.get("LB_RUN_DIR") or ROOT / ".run" / "lb").resolve()
    try:
        conf_text = render_lb_conf(run_dir=run_dir, settings=get_settings())
    except (ValueError, ValidationError) as problem:
        print(f"run-lb: {problem}", file=sys.stderr, flush=True)
        return 2
    if not NGINX.exists():
        print(f"run-lb: nginx is not installed at {NGINX}", file=sys.stderr, flush=True)
        return 2
    run_dir.mkdir(parents=True, exist_ok=True)
    conf = run_dir / "nginx.conf"
    conf.write_text(conf_text)
    test = subprocess.run(
        [str(NGINX), "-t", "-q", "-p", str(run_dir), "-c", str(conf)],
        capture_output=True,
        text=True,
    )
    if test.returncode != 0:
        print(f"run-lb: nginx refused its configuration:\n{test.stderr}", file=sys.stderr)
        return 2
    print(
        f"Load balancer on {get_settings().bind_host}:{get_settings().port} in front of "
        + ", ".join(get_settings().lb_upstream_addresses),
        flush=True,
    )
    os.execv(str(NGINX), [str(NGINX), "-p", str(run_dir), "-c", str(conf)])


if __name__ == "__main__":
    sys.exit(main())
