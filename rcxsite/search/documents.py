"""One searchable document per public page, made from the data its page is made from.

The route table says which pages exist (title, description, path); the content modules
say what each page reads. A new service, industry, case study or article is a new route,
so it becomes a document here with no step of its own. A page kind without a body
builder below is still found by its title and description.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from html.parser import HTMLParser

from rcxsite.content import routes
from rcxsite.content.articles import article_html, load_articles
from rcxsite.content.careers import APPLY_EMAIL, HIRING_STEPS, OPENINGS, opening_of
from rcxsite.content.case_studies import CASE_STUDIES
from rcxsite.content.company import ADDRESS, EMAIL, FOUNDED, PHONE, STATS, TAGLINE, VALUES
from rcxsite.content.csr import CSR_ACTIVITIES
from rcxsite.content.gallery import GALLERY
from rcxsite.content.industries import INDUSTRIES
from rcxsite.content.life_at import LIFE_AT
from rcxsite.content.policies import POLICIES
from rcxsite.content.pricing import PLANS
from rcxsite.content.products import PRODUCTS
from rcxsite.content.search_words import SEARCH_WORDS
from rcxsite.content.services import SERVICES
from rcxsite.content.testimonials import TESTIMONIALS
from rcxsite.content.types import Article, Section


@dataclass(frozen=True, slots=True)
class Document:
    """A page as the search reads it: `body` is its text in paragraphs, without the title
    and description (which are fields of their own, weighted higher)."""

    path: str
    title: str
    kind: str
    description: str
    body: tuple[str, ...]
    weight: float = 1.0
    # Words visitors use for the page that it does not (content/search_words.py).
    also: tuple[str, ...] = ()


# What a result says the page is.
KIND_LABELS: dict[str, str] = {
    "home": "Home",
    "about": "Company",
    "products": "Products",
    "pricing": "Pricing",
    "careers": "Careers",
    "opening": "Job opening",
    "gallery": "Gallery",
    "services": "Services",
    "service": "Service",
    "industry": "Industry",
    "case_studies": "Case studies",
    "case_study": "Case study",
    "blogs": "Articles",
    "article": "Article",
    "testimonials": "Testimonials",
    "life_at": "Company",
    "csr": "Company",
    "policy": "Policy",
    "quote": "Contact",
    "tag": "Topic",
}
OTHER_KIND = "Page"
# A page that lists others (all services, the articles of a tag) mostly repeats their
# titles: the page about the thing itself ranks first, the list just below it.
LISTING_KINDS = frozenset({"services", "case_studies", "blogs", "tag"})
LISTING_WEIGHT = 0.8
# A job opening names the technologies of the service it staffs ("Kubernetes" for a
# DevOps engineer): the service ranks first, the opening just below it.
OPENING_WEIGHT = 0.5


def _sections(sections: Iterable[Section]) -> list[str]:
    # A heading opens its body's paragraph: a snippet from it then reads as a sentence.
    return [text for item in sections for text in (f"{item.heading}: {item.body}", *item.points)]


class _HtmlText(HTMLParser):
    """The text of rendered Markdown, one paragraph per block element."""

    _BLOCKS = frozenset(
        {"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "pre", "blockquote"}
    )

    def __init__(self) -> None:
        super().__init__()
        self.paragraphs: list[str] = []
        self._current: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._BLOCKS:
            self.flush()

    def handle_endtag(self, tag: str) -> None:
        if tag in self._BLOCKS:
            self.flush()

    def handle_data(self, data: str) -> None:
        self._current.append(data)

    def flush(self) -> None:
        text = " ".join("".join(self._current).split())
        if text:
            self.paragraphs.append(text)
        self._current = []


def _article_text(article: Article) -> list[str]:
    parser = _HtmlText()
    parser.feed(article_html(article))
    parser.close()
    parser.flush()
    return [f"By {article.author}", ", ".join(article.tags), *parser.paragraphs]


def _published_articles() -> dict[str, Article]:
    # Drafts may have routes (`make dev` shows them) but are nobody's search result.
    return {article.slug: article for article in load_articles() if not article.draft}


def _service(key: str) -> list[str]:
    service = next(item for item in SERVICES if item.slug == key)
    return [service.intro, *service.offerings, *_sections(service.sections), *service.technologies]


def _industry(key: str) -> list[str]:
    industry = next(item for item in INDUSTRIES if item.slug == key)
    return [
        industry.intro,
        *industry.challenges,
        *industry.solutions,
        *_sections(industry.sections),
    ]


def _case_study(key: str) -> list[str]:
    study = next(item for item in CASE_STUDIES if item.slug == key)
    used = [route.text for route in routes.SERVICE_ROUTES if route.key in study.services]
    return [
        f"{study.industry} · {study.client_type}",
        study.challenge,
        study.solution,
        *(f"{result.figure} {result.label}" for result in study.results),
        *used,
    ]


def _home(_key: str) -> list[str]:
    return [TAGLINE, *(f"{figure} {label}" for figure, label in STATS)]


def _about(_key: str) -> list[str]:
    return [
        f"Since {FOUNDED}",
        *(f"{title}. {body}" for title, body in VALUES),
        ADDRESS,
        f"Email: {EMAIL}",
        f"Phone: {PHONE}",
    ]


def _products(_key: str) -> list[str]:
    return [
        text for product in PRODUCTS for text in (product.name, product.summary, *product.features)
    ]


def _pricing(_key: str) -> list[str]:
    return [
        text
        for plan in PLANS
        for text in (
            f"{plan.name}: £{plan.monthly_price:,} per month",
            plan.summary,
            *plan.features,
            f"{plan.trial_days}-day free trial",
        )
    ]


def _careers(_key: str) -> list[str]:
    return [
        *(
            text
            for opening in OPENINGS
            for text in (
                opening.title,
                f"{opening.team} · {opening.location} · {opening.kind}",
                opening.summary,
                *opening.requirements,
            )
        ),
        f"Apply on this page with your CV; questions to {APPLY_EMAIL}",
    ]


def _opening(key: str) -> list[str]:
    opening = opening_of(key)
    return [
        f"{opening.team} · {opening.location} · {opening.kind}",
        *opening.responsibilities,
        *opening.requirements,
        *HIRING_STEPS,
    ]


def _gallery(_key: str) -> list[str]:
    return [f"{item.title}. {item.caption}" for item in GALLERY]


def _testimonials(_key: str) -> list[str]:
    return [f"“{item.quote}” {item.name}, {item.role}, {item.company}" for item in TESTIMONIALS]


def _policy(key: str) -> list[str]:
    policy = POLICIES[key]
    return [policy.intro, *_sections(policy.sections)]


# The page's own words. Listing pages (services, case studies, blogs) are found by their
# title and description: the entries they list are documents of their own.
_BODIES: dict[str, Callable[[str], list[str]]] = {
    "home": _home,
    "about": _about,
    "products": _products,
    "pricing": _pricing,
    "careers": _careers,
    "opening": _opening,
    "gallery": _gallery,
    "service": _service,
    "industry": _industry,
    "case_study": _case_study,
    "testimonials": _testimonials,
    "life_at": lambda _key: _sections(LIFE_AT),
    "csr": lambda _key: _sections(CSR_ACTIVITIES),
    "policy": _policy,
}


def site_documents() -> tuple[Document, ...]:
    """Every public page of the route table, in its order."""
    articles = _published_articles()
    documents = []
    for route in routes.public_routes():
        if "[" in route.path:
            continue  # a pattern, not a page
        if route.kind == "article":
            article = articles.get(route.key)
            if article is None:
                continue
            body = _article_text(article)
        else:
            builder = _BODIES.get(route.kind)
            body = builder(route.key) if builder else []
        documents.append(
            Document(
                path=route.path,
                title=route.title,
                kind=KIND_LABELS.get(route.kind, OTHER_KIND),
                description=route.description,
                body=tuple(text for text in body if text.strip()),
                weight=LISTING_WEIGHT
                if route.kind in LISTING_KINDS
                else OPENING_WEIGHT
                if route.kind == "opening"
                else 1.0,
                also=SEARCH_WORDS.get(route, ()),
            )
        )
    return tuple(documents)
