"""Answering a query: the pages that match, best first, each with a snippet.

Every word narrows: a page must match all of them (by its own form, another form of it,
a word it begins or a near spelling). Only when no page matches every word do pages that
match some of them come back, marked as such, most words first. A snippet is plain text
in segments, each marked highlighted or not, so no page ever renders HTML made from a
query.
"""

from __future__ import annotations

from dataclasses import dataclass

from rcxsite.search.index import PREFIX_FACTOR, Passage, SearchIndex
from rcxsite.search.text import stem, words

MAX_WORDS = 8  # a query of 100 characters has no more useful words than this
MAX_HITS = 20
SNIPPET_CHARS = 220
SENTENCE_CHARS = 60
SHORT_PASSAGE = 0.6
# A page whose title holds every word ranks above one that only mentions them, and one
# that has them in one sentence above one that has them far apart.
TITLE_BONUS = 1.3
EXACT_TITLE_BONUS = 2.0  # the query is the page's title
SENTENCE_BONUS = 1.15
PHRASE_BONUS = 1.4  # the words next to each other, in the query's order
ELLIPSIS = "…"


@dataclass(frozen=True, slots=True)
class Segment:
    text: str
    highlighted: bool


@dataclass(frozen=True, slots=True)
class Hit:
    path: str
    title: str
    kind: str
    snippet: tuple[Segment, ...]
    score: float


@dataclass(frozen=True, slots=True)
class Matches:
    """`every_word`: False when no page matched all the words and `hits` match some;
    `total`: how many pages matched, of which `hits` are the first MAX_HITS; `spelled`:
    the words as the site spells them, when some were misspelt ("" otherwise)."""

    words: tuple[str, ...]
    hits: tuple[Hit, ...]
    every_word: bool = True
    total: int = 0
    spelled: str = ""


def find(text: str, index: SearchIndex) -> Matches:
    """The pages of `index` that match `text`, best first (at most MAX_HITS)."""
    query = tuple(words(text))[:MAX_WORDS]
    expansions = [index.expansions(word) for word in query]
    scores: dict[int, float] = {}
    matched: dict[int, int] = {}
    # Query words a page has as whole words (or misspelt ones), not only as the start of
    # longer words: pages with more of them rank first, whatever their scores.
    whole: dict[int, int] = {}
    for stems in expansions:
        best: dict[int, float] = {}
        wholly: set[int] = set()
        for word_stem, factor in stems.items():
            for number in index.postings.get(word_stem, {}):
                value = factor * index.score(word_stem, number)
                best[number] = max(best.get(number, 0.0), value)
                if factor > PREFIX_FACTOR:
                    wholly.add(number)
        for number, value in best.items():
            weighted = value * index.entries[number].document.weight
            scores[number] = scores.get(number, 0.0) + weighted
            matched[number] = matched.get(number, 0) + 1
            whole[number] = whole.get(number, 0) + (number in wholly)
    every_word = [number for number, count in matched.items() if count == len(query)]
    if every_word:
        own = frozenset(stem(word) for word in query)
        for number in every_word:
            scores[number] *= _bonus(index, number, expansions, own)
        ranked = sorted(every_word, key=lambda n: (-whole[n], -scores[n]))
    else:
        ranked = sorted(matched, key=lambda n: (-matched[n], -whole[n], -scores[n]))
    all_stems = frozenset(word_stem for stems in expansions for word_stem in stems)
    hits = tuple(
        Hit(
            path=index.entries[number].document.path,
            title=index.entries[number].document.title,
            kind=index.entries[number].document.kind,
            snippet=snippet(index.entries[number].passages, expansions, all_stems),
            score=round(scores[number], 4),
        )
        for number in ranked[:MAX_HITS]
    )
    spelled = tuple(index.spelled(word) for word in query)
    return Matches(
        query,
        hits,
        every_word=bool(every_word) or not hits,
        total=len(ranked),
        spelled=" ".join(spelled) if hits and spelled != query else "",
    )


def _bonus(
    index: SearchIndex, number: int, expansions: list[dict[str, float]], own: frozenset[str]
) -> float:
    entry = index.entries[number]
    if entry.title_stems == own:
        return EXACT_TITLE_BONUS
    if all(entry.title_stems & stems.keys() for stems in expansions):
        return TITLE_BONUS
    if len(expansions) < 2:
        return 1.0
    together = [
        passage
        for passage in entry.passages
        if all(passage.stems & stems.keys() for stems in expansions)
    ]
    if any(_has_phrase(passage, expansions) for passage in together):
        return PHRASE_BONUS
    return SENTENCE_BONUS if together else 1.0


def _has_phrase(passage: Passage, expansions: list[dict[str, float]]) -> bool:
    found = passage.tokens
    return any(
        all(found[start + offset].stem in stems for offset, stems in enumerate(expansions))
        for start in range(len(found) - len(expansions) + 1)
    )


def snippet(
    passages: tuple[Passage, ...], expansions: list[dict[str, float]], stems: frozenset[str]
) -> tuple[Segment, ...]:
    """The passage that matches the most query words (the description on a tie), cut to
    about SNIPPET_CHARS around its first match, with the matching words highlighted."""

    def rank(passage: Passage) -> float:
        covered = sum(1 for word_stems in expansions if passage.stems & word_stems.keys())
        # A sentence says more than a heading, a list item or a list of tags: it wins
        # with fewer of the words, not with a third as many.
        return covered * (1.0 if len(passage.text) >= SENTENCE_CHARS else SHORT_PASSAGE)

    best = max(passages, key=rank)  # max() keeps the first of equals
    spans = _merged([(token.start, token.end) for token in best.tokens if token.stem in stems])
    start, end = _window(best.text, spans[0][0] if spans else 0)
    segments: list[Segment] = []
    position = start
    for span_start, span_end in spans:
        if span_end <= start or span_start >= end:
            continue
        span_start, span_end = max(span_start, start), min(span_end, end)
        if span_start > position:
            segments.append(Segment(best.text[position:span_start], False))
        segments.append(Segment(best.text[span_start:span_end], True))
        position = span_end
    if position < end:
        segments.append(Segment(best.text[position:end], False))
    if start > 0:
        segments.insert(0, Segment(ELLIPSIS, False))
    if end < len(best.text):
        segments.append(Segment(ELLIPSIS, False))
    return tuple(segments)


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping spans as one: a compound ("e-commerce") and its parts."""
    merged: list[tuple[int, int]] = []
    for span_start, span_end in sorted(spans):
        if merged and span_start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], span_end))
        else:
            merged.append((span_start, span_end))
    return merged


def _window(text: str, first_match: int) -> tuple[int, int]:
    """About SNIPPET_CHARS of `text` showing `first_match`, cut at spaces."""
    if len(text) <= SNIPPET_CHARS:
        return 0, len(text)
    start = 0
    if first_match > SNIPPET_CHARS * 2 // 3:
        start = text.rfind(" ", 0, max(0, first_match - SNIPPET_CHARS // 3)) + 1
    end = start + SNIPPET_CHARS
    if end >= len(text):
        return start, len(text)
    cut = text.rfind(" ", start, end)
    return start, cut if cut > start else end
