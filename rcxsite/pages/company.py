"""About, products, pricing and gallery."""

import reflex as rx

from rcxsite.components.blocks import bullet_list, card, card_grid, cta_band, hero, section
from rcxsite.components.form_fields import action_button, form, status_message
from rcxsite.components.react import Gallery, nav_link
from rcxsite.content import routes
from rcxsite.content.company import (
    EMAIL,
    FOUNDED,
    PHONE,
    VALUES,
)
from rcxsite.content.gallery import GALLERY
from rcxsite.content.pricing import DURATIONS, PLANS
from rcxsite.content.products import PRODUCTS
from rcxsite.content.types import Plan, PlanDuration
from rcxsite.state.pricing import PricingState, plan_button_id, step_heading_id, step_message_id
from rcxsite.templates.page_top import page_hero
from rcxsite.views.proof import credentials, leadership, offices


def about_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        page_hero(route, f"Since {FOUNDED}", "about"),
        section(
            "What we believe",
            card_grid(*[card(title, body) for title, body in VALUES]),
        ),
        section(
            "Leadership",
            leadership(),
            intro="The people who answer for every project we take on.",
        ),
        section("Certified and audited", credentials(), tone="dark"),
        section(
            "Where to find us",
            offices(),
            intro=f"Write to {EMAIL} or call {PHONE}; or visit one of our offices.",
            tone="muted",
        ),
        cta_band(),
    )


def products_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        page_hero(route, "Products", "products"),
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
                        rx.el.p(
                            nav_link(
                                "See the plans",
                                rx.el.span(f" for {product.name}", class_name="sr-only"),
                                to=routes.PRICING.path,
                                class_name="more-link",
                            )
                        ),
                        class_name="card",
                    )
                    for product in PRODUCTS
                ]
            ),
        ),
        cta_band(),
    )


def _price(plan: Plan, duration: PlanDuration) -> str:
    if duration.months == 12:
        return f"£{plan.yearly_price:,} per year"
    return f"£{plan.monthly_price:,} per month"


def _plan_step(plan: Plan) -> rx.Component:
    """Signed in, a plan button opens this under it: the plan, its billing and the trial
    to confirm (the button's choice to start with), then what the account's plan now is."""
    heading_id, message_id = step_heading_id(plan.id), step_message_id(plan.id)
    billing_id = f"plan-{plan.id}-billing"
    chosen = rx.fragment(
        rx.el.p(PricingState.message, id=message_id, role="status", tab_index=-1),
        rx.el.p(nav_link("See your plan in My account", to=routes.ACCOUNT.path)),
        rx.el.div(
            action_button("Close", on_click=PricingState.close),
            class_name="plan-actions",
        ),
    )
    step = form(
        rx.el.div(
            rx.el.p("Billing", id=billing_id, class_name="field-label"),
            *[
                rx.el.label(
                    rx.el.input(
                        type="radio",
                        name="PlanDurationId",
                        value=str(duration.id),
                        default_checked=PricingState.duration_id == duration.id,
                    ),
                    f" {duration.label}, {_price(plan, duration)}",
                )
                for duration in DURATIONS
            ],
            role="radiogroup",
            aria_labelledby=billing_id,
            class_name="field",
        ),
        rx.cond(
            PricingState.trial_offer != "",
            rx.el.label(
                rx.el.input(type="checkbox", name="IsTrial", default_checked=PricingState.is_trial),
                " ",
                PricingState.trial_offer,
            ),
            rx.el.p(PricingState.trial_note),
        ),
        status_message(PricingState.error, kind="error"),
        rx.el.div(
            rx.el.button(
                rx.cond(PricingState.busy, "Saving...", "Confirm plan"),
                type="submit",
                disabled=PricingState.busy,
                class_name="button button-primary",
            ),
            action_button("Cancel", on_click=PricingState.close, kind="link"),
            class_name="plan-actions",
        ),
        key=PricingState.step_version.to_string(),
        on_submit=PricingState.confirm,
        class_name="auth-form",
        aria_labelledby=heading_id,
    )
    return rx.el.section(
        rx.el.h4(f"Confirm the {plan.name} plan", id=heading_id, tab_index=-1),
        rx.cond(PricingState.message != "", chosen, step),
        class_name="plan-step",
        aria_labelledby=heading_id,
    )


def _billing_class(duration: PlanDuration) -> str:
    return "billing-yearly" if duration.months == 12 else "billing-monthly"


def _plan_card(plan: Plan) -> rx.Component:
    monthly, yearly = DURATIONS
    name_id = f"plan-{plan.id}-name"
    return rx.el.article(
        rx.el.h3(plan.name, class_name="card-title", id=name_id),
        rx.el.p("Most popular", class_name="plan-badge") if plan.highlighted else None,
        rx.cond(
            PricingState.current_plan_id == plan.id,
            rx.el.p(PricingState.current_plan_note, class_name="plan-current"),
        ),
        # Both billings are in the page; the switch above the cards shows one (CSS), so
        # the choice needs no server round trip and nothing can be clicked stale.
        rx.el.p(_price(plan, monthly), class_name="price billing-monthly"),
        rx.el.p(_price(plan, yearly), class_name="price billing-yearly"),
        rx.el.p(
            f"or £{plan.yearly_price:,} per year, billed yearly",
            class_name="card-meta billing-monthly",
        ),
        rx.el.p(
            f"£{plan.monthly_price * 12 - plan.yearly_price:,} less than paying monthly",
            class_name="card-meta billing-yearly",
        ),
        rx.el.p(plan.summary, class_name="card-body"),
        bullet_list(plan.features),
        # One action: every plan starts with its free trial (signed in, the step can still
        # turn it off).
        rx.el.div(
            *[
                rx.el.button(
                    "Choose plan",
                    on_click=PricingState.choose_plan(plan.project_id, plan.id, duration.id, True),
                    class_name=f"button button-primary {_billing_class(duration)}",
                    type="button",
                    aria_describedby=name_id,
                    id=plan_button_id(plan.id, duration.id),
                )
                for duration in DURATIONS
            ],
            class_name="plan-actions",
        ),
        rx.cond(PricingState.plan_id == plan.id, _plan_step(plan)),
        rx.el.p(f"{plan.trial_days}-day free trial, no card needed.", class_name="card-meta"),
        class_name="card plan" + (" plan-highlighted" if plan.highlighted else ""),
        id=f"plan-{plan.id}",
    )


def _billing_switch() -> rx.Component:
    """Two plain radios (no state): which one is checked decides, in CSS, which billing's
    prices and buttons the cards show."""
    monthly, yearly = DURATIONS
    free = 12 - PLANS[0].yearly_months_charged
    return rx.el.fieldset(
        rx.el.legend("Billing", class_name="field-label"),
        *[
            rx.el.label(
                rx.el.input(
                    type="radio",
                    name="billing",
                    id=_billing_class(duration),
                    default_checked=duration == monthly,
                ),
                text,
                class_name="billing-option",
            )
            for duration, text in (
                (monthly, f" {monthly.label}"),
                (yearly, f" {yearly.label}: {free} months free"),
            )
        ],
        class_name="billing-switch",
    )


# Which products the plans are for: every plan licenses the same products, as many of
# them as its first line says.
_PLANS_COVER = (
    "Every plan licenses our products, "
    + ", ".join(product.name for product in PRODUCTS[:-1])
    + f" and {PRODUCTS[-1].name}: a plan's first line says how many of them you run."
)


def pricing_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        page_hero(route, "Pricing", "pricing", cta=False),
        section(
            "Plans",
            rx.el.div(
                _billing_switch(),
                card_grid(*[_plan_card(plan) for plan in PLANS]),
                class_name="plans-area",
            ),
            intro=_PLANS_COVER,
        ),
        cta_band("Need something bespoke?"),
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
                        "alt": item.alt or item.caption,
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


ON_LOAD: dict[routes.RouteKind, list[rx.EventHandler]] = {"pricing": [PricingState.load]}
