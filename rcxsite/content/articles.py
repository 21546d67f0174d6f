"""Insights articles: one Markdown file with front matter per article in `articles/`.

Dropping a new `.md` file here publishes it at /insights/<file name>, lists it on the
blog page, in the Atom feed, on its tags' pages and in the sitemap. `draft: true` keeps it
out of all of them except under `make dev` (SHOW_DRAFTS), where it is marked as a draft.
`python -m rcxsite.tools.check_content` says what is wrong with a file.
"""

from __future__ import annotations

import datetime
import math
import re
from functools import lru_cache
from pathlib import Path

import frontmatter
from markdown_it import MarkdownIt

from rcxsite.content.types import Article
from rcxsite.platform.settings import get_settings

ARTICLES_DIR = Path(__file__).parent / "articles"
REQUIRED_FIELDS = ("title", "date", "author", "summary", "tags")
READING_WORDS_PER_MINUTE = 220
RELATED_MAX = 3
# Rendered to HTML at build time: the page ships static markup instead of a Markdown
# renderer and its component library. Raw HTML in a file is escaped, not passed through.
_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")
_WORD = re.compile(r"[A-Za-z0-9][\w'’-]*")


class ArticleError(ValueError):
    """A file the site cannot publish: which one, the line when known, and what to fix."""

    def __init__(self, path: Path, problem: str, line: int | None = None) -> None:
        self.path, self.problem, self.line = path, problem, line
        where = f"{path.name}:{line}" if line else path.name
        super().__init__(f"{where}: {problem}")


def reading_minutes(markdown: str) -> int:
    return max(1, math.ceil(len(_WORD.findall(markdown)) / READING_WORDS_PER_MINUTE))


def _field_line(path: Path, name: str) -> int | None:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith(f"{name}:"):
            return number
    return None


def _date(path: Path, value: object) -> str:
    if isinstance(value, datetime.date):
        return value.isoformat()[:10]
    try:
        return datetime.date.fromisoformat(str(value)).isoformat()
    except ValueError:
        raise ArticleError(
            path, f"date must be YYYY-MM-DD, not {value!r}", _field_line(path, "date")
        ) from None


def load_article(path: Path) -> Article:
    """One file as an article, or ArticleError naming what to fix."""
    try:
        post = frontmatter.load(path)
    except Exception as error:  # the YAML parser's own message says where
        raise ArticleError(path, f"front matter is not valid YAML ({error})") from None
    missing = [name for name in REQUIRED_FIELDS if name not in post.metadata]
    if missing:
        raise ArticleError(path, f"front matter lacks {', '.join(missing)}", 1)
    tags = post["tags"]
    if not isinstance(tags, list) or not all(isinstance(tag, str) and tag for tag in tags):
        raise ArticleError(
            path,
            "tags must be a list of words, e.g. tags: [devops, cloud]",
            _field_line(path, "tags"),
        )
    draft = post.get("draft", False)
    if not isinstance(draft, bool):
        raise ArticleError(path, "draft must be true or false", _field_line(path, "draft"))
    return Article(
        slug=path.stem,
        title=str(post["title"]),
        date=_date(path, post["date"]),
        author=str(post["author"]),
        summary=str(post["summary"]),
        tags=tuple(tag.strip().lower() for tag in tags),
        body=post.content,
        draft=draft,
        reading_minutes=reading_minutes(post.content),
    )


def article_files(folder: Path = ARTICLES_DIR) -> list[Path]:
    return sorted(folder.glob("*.md"))


@lru_cache
def all_articles() -> tuple[Article, ...]:
    """Every article, drafts included, newest first."""
    articles = [load_article(path) for path in article_files()]
    return tuple(sorted(articles, key=lambda article: article.date, reverse=True))


def load_articles() -> tuple[Article, ...]:
    """The articles this site shows, newest first: drafts only under SHOW_DRAFTS."""
    show_drafts = get_settings().show_drafts
    return tuple(article for article in all_articles() if show_drafts or not article.draft)


def article_html(article: Article) -> str:
    """The article's body as HTML."""
    html: str = _MARKDOWN.render(article.body)
    return html


def tag_slug(tag: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", tag.lower()).strip("-")


def all_tags() -> tuple[str, ...]:
    """Every tag of a shown article, in alphabetical order."""
    return tuple(sorted({tag for article in load_articles() for tag in article.tags}))


def tagged(tag: str) -> tuple[Article, ...]:
    return tuple(article for article in load_articles() if tag in article.tags)


def related_articles(article: Article, limit: int = RELATED_MAX) -> tuple[Article, ...]:
    """Up to `limit` other articles: most shared tags first, then the newest (so a
    reader always finds a next article, even when no other shares a tag)."""
    others = [other for other in load_articles() if other.slug != article.slug]
    # Newest first, then a stable sort by shared tags keeps recency among equals.
    others.sort(key=lambda other: other.date, reverse=True)
    others.sort(key=lambda other: len(set(article.tags) & set(other.tags)), reverse=True)
    return tuple(others[:limit])
