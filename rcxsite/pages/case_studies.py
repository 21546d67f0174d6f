"""Case studies: the listing on /insights/casestudies and one page per study."""

import reflex as rx

from rcxsite import routes
from rcxsite.components.blocks import card, card_grid, cta_band, hero, section
from rcxsite.content.case_studies import CASE_STUDIES

_STUDIES = {study.slug: study for study in CASE_STUDIES}


def case_studies_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        hero(route.title, route.description, eyebrow="Insights"),
        section(
            "Client stories",
            card_grid(
                *[
                    card(study.title, f"{study.industry} · {study.summary}",
                         href=routes.route_for("case_study", study.slug).path,
                         link_text="Read the case study")
                    for study in CASE_STUDIES
                ]
            ),
        ),
        cta_band(),
    )


def case_study_page(route: routes.Route) -> rx.Component:
    study = _STUDIES[route.key]
    return rx.fragment(
        hero(study.title, study.summary, eyebrow=f"Case study · {study.industry}"),
        section(
            "The client",
            rx.el.p(study.client_type, class_name="lead"),
            rx.el.h3("The challenge", class_name="subheading"),
            rx.el.p(study.challenge),
            rx.el.h3("Our solution", class_name="subheading"),
            rx.el.p(study.solution),
        ),
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
        cta_band("Want results like these?"),
    )
