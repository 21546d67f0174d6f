"""Insights: the blog list, articles, testimonials, life at the company and CSR."""

import reflex as rx

from rcxsite.components.article_parts import article_list, byline, feed_link, tag_links
from rcxsite.components.blocks import card, card_grid, cta_band, hero, section, testimonial
from rcxsite.components.react import nav_link
from rcxsite.content import routes
from rcxsite.content.articles import article_html, load_articles, related_articles, tagged
from rcxsite.content.csr import CSR_ACTIVITIES
from rcxsite.content.life_at import LIFE_AT
from rcxsite.content.testimonials import TESTIMONIALS
from rcxsite.content.types import Section
from rcxsite.templates.page_top import page_hero


def blogs_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        page_hero(route, "Insights", "insights", cta=False),
        section("Latest articles", article_list(load_articles()), feed_link()),
        cta_band(),
    )


def tag_page(route: routes.Route) -> rx.Component:
    """Every shown article with this tag, newest first."""
    return rx.fragment(
        page_hero(route, "Insights", "insights", cta=False),
        section(f"Tagged “{route.key}”", article_list(tagged(route.key)), feed_link()),
        cta_band(),
    )


def article_page(route: routes.Route) -> rx.Component:
    article = next(a for a in load_articles() if a.slug == route.key)
    return rx.fragment(
        rx.el.article(
            rx.el.header(
                rx.el.p("Insights", class_name="eyebrow"),
                rx.el.h1(article.title, class_name="article-title"),
                byline(article),
                tag_links(article),
                class_name="article-header",
            ),
            rx.html(article_html(article), class_name="prose"),
            class_name="article page-width",
        ),
        section("Related articles", article_list(related_articles(article))),
        cta_band(),
    )


def _sections_page(
    route: routes.Route,
    heading: str,
    sections: tuple[Section, ...],
    art: str,
    *after: rx.Component,
) -> rx.Component:
    return rx.fragment(
        hero(route.title, route.description, eyebrow="Insights", art=art),
        section(
            heading,
            card_grid(*[card(item.heading, item.body) for item in sections]),
            *after,
        ),
        cta_band(),
    )


def life_at_page(route: routes.Route) -> rx.Component:
    # Someone reading how we work may want to join: the openings are one step away.
    join = rx.el.p(
        nav_link(
            "See our open positions", to=routes.CAREERS.path, class_name="button button-primary"
        ),
        class_name="apply-note",
    )
    return _sections_page(route, "How we work", LIFE_AT, "/illustrations/careers.svg", join)


def csr_page(route: routes.Route) -> rx.Component:
    return _sections_page(route, "Giving back", CSR_ACTIVITIES, "/illustrations/csr.svg")


def testimonials_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        page_hero(route, "Insights", "insights"),
        section(
            "In our clients' words",
            rx.el.div(
                *[testimonial(item) for item in TESTIMONIALS],
                class_name="card-grid",
            ),
        ),
        cta_band(),
    )
