"""Requests generated from the OpenAPI document, judged by every schemathesis check.

The document states each body's real rules (required, format, pattern, lengths) and the
bearer scheme, so a request it calls valid must be accepted and one it calls invalid must
be refused. The app is called in process (`from_asgi`), the very app the site mounts under
/api/v1, on this test package's own database: the production server the browser tests
share keeps its rate-limit counters in its own memory, where this run would use up the
per-client budgets (127.0.0.1 for every test) that the browser tests after it need.
Here the counters are reset before each request instead: each request is judged on its
own, and the limits have tests of their own (test_abuse.py).
"""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, assume, settings
from schemathesis.config import SchemathesisConfig

from rcxsite.accounts import verify_login_token
from rcxsite.core.common_passwords import is_common_password
from rcxsite.core.service_errors import ServiceError
from rcxsite.web.server import server
from tests.support import service_calls as calls
from tests.support.customers import PASSWORD, register_customer
from tests.support.rate_limits import reset_rate_limits

# Well-formed requests whose secret is not the right one: the API answers them 400 (a reset
# or verification link that is not live, a current password that is not the customer's). No
# document can tell a generator which secret is right.
WRONG_SECRET_ANSWERS = [
    "POST /api/v1/Auth/ResetPasswordLink",
    "POST /api/v1/Auth/VerifyEmail",
    "POST /api/v1/User/ChangePassword",
    "DELETE /api/v1/User/Me",
]
CONFIG = SchemathesisConfig.from_dict(
    {
        "operations": [
            {
                "include-name": name,
                "checks": {
                    "positive_data_acceptance": {
                        "expected-statuses": [
                            "2xx",
                            "3xx",
                            "400",
                            "401",
                            "403",
                            "404",
                            "409",
                            "429",
                        ],
                    }
                },
            }
            for name in WRONG_SECRET_ANSWERS
        ],
    }
)
# Rules the document states in words only: a new password is no common one, and the
# confirmation repeats it. And one JSON Schema cannot state: to it 1.0 is an integer, while
# the API takes whole numbers as JSON spells them (1) and refuses 1.0 with its message.
NEW_PASSWORDS = ("Password", "NewPassword")
CUSTOMER = "fuzzed@example.com"
CLIENT = "2001:db8:f0::1"

schema = schemathesis.openapi.from_asgi("/api/v1/openapi.json", server, config=CONFIG)


class LiveToken:
    """A live login token of one customer: after a generated `LogoutAll` or `Logout`, or
    on a test's fresh database, it logs in (and registers) again."""

    token = ""

    @classmethod
    def get(cls) -> str:
        if cls.token and verify_login_token(cls.token) is not None:
            return cls.token
        try:
            login = calls.authenticate(email=CUSTOMER, password=PASSWORD, client_ip=CLIENT)
        except ServiceError:  # each test starts on an empty database
            register_customer(CUSTOMER)
            login = calls.authenticate(email=CUSTOMER, password=PASSWORD, client_ip=CLIENT)
        cls.token = login.token
        return cls.token


def _within_the_worded_rules(case: schemathesis.Case) -> None:
    body = case.body if isinstance(case.body, dict) else {}
    for field in NEW_PASSWORDS:
        if isinstance(body.get(field), str):
            assume(not is_common_password(body[field]))
    if "ConfirmPassword" in body and isinstance(body.get("NewPassword"), str):
        body["ConfirmPassword"] = body["NewPassword"]
    for field, value in body.items():
        if isinstance(value, float) and value.is_integer():
            body[field] = int(value)


@schema.parametrize()
@settings(
    max_examples=30,
    deadline=None,
    database=None,  # no .hypothesis folder in the working tree
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_generated_requests_pass_every_check(case: schemathesis.Case) -> None:
    if case.meta is not None and case.meta.generation.mode.is_positive:
        _within_the_worded_rules(case)
    reset_rate_limits()
    # Sent as the run's own credentials: the `ignored_auth` check strips them again for its
    # probes without a token and with a wrong one, which must be refused.
    case.call_and_validate(headers={"Authorization": f"Bearer {LiveToken.get()}"})
