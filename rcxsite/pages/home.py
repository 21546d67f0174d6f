"""The home page."""

import reflex as rx

from rcxsite.components.blocks import (
    case_study_cards,
    cta_band,
    hero,
    route_cards,
    section,
    testimonial,
)
from rcxsite.components.react import nav_link
from rcxsite.content import routes
from rcxsite.content.case_studies import CASE_STUDIES
from rcxsite.content.company import STATS, TAGLINE
from rcxsite.content.testimonials import TESTIMONIALS
from rcxsite.views.proof import client_bar, credentials


def home_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        hero(
            TAGLINE,
            route.description,
            eyebrow="Software services",
            art="/illustrations/hero-home.svg",
            art_size=(560, 420),
        ),
        client_bar(),
        section(
            "What we do",
            route_cards(routes.menu_routes("services"), compact=True),
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
            credentials(brief=True),
            tone="dark",
        ),
        section(
            "Industries we know",
            route_cards(routes.menu_routes("industry"), compact=True),
        ),
        section(
            "Recent results",
            case_study_cards(CASE_STUDIES[:3], brief=True),
            nav_link("All case studies", to=routes.CASE_STUDIES_INDEX.path, class_name="more-link"),
        ),
        section(
            "What clients say",
            rx.el.div(
                *[testimonial(item) for item in TESTIMONIALS[:3]],
                class_name="card-grid home-quotes",
            ),
            nav_link("More client stories", to=routes.TESTIMONIALS.path, class_name="more-link"),
            tone="muted",
        ),
        cta_band(),
    )
