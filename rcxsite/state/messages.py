"""The texts the account screens show (spec §4, §5, §8), word for word.

Texts the accounts service also answers with are imported from it, so the screens and
the REST API cannot drift apart.
"""

from rcxsite.accounts.inputs import LINK_INVALID
from rcxsite.accounts.validation import (
    EMAIL_REQUIRED,
    NEW_PASSWORD_REQUIRED,
    NEW_PASSWORD_TOO_SHORT,
    PASSWORD_REQUIRED,
    RESET_EMAIL_INVALID,
)

INVALID_EMAIL_ADDRESS = RESET_EMAIL_INVALID

LOGGING_IN = "Logging in..."
LOGGED_IN = "Logged in successfully!"
ALREADY_LOGGED_IN = "You're already logged in!"
LOGIN_FAILED = "Login failed. Please check your credentials."
LOGIN_BROKEN = "Something went wrong during login. Please try again."

REGISTERED = "Registration successful!"
REGISTER_ERROR_PREFIX = "Error: "
REGISTER_FAILED = "Request failed."
REGISTER_BROKEN = "Something went wrong, please try again."

SENDING = "Sending..."
RESET_LINK_SENT = "Reset password link sent to your email!"
RESET_LINK_FAILED = "Failed to send reset link. Try again."
SOMETHING_WENT_WRONG = "Something went wrong. Please try again."
RESET_LINK_BROKEN = SOMETHING_WENT_WRONG

VERIFYING = "Verifying your reset link..."
LINK_INVALID_TITLE = "Oops!"
CONFIRM_REQUIRED = "Please confirm your password."
PASSWORDS_DIFFER = "Passwords do not match."
RESETTING = "Resetting..."
RESET_DONE = "Your password has been successfully reset!"
RESET_FAILED = "Something went wrong."
RESET_BROKEN = "Unable to reset password. Please try again."

__all__ = [
    "EMAIL_REQUIRED",
    "INVALID_EMAIL_ADDRESS",
    "LINK_INVALID",
    "NEW_PASSWORD_REQUIRED",
    "NEW_PASSWORD_TOO_SHORT",
    "PASSWORD_REQUIRED",
]
