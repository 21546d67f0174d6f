"""Services and industries: their listing and detail pages."""

import reflex as rx

from rcxsite import routes
from rcxsite.components.blocks import (
    bullet_list,
    case_study_cards,
    content_sections,
    cta_band,
    hero,
    route_cards,
    section,
    tag_list,
)
from rcxsite.content.case_studies import CASE_STUDIES
from rcxsite.content.industries import INDUSTRIES
from rcxsite.content.services import SERVICES

_SERVICES = {service.slug: service for service in SERVICES}
_INDUSTRIES = {industry.slug: industry for industry in INDUSTRIES}
SERVICES_ART = "/illustrations/services.svg"
INDUSTRIES_ART = "/illustrations/industries.svg"


def services_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        hero(route.title, route.description, eyebrow="Services", art=SERVICES_ART),
        section(
            "Pick a starting point",
            route_cards(routes.menu_routes("services")),
            intro="Every engagement is led by a senior team that stays with you from the first "
            "workshop to production and beyond.",
        ),
        section(
            "Industries we know",
            route_cards(routes.menu_routes("industry")),
            tone="muted",
        ),
        cta_band(),
    )


def service_page(route: routes.Route) -> rx.Component:
    service = _SERVICES[route.key]
    studies = tuple(study for study in CASE_STUDIES if service.slug in study.services)
    return rx.fragment(
        hero(service.name, service.intro, eyebrow="Services", art=SERVICES_ART),
        section("What we deliver", bullet_list(service.offerings), intro=service.summary),
        content_sections(service.sections),
        section("Technologies we use", tag_list(service.technologies, label="Technologies"))
        if service.technologies
        else None,
        section("Related case studies", case_study_cards(studies), tone="muted")
        if studies
        else None,
        cta_band(f"Talk to our {service.name} team"),
    )


def industry_page(route: routes.Route) -> rx.Component:
    industry = _INDUSTRIES[route.key]
    studies = tuple(study for study in CASE_STUDIES if study.industry == industry.name)
    return rx.fragment(
        hero(route.title, industry.intro, eyebrow="Industry", art=INDUSTRIES_ART),
        section(
            "The challenges we solve", bullet_list(industry.challenges), intro=industry.summary
        ),
        section("What we build", bullet_list(industry.solutions), tone="muted"),
        content_sections(industry.sections, first_tone="light"),
        section(f"Our work in {industry.name}", case_study_cards(studies), tone="muted")
        if studies
        else None,
        cta_band(f"Building for {industry.name}?"),
    )
