"""`python -m rcxsite.tools.check_content` (`make check-content`, and a test in `make test`):
what a content edit broke, one line per problem naming the file (and line) and the fix.

It checks every article's front matter (required fields, a YYYY-MM-DD date, tags as a
list, draft true or false), that no two entries of one kind share a slug and no article is
named like a page of its own folder, that every internal link in an article's text
points at a page of the route table (or a file in assets/), that the search words
(content/search_words.py) are for public pages, and that the proof (content/proof.py:
leadership, clients, offices) has its pictures, case studies and dialable phones, and
that a case study shown on other industries' pages names industries that exist, and that
every service, industry and case study has its own illustration.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from rcxsite.content.articles import ARTICLES_DIR, ArticleError, article_files, load_article
from rcxsite.content.assets import ASSETS_DIR
from rcxsite.content.case_studies import CASE_STUDIES
from rcxsite.content.industries import INDUSTRIES
from rcxsite.content.proof import CLIENTS, LEADERSHIP, OFFICES, Client, Office, Person
from rcxsite.content.services import SERVICE_GROUPS, SERVICE_PROOF, SERVICES, ServiceGroup
from rcxsite.content.types import CaseStudy, Industry, Service

# Markdown links and images whose target starts with "/" (the site's own pages).
_INTERNAL_LINK = re.compile(r"\]\((/[^)\s#?]*)")
# Folders under /insights/ that are pages, not articles.
_RESERVED_ARTICLE_SLUGS = frozenset({"tags", "feed.xml"})


def _duplicates(kind: str, where: str, slugs: Iterable[str]) -> list[str]:
    return [
        f"{where}: two {kind} entries have the slug {slug!r}; give one another slug"
        for slug, count in Counter(slugs).items()
        if count > 1
    ]


def _page_paths() -> set[str]:
    from rcxsite.content import routes  # the route table loads the articles: import it last

    return {route.path for route in (*routes.ROUTES, *routes.STAFF_ROUTES)}


def _link_problems(path: Path, pages: set[str]) -> list[str]:
    problems = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        for target in _INTERNAL_LINK.findall(line):
            page = target.rstrip("/") or "/"
            if page not in pages and not (ASSETS_DIR / target.lstrip("/")).is_file():
                problems.append(
                    f"{path.name}:{number}: the link {target} names no page of "
                    "the route table (rcxsite/content/routes.py) and no file in assets/"
                )
    return problems


def problems(articles_dir: Path = ARTICLES_DIR) -> list[str]:
    """Every problem found, in file order; empty when the content is fine."""
    found: list[str] = []
    slugs = []
    for path in article_files(articles_dir):
        try:
            slugs.append(load_article(path).slug)
        except ArticleError as error:
            found.append(str(error))
        if path.stem in _RESERVED_ARTICLE_SLUGS:
            found.append(
                f"{path.name}: /insights/{path.stem} is taken by the site; rename the file"
            )
    found += _duplicates("article", str(articles_dir), slugs)
    found += _duplicates("service", "rcxsite/content/services.py", (s.slug for s in SERVICES))
    found += _duplicates("industry", "rcxsite/content/industries.py", (i.slug for i in INDUSTRIES))
    found += _duplicates(
        "case study", "rcxsite/content/case_studies.py", (c.slug for c in CASE_STUDIES)
    )
    found += industry_problems()
    found += art_problems()
    found += proof_problems()
    if not found:  # the route table itself needs loadable articles
        pages = _page_paths()
        for path in article_files(articles_dir):
            found += _link_problems(path, pages)
        found += _search_word_problems()
    return found


def art_problems(
    entries: Iterable[Service | Industry | CaseStudy] = (*SERVICES, *INDUSTRIES, *CASE_STUDIES),
) -> list[str]:
    """Every service, industry and case study has its own hero illustration."""
    return [
        f"{entry.slug}: add its illustration assets{entry.art} (drawn in the site's style; "
        "no two pages share one)"
        for entry in entries
        if not (ASSETS_DIR / entry.art.lstrip("/")).is_file()
    ]


def industry_problems(
    studies: Iterable[CaseStudy] = CASE_STUDIES,
    groups: Iterable[ServiceGroup] = SERVICE_GROUPS,
    proof: dict[str, tuple[str, int]] = SERVICE_PROOF,
) -> list[str]:
    """A case study's `also_in` names industries of content/industries.py, and the /services
    overview's groups list each service once, each with a result that exists."""
    names = {industry.name for industry in INDUSTRIES}
    grouped = Counter(slug for group in groups for slug in group.services)
    found = [
        f"rcxsite/content/services.py: SERVICE_GROUPS: list {service.slug!r} in one group "
        f"(it is in {grouped[service.slug]})"
        for service in SERVICES
        if grouped[service.slug] != 1
    ]
    found += [
        f"rcxsite/content/services.py: SERVICE_GROUPS: {slug!r} is no service slug"
        for slug in grouped
        if slug not in {service.slug for service in SERVICES}
    ]
    results = {study.slug: len(study.results) for study in CASE_STUDIES}
    found += [
        f"rcxsite/content/services.py: SERVICE_PROOF: {slug!r}: {study!r} has no result {index}"
        for slug, (study, index) in proof.items()
        if not 0 <= index < results.get(study, 0)
    ]
    return found + [
        f"rcxsite/content/case_studies.py: {study.slug}: also_in {name!r} is no industry "
        "name of rcxsite/content/industries.py"
        for study in studies
        for name in study.also_in
        if name not in names
    ]


_DIALLABLE = re.compile(r"\+[0-9][0-9 ]{6,20}")


def proof_problems(
    people: Iterable[Person] = LEADERSHIP,
    clients: Iterable[Client] = CLIENTS,
    offices: Iterable[Office] = OFFICES,
) -> list[str]:
    """Leadership, clients and offices (content/proof.py): unique slugs, their pictures in
    assets/, a client's case study that exists, phone numbers a phone can dial."""
    where = "rcxsite/content/proof.py"
    people, clients, offices = list(people), list(clients), list(offices)
    found = _duplicates("leadership", where, (person.slug for person in people))
    found += _duplicates("client", where, (client.slug for client in clients))
    found += [
        f"{where}: {name}: add the picture assets{picture} (drawn in the site's style)"
        for name, picture in [(p.name, p.portrait) for p in people]
        + [(c.name, c.logo) for c in clients]
        if not (ASSETS_DIR / picture.lstrip("/")).is_file()
    ]
    studies = {study.slug for study in CASE_STUDIES}
    found += [
        f"{where}: {client.name}: case_study {client.case_study!r} is no slug of "
        "rcxsite/content/case_studies.py (or leave it empty)"
        for client in clients
        if client.case_study and client.case_study not in studies
    ]
    found += [
        f"{where}: {office.city}: write the phone as +<country code> and digits, "
        f"got {office.phone!r}"
        for office in offices
        if not _DIALLABLE.fullmatch(office.phone)
    ]
    return found


def _search_word_problems() -> list[str]:
    from rcxsite.content import routes
    from rcxsite.content.search_words import SEARCH_WORDS
    from rcxsite.search.text import tokens

    where, public = "rcxsite/content/search_words.py", set(routes.public_routes())
    found = [
        f"{where}: {route.path} is not a public page (the search lists only those)"
        for route in SEARCH_WORDS
        if route not in public
    ]
    for route, phrases in SEARCH_WORDS.items():
        found += [
            f"{where}: {route.path}: write {phrase!r} in lower case, without outer spaces"
            for phrase in phrases
            if not phrase.strip() or phrase != phrase.strip().lower()
        ]
        found += [
            f"{where}: {route.path}: {phrase!r} has no word the search keeps (only words "
            "like 'the', 'who', 'we'); write the word people type"
            for phrase in phrases
            if phrase.strip() and not list(tokens(phrase))
        ]
    return found


def main(argv: list[str]) -> int:
    """`python -m rcxsite.tools.check_content [ARTICLES_FOLDER]`: 0 when all is good, else 1."""
    found = problems(Path(argv[0])) if argv else problems()
    for line in found:
        print(line, file=sys.stderr)
    print(f"content check: {len(found)} problem(s)" if found else "content check: all good")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
