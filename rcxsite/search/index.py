"""The site's search index: built once per process from `site_documents()`, in memory.

A site of a few hundred pages fits in a few megabytes, so there is no search server and
nothing to keep in step: the index is made from the same data as the pages, the first
time someone searches. For each stem it holds the pages that use it and how much (title
words weigh most, then the description, then the body: BM25F). For typing mistakes it
keeps every word of the site with one or two letters deleted (the "symmetric delete"
method), so a misspelt word finds its neighbours by a few dictionary lookups instead of
comparing it with every word of the site.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import lru_cache

from rcxsite.search.documents import Document, site_documents
from rcxsite.search.text import Token, stem, tokens

# BM25F: the weight of a word in each field, how much a long field dilutes it (b), and
# how quickly more occurrences stop adding (k1).
# "also": the words visitors use for a page that it does not (content/search_words.py),
# counted as a description's.
FIELD_WEIGHTS = {"title": 5.0, "description": 2.5, "body": 1.0, "also": 2.5}
FIELD_B = {"title": 0.3, "description": 0.5, "body": 0.75, "also": 0.0}
K1 = 1.2
# How much a looser match counts against the word itself (1.0; its other forms share
# its stem and count fully): a misspelling one or two edits away, a word it begins.
TYPO_FACTORS = {1: 0.7, 2: 0.5}
PREFIX_FACTOR = 0.4
PREFIX_MIN = 3
MAX_PREFIX_WORDS = 30
MAX_TYPO_WORDS = 8
# At most this many site words are compared letter by letter with one misspelt word (the
# alphabetically first, so a query always gets the same answer). A word has fewer than 20
# neighbours on this site; the cap bounds the work whatever the content comes to hold.
MAX_TYPO_CANDIDATES = 100
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"“(]?[A-Z0-9£])")


def max_typos(word: str) -> int:
    """Edits tolerated in a word of this length: none in short words, where one edit
    makes another word ("ui" and "ux", "seo" and "see")."""
    if not word.isalpha() or len(word) < 5:
        return 0
    return 1 if len(word) < 8 else 2


@dataclass(frozen=True, slots=True)
class Passage:
    """A sentence (or the description) of a page, with its words, for snippets."""

    text: str
    tokens: tuple[Token, ...]
    stems: frozenset[str]


@dataclass(frozen=True, slots=True)
class Entry:
    document: Document
    passages: tuple[Passage, ...]  # the description first, then the body's sentences
    title_stems: frozenset[str]


def _passage(text: str) -> Passage:
    found = tuple(tokens(text))
    return Passage(text, found, frozenset(token.stem for token in found))


def _deletes(word: str, depth: int) -> set[str]:
    """`word` with up to `depth` letters deleted, `word` itself included."""
    found, layer = {word}, {word}
    for _ in range(depth):
        layer = {variant[:i] + variant[i + 1 :] for variant in layer for i in range(len(variant))}
        found |= layer
    return found


def edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance (a swap of neighbours is one edit), or `limit`
    + 1 as soon as it must exceed `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before, row = None, list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, char_b in enumerate(b, 1):
            cost = char_a != char_b
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if before is not None and i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        before, row = row, current
    return row[-1]


class SearchIndex:
    """Pages by stem, with the vocabulary for prefixes and misspellings."""

    def __init__(self, documents: tuple[Document, ...]) -> None:
        self.entries: tuple[Entry, ...] = tuple(
            Entry(
                document,
                (
                    _passage(document.description),
                    *(
                        _passage(sentence)
                        for paragraph in document.body
                        for sentence in _SENTENCE_END.split(paragraph)
                    ),
                ),
                frozenset(token.stem for token in tokens(document.title)),
            )
            for document in documents
        )
        counts = [self._field_counts(entry) for entry in self.entries]
        average = {
            field: max(1.0, sum(sum(c[field].values()) for c in counts) / max(1, len(counts)))
            for field in FIELD_WEIGHTS
        }
        # stem → {entry number: weighted, length-normalised term frequency}
        self.postings: dict[str, dict[int, float]] = defaultdict(dict)
        for number, fields in enumerate(counts):
            for field, counter in fields.items():
                length = sum(counter.values())
                norm = 1 - FIELD_B[field] + FIELD_B[field] * length / average[field]
                for word_stem, count in counter.items():
                    weighted = FIELD_WEIGHTS[field] * count / norm
                    self.postings[word_stem][number] = (
                        self.postings[word_stem].get(number, 0.0) + weighted
                    )
        total = len(self.entries)
        self.idf = {
            word_stem: math.log(1 + (total - len(pages) + 0.5) / (len(pages) + 0.5))
            for word_stem, pages in self.postings.items()
        }
        words = {
            token.word
            for entry in self.entries
            for passage in entry.passages
            for token in passage.tokens
        } | {
            token.word
            for entry in self.entries
            for text in (entry.document.title, *entry.document.also)
            for token in tokens(text)
        }
        self.vocabulary = tuple(sorted(words))
        self.longest = max(map(len, self.vocabulary), default=0)
        self.deletes: dict[str, list[str]] = defaultdict(list)
        for word in self.vocabulary:
            depth = 2 if len(word) >= 6 else 1 if len(word) >= 4 else 0
            if depth and word.isalpha():
                for variant in _deletes(word, depth):
                    self.deletes[variant].append(word)

    @staticmethod
    def _field_counts(entry: Entry) -> dict[str, Counter[str]]:
        description, *body = entry.passages
        counts = {
            "title": Counter(token.stem for token in tokens(entry.document.title)),
            "description": Counter(token.stem for token in description.tokens),
            "body": Counter(token.stem for passage in body for token in passage.tokens),
        }
        # A search word the page already uses would count twice: the page's own is kept.
        used = set().union(*counts.values())
        counts["also"] = Counter(
            token.stem
            for phrase in entry.document.also
            for token in tokens(phrase)
            if token.stem not in used
        )
        return counts

    def score(self, word_stem: str, number: int) -> float:
        """BM25F of one stem in one page (0 when the page lacks it)."""
        weighted = self.postings.get(word_stem, {}).get(number, 0.0)
        return self.idf.get(word_stem, 0.0) * weighted * (K1 + 1) / (K1 + weighted)

    def expansions(self, word: str) -> dict[str, float]:
        """The stems a query word stands for, each with how much a match counts: its own
        stem (1.0), words it begins (the visitor may still be typing), and, when the site
        does not use the word, words one or two letters away from it."""
        own = stem(word)
        found: dict[str, float] = {}
        if own in self.postings:
            found[own] = 1.0
        if len(word) >= PREFIX_MIN:
            start = bisect_left(self.vocabulary, word)
            for candidate in self.vocabulary[start : start + MAX_PREFIX_WORDS + 1]:
                if not candidate.startswith(word):
                    break
                found.setdefault(stem(candidate), PREFIX_FACTOR)
        if own not in self.postings:
            for candidate, distance in self._near(word):
                factor = TYPO_FACTORS[distance]
                found[stem(candidate)] = max(found.get(stem(candidate), 0.0), factor)
        return found

    def spelled(self, word: str) -> str:
        """The site's closest spelling of a word it does not use, else the word."""
        if stem(word) in self.postings:
            return word
        near = self._near(word)
        return near[0][0] if near else word

    def _near(self, word: str) -> list[tuple[str, int]]:
        limit = max_typos(word)
        # A word more than `limit` letters longer than every site word is no misspelling
        # of one: its deletions (as many as the square of its length) are not needed.
        if not limit or len(word) - limit > self.longest:
            return []
        candidates = sorted(
            {
                candidate
                for variant in _deletes(word, limit)
                for candidate in self.deletes.get(variant, ())
            }
        )[:MAX_TYPO_CANDIDATES]
        near = sorted(
            (distance, candidate)
            for candidate in candidates
            if (distance := edit_distance(word, candidate, limit)) <= limit
        )
        if not near:
            return []
        closest = near[0][0]  # "helthcare": "healthcare", not also words two edits away
        return [(candidate, distance) for distance, candidate in near if distance == closest][
            :MAX_TYPO_WORDS
        ]


@lru_cache(maxsize=1)
def site_index() -> SearchIndex:
    """The index of every public page, built on first use. Content and routes are fixed
    once the app has started (a new article means a new build), so it never goes stale."""
    return SearchIndex(site_documents())
