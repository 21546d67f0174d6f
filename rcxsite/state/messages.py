"""The texts the account screens show (spec §4, §5, §8), word for word."""

EMAIL_REQUIRED = "Email is required"
PASSWORD_REQUIRED = "Password is required"
LOGGING_IN = "Logging in..."
LOGGED_IN = "Logged in successfully!"
ALREADY_LOGGED_IN = "You're already logged in!"
LOGIN_FAILED = "Login failed. Please check your credentials."
LOGIN_BROKEN = "Something went wrong during login. Please try again."

REGISTERED = "Registration successful!"
REGISTER_ERROR_PREFIX = "Error: "
REGISTER_FAILED = "Request failed."
REGISTER_BROKEN = "Something went wrong, please try again."

INVALID_EMAIL_ADDRESS = "Invalid email address"
SENDING = "Sending..."
RESET_LINK_SENT = "Reset password link sent to your email!"
RESET_LINK_FAILED = "Failed to send reset link. Try again."
RESET_LINK_BROKEN = "Something went wrong. Please try again."

VERIFYING = "Verifying your reset link..."
LINK_INVALID_TITLE = "Oops!"
LINK_INVALID = (
    "This password reset link has expired or is invalid. Please request a new password reset."
)
NEW_PASSWORD_REQUIRED = "Please enter a new password."
NEW_PASSWORD_TOO_SHORT = "Password must be at least 4 characters long."
CONFIRM_REQUIRED = "Please confirm your password."
PASSWORDS_DIFFER = "Passwords do not match."
RESETTING = "Resetting..."
RESET_DONE = "Your password has been successfully reset!"
RESET_FAILED = "Something went wrong."
RESET_BROKEN = "Unable to reset password. Please try again."

MIN_PASSWORD_LENGTH = 4
