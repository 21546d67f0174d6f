"""Case studies: the listing on /insights/casestudies and one page per study."""

import reflex as rx

from rcxsite.components.blocks import (
    case_study_cards,
    cta_band,
    hero,
    section,
    split_section,
    testimonial,
)
from rcxsite.components.react import nav_link
from rcxsite.content import routes
from rcxsite.content.case_studies import CASE_STUDIES
from rcxsite.content.proof import client_quote
from rcxsite.templates.page_top import page_hero

_STUDIES = {study.slug: study for study in CASE_STUDIES}


def case_studies_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        page_hero(route, "Insights", "case-study"),
        section(
            "Client stories",
            case_study_cards(CASE_STUDIES),
        ),
        cta_band(),
    )


def case_study_page(route: routes.Route) -> rx.Component:
    study = _STUDIES[route.key]
    return rx.fragment(
        hero(
            study.title,
            study.summary,
            eyebrow=f"Case study · {study.industry}",
            art=study.art,
        ),
        split_section(
            "The client",
            rx.el.dl(
                *[
                    rx.el.div(rx.el.dt(term), rx.el.dd(value), class_name="fact")
                    for term, value in (("Timeline", study.timeline), ("Team", study.team))
                    if value
                ],
                class_name="facts",
            )
            if study.timeline or study.team
            else None,
            rx.el.h3("Services used", class_name="subheading") if study.services else None,
            rx.el.ul(
                *[
                    rx.el.li(nav_link(route.text, to=route.path), class_name="tag")
                    for route in routes.SERVICE_ROUTES
                    if route.key in study.services
                ],
                class_name="tag-list",
            )
            if study.services
            else None,
            lead=study.client_type,
        ),
        split_section(
            "The challenge", rx.el.p(study.challenge, class_name="body-large"), tone="muted"
        ),
        split_section("Our solution", rx.el.p(study.solution, class_name="body-large")),
        section(
            "Results",
            rx.el.dl(
                *[
                    rx.el.div(rx.el.dt(result.label), rx.el.dd(result.figure), class_name="stat")
                    for result in study.results
                ],
                class_name="stats",
            ),
            tone="dark",
        ),
        section("In their words", testimonial(quote), tone="muted")
        if (quote := client_quote(study.slug))
        else None,
        cta_band("Want results like these?"),
    )
