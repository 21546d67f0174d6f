"""About, products, pricing, careers and gallery."""

import reflex as rx

from rcxsite import routes
from rcxsite.components.blocks import bullet_list, card, card_grid, cta_band, hero, section
from rcxsite.components.react import Gallery
from rcxsite.content.careers import APPLY_EMAIL, OPENINGS
from rcxsite.content.company import ADDRESS, COMPANY, EMAIL, FOUNDED, PHONE, VALUES
from rcxsite.content.gallery import GALLERY
from rcxsite.content.pricing import DURATIONS, PLANS
from rcxsite.content.products import PRODUCTS
from rcxsite.content.types import Plan
from rcxsite.state.login import LoginState
from rcxsite.templates.page_top import page_hero


def about_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        page_hero(route, f"Since {FOUNDED}", "about"),
        section(
            "What we believe",
            card_grid(*[card(title, body) for title, body in VALUES]),
        ),
        section(
            "Where to find us",
            rx.el.address(
                rx.el.p(ADDRESS),
                rx.el.p(f"Email: {EMAIL}"),
                rx.el.p(f"Phone: {PHONE}"),
            ),
            tone="muted",
        ),
        cta_band(),
    )


def products_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        page_hero(route, "Products", "services"),
        section(
            "Ready when you are",
            card_grid(
                *[
                    rx.el.article(
                        rx.el.span(
                            rx.icon(product.icon, size=28),
                            class_name="card-icon",
                            aria_hidden="true",
                        ),
                        rx.el.h3(product.name, class_name="card-title"),
                        rx.el.p(product.summary, class_name="card-body"),
                        bullet_list(product.features),
                        class_name="card",
                    )
                    for product in PRODUCTS
                ]
            ),
        ),
        cta_band(),
    )


def _plan_card(plan: Plan) -> rx.Component:
    monthly, yearly = DURATIONS
    name_id = f"plan-{plan.id}-name"
    # (text, billing, free trial, style) of each button; all lead to registration.
    actions = (
        ("Choose plan", monthly, False, "button-primary"),
        ("Pay yearly", yearly, False, "button-outline"),
        ("Start free trial", monthly, True, "button-link"),
    )
    return rx.el.article(
        rx.el.h3(plan.name, class_name="card-title", id=name_id),
        rx.el.p("Most popular", class_name="plan-badge") if plan.highlighted else None,
        rx.el.p(f"£{plan.monthly_price:,} per month", class_name="price"),
        rx.el.p(f"or £{plan.yearly_price:,} per year, billed yearly", class_name="card-meta"),
        rx.el.p(plan.summary, class_name="card-body"),
        bullet_list(plan.features),
        rx.el.div(
            *[
                rx.el.button(
                    text,
                    on_click=LoginState.choose_plan(plan.project_id, plan.id, duration.id, trial),
                    class_name=f"button {style}",
                    type="button",
                    aria_describedby=name_id,
                )
                for text, duration, trial, style in actions
            ],
            class_name="plan-actions",
        ),
        rx.el.p(f"{plan.trial_days}-day free trial, no card needed.", class_name="card-meta"),
        class_name="card plan" + (" plan-highlighted" if plan.highlighted else ""),
        id=f"plan-{plan.id}",
    )


def pricing_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        page_hero(route, "Pricing", "pricing", cta=False),
        section(
            "Plans",
            card_grid(*[_plan_card(plan) for plan in PLANS]),
        ),
        cta_band("Need something bespoke?"),
    )


def careers_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        page_hero(route, "Careers", "careers", cta=False),
        section(
            "Open positions",
            card_grid(
                *[
                    rx.el.article(
                        rx.el.h3(opening.title, class_name="card-title"),
                        rx.el.p(
                            f"{opening.team} · {opening.location} · {opening.kind}",
                            class_name="card-meta",
                        ),
                        rx.el.p(opening.summary, class_name="card-body"),
                        bullet_list(opening.requirements),
                        class_name="card",
                    )
                    for opening in OPENINGS
                ]
            ),
            rx.el.p(
                "To apply, send your CV and a few lines about yourself to ",
                rx.el.a(APPLY_EMAIL, href=f"mailto:{APPLY_EMAIL}"),
                ".",
                class_name="lead",
            ),
        ),
        cta_band(f"Want to work with {COMPANY} instead?"),
    )


def gallery_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        hero(route.title, route.description, eyebrow="Gallery", cta=False),
        section(
            "Moments",
            Gallery.create(
                items=[
                    {
                        "src": item.image,
                        "alt": item.caption,
                        "title": item.title,
                        "caption": item.caption,
                        "width": 480,
                        "height": 320,
                    }
                    for item in GALLERY
                ]
            ),
            intro="Select a picture to see it larger; use the arrow keys to move between them.",
        ),
        cta_band(),
    )
