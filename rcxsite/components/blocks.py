"""Building blocks every page is made of: hero, sections, cards and the call to action."""

from __future__ import annotations

import reflex as rx

from rcxsite.components.media import image
from rcxsite.components.react import nav_link
from rcxsite.content import routes
from rcxsite.content.types import CaseStudy, Section, Testimonial

# Up to this width the hero art is left out (the `max-width: 640px` rules of pages.css).
PHONE_MAX_PX = 640
# A transparent 1x1 GIF: what a phone loads instead of the hero art.
_NOTHING = "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw=="


def hero(
    title: str,
    subtitle: str,
    *,
    eyebrow: str = "",
    cta: bool = True,
    art: str = "",
    art_size: tuple[int, int] = (480, 320),
) -> rx.Component:
    """The top of every page; `art` is an illustration from assets/illustrations/."""
    return rx.el.section(
        rx.el.div(
            rx.el.div(
                rx.el.p(eyebrow, class_name="eyebrow") if eyebrow else None,
                rx.el.h1(title, class_name="hero-title"),
                rx.el.p(subtitle, class_name="hero-subtitle"),
                cta_button("Request a Quote") if cta else None,
                class_name="hero-text",
            ),
            # Decorative: the heading already says what the page is about. Phones do not
            # show it (assets/pages.css, the same width) and so do not fetch it either.
            rx.el.picture(
                rx.el.source(media=f"(max-width: {PHONE_MAX_PX}px)", src_set=_NOTHING),
                image(
                    art,
                    alt="",
                    width=art_size[0],
                    height=art_size[1],
                    class_name="hero-art",
                    priority=True,
                ),
                class_name="hero-art-frame",
            )
            if art
            else None,
            class_name="hero-inner page-width" + (" hero-with-art" if art else ""),
        ),
        class_name="hero",
    )


def cta_button(text: str, *, route: routes.Route = routes.QUOTE) -> rx.Component:
    return nav_link(text, to=route.path, class_name="button button-primary")


def section(
    heading: str, *children: rx.Component | None, intro: str = "", tone: str = "light"
) -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.h2(heading, class_name="section-title"),
            rx.el.p(intro, class_name="section-intro") if intro else None,
            *children,
            class_name="page-width",
        ),
        class_name=f"section section-{tone}",
    )


def split_section(
    heading: str, *children: rx.Component | None, lead: str = "", tone: str = "light"
) -> rx.Component:
    """A section in two columns where the width allows: the heading and its lead on the
    left, what they introduce on the right (one column on phones)."""
    return rx.el.section(
        rx.el.div(
            rx.el.div(
                rx.el.h2(heading, class_name="section-title"),
                rx.el.p(lead, class_name="lead") if lead else None,
                class_name="split-side",
            ),
            rx.el.div(*children, class_name="split-main"),
            class_name="page-width split",
        ),
        class_name=f"section section-{tone}",
    )


def bullet_list(items: tuple[str, ...] | list[str]) -> rx.Component:
    # role="list": Safari stops announcing a list whose markers are styled away.
    return rx.el.ul(*[rx.el.li(item) for item in items], class_name="check-list", role="list")


def card(
    title: str,
    body: str,
    *,
    icon: str = "",
    href: str = "",
    link_text: str = "",
    highlight: tuple[str, str] | None = None,
) -> rx.Component:
    """`highlight`: a figure and what it counts, shown big above the text ("62%", "fewer
    phone bookings")."""
    heading = rx.el.h3(
        nav_link(title, to=href, class_name="card-link") if href else title,
        class_name="card-title",
    )
    return rx.el.article(
        rx.el.span(rx.icon(icon, size=28), class_name="card-icon", aria_hidden="true")
        if icon
        else None,
        heading,
        rx.el.p(
            rx.el.strong(highlight[0], class_name="card-figure"),
            " ",
            highlight[1],
            class_name="card-highlight",
        )
        if highlight
        else None,
        rx.el.p(body, class_name="card-body"),
        rx.el.p(link_text, class_name="card-more", aria_hidden="true") if link_text else None,
        class_name="card" + (" card-clickable" if href else ""),
    )


def card_grid(*cards: rx.Component, phone: str = "") -> rx.Component:
    """`phone`: how the cards shrink on a phone, for lists whose own pages say the rest:
    "compact", two columns of titles; "brief", without their body text."""
    return rx.el.div(*cards, class_name="card-grid" + (f" card-grid-{phone}" if phone else ""))


def route_cards(
    entries: tuple[routes.Route, ...], link_text: str = "Learn more", *, compact: bool = False
) -> rx.Component:
    return card_grid(
        *[
            card(
                route.text, route.description, icon=route.icon, href=route.path, link_text=link_text
            )
            for route in entries
        ],
        phone="compact" if compact else "",
    )


def cta_band(
    heading: str = "Have a project in mind?",
    body: str = "Tell us where you want to go. We reply within one working day "
    "with next steps and a call slot.",
) -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.h2(heading, class_name="cta-title"),
            rx.el.p(body, class_name="cta-body"),
            cta_button("Request a Quote"),
            class_name="page-width cta-inner",
        ),
        class_name="cta-band",
    )


def content_sections(sections: tuple[Section, ...], *, first_tone: str = "muted") -> rx.Component:
    """Free-form sections from the content data, alternating background tones."""
    tones = (first_tone, "light" if first_tone == "muted" else "muted")
    return rx.fragment(
        *[
            split_section(
                entry.heading,
                bullet_list(entry.points) if entry.points else None,
                lead=entry.body,
                tone=tones[index % 2],
            )
            for index, entry in enumerate(sections)
        ]
    )


def tag_list(tags: tuple[str, ...], *, label: str) -> rx.Component:
    return rx.el.ul(
        *[rx.el.li(tag, class_name="tag") for tag in tags], class_name="tag-list", aria_label=label
    )


def case_study_cards(studies: tuple[CaseStudy, ...], *, brief: bool = False) -> rx.Component:
    return card_grid(
        *[
            card(
                study.title,
                f"{study.industry} · {study.summary}",
                href=routes.route_for("case_study", study.slug).path,
                link_text="Read the case study",
                highlight=(study.results[0].figure, study.results[0].label)
                if study.results
                else None,
            )
            for study in studies
        ],
        phone="brief" if brief else "",
    )


def testimonial(item: Testimonial) -> rx.Component:
    return rx.el.figure(
        rx.el.blockquote(rx.el.p(f"“{item.quote}”")),
        rx.el.figcaption(f"{item.name}, {item.role}, {item.company}"),
        class_name="testimonial",
    )
