"""The texts only the account screens show, word for word as existing users know them.

Texts a service answers with (results, refusals, field rules) live with that service and
are imported from there, so the screens and the REST API cannot drift apart.
"""

LOGGING_IN = "Logging in..."
ALREADY_LOGGED_IN = "You're already logged in!"
# /log-in after a reset moved there: it stays until the next login attempt.
PASSWORD_CHANGED_SIGN_IN = "Your password was changed. Sign in with your new password."
LOGIN_FAILED = "Login failed. Please check your credentials."
LOGIN_BROKEN = "Something went wrong during login. Please try again."

REGISTER_ERROR_PREFIX = "Error: "
REGISTER_FAILED = "Request failed."
REGISTER_BROKEN = "Something went wrong, please try again."

SENDING = "Sending..."
RESET_LINK_SENT = "Reset password link sent to your email!"
RESET_LINK_FAILED = "Failed to send reset link. Try again."
SOMETHING_WENT_WRONG = "Something went wrong. Please try again."

VERIFYING = "Verifying your reset link..."
LINK_INVALID_TITLE = "Oops!"
RESETTING = "Resetting..."
RESET_FAILED = "Something went wrong."
RESET_BROKEN = "Unable to reset password. Please try again."
