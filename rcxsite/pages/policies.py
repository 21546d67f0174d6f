"""Terms of use, privacy policy and cookie policy."""

import reflex as rx

from rcxsite.content import routes
from rcxsite.content.policies import POLICIES
from rcxsite.content.types import human_date


def policy_page(route: routes.Route) -> rx.Component:
    policy = POLICIES[route.key]
    return rx.el.article(
        rx.el.h1(policy.title, class_name="article-title"),
        rx.el.p(
            "Last updated: ",
            rx.el.time(human_date(policy.updated), date_time=policy.updated),
            class_name="article-meta",
        ),
        rx.el.p(policy.intro, class_name="lead"),
        *[
            rx.el.section(rx.el.h2(item.heading), rx.el.p(item.body), class_name="policy-section")
            for item in policy.sections
        ],
        class_name="article page-width",
    )
