"""Paths of the REST API and a check of its response envelope."""

from __future__ import annotations

from httpx import Response

FORGOT = "/api/v1/Auth/ForgotPassword"
CHECK = "/api/v1/Auth/CheckResetUrlValide"
RESET = "/api/v1/Auth/ResetPasswordLink"
LOGIN = "/api/v1/Auth/Login"
LOGOUT = "/api/v1/Auth/Logout"
CREATE = "/api/v1/User/CreateCustomer"


def envelope(response: Response) -> dict[str, object]:
    """The body, after checking it is an envelope whose status is the HTTP status."""
    body = response.json()
    assert set(body) == {"status", "message", "data"}
    assert body["status"] == response.status_code
    return body


ME = "/api/v1/User/Me"
EXPORT = "/api/v1/User/Me/Export"
CHANGE_PASSWORD = "/api/v1/User/ChangePassword"
LOGOUT_ALL = "/api/v1/Auth/LogoutAll"
VERIFY_EMAIL = "/api/v1/Auth/VerifyEmail"
VERIFICATION_EMAIL = "/api/v1/User/Me/VerificationEmail"
