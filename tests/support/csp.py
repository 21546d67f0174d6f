"""Content-Security-Policy in the tests: the sources a policy allows, and the violations a
page reports."""

from __future__ import annotations

import re

from playwright.sync_api import Page

_FIRST_PARTY = re.compile(r"'(self|none|unsafe-eval|unsafe-inline|sha256-[A-Za-z0-9+/=]+)'|data:")


def third_party_sources(policy: str) -> list[str]:
    """Sources of a Content-Security-Policy that are not the site itself or inline hashes."""
    return [
        source
        for directive in policy.split(";")
        for source in directive.split()[1:]
        if not _FIRST_PARTY.fullmatch(source)
    ]


def watch_csp(page: Page) -> list[str]:
    """Every Content-Security-Policy violation the page reports from now on."""
    seen: list[str] = []
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => "
        "console.error('Content Security Policy: ' + e.violatedDirective + ' ' + e.blockedURI))"
    )
    page.on(
        "console",
        lambda message: (
            seen.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return seen
