"""Site search at service level: what it finds, in which order, and its bounds.

Fast: the index is built in this process from the route table and the content data, as
the site builds it; no server, no browser (those are tests/browser/search/test_search.py).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator

import pytest

from rcxsite.content import routes
from rcxsite.content.articles import load_articles
from rcxsite.core.ratelimit import RateLimited
from rcxsite.core.service_errors import ServiceError
from rcxsite.search import QUERY_MAX, SearchInput, SearchResults, documents, search_site
from rcxsite.search.service import EMPTY_QUERY, PARTIAL, QUERY_TOO_LONG, SUGGESTED
from tests.support.rate_limits import reset_rate_limits
from tests.support.site import refresh_settings

# A client address of its own for every search, so that the limit is tested only where
# it is meant to be.
_clients = (f"2001:db8:{n:x}::1" for n in itertools.count(1))


@pytest.fixture(scope="module", autouse=True)
def _settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """In-memory rate limits and a signing key of the test's own (the limit hashes the
    client), nothing written into the project."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SECRET_KEY", "test-signing-key-" + "x" * 60)
        patch.setenv("REDIS_URL", "")
        patch.setenv("DATA_DIR", str(tmp_path_factory.mktemp("search")))
        refresh_settings()
        yield
        reset_rate_limits()
    refresh_settings()


def search(text: str, client_ip: str | None = None) -> SearchResults:
    return search_site(SearchInput.parse({"q": text}), client_ip=client_ip or next(_clients))


def paths(text: str) -> list[str]:
    return [hit.path for hit in search(text).hits]


# (query, a page that must be among the first three results). Typing mistakes, other
# word forms, several words and words that only the body of a page holds.
TOP_THREE = [
    ("software development", routes.route_for("service", "software-development")),
    ("devlopment", routes.route_for("service", "software-development")),  # typo
    ("helthcare", routes.route_for("industry", "healthcare")),  # typo
    ("staff augmentaton", routes.route_for("service", "staff-augmentation")),  # typo
    ("accesibility clinics", routes.CSR),  # typo, two words
    ("kubernetes", routes.route_for("service", "devops")),  # body only
    ("devops", routes.route_for("service", "devops")),
    ("mobile apps", routes.route_for("service", "mobile-app-development")),  # plural
    ("startups", routes.route_for("service", "startup-services")),  # plural
    ("volunteering", routes.CSR),  # "volunteers"
    ("migrating data to the cloud", routes.route_for("article", "whaleblog")),  # "migration"
    ("machine learning", routes.route_for("service", "ai-machine-learning")),
    ("seo", routes.route_for("service", "internetmarketing")),
    ("ecommerce", routes.route_for("industry", "ecommerce")),  # "E-commerce"
    ("real estate", routes.route_for("industry", "realestate")),
    ("telehealth", routes.route_for("case_study", "healthcare")),
    ("hotel booking", routes.route_for("case_study", "Hospitality")),
    ("loan decisions", routes.route_for("case_study", "fintech")),
    ("blockchain", routes.route_for("article", "understandingblockchain")),
    ("open source microsoft", routes.route_for("article", "msopensource")),
    ("pricing", routes.PRICING),
    ("free trial", routes.PRICING),
    ("help desk", routes.PRODUCTS),
    ("python engineer", routes.CAREERS),
    ("holiday", routes.LIFE_AT),
    ("what clients say", routes.TESTIMONIALS),
    ("about rcx", routes.ABOUT),
    ("privacy", routes.PRIVACY),
    ("cookies", routes.COOKIES),
    ("terms", routes.TERMS),
    ("quote", routes.QUOTE),
    ("Gallery", routes.GALLERY),
    # Words people use for a page that it does not (rcxsite/content/search_words.py).
    ("jobs", routes.CAREERS),
    ("vacancies", routes.CAREERS),
    ("hiring", routes.CAREERS),
    ("prices", routes.PRICING),
    ("cost", routes.PRICING),
    ("contact", routes.QUOTE),
    ("call", routes.QUOTE),
    ("photos", routes.GALLERY),
    ("culture", routes.LIFE_AT),
    ("reviews", routes.TESTIMONIALS),
    ("portfolio", routes.CASE_STUDIES_INDEX),
    ("gdpr", routes.PRIVACY),
]


@pytest.mark.parametrize(("query", "page"), TOP_THREE, ids=[q for q, _ in TOP_THREE])
def test_the_expected_page_is_in_the_top_three(query: str, page: routes.Route) -> None:
    assert page.path in paths(query)[:3], paths(query)[:5]


def test_every_public_page_is_searchable_by_its_title() -> None:
    site = documents.site_documents()
    assert {document.path for document in site} == {route.path for route in routes.public_routes()}
    for document in site:
        assert document.path in paths(document.title)[:3], document.title


def test_a_misspelt_query_says_which_spelling_it_found() -> None:
    assert search("helthcare").spelled == "healthcare"
    assert search("staff augmentaton").spelled == "staff augmentation"
    assert search("healthcare").spelled == ""
    assert search("qwxzjv").spelled == ""


def test_results_say_what_kind_of_page_they_are() -> None:
    kinds = {hit.path: hit.kind for hit in search("software development").hits}
    assert kinds[routes.route_for("service", "software-development").path] == "Service"
    kinds = {hit.path: hit.kind for hit in search("healthcare").hits}
    assert kinds[routes.route_for("industry", "healthcare").path] == "Industry"
    assert kinds[routes.route_for("case_study", "healthcare").path] == "Case study"
    assert search("blockchain").hits[0].kind == "Article"


def test_a_word_form_finds_the_other_forms_and_marks_them() -> None:
    """ "testing" finds pages that only say "tests" or "tested", and marks those words."""
    top = search("testing").hits[:3]
    marked = {segment.text.lower() for hit in top for segment in hit.snippet if segment.highlighted}
    assert "tests" in marked or "tested" in marked, marked


def test_the_snippet_marks_the_matching_words_and_nothing_else() -> None:
    hit = next(
        hit for hit in search("volunteers teach programming").hits if hit.path == routes.CSR.path
    )
    marked = [segment.text for segment in hit.snippet if segment.highlighted]
    assert marked == ["volunteers", "teach", "programming"]
    text = "".join(segment.text for segment in hit.snippet)
    assert "Every Saturday our volunteers teach programming" in text
    assert len(text) <= 240


def test_title_words_rank_above_body_words() -> None:
    """Every page with "DevOps" in its title comes before the pages that only mention it."""
    hits = search("devops").hits
    in_title = ["devops" in hit.title.lower() for hit in hits]
    assert in_title[0] and False in in_title
    assert in_title == sorted(in_title, reverse=True), [hit.path for hit in hits]
    assert hits[0].path == routes.route_for("service", "devops").path


def test_whole_words_rank_above_parts() -> None:
    """ "car" is a word of the automobile case study and the start of "Careers"."""
    found = paths("car")
    assert found[0] == routes.route_for("case_study", "automobile").path
    assert routes.CAREERS.path in found  # found as a part, after the word itself


def test_more_words_narrow_the_results() -> None:
    one, two = set(paths("healthcare")), set(paths("healthcare video"))
    assert two and two < one
    assert two <= set(paths("video"))


def test_when_no_page_has_every_word_the_closest_ones_come_back_marked() -> None:
    results = search("healthcare zyxwvut")
    assert results.message == PARTIAL
    assert results.hits[0].path == routes.route_for("industry", "healthcare").path


def test_an_empty_query_says_so_and_suggests_pages() -> None:
    for query in ("", "   "):
        results = search(query)
        assert results.hits == ()
        assert results.message == EMPTY_QUERY
        assert [s.path for s in results.suggestions] == [route.path for route in SUGGESTED]


@pytest.mark.parametrize("query", ["qwxzjv", "zzzzzz yyyyyy", "the and of", "!!! ???"])
def test_a_query_that_matches_nothing_says_so_and_suggests_pages(query: str) -> None:
    results = search(query)
    assert results.hits == ()
    assert results.message.startswith("Nothing on the site matches")
    assert results.suggestions


def test_an_oversized_query_is_refused_with_its_message() -> None:
    search("x" * QUERY_MAX)  # at the limit: answered
    with pytest.raises(ServiceError) as refused:
        SearchInput.parse({"q": "x" * (QUERY_MAX + 1)})
    assert refused.value.status == 422
    assert refused.value.message == QUERY_TOO_LONG
    assert refused.value.fields == {"q": QUERY_TOO_LONG}


def test_control_characters_are_refused_and_blanks_collapse() -> None:
    with pytest.raises(ServiceError):
        SearchInput.parse({"q": "cloud\x00"})
    assert SearchInput.parse({"q": "  cloud \n migration  "}).query == "cloud migration"
    assert SearchInput.parse({"q": ["a", "list"]}).query == ""


def test_searches_are_limited_per_client(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEARCH_LIMIT", "3 per minute")
    refresh_settings()
    try:
        client, neighbour = "198.51.100.7", "2001:db8:aaaa:1::1"
        for _ in range(3):
            search("cloud", client)
        search("", client)  # an empty query costs nothing and is not counted
        with pytest.raises(RateLimited) as refused:
            search("cloud", client)
        assert refused.value.status == 429
        assert refused.value.message == "Too many requests. Try again in 1 minute."
        search("cloud", neighbour)  # another client is not held back
    finally:
        monkeypatch.delenv("SEARCH_LIMIT")
        refresh_settings()


def test_drafts_are_not_searchable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Even where the site shows drafts (`make dev`, SHOW_DRAFTS): nobody's result."""
    article = load_articles()[0]
    monkeypatch.setattr(
        documents, "load_articles", lambda: (dataclasses.replace(article, draft=True),)
    )
    draft_path = routes.route_for("article", article.slug).path
    assert draft_path not in {document.path for document in documents.site_documents()}


def test_a_search_word_a_page_already_uses_does_not_count_twice() -> None:
    from rcxsite.search.documents import Document
    from rcxsite.search.index import SearchIndex
    from rcxsite.search.text import stem

    def page(path: str, also: tuple[str, ...]) -> Document:
        return Document(
            path, "Careers", "page", "Open jobs at RCX.", ("We are hiring.",), also=also
        )

    plain, repeated = page("/a", ()), page("/b", ("jobs", "careers", "vacancies"))
    other = page("/c", ())  # a third page keeps the words' rarity the same for both
    index = SearchIndex((plain, repeated, other))
    for word in ("jobs", "careers"):
        assert index.score(stem(word), 1) == index.score(stem(word), 0), word
    assert index.score(stem("vacancies"), 1) > 0 == index.score(stem("vacancies"), 0)
