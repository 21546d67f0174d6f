"""The home page."""

import reflex as rx

from rcxsite import routes
from rcxsite.components.blocks import card, card_grid, cta_band, hero, route_cards, section
from rcxsite.content.case_studies import CASE_STUDIES
from rcxsite.content.company import STATS, TAGLINE


def home_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        hero(TAGLINE, route.description, eyebrow="Software services"),
        section(
            "What we do",
            route_cards(routes.menu_routes("services")),
            intro="Nine practices, one accountable team from first workshop to production.",
        ),
        section(
            "Numbers we are proud of",
            rx.el.dl(
                *[
                    rx.el.div(rx.el.dt(label), rx.el.dd(figure), class_name="stat")
                    for figure, label in STATS
                ],
                class_name="stats",
            ),
            tone="dark",
        ),
        section(
            "Industries we know",
            route_cards(routes.menu_routes("industry")),
        ),
        section(
            "Recent results",
            card_grid(
                *[
                    card(study.title, study.summary,
                         href=routes.route_for("case_study", study.slug).path,
                         link_text="Read the case study")
                    for study in CASE_STUDIES[:3]
                ]
            ),
        ),
        cta_band(),
    )
