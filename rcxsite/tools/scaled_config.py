"""Renders deploy/nginx.conf.template from the settings, the route table and the build.

The headers nginx adds to the files it serves are the ones the single-process server
adds (rcxsite/web/security_headers.py): each built page gets the policy with its own
inline-script hashes.
"""

from __future__ import annotations

from pathlib import Path
from string import Template

from rcxsite.content import routes
from rcxsite.platform.settings import Settings, get_settings
from rcxsite.web.security_headers import (
    FIXED_HEADERS,
    HSTS,
    NON_PAGE_POLICY,
    STAFF_PREFIX,
    STAFF_ROBOTS,
    TOKEN_PAGE_HEADERS,
    holds_token,
    page_policy,
)
from rcxsite.web.upload_limit import UPLOAD_MAX_BODY_BYTES

TEMPLATE = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf.template"
BROTLI_MODULE = Path("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so")
_INDENT = " " * 12


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def page_policies(static_root: Path) -> dict[str, str]:
    """The policy of every built page, by the URI nginx answers it from."""
    return {
        "/" + str(page.relative_to(static_root)): page_policy(
            page.read_text(encoding="utf-8", errors="replace")
        )
        for page in sorted(static_root.rglob("*.html"))
    }


def _headers(*, hsts: bool, token_page: bool = False) -> str:
    fixed = {**FIXED_HEADERS, **TOKEN_PAGE_HEADERS} if token_page else FIXED_HEADERS
    lines = [f"add_header {name} {_quoted(value)} always;" for name, value in fixed.items()]
    lines.append("add_header Content-Security-Policy $policy always;")
    lines.append("add_header X-Robots-Tag $staff_robots always;")  # empty: not sent
    if hsts:
        lines.append(f"add_header Strict-Transport-Security {_quoted(HSTS)} always;")
    return "\n".join(_INDENT + line for line in lines)


def _spa_locations(*, hsts: bool) -> str:
    prefixes = [
        route.path.split("[", 1)[0]
        for route in (*routes.ROUTES, *routes.STAFF_ROUTES)
        if "[" in route.path
    ]
    return "\n".join(
        f"        location ^~ {prefix} {{\n"
        f"{_headers(hsts=hsts, token_page=holds_token(prefix))}\n"
        f'{_INDENT}add_header Cache-Control "no-cache" always;\n'
        f"{_INDENT}try_files /__spa-fallback.html =404;\n        }}"
        for prefix in prefixes
    )


def _host_port(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _upstream_servers(worker_ports: list[int], host: str) -> str:
    # The workers listen on the host itself only (rcxsite/tools/run_scaled.py). Never
    # marked down: run-scaled restarts a dead worker within a second or two, and a refused
    # connection on the host itself costs nginx nothing before it tries the next one.
    # Marking each for seconds could mark them all down after a few kills.
    servers = [f"server {_host_port(host, port)} max_fails=0;" for port in worker_ports]
    # No workers: nginx alone, the bench's reference for serving pages. An upstream must
    # name a server; one that is down answers the proxied paths 502 at once.
    return "\n".join(f"        {server}" for server in servers or ["server 127.0.0.1:9 down;"])


def _set_real_ip_from(networks: list[str]) -> str:
    return "\n".join(f"    set_real_ip_from {network};" for network in networks)


def render_nginx_conf(
    *,
    run_dir: Path,
    static_root: Path,
    listen: int,
    worker_ports: list[int],
    hsts: bool,
    settings: Settings | None = None,
) -> str:
    """nginx.conf for run-scaled: `static_root` served as built, the rest proxied to the
    workers on `worker_ports` (none: nginx alone, with every other line the same); the
    trusted proxies and per-client limits from `settings` (the process's by default)."""
    settings = settings or get_settings()
    headers = _headers(hsts=hsts)
    policies = "\n".join(
        f"        {_quoted(uri)} {_quoted(policy)};"
        for uri, policy in page_policies(static_root).items()
    )
    # safe_substitute: nginx's own $variables stay as they are; ours are ${NAME}.
    rendered = Template(TEMPLATE.read_text()).safe_substitute(
        LOAD_MODULES=f"load_module {BROTLI_MODULE};" if BROTLI_MODULE.exists() else "",
        BROTLI_STATIC="brotli_static on;" if BROTLI_MODULE.exists() else "",
        RUN_DIR=str(run_dir),
        NON_PAGE_POLICY=NON_PAGE_POLICY,
        STAFF_PATHS=_quoted(f"~^{STAFF_PREFIX}(/|[?]|$)"),
        STAFF_ROBOTS=_quoted(STAFF_ROBOTS),
        PAGE_POLICIES=policies,
        UPSTREAM_SERVERS=_upstream_servers(worker_ports, "127.0.0.1"),
        LISTEN=_host_port(settings.bind_host, listen),
        STATIC_ROOT=str(static_root),
        HEADERS=headers,
        SPA_LOCATIONS=_spa_locations(hsts=hsts),
        SET_REAL_IP_FROM=_set_real_ip_from(settings.trusted_proxy_networks),
        CONNECTIONS_PER_CLIENT=str(settings.connections_per_client),
        WEBSOCKETS_PER_CLIENT=str(settings.websockets_per_client),
        WEBSOCKET_OPENS_PER_MINUTE=str(settings.websocket_opens_per_minute),
        API_REQUESTS_PER_SECOND=str(settings.api_requests_per_second),
        API_BURST=str(settings.api_burst),
        UPLOAD_MAX_BODY=str(UPLOAD_MAX_BODY_BYTES),
    )
    if "${" in rendered:
        raise ValueError("deploy/nginx.conf.template names a value the renderer lacks")
    return rendered
