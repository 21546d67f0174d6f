"""The staff pages as the production build serves them hold no record, whoever asks: the
data arrives by checked events only (tests/staff/test_permission_matrix.py has those)."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
import uuid

from sqlalchemy import create_engine, text

from rcxsite.content import routes
from rcxsite.web.staff_cookie import STAFF_COOKIE_PATH
from tests.support.accounts_ui import create_customer
from tests.support.live_server import ROOT, LiveServer
from tests.support.quotes import add_quotes_on
from tests.support.staff_ui import command_env

# An admin enrolled (and signed in) on the live site's own database, with its signing key.
_ADMIN = """
import sys
from tests.support.staff import member
print(member(sys.argv[1], "admin", "Pages Admin").cookie_ticket)
"""


def _admin_cookie(site: LiveServer, email: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", _ADMIN, email],
        env=command_env(site),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    request = urllib.request.Request(
        site.url + STAFF_COOKIE_PATH,
        data=json.dumps({"ticket": done.stdout.strip().splitlines()[-1]}).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Origin": site.url},
    )
    with urllib.request.urlopen(request, timeout=20) as answer:
        return answer.headers["Set-Cookie"].split(";", 1)[0]


def _customer_id(site: LiveServer, email: str) -> int:
    engine = create_engine(site.database_url)
    try:
        with engine.connect() as connection:
            query = text("SELECT id FROM customer WHERE email_key = :e")
            return int(connection.execute(query, {"e": email}).scalar_one())
    finally:
        engine.dispose()


def test_no_staff_page_holds_a_record_for_any_caller(live_site: LiveServer) -> None:
    mark = uuid.uuid4().hex[:8]
    company, email = f"Pages Secret {mark} Ltd", f"pages-target.{mark}@example.com"
    admin_email = f"pages-admin-{mark}@rcx.example"
    create_customer(live_site.url, email, company=company)
    [quote_id] = add_quotes_on(
        live_site, 1, company=company, email=email, message=f"Pages secret message {mark}"
    )
    secrets = [company, email, f"Pages secret message {mark}", admin_email]
    paths = [route.path for route in routes.STAFF_ROUTES if "[" not in route.path]
    paths += [
        routes.staff_quote_path(quote_id),
        routes.staff_customer_path(_customer_id(live_site, email)),
        routes.staff_invite_path("x" * 43),
        routes.staff_candidate_path(1),
    ]
    assert len(paths) == len(routes.STAFF_ROUTES)
    for caller, cookie in (("no one", ""), ("an admin", _admin_cookie(live_site, admin_email))):
        for path in paths:
            request = urllib.request.Request(
                live_site.url + path, headers={"Cookie": cookie} if cookie else {}
            )
            with urllib.request.urlopen(request, timeout=20) as answer:
                body = answer.read().decode()
                assert answer.status == 200, (caller, path)
                assert answer.headers["X-Robots-Tag"] == "noindex, nofollow", path
            assert [secret for secret in secrets if secret in body] == [], (caller, path)
