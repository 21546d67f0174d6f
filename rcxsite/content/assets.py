"""Where the site's static files (pictures, logos, documents) live."""

from pathlib import Path

ASSETS_DIR = Path(__file__).resolve().parents[2] / "assets"
