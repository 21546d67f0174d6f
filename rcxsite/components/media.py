"""Images with intrinsic size, so the layout never shifts while they load."""

from __future__ import annotations

import reflex as rx


def image(
    src: str,
    *,
    alt: str,
    width: int,
    height: int,
    lazy: bool = False,
    priority: bool = False,
    class_name: str = "",
) -> rx.Component:
    """`lazy` for images below the fold; `priority` for the one that paints first."""
    # Reflex turns width/height props into CSS; custom_attrs keeps them as HTML attributes.
    attrs = {"width": str(width), "height": str(height), "decoding": "async"}
    if lazy:
        attrs["loading"] = "lazy"
    if priority:
        attrs["fetchpriority"] = "high"
    return rx.el.img(src=src, alt=alt, class_name=class_name, custom_attrs=attrs)
