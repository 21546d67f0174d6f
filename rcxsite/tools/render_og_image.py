"""Render ``assets/og-image.svg`` to ``assets/og-image.png`` (1200x630).

Why a PNG at all: social networks (Facebook, LinkedIn, X, Slack, WhatsApp …) do not show
SVG images in link previews, so the ``og:image`` tag must point at a raster image. The SVG
stays the editable source; run this script after changing it::

    python -m rcxsite.tools.render_og_image

It drives Debian's Chromium (``/usr/bin/chromium``) through Playwright for Python: the SVG is
set inline as the page content at a 1200x630 viewport and the page is screenshotted.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from rcxsite.tools.chromium import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]
SVG_PATH = ROOT / "assets" / "og-image.svg"
PNG_PATH = ROOT / "assets" / "og-image.png"
WIDTH, HEIGHT = 1200, 630


def render_svg(svg_path: Path, png_path: Path, width: int = WIDTH, height: int = HEIGHT) -> Path:
    """Screenshot ``svg_path`` (inlined in a blank page) to ``png_path`` at width x height."""
    svg = svg_path.read_text(encoding="utf-8")
    html = (
        "<!doctype html><html><head><meta charset='utf-8'><style>"
        "html,body{margin:0;padding:0;overflow:hidden}"
        "svg{display:block}"
        f"</style></head><body>{svg}</body></html>"
    )
    png_path.parent.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS))
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.set_content(html, wait_until="load")
            page.screenshot(
                path=str(png_path),
                clip={"x": 0, "y": 0, "width": width, "height": height},
            )
        finally:
            browser.close()
    return png_path


def main() -> int:
    out = render_svg(SVG_PATH, PNG_PATH)
    print(f"wrote {out.relative_to(ROOT)} ({WIDTH}x{HEIGHT})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
