"""Services and industries: their listing and detail pages."""

import reflex as rx

from rcxsite.components.blocks import (
    bullet_list,
    case_study_cards,
    content_sections,
    cta_band,
    hero,
    section,
    split_section,
    tag_list,
)
from rcxsite.components.react import nav_link
from rcxsite.content import routes
from rcxsite.content.case_studies import CASE_STUDIES
from rcxsite.content.industries import INDUSTRIES
from rcxsite.content.services import ENGAGEMENT_STEPS, SERVICE_GROUPS, SERVICE_PROOF, SERVICES
from rcxsite.content.types import Service

_SERVICES = {service.slug: service for service in SERVICES}
_INDUSTRIES = {industry.slug: industry for industry in INDUSTRIES}
_STUDIES = {study.slug: study for study in CASE_STUDIES}
SERVICES_ART = "/illustrations/services.svg"


def _service_row(service: Service) -> rx.Component:
    """A service on the overview: what it is, what it starts with, and one result it gave."""
    study_slug, result_index = SERVICE_PROOF.get(service.slug, ("", 0))
    study = _STUDIES.get(study_slug)
    return rx.el.article(
        rx.el.h3(
            rx.el.span(rx.icon(service.icon, size=22), class_name="card-icon", aria_hidden="true"),
            nav_link(service.name, to=routes.route_for("service", service.slug).path),
            class_name="service-row-title",
        ),
        rx.el.p(service.summary, class_name="card-body"),
        bullet_list(service.offerings[:3]),
        rx.el.p(
            rx.el.strong(study.results[result_index].figure, class_name="card-figure"),
            f" {study.results[result_index].label}: ",
            nav_link(study.title, to=routes.route_for("case_study", study.slug).path),
            class_name="service-row-proof",
        )
        if study
        else None,
        class_name="service-row",
    )


def services_page(route: routes.Route) -> rx.Component:
    services = {service.slug: service for service in SERVICES}
    return rx.fragment(
        hero(route.title, route.description, eyebrow="Services", art=SERVICES_ART),
        *[
            section(
                group.heading,
                rx.el.div(
                    *[_service_row(services[slug]) for slug in group.services],
                    class_name="service-rows",
                ),
                intro=group.intro,
                tone="muted" if index % 2 else "light",
            )
            for index, group in enumerate(SERVICE_GROUPS)
        ],
        section(
            "How an engagement runs",
            rx.el.ol(
                *[
                    rx.el.li(rx.el.h3(step, class_name="card-title"), rx.el.p(text))
                    for step, text in ENGAGEMENT_STEPS
                ],
                class_name="engagement-steps",
                role="list",
            ),
            tone="dark",
        ),
        section(
            "Industries we know",
            rx.el.ul(
                *[
                    rx.el.li(nav_link(entry.text, to=entry.path))
                    for entry in routes.menu_routes("industry")
                ],
                class_name="link-chips",
                role="list",
            ),
            intro="The same teams, with the rules and habits of your sector.",
        ),
        cta_band(),
    )


def service_page(route: routes.Route) -> rx.Component:
    service = _SERVICES[route.key]
    studies = tuple(study for study in CASE_STUDIES if service.slug in study.services)
    return rx.fragment(
        hero(service.name, service.intro, eyebrow="Services", art=service.art),
        split_section("What we deliver", bullet_list(service.offerings), lead=service.summary),
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
    studies = tuple(study for study in CASE_STUDIES if study.belongs_to(industry.name))
    return rx.fragment(
        hero(route.title, industry.intro, eyebrow="Industry", art=industry.art),
        split_section(
            "The challenges we solve", bullet_list(industry.challenges), lead=industry.summary
        ),
        split_section(
            "What we build",
            bullet_list(industry.solutions),
            lead=f"What {industry.name} teams ask us for most often.",
            tone="muted",
        ),
        content_sections(industry.sections, first_tone="light"),
        section(f"Our work in {industry.name}", case_study_cards(studies), tone="muted")
        if studies
        else None,
        cta_band(f"Building for {industry.name}?"),
    )
