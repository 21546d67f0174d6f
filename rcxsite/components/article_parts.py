"""Pieces of the Insights pages: an article's byline, its tags as links, and the card
that lists an article (on the blog page, a tag's page and under "Related articles")."""

from __future__ import annotations

import reflex as rx

from rcxsite.components.react import nav_link
from rcxsite.content import routes
from rcxsite.content.types import Article


def byline(article: Article) -> rx.Component:
    """Date, author and reading time; "Draft" on an article only `make dev` shows."""
    return rx.el.p(
        rx.el.time(article.date_text, date_time=article.date),
        f" · {article.author} · {article.reading_time}",
        rx.el.strong(" · Draft", class_name="draft-mark") if article.draft else None,
        class_name="article-meta",
    )


def tag_links(article: Article) -> rx.Component:
    return rx.el.ul(
        *[
            rx.el.li(
                nav_link(
                    tag,
                    to=routes.tag_path(tag),
                    class_name="tag-link",
                    aria_label=f"Articles about {tag}",
                )
            )
            for tag in article.tags
        ],
        class_name="tags",
    )


def article_card(article: Article, *, heading_level: str = "h3") -> rx.Component:
    """One article in a list: the title links to it, each tag to its tag's page."""
    title = rx.el.h3 if heading_level == "h3" else rx.el.h2
    return rx.el.article(
        title(
            nav_link(
                article.title,
                to=routes.route_for("article", article.slug).path,
                class_name="article-card-link",
            ),
            class_name="card-title",
        ),
        byline(article),
        rx.el.p(article.summary, class_name="card-body"),
        tag_links(article),
        class_name="card article-card",
    )


def article_list(articles: tuple[Article, ...]) -> rx.Component:
    return rx.el.div(*[article_card(article) for article in articles], class_name="card-grid")


def feed_link() -> rx.Component:
    return rx.el.p(
        rx.el.a(
            "Follow our articles (Atom feed)",
            href=routes.FEED_PATH,
            # Attributes, not style props; the feed is a file the server sends, not a page
            # of the router's.
            custom_attrs={"type": "application/atom+xml", "reloadDocument": True},
            class_name="feed-link",
        ),
        class_name="feed-line",
    )
