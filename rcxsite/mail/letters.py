"""A mail's words, written once: its plain-text part and its HTML part are both made from
one list of paragraphs, so the two never say different things.

A paragraph is a text, or a tuple of texts and links, or a `Table` (labels and values) or
a `Verbatim` block (a visitor's message, kept as typed). Everything is escaped for HTML
here; the texts are never HTML.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from sqlmodel import Session

from rcxsite.mail.outgoing import send_mail


@dataclass(frozen=True)
class Link:
    """A link in a paragraph. The mail's main action (`action`) also has its address on a
    line of its own: after the paragraph in plain text, and spelled out for mail readers
    that block links in HTML."""

    text: str
    url: str
    action: bool = False


@dataclass(frozen=True)
class Table:
    rows: Sequence[tuple[str, str]]


@dataclass(frozen=True)
class Verbatim:
    """A block kept as typed (line breaks included), under its heading."""

    heading: str
    text: str


Part = str | Link
Paragraph = str | tuple[Part, ...] | Table | Verbatim

_FALLBACK = "If the link does not work, copy this address into your browser:"


def aligned(rows: Sequence[tuple[str, str]]) -> str:
    """A plain-text table: "Label:" padded so that the values line up, a line each."""
    width = max(len(label) for label, _ in rows) + 2
    return "".join(f"{label + ':':<{width}}{value}\n" for label, value in rows)


def _parts(paragraph: str | tuple[Part, ...]) -> tuple[Part, ...]:
    return (paragraph,) if isinstance(paragraph, str) else paragraph


def _actions(paragraph: Paragraph) -> list[Link]:
    if isinstance(paragraph, Table | Verbatim):
        return []
    return [part for part in _parts(paragraph) if isinstance(part, Link) and part.action]


def _text_part(part: Part) -> str:
    if isinstance(part, str):
        return part
    # A mail address that is its own link's text is not spelled out twice.
    if part.action or part.url == f"mailto:{part.text}":
        return part.text
    return f"{part.text} ({part.url})"


def _html_part(part: Part) -> str:
    if isinstance(part, str):
        return escape(part)
    return f'<a href="{escape(part.url, quote=True)}">{escape(part.text)}</a>'


@dataclass(frozen=True)
class Letter:
    paragraphs: tuple[Paragraph, ...]

    def text(self) -> str:
        blocks: list[str] = []
        for paragraph in self.paragraphs:
            if isinstance(paragraph, Table):
                blocks.append(aligned(paragraph.rows).rstrip("\n"))
            elif isinstance(paragraph, Verbatim):
                blocks.append(f"{paragraph.heading}:\n{paragraph.text}")
            else:
                blocks.append("".join(_text_part(part) for part in _parts(paragraph)))
                blocks.extend(link.url for link in _actions(paragraph))
        return "\n\n".join(blocks) + "\n"

    def html(self) -> str:
        blocks: list[str] = []
        for paragraph in self.paragraphs:
            if isinstance(paragraph, Table):
                rows = "".join(
                    f'<tr><th style="text-align:left;padding-right:1em">{escape(label)}</th>'
                    f"<td>{escape(value)}</td></tr>"
                    for label, value in paragraph.rows
                )
                blocks.append(f"<table>{rows}</table>")
            elif isinstance(paragraph, Verbatim):
                blocks.append(
                    f"<h3>{escape(paragraph.heading)}</h3>"
                    f'<p style="white-space:pre-wrap">{escape(paragraph.text)}</p>'
                )
            else:
                blocks.append(f"<p>{''.join(_html_part(part) for part in _parts(paragraph))}</p>")
                blocks.extend(
                    f"<p>{escape(_FALLBACK)}<br>{escape(link.url)}</p>"
                    for link in _actions(paragraph)
                )
        body = "".join(blocks)
        return f'<!doctype html><html><body style="font-family:sans-serif">{body}</body></html>'


def letter(*paragraphs: Paragraph) -> Letter:
    return Letter(paragraphs)


def send_letter(
    to: str, subject: str, *paragraphs: Paragraph, session: Session | None = None, **options: Any
) -> None:
    """Queue the mail of `paragraphs` (`options` as `send_mail` takes them: reply_to,
    after, after_ref)."""
    words = letter(*paragraphs)
    send_mail(
        session=session, to=to, subject=subject, text=words.text(), html=words.html(), **options
    )
