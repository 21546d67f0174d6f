"""Colours and asset paths shared by Python components (the CSS is in assets/styles.css)."""

SAND = "#D8C3A5"
LOGO_SRC = "/logo.svg"
