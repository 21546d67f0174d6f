"""`make run-scaled` without its services, and the nginx configuration it renders."""

from __future__ import annotations

import re
import subprocess

from rcxsite.content import routes
from rcxsite.tools.scaled_build import build_inputs
from rcxsite.tools.scaled_config import render_nginx_conf
from tests.support.scaled_site import run_scaled_setup


def test_run_scaled_names_what_is_missing(tmp_path) -> None:
    result = run_scaled_setup(
        tmp_path,
        DATABASE_URL="sqlite:///x.db",
        REDIS_URL="",
    )
    assert result.returncode == 2
    assert "DATABASE_URL must name a PostgreSQL database" in result.stderr
    assert "REDIS_URL must name a Redis server" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_nginx_config_gives_each_page_its_policy(tmp_path) -> None:
    (tmp_path / "about").mkdir()
    (tmp_path / "about" / "index.html").write_text("<html><script>go()</script></html>")
    (tmp_path / "404.html").write_text("<html></html>")

    conf = render_nginx_conf(
        run_dir=tmp_path / "run",
        static_root=tmp_path,
        listen=3999,
        worker_ports=[8001, 8002],
        hsts=True,
    )

    assert "listen 127.0.0.1:3999;" in conf  # BIND_HOST's default: this machine only
    assert "server 127.0.0.1:8001" in conf and "server 127.0.0.1:8002" in conf
    about = next(line for line in conf.splitlines() if '"/about/index.html"' in line)
    assert "'sha256-" in about and "frame-ancestors 'none'" in about
    assert "Strict-Transport-Security" in conf
    assert f"location ^~ {routes.reset_password_path('')}" in conf
    assert f"location ^~ {routes.staff_quote_path('')}" in conf  # the staff pages' shell too
    assert "${" not in conf


def test_a_host_of_several_binds_its_own_address(tmp_path, monkeypatch) -> None:
    (tmp_path / "404.html").write_text("<html></html>")
    from rcxsite.platform.settings import Settings

    for bind, listen in (
        ("10.77.0.2", "listen 10.77.0.2:3999;"),
        ("0.0.0.0", "listen 0.0.0.0:3999;"),
        ("::", "listen [::]:3999;"),
    ):
        conf = render_nginx_conf(
            run_dir=tmp_path / "run",
            static_root=tmp_path,
            listen=3999,
            worker_ports=[8001],
            hsts=False,
            settings=Settings(bind_host=bind),
        )
        # The workers stay on the host itself: only nginx believes no X-Forwarded-For
        # it was not given by TRUSTED_PROXIES.
        assert listen in conf and "server 127.0.0.1:8001 " in conf
    # The health checks and the metrics reach the workers, not the static files.
    assert "healthz$|livez$|metrics$" in conf
    # And nginx takes it as it is (the regexes with braces are quoted).
    run = tmp_path / "run"
    run.mkdir(exist_ok=True)
    (run / "nginx.conf").write_text(conf)
    checked = subprocess.run(
        ["/usr/sbin/nginx", "-t", "-q", "-p", str(run), "-c", str(run / "nginx.conf")],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr


def _location_headers(conf: str, location: str) -> list[str]:
    """The Referrer-Policy lines of one location block of the rendered config."""
    block = conf.split(f"location {location} {{", 1)[1].split("}", 1)[0]
    return re.findall(r"add_header Referrer-Policy .*;", block)


def test_the_nginx_config_sends_no_referrer_from_token_pages(tmp_path) -> None:
    (tmp_path / "404.html").write_text("<html></html>")
    conf = render_nginx_conf(
        run_dir=tmp_path / "run", static_root=tmp_path, listen=3999, worker_ports=[], hsts=False
    )
    for prefix in (
        routes.reset_password_path(""),
        routes.verify_email_path(""),
        routes.staff_invite_path(""),
        routes.booking_path(""),
    ):
        assert _location_headers(conf, f"^~ {prefix}") == [
            'add_header Referrer-Policy "no-referrer" always;'
        ], prefix
    usual = ['add_header Referrer-Policy "strict-origin-when-cross-origin" always;']
    assert _location_headers(conf, f"^~ {routes.staff_quote_path('')}") == usual
    assert _location_headers(conf, "/") == usual


def test_a_build_is_reused_only_for_the_same_sources_and_page_settings() -> None:
    base = {
        "SITE_URL": "https://rcx.example",
        "DATABASE_URL": "postgresql://db/a",
        "SECRET_KEY": "k" * 40,
        "PATH": "/usr/bin",
    }
    same = build_inputs(base)

    # What only the running backend reads does not call for a new build...
    for name, value in (
        ("DATABASE_URL", "postgresql://db/b"),
        ("SECRET_KEY", "x" * 40),
        ("REDIS_URL", "redis://other:6379/1"),
        ("PATH", "/bin"),
        ("LOGIN_FAILURE_LIMIT", "1 per hour"),
        ("REFLEX_DB_URL", "postgresql://user:pw@db/x"),
    ):
        assert build_inputs({**base, name: value}) == same, name
    # ...what the pages are compiled with does.
    for name, value in (
        ("SITE_URL", "https://www.rcx.example"),
        ("COMPANY_NAME", "RCX Ltd"),
        ("REFLEX_API_URL", "http://localhost:3200"),
    ):
        assert build_inputs({**base, name: value}) != same, name


def test_run_scaled_names_the_settings_several_hosts_must_share(tmp_path) -> None:
    result = run_scaled_setup(
        tmp_path,
        DATABASE_URL="postgresql://127.0.0.1:9/none",
        REDIS_URL="redis://127.0.0.1:9/0",
        SECRET_KEY="",
        SITE_URL="",
        SMTP_HOST="",
        MAIL_TO_OUTBOX="false",
    )
    assert result.returncode == 2
    for setting in ("SECRET_KEY: the same key", "SITE_URL: the address", "SMTP_HOST: the mail"):
        assert setting in result.stderr
    assert "REDIS_URL:" not in result.stderr
    assert "Traceback" not in result.stderr


def test_workers_listen_on_the_host_itself_whatever_bind_host_says() -> None:
    from rcxsite.tools.run_scaled import worker_command

    command = worker_command(8001)
    assert command[command.index("--host") + 1] == "127.0.0.1"
