"""The analytics feature's screens: the counting of page views (its middleware and a
tab's touches)."""
