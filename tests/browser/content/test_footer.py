"""Footer links, social links and copyright line."""

from __future__ import annotations

import datetime
import re

from playwright.sync_api import Page, expect

from rcxsite.content import routes

FOOTER_LINKS = {
    "Home": routes.HOME.path,
    "About Us": routes.ABOUT.path,
    "Services": "/services/software-development",
    "Industry": "/industry/healthcare",
    "Insights": routes.BLOGS.path,
    "Careers": routes.CAREERS.path,
    "Request a Quote": routes.QUOTE.path,
    "Terms of Use": routes.TERMS.path,
    "Privacy Policy": routes.PRIVACY.path,
    "Cookie Policy": routes.COOKIES.path,
}


def test_footer_links_lead_to_their_pages(page: Page) -> None:
    page.goto(routes.GALLERY.path)
    footer = page.locator("footer")
    for text, path in FOOTER_LINKS.items():
        link = footer.get_by_role("link", name=text, exact=True)
        expect(link).to_have_attribute("href", path)
    footer.get_by_role("link", name="Cookie Policy").click()
    expect(page).to_have_url(re.compile(re.escape(routes.COOKIES.path) + "/?$"))
    expect(page.locator("h1")).to_have_text("Cookie Policy")


def test_social_links_open_in_a_new_tab_safely(page: Page) -> None:
    page.goto(routes.HOME.path)
    social = page.locator("footer .social-link")
    expect(social).to_have_count(3)
    for index, network in enumerate(("facebook", "instagram", "linkedin")):
        link = social.nth(index)
        expect(link).to_have_attribute("target", "_blank")
        expect(link).to_have_attribute("rel", "noopener noreferrer")
        assert network in (link.get_attribute("href") or "")


def test_copyright_shows_this_year_and_the_company(any_page: Page) -> None:
    any_page.goto(routes.HOME.path)
    expect(any_page.locator(".footer-copyright")).to_have_text(
        f"© {datetime.date.today().year} RCX. All rights reserved."
    )


def test_the_site_map_reaches_every_page_family(any_page: Page) -> None:
    any_page.goto(routes.HOME.path)
    site_map = any_page.get_by_role("navigation", name="Site map")
    for heading in ("Services", "Industries", "Company", "Products"):
        expect(site_map.get_by_role("heading", name=heading, exact=True)).to_be_visible()
    expected = {
        "All services": routes.SERVICES_INDEX.path,
        "Gallery": routes.GALLERY.path,
        "Products": routes.PRODUCTS.path,
        "Pricing": routes.PRICING.path,
        **{route.text: route.path for route in routes.menu_routes("services")},
        **{route.text: route.path for route in routes.menu_routes("industry")},
    }
    for text, path in expected.items():
        expect(site_map.get_by_role("link", name=text, exact=True)).to_have_attribute("href", path)
