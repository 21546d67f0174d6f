"""Helpers shared by the test packages: a real SMTP server and an isolated site setup."""
