"""Words as the search sees them: found in text with their places, folded and stemmed.

The index and the query go through the same functions, so whatever a page says and
whatever a visitor types meet in one form: "Testing", "tests" and "tested" all become
"test", "Développement" and "development" the same word.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

# A word, or words joined by hyphens ("e-commerce", "24-hour"): both the parts and the
# joined form are words, so "ecommerce" finds "E-commerce" and "commerce" finds it too.
_COMPOUND = re.compile(r"[^\W_]+(?:-[^\W_]+)*")
_PART = re.compile(r"[^\W_]+")

# The longest word the search works with, in folded letters: a longer one is cut to this.
# The 100-character limit counts what was typed, and folding can make one character
# several letters (U+FDF8 four, "ß" two), while stemming and the typo lookup cost more
# than in proportion to a word's length. The site's longest word has 20 letters
# ("infrastructureascode"); the index cuts its words alike, so a longer one still meets.
MAX_WORD_CHARS = 32

# Words too common to tell pages apart. "about", "work" and "life" are page titles here.
STOPWORDS = frozenset(
    (
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "can",
        "do",
        "for",
        "from",
        "has",
        "have",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "no",
        "not",
        "of",
        "on",
        "or",
        "our",
        "s",
        "so",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "too",
        "us",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "with",
        "you",
        "your",
    )
)

# (suffix, replacement, shortest stem left): the longest matching suffix goes first, and
# the rules apply again to what is left ("engineering" → "engineer" → "engine").
_RULES: tuple[tuple[str, str, int], ...] = (
    ("ational", "ate", 3),
    ("ations", "ate", 3),
    ("ation", "ate", 3),
    ("ments", "", 4),
    ("ment", "", 4),
    ("sses", "ss", 2),
    ("ies", "y", 2),
    ("ied", "y", 2),
    ("ing", "", 3),
    ("ers", "", 5),  # "developers" → "develop", but "careers" stays "career"
    ("er", "", 5),
    ("ed", "", 3),
    ("ly", "", 4),
    ("es", "", 3),
    ("s", "", 3),
)
# Endings "-es" and "-s" must not be taken from: "process", "status", "analysis".
_KEEP_S = ("ss", "us", "is")
_ES_AFTER = ("sh", "ch", "x", "z", "ss")
_NO_UNDOUBLE = frozenset("lsz")


def fold(word: str) -> str:
    """Lower case without accents: "Développement" → "developpement"."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def _strip_once(word: str) -> str:
    for suffix, replacement, shortest in _RULES:
        if not word.endswith(suffix) or len(word) - len(suffix) < shortest:
            continue
        stem = word[: len(word) - len(suffix)]
        if suffix == "s" and word.endswith(_KEEP_S):
            return word
        if suffix == "es" and not stem.endswith(_ES_AFTER):
            continue  # "services" loses only its "s" (below), then its "e"
        if (
            replacement == ""
            and len(stem) > 3
            and stem[-1] == stem[-2]
            and stem[-1] not in _NO_UNDOUBLE
            and stem[-1] not in "aeiou"
        ):
            return stem[:-1]  # "planned" → "plan", "shopping" → "shop"
        if suffix in ("ing", "ed") and _short(stem):
            return stem + "e"  # "coding" → "code", "based" → "base"
        return stem + replacement
    return word


def _short(stem: str) -> bool:
    """Consonant, vowel, consonant: a word that lost its final "e" to -ing or -ed."""
    vowels = "aeiou"
    return (
        len(stem) == 3
        and stem[0] not in vowels
        and stem[1] in vowels
        and stem[2] not in vowels
        and stem[2] not in "wxy"
    )


def stem(word: str) -> str:
    """A light English stemmer: plural, -ing, -ed, -er, -ly, -ment and -ation forms of a
    word share one stem. Not Porter's: fewer rules, enough for a site of a few hundred
    pages, and it errs on the side of leaving a word alone. `word` is already folded;
    one longer than MAX_WORD_CHARS is left alone (and kept out of the cache)."""
    if len(word) <= 3 or len(word) > MAX_WORD_CHARS or not word.isalpha():
        return word
    return _stem(word)


def clear_stem_cache() -> None:
    """Forget the stems worked out so far, as a new worker starts."""
    _stem.cache_clear()


# Keys are at most MAX_WORD_CHARS long: a full cache holds a few megabytes at most.
@lru_cache(maxsize=16384)
def _stem(word: str) -> str:
    while True:
        shorter = _strip_once(word)
        if shorter == word:
            break
        word = shorter
    # "price" and "pricing", "scale" and "scaling": the final "e" is dropped from both
    # (not from "care", "code": their -ing forms get it back above).
    if len(word) >= 5 and word.endswith("e"):
        word = word[:-1]
    return word


@dataclass(frozen=True, slots=True)
class Token:
    """A word of a text: where it stands (`start`, `end`), as folded and as stemmed."""

    start: int
    end: int
    word: str
    stem: str


def tokens(text: str) -> Iterator[Token]:
    """Every word of `text` but stop words and single letters, joined compounds included
    (after their parts); each folded and cut to MAX_WORD_CHARS."""
    for compound in _COMPOUND.finditer(text):
        parts = list(_PART.finditer(compound.group()))
        for part in parts:
            word = fold(part.group())[:MAX_WORD_CHARS]
            if _wanted(word):
                yield Token(
                    compound.start() + part.start(), compound.start() + part.end(), word, stem(word)
                )
        if len(parts) > 1:
            joined = fold("".join(part.group() for part in parts))[:MAX_WORD_CHARS]
            yield Token(compound.start(), compound.end(), joined, stem(joined))


def _wanted(word: str) -> bool:
    return (len(word) > 1 or word.isdigit()) and word not in STOPWORDS


def words(text: str) -> list[str]:
    """The folded words of `text` in order, without duplicates (a query's terms)."""
    return list(dict.fromkeys(token.word for token in tokens(text)))
