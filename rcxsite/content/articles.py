"""Insights articles: one Markdown file with front matter per article in `articles/`.

Dropping a new `.md` file here publishes it at /insights/<file name>, lists it on the
blog page and adds it to the sitemap.
"""

from __future__ import annotations

import datetime
from functools import lru_cache
from pathlib import Path

import frontmatter
from markdown_it import MarkdownIt

from rcxsite.content.types import Article

ARTICLES_DIR = Path(__file__).parent / "articles"
REQUIRED_FIELDS = ("title", "date", "author", "summary", "tags")
# Rendered to HTML at build time: the page ships static markup instead of a Markdown
# renderer and its component library. Raw HTML in a file is escaped, not passed through.
_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


def _load(path: Path) -> Article:
    post = frontmatter.load(path)
    missing = [name for name in REQUIRED_FIELDS if name not in post.metadata]
    if missing:
        raise ValueError(f"{path.name}: front matter lacks {', '.join(missing)}")
    date = post["date"]
    if isinstance(date, datetime.date):
        date = date.isoformat()
    return Article(
        slug=path.stem,
        title=str(post["title"]),
        date=str(date),
        author=str(post["author"]),
        summary=str(post["summary"]),
        tags=tuple(post["tags"]),
        body=post.content,
    )


@lru_cache
def load_articles() -> tuple[Article, ...]:
    """All articles, newest first."""
    articles = [_load(path) for path in sorted(ARTICLES_DIR.glob("*.md"))]
    return tuple(sorted(articles, key=lambda article: article.date, reverse=True))


def article_html(article: Article) -> str:
    """The article's body as HTML."""
    return _MARKDOWN.render(article.body)
