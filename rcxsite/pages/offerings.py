"""Services and industries: their listing and detail pages."""

import reflex as rx

from rcxsite import routes
from rcxsite.components.blocks import bullet_list, cta_band, hero, route_cards, section
from rcxsite.content.industries import INDUSTRIES
from rcxsite.content.services import SERVICES

_SERVICES = {service.slug: service for service in SERVICES}
_INDUSTRIES = {industry.slug: industry for industry in INDUSTRIES}


def services_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        hero(route.title, route.description, eyebrow="Services"),
        section("Pick a starting point", route_cards(routes.menu_routes("services"))),
        cta_band(),
    )


def service_page(route: routes.Route) -> rx.Component:
    service = _SERVICES[route.key]
    return rx.fragment(
        hero(service.name, service.intro, eyebrow="Services"),
        section("What we deliver", bullet_list(service.offerings), intro=service.summary),
        cta_band(f"Talk to our {service.name} team"),
    )


def industry_page(route: routes.Route) -> rx.Component:
    industry = _INDUSTRIES[route.key]
    return rx.fragment(
        hero(route.title, industry.intro, eyebrow="Industry"),
        section("The challenges we solve", bullet_list(industry.challenges),
                intro=industry.summary),
        section("What we build", bullet_list(industry.solutions), tone="muted"),
        cta_band(f"Building for {industry.name}?"),
    )
