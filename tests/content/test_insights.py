"""Insights as data: reading time, tags and their pages, related articles, drafts, the
Atom feed (parsed by a real feed parser) and the content check on broken files."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import feedparser
import pytest

from rcxsite.content import articles, routes
from rcxsite.content.articles import (
    READING_WORDS_PER_MINUTE,
    load_articles,
    reading_minutes,
    related_articles,
)
from rcxsite.meta import feed
from rcxsite.meta.sitemap import sitemap_xml
from rcxsite.tools.check_content import problems
from tests.support.fixtures import configure

__all__ = ["configure"]
DRAFT = "platformengineering"
FRONT = "---\ntitle: A\ndate: 2026-01-02\nauthor: B\nsummary: C\ntags: [x]\n---\n"


@pytest.fixture
def site_url(configure) -> Iterator[str]:
    configure(site_url="https://rcx.example")
    feed._feed_for.cache_clear()
    yield "https://rcx.example"
    feed._feed_for.cache_clear()


def test_reading_time_comes_from_the_word_count() -> None:
    assert reading_minutes("word " * READING_WORDS_PER_MINUTE) == 1
    assert reading_minutes("word " * (READING_WORDS_PER_MINUTE + 1)) == 2
    assert reading_minutes("") == 1
    article = next(a for a in load_articles() if a.slug == "understandingdevops")
    assert article.reading_time == f"{article.reading_minutes} min read"
    assert article.reading_minutes == reading_minutes(article.body) >= 2


def test_related_articles_share_tags_first_then_are_newest() -> None:
    whale = next(a for a in load_articles() if a.slug == "whaleblog")
    related = related_articles(whale)
    assert [a.slug for a in related][:1] == ["understandingdevops"]  # devops, cloud shared
    assert len(related) == 3 and whale not in related
    shared = [len(set(whale.tags) & set(a.tags)) for a in related]
    assert shared == sorted(shared, reverse=True)


def test_every_tag_has_a_page_listing_its_articles_in_the_sitemap(site_url: str) -> None:
    tag_routes = {route.key: route for route in routes.TAG_ROUTES}
    assert set(tag_routes) == {tag for a in load_articles() for tag in a.tags}
    assert tag_routes["open source"].path == "/insights/tags/open-source"
    assert routes.route_for("tag", "devops").title == "Articles about devops"
    assert f"<loc>{site_url}/insights/tags/devops/</loc>" in sitemap_xml()


def test_a_draft_is_no_page_no_feed_entry_and_no_sitemap_entry(site_url: str) -> None:
    assert DRAFT in {a.slug for a in articles.all_articles()}
    assert DRAFT not in {a.slug for a in load_articles()}
    assert all(route.key != DRAFT for route in routes.ROUTES)
    assert DRAFT not in feed.feed_xml() and DRAFT not in sitemap_xml()


def test_make_dev_shows_drafts_marked_as_such(configure) -> None:
    configure(show_drafts=True)
    draft = next(a for a in load_articles() if a.slug == DRAFT)
    assert draft.draft
    from rcxsite.components.article_parts import byline

    assert "Draft" in str(byline(draft))
    # A dev server's route table has the page, kept out of the sitemap.
    assert not routes.article_route(draft).public


def test_the_feed_is_valid_atom_with_stable_ids_and_absolute_links(site_url: str) -> None:
    parsed = feedparser.parse(feed.feed_xml())
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.version == "atom10"
    assert parsed.feed.title == "RCX Insights"
    assert parsed.feed.links[0].href == f"{site_url}{routes.FEED_PATH}"
    shown = [a for a in load_articles() if not a.draft]
    assert [entry.link for entry in parsed.entries] == [
        f"{site_url}/insights/{a.slug}" for a in shown
    ]
    first = parsed.entries[0]
    assert first.id == f"tag:rcx.example,{shown[0].date}:/insights/{shown[0].slug}"
    assert first.author == shown[0].author and first.summary == shown[0].summary
    assert first.updated.startswith(shown[0].date)
    assert {tag.term for tag in first.tags} == set(shown[0].tags)
    body = first.content[0].value
    assert "<h2>" in body and 'href="/' not in body and f'href="{site_url}/' in body


def _write(folder: Path, name: str, text: str) -> None:
    (folder / name).write_text(text, encoding="utf-8")


def test_the_content_check_passes_on_the_site_and_names_each_broken_file(
    tmp_path: Path,
) -> None:
    assert problems() == []
    _write(tmp_path, "fine.md", FRONT + "See [DevOps](/services/devops).\n")
    _write(tmp_path, "nodate.md", "---\ntitle: A\nauthor: B\nsummary: C\ntags: [x]\n---\n")
    _write(tmp_path, "baddate.md", FRONT.replace("2026-01-02", "2 January 2026"))
    _write(tmp_path, "tagstext.md", FRONT.replace("tags: [x]", "tags: devops"))
    _write(tmp_path, "deadlink.md", FRONT + "Text.\n\nSee [us](/services/no-such-page).\n")
    _write(tmp_path, "tags.md", FRONT)
    found = problems(tmp_path)
    assert "nodate.md:1: front matter lacks date" in found
    assert "baddate.md:3: date must be YYYY-MM-DD, not '2 January 2026'" in found
    assert any(line.startswith("tagstext.md:6: tags must be a list") for line in found)
    assert "tags.md: /insights/tags is taken by the site; rename the file" in found
    assert not any(line.startswith("fine.md") for line in found)
    assert len(found) == 4  # links are checked once the files load
    for name in ("nodate.md", "baddate.md", "tagstext.md", "tags.md"):
        (tmp_path / name).unlink()
    assert problems(tmp_path) == [
        "deadlink.md:10: the link /services/no-such-page names no page of the route table "
        "(rcxsite/content/routes.py) and no file in assets/"
    ]


def test_the_content_check_refuses_search_words_for_no_public_page(monkeypatch) -> None:
    from rcxsite.content import routes, search_words

    monkeypatch.setattr(
        search_words,
        "SEARCH_WORDS",
        {
            routes.STAFF_INBOX: ("leads",),
            routes.CAREERS: ("jobs", " Vacancies", "who we are"),
        },
    )
    assert problems() == [
        "rcxsite/content/search_words.py: /staff is not a public page (the search lists "
        "only those)",
        "rcxsite/content/search_words.py: /careers: write ' Vacancies' in lower case, "
        "without outer spaces",
        "rcxsite/content/search_words.py: /careers: 'who we are' has no word the search "
        "keeps (only words like 'the', 'who', 'we'); write the word people type",
    ]


def test_people_read_dates_as_words_machines_as_iso() -> None:
    from dataclasses import replace

    from rcxsite.components.article_parts import byline
    from rcxsite.content.policies import POLICIES
    from rcxsite.pages.policies import policy_page

    article = replace(load_articles()[0], date="2026-09-14")
    shown = str(byline(article))
    assert "14 September 2026" in shown and "2026-09-14" in shown  # the datetime attribute
    privacy = str(policy_page(routes.PRIVACY))
    updated = date.fromisoformat(POLICIES[routes.PRIVACY.key].updated)
    assert f"{updated.day} {updated:%B %Y}" in privacy and updated.isoformat() in privacy
