"""The shapes of the site's content. Entries live in the sibling modules."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date


def human_date(iso: str) -> str:
    """A YYYY-MM-DD date as people read it: "14 September 2026" (the ISO form stays in
    `<time datetime>` and the feeds)."""
    day = date.fromisoformat(iso)
    return f"{day.day} {day:%B %Y}"


@dataclass(frozen=True)
class Section:
    heading: str
    body: str
    points: tuple[str, ...] = ()


@dataclass(frozen=True)
class Service:
    slug: str
    name: str
    icon: str
    summary: str
    intro: str
    offerings: tuple[str, ...]
    sections: tuple[Section, ...] = ()
    technologies: tuple[str, ...] = ()

    @property
    def art(self) -> str:
        """Its page's hero illustration, drawn for it (the content check asks for the file)."""
        return f"/illustrations/services/{self.slug}.svg"


@dataclass(frozen=True)
class Industry:
    slug: str
    name: str
    icon: str
    summary: str
    intro: str
    challenges: tuple[str, ...]
    solutions: tuple[str, ...]
    sections: tuple[Section, ...] = ()

    @property
    def art(self) -> str:
        return f"/illustrations/industries/{self.slug}.svg"


@dataclass(frozen=True)
class Result:
    figure: str
    label: str


@dataclass(frozen=True)
class CaseStudy:
    slug: str
    title: str
    industry: str
    client_type: str
    summary: str
    challenge: str
    solution: str
    results: tuple[Result, ...]
    services: tuple[str, ...] = ()
    # How long it took and who did it: "16 weeks", "6 people: ...".
    timeline: str = ""
    team: str = ""
    # Other industries (names in content/industries.py) whose pages show this study too:
    # a hotel chain's booking engine is travel work as well as hospitality.
    also_in: tuple[str, ...] = ()

    def belongs_to(self, industry: str) -> bool:
        return industry == self.industry or industry in self.also_in

    @property
    def art(self) -> str:
        return f"/illustrations/case-studies/{self.slug}.svg"


@dataclass(frozen=True)
class Article:
    slug: str
    title: str
    date: str
    author: str
    summary: str
    tags: tuple[str, ...]
    body: str
    # `draft: true` in the front matter: shown by `make dev` only (SHOW_DRAFTS).
    draft: bool = False
    # From the word count at READING_WORDS_PER_MINUTE, at least 1.
    reading_minutes: int = 1

    @property
    def reading_time(self) -> str:
        return f"{self.reading_minutes} min read"

    @property
    def date_text(self) -> str:
        return human_date(self.date)


@dataclass(frozen=True)
class Product:
    name: str
    icon: str
    summary: str
    features: tuple[str, ...]


@dataclass(frozen=True)
class PlanDuration:
    id: int
    label: str
    months: int


@dataclass(frozen=True)
class Plan:
    id: int
    name: str
    project_id: int
    monthly_price: int
    summary: str
    features: tuple[str, ...]
    trial_days: int = 14
    highlighted: bool = False
    # Paying yearly costs this many months; the rest of the year is free.
    yearly_months_charged: int = 10

    @property
    def yearly_price(self) -> int:
        return self.monthly_price * self.yearly_months_charged


@dataclass(frozen=True)
class Opening:
    """An open position: its page is /careers/<slug> (the title's words, lower case)."""

    title: str
    team: str
    location: str  # as the page says it: "London, hybrid"
    kind: str  # contract and pay as the page says them
    summary: str
    requirements: tuple[str, ...]  # what we look for
    responsibilities: tuple[str, ...]  # what you will do
    # For search engines' job listings (schema.org JobPosting): FULL_TIME, CONTRACTOR...
    employment_type: str
    pay: tuple[int, int]  # in pounds, lowest and highest
    pay_per: str  # "YEAR" or "DAY"
    office: str  # the city of the office one works from ("" when remote only)
    remote: bool  # open to people working from anywhere in the UK
    posted: date
    open_until: date

    @property
    def slug(self) -> str:
        words = "".join(c if c.isalnum() else " " for c in self.title.lower()).split()
        return "-".join(words)

    @property
    def places(self) -> tuple[str, ...]:
        """Where one may work from, as the careers page filters: the office, "Remote"."""
        return (*((self.office,) if self.office else ()), *(("Remote",) if self.remote else ()))


@dataclass(frozen=True)
class GalleryItem:
    title: str
    caption: str
    image: str
    # What the picture shows, for people who cannot see it (the caption says what it is of).
    alt: str = ""


@dataclass(frozen=True)
class Testimonial:
    quote: str
    name: str
    role: str
    company: str


@dataclass(frozen=True)
class Policy:
    title: str
    updated: str
    intro: str
    sections: tuple[Section, ...] = field(default_factory=tuple)
