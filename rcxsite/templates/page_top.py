"""The top of a page whose hero shows its route's own title and description."""

import reflex as rx

from rcxsite.components.blocks import hero
from rcxsite.content import routes


def page_hero(route: routes.Route, eyebrow: str, art: str, *, cta: bool = True) -> rx.Component:
    """`art` names an illustration in assets/illustrations/ (without .svg)."""
    return hero(
        route.title, route.description, eyebrow=eyebrow, cta=cta, art=f"/illustrations/{art}.svg"
    )
