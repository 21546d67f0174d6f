"""Facts about the company shown across the site."""

from urllib.parse import quote

from rcxsite.platform.settings import get_settings

COMPANY = get_settings().company_name
TAGLINE = "Software that moves your business forward"
FOUNDED = 2014
EMAIL = "hello@rcx.example"
PHONE = "+44 20 7946 0321"
ADDRESS = "21 Tanner Street, London SE1 3LE, United Kingdom"
# What a phone dials and a map opens for the above.
PHONE_HREF = "tel:" + PHONE.replace(" ", "")
MAP_URL = "https://www.openstreetmap.org/search?query=" + quote(ADDRESS)

STATS: tuple[tuple[str, str], ...] = (
    ("12", "years in business"),
    ("340+", "projects delivered"),
    ("160", "engineers and designers"),
    ("94%", "clients who come back"),
)

VALUES: tuple[tuple[str, str], ...] = (
    ("Senior teams", "Every project is led by people who have shipped similar systems before."),
    ("Working software early", "You see a working slice within the first two weeks."),
    ("Plain talk", "Fixed budgets, honest estimates and no surprises on the invoice."),
    ("Built to last", "Tests, documentation and handover are part of every project."),
)
