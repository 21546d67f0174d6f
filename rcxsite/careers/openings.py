"""An opening's title by its slug, also for applications to an opening since closed."""

from __future__ import annotations

from rcxsite.content.careers import opening_of


def opening_title(slug: str) -> str:
    try:
        return opening_of(slug).title
    except StopIteration:  # an opening since taken off the site
        return slug.replace("-", " ").capitalize()
