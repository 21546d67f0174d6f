"""Proof a buyer looks for: clients on the home page, leadership and offices on /about,
offices and credentials in every page's footer, all from content/proof.py, which the
content check guards; and products and plans that lead to each other."""

from __future__ import annotations

import html

from rcxsite import routes
from rcxsite.content.case_studies import CASE_STUDIES
from rcxsite.content.check import proof_problems
from rcxsite.content.products import PRODUCTS
from rcxsite.content.proof import (
    CLIENTS,
    CREDENTIALS,
    LEADERSHIP,
    OFFICES,
    Client,
    Office,
    Person,
    client_quote,
)
from tests.support.live_server import LiveServer
from tests.support.plain_http import fetch


def _page(live_site: LiveServer, path: str) -> str:
    status, body = fetch(live_site.url + path)
    assert status == 200, path
    return html.unescape(body)


def test_the_home_page_shows_clients_linked_to_their_case_studies(live_site: LiveServer) -> None:
    page = _page(live_site, routes.HOME.path)
    assert "Trusted by" in page
    studies = {route.key: route.path for route in routes.CASE_STUDY_ROUTES}
    for client in CLIENTS:
        assert f'alt="{client.name}"' in page, client.name
        if client.case_study:
            assert f'href="{studies[client.case_study]}"' in page, client.name
    for credential in CREDENTIALS:
        assert credential.name in page


def test_about_shows_leadership_and_every_office_with_tappable_contacts(
    live_site: LiveServer,
) -> None:
    page = _page(live_site, routes.ABOUT.path)
    for person in LEADERSHIP:
        assert person.name in page and person.role in page and person.portrait in page
    for office in OFFICES:
        assert office.address in page
        assert f'href="{office.phone_href}"' in page
        assert f'href="mailto:{office.email}"' in page
        assert f'href="{office.map_url}"' in page


def test_every_page_s_footer_names_the_offices_and_credentials(live_site: LiveServer) -> None:
    page = _page(live_site, routes.CAREERS.path)
    footer = page[page.index("<footer") :]
    for office in OFFICES:
        assert office.city in footer and f'href="{office.phone_href}"' in footer
    assert CREDENTIALS[0].name in footer


def test_the_content_check_names_what_a_proof_entry_lacks() -> None:
    assert proof_problems() == []
    where = "rcxsite/content/proof.py"
    assert proof_problems(
        people=[Person("nobody-drawn", "Nina Nobody", "Engineer", "Bio.")] * 2,
        clients=[Client("lendwise", "Lendwise", "Finance", case_study="nowhere")],
        offices=[Office("Leeds", "Office", "1 Street", "0113 496 0000", "leeds@rcx.example")],
    ) == [
        f"{where}: two leadership entries have the slug 'nobody-drawn'; give one another slug",
        f"{where}: Nina Nobody: add the picture assets/people/nobody-drawn.svg (drawn in the "
        "site's style)",
        f"{where}: Nina Nobody: add the picture assets/people/nobody-drawn.svg (drawn in the "
        "site's style)",
        f"{where}: Lendwise: case_study 'nowhere' is no slug of rcxsite/content/case_studies.py "
        "(or leave it empty)",
        f"{where}: Leeds: write the phone as +<country code> and digits, got '0113 496 0000'",
    ]


def test_products_lead_to_the_plans_and_the_plans_name_the_products(
    live_site: LiveServer,
) -> None:
    products = _page(live_site, routes.PRODUCTS.path)
    main = products[products.index("<main") : products.index("</main>")]
    assert main.count(f'href="{routes.PRICING.path}"') >= len(PRODUCTS)
    pricing = _page(live_site, routes.PRICING.path)
    assert all(product.name in pricing for product in PRODUCTS)


def test_case_studies_show_their_headline_result_timeline_team_and_quote(
    live_site: LiveServer,
) -> None:
    listing = _page(live_site, routes.CASE_STUDIES_INDEX.path)
    for study in CASE_STUDIES:
        assert study.results[0].figure in listing and study.results[0].label in listing
        page = _page(live_site, routes.route_for("case_study", study.slug).path)
        assert study.timeline in page and study.team in page, study.slug
        quote = client_quote(study.slug)
        assert quote is not None and quote.quote in page, study.slug
