"""What the page for a missing path says (served with HTTP status 404), as texts and as
the plain HTML the server answers a miss with before the scripts run
(rcxsite/web/not_found.py); rcxsite/pages/not_found.py renders the same texts."""

from html import escape

from rcxsite.content import routes
from rcxsite.platform.settings import get_settings

TITLE = "Page not found"
MESSAGE = "The page you are looking for does not exist or has moved."
HOME_LINK = "Go to the home page"
EYEBROW = "404"


def document_title() -> str:
    return f"{TITLE} | {get_settings().company_name}"


def prerendered_html() -> str:
    """The page (rcxsite/pages/not_found.py) as the HTML its own classes style, without
    the site frame."""
    return (
        '<section class="hero"><div class="hero-inner page-width">'
        f'<p class="eyebrow">{escape(EYEBROW)}</p>'
        f'<h1 class="hero-title">{escape(TITLE)}</h1>'
        f'<p class="hero-subtitle">{escape(MESSAGE)}</p>'
        f'<a class="button button-primary" href="{escape(routes.HOME.path)}">'
        f"{escape(HOME_LINK)}</a></div></section>"
    )
