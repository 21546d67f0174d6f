"""The dimensions the counts are kept by, as the daily tables name them."""

from __future__ import annotations

TOTAL = ""  # the day's totals
PAGE = "page"  # counted over the views
# The dimensions counted over the visits, by the visit's column.
VISIT_DIMENSIONS = {
    "entry": "entry_path",
    "source": "source",
    "campaign": "campaign",
    "country": "country",
    "device": "device",
    "browser": "browser",
}
