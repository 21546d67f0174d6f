"""/careers (the openings, filtered by team and place of work) and one page per opening
(/careers/<slug>), whose JSON-LD JobPosting is in its head (meta/tags.py)."""

import reflex as rx

from rcxsite.components.blocks import bullet_list, cta_band, hero, section
from rcxsite.components.form_fields import control_attrs, labelled
from rcxsite.components.react import nav_link
from rcxsite.content import routes
from rcxsite.content.careers import (
    APPLY_EMAIL,
    HIRING_STEPS,
    OPENINGS,
    opening_of,
    places,
    teams,
)
from rcxsite.content.company import COMPANY
from rcxsite.content.types import Opening
from rcxsite.pages.careers.apply import apply_section
from rcxsite.state.careers.apply import ApplyState
from rcxsite.state.careers.openings import CareersState
from rcxsite.templates.page_top import page_hero


def _pay(opening: Opening) -> str:
    low, high = opening.pay
    per = "a year" if opening.pay_per == "YEAR" else "a day"
    return f"£{low:,} {per}" if low == high else f"£{low:,}–£{high:,} {per}"


def _filter(label: str, name: str, values: tuple[str, ...], everything: str) -> rx.Component:
    field_id = f"careers-{name}"
    return labelled(
        label,
        field_id,
        rx.el.select(
            rx.el.option(everything, value=""),
            *[rx.el.option(value, value=value) for value in values],
            value=getattr(CareersState, name),
            on_change=lambda value: CareersState.choose(name, value),
            **control_attrs(field_id),
        ),
    )


def _card(opening: Opening) -> rx.Component:
    page = routes.route_for("opening", opening.slug).path
    return rx.cond(
        CareersState.shown.contains(opening.slug),
        rx.el.article(
            rx.el.h3(
                nav_link(opening.title, to=page, class_name="card-link"), class_name="card-title"
            ),
            rx.el.p(
                f"{opening.team} · {opening.location} · {opening.kind}", class_name="card-meta"
            ),
            rx.el.p(opening.summary, class_name="card-body"),
            bullet_list(opening.requirements),
            rx.el.a(
                "Apply",
                # Named as shown, then which opening (one link per card).
                rx.el.span(f" for {opening.title}", class_name="sr-only"),
                href=f"{page}#apply",
                class_name="button button-outline card-action",
            ),
            class_name="card",
        ),
    )


def careers_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        page_hero(route, "Careers", "careers", cta=False),
        section(
            "Open positions",
            rx.el.div(
                _filter("Team", "team", teams(), "All teams"),
                _filter("Where", "place", places(), "Anywhere"),
                rx.el.p(
                    CareersState.shown.length(),
                    rx.cond(CareersState.shown.length() == 1, " opening", " openings"),
                    role="status",
                    class_name="careers-count",
                ),
                class_name="careers-filters",
            ),
            rx.el.div(*[_card(opening) for opening in OPENINGS], class_name="card-grid"),
            rx.cond(
                CareersState.shown.length() == 0,
                rx.el.p("No openings match these filters.", class_name="lead"),
            ),
            rx.el.p(
                "Apply on each opening's page with your CV. Questions about a role? Write to ",
                rx.el.a(APPLY_EMAIL, href=f"mailto:{APPLY_EMAIL}"),
                ".",
                class_name="lead apply-note",
            ),
        ),
        cta_band(f"Want to work with {COMPANY} instead?"),
    )


def opening_page(route: routes.Route) -> rx.Component:
    opening = opening_of(route.key)
    facts = (
        ("Team", opening.team),
        ("Location", opening.location),
        ("Contract", opening.kind.split(" · ")[0]),
        ("Pay", _pay(opening)),
        ("Posted", f"{opening.posted:%-d %B %Y}"),
        ("Apply by", f"{opening.open_until:%-d %B %Y}"),
    )
    return rx.fragment(
        hero(opening.title, opening.summary, eyebrow=f"Careers · {opening.team}", cta=False),
        section(
            "The role",
            rx.el.dl(
                *[
                    rx.el.div(rx.el.dt(name), rx.el.dd(value), class_name="opening-fact")
                    for name, value in facts
                ],
                class_name="opening-facts",
            ),
            rx.el.h3("What you will do", class_name="opening-heading"),
            bullet_list(opening.responsibilities),
            rx.el.h3("What we look for", class_name="opening-heading"),
            bullet_list(opening.requirements),
            rx.el.h3("How we hire", class_name="opening-heading"),
            rx.el.ol(*[rx.el.li(step) for step in HIRING_STEPS], class_name="opening-steps"),
            rx.el.p(
                rx.el.a("Apply now", href="#apply", class_name="button button-primary"),
                " ",
                nav_link("All open positions", to=routes.CAREERS.path),
                class_name="opening-actions",
            ),
        ),
        apply_section(opening),
        cta_band(f"Want to work with {COMPANY} instead?"),
    )


ON_LOAD: dict[routes.RouteKind, list[rx.EventHandler]] = {
    "careers": [CareersState.load],
    "opening": [ApplyState.open_form],
}
