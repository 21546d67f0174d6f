"""Proof a buyer looks for: clients on the home page, leadership and offices on /about,
offices and credentials in every page's footer, all from content/proof.py, which the
content check guards; and products and plans that lead to each other."""

from __future__ import annotations

import html
import re
from dataclasses import replace

from rcxsite.content import routes
from rcxsite.content.case_studies import CASE_STUDIES
from rcxsite.content.industries import INDUSTRIES
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
from rcxsite.content.services import SERVICE_GROUPS, SERVICES
from rcxsite.tools.check_content import art_problems, industry_problems, proof_problems
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


def test_every_industry_page_shows_its_case_studies_and_those_of_related_work(
    live_site: LiveServer,
) -> None:
    for industry in INDUSTRIES:
        page = _page(live_site, routes.route_for("industry", industry.slug).path)
        shown = [
            study.slug
            for study in CASE_STUDIES
            if f'href="{routes.route_for("case_study", study.slug).path}"' in page
        ]
        expected = [study.slug for study in CASE_STUDIES if study.belongs_to(industry.name)]
        assert shown == expected and shown, industry.name
    assert {"Hospitality", "automobile"} <= {study.slug for study in CASE_STUDIES if study.also_in}


def test_the_content_check_names_an_unknown_industry_and_a_service_not_grouped() -> None:
    assert industry_problems() == []
    study = CASE_STUDIES[0]
    moved = replace(study, also_in=("Travel", "Aerospace"))
    first, *others = SERVICE_GROUPS
    groups = [replace(first, services=(*first.services[1:], "blockchain")), *others]
    assert industry_problems([moved], groups, {"ui-ux": ("healthcare", 9)}) == [
        f"rcxsite/content/services.py: SERVICE_GROUPS: list {first.services[0]!r} in one group "
        "(it is in 0)",
        "rcxsite/content/services.py: SERVICE_GROUPS: 'blockchain' is no service slug",
        "rcxsite/content/services.py: SERVICE_PROOF: 'ui-ux': 'healthcare' has no result 9",
        f"rcxsite/content/case_studies.py: {study.slug}: also_in 'Aerospace' is no industry "
        "name of rcxsite/content/industries.py",
    ]


def test_the_services_overview_is_not_the_home_page_s_cards(live_site: LiveServer) -> None:
    overview = _page(live_site, routes.SERVICES_INDEX.path)
    home = _page(live_site, routes.HOME.path)
    for group in SERVICE_GROUPS:
        assert group.heading in overview and group.heading not in home
    for service in SERVICES:
        assert service.offerings[0] in overview and service.offerings[0] not in home
    assert "How an engagement runs" in overview


def test_each_service_industry_and_case_study_page_has_art_of_its_own(
    live_site: LiveServer,
) -> None:
    assert art_problems() == []
    study = CASE_STUDIES[0]
    assert art_problems([replace(study, slug="undrawn")]) == [
        "undrawn: add its illustration assets/illustrations/case-studies/undrawn.svg (drawn in "
        "the site's style; no two pages share one)"
    ]
    seen: dict[str, str] = {}
    for route in (*routes.SERVICE_ROUTES, *routes.INDUSTRY_ROUTES, *routes.CASE_STUDY_ROUTES):
        page = _page(live_site, route.path)
        hero = page[page.index('class="hero') : page.index("</section>")]
        (art,) = re.findall(r'src="(/illustrations/[^"]+)"', hero)
        assert art not in seen, f"{route.path} shares {art} with {seen.get(art)}"
        seen[art] = route.path
