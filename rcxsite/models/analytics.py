"""First-party analytics: page views, the visits they make up, and the daily salts that
make a visitor an anonymous id (see rcxsite/analytics).

No address, full user agent or cookie is stored: a visitor is a keyed hash that changes
every day, and each row keeps only families (browser, OS), a device class and a country.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

from rcxsite.models.types import UTCDateTime, utcnow

VISITOR_LENGTH = 32  # hex of a 16-byte keyed hash
PATH_MAX = 300
HOST_MAX = 255
UTM_MAX = 100
FAMILY_MAX = 50
COUNTRY_LENGTH = 2
SALT_LENGTH = 64


class AnalyticsSalt(SQLModel, table=True):
    """One random salt a day, shared by every worker; deleted after 48 hours, so nobody,
    us included, can tie yesterday's visitor ids to an address afterwards."""

    __tablename__ = "analytics_salt"

    day: date = Field(primary_key=True)
    salt: str = Field(max_length=SALT_LENGTH)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class _Seen(SQLModel):
    """What a view, and the visit it starts, keep of where it came from and of whom."""

    referrer_host: str = Field(default="", max_length=HOST_MAX)
    # "Direct" when none of the below says otherwise.
    source: str = Field(default="", max_length=UTM_MAX)
    medium: str = Field(default="", max_length=UTM_MAX)
    campaign: str = Field(default="", max_length=UTM_MAX)
    country: str = Field(default="", max_length=COUNTRY_LENGTH)
    device: str = Field(default="", max_length=FAMILY_MAX)
    browser: str = Field(default="", max_length=FAMILY_MAX)
    os: str = Field(default="", max_length=FAMILY_MAX)


class AnalyticsVisit(_Seen, table=True):
    """A visitor's views with no 30-minute gap between them, and where they came from."""

    __tablename__ = "analytics_visit"
    __table_args__ = (
        Index("ix_analytics_visit_started_at", "started_at"),
        Index("ix_analytics_visit_visitor_last_at", "visitor", "last_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    visitor: str = Field(max_length=VISITOR_LENGTH)
    started_at: datetime = Field(sa_type=UTCDateTime)
    last_at: datetime = Field(sa_type=UTCDateTime)
    views: int = 1
    entry_path: str = Field(max_length=PATH_MAX)


class AnalyticsView(_Seen, table=True):
    """One page view: a first load or a move to another page inside the site."""

    __tablename__ = "analytics_view"
    __table_args__ = (
        Index("ix_analytics_view_at", "at"),
        Index("ix_analytics_view_visit_id", "visit_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    visit_id: int
    visitor: str = Field(max_length=VISITOR_LENGTH)
    at: datetime = Field(sa_type=UTCDateTime)
    # The route's pattern, never the query string (which may carry a link's token).
    path: str = Field(max_length=PATH_MAX)
    term: str = Field(default="", max_length=UTM_MAX)
    content: str = Field(default="", max_length=UTM_MAX)


class Attributed(SQLModel):
    """Where the visitor who sent a row came from: the tab's first touch (its landing page
    and what brought it there) and its last touch that was not direct. Empty when the row
    did not come from a counted tab (the REST API, a visitor who asked not to be counted)."""

    source: str = Field(default="", max_length=UTM_MAX)
    medium: str = Field(default="", max_length=UTM_MAX)
    campaign: str = Field(default="", max_length=UTM_MAX)
    landing_page: str = Field(default="", max_length=PATH_MAX)
    last_source: str = Field(default="", max_length=UTM_MAX)
    last_medium: str = Field(default="", max_length=UTM_MAX)
    last_campaign: str = Field(default="", max_length=UTM_MAX)


class AnalyticsDaily(SQLModel, table=True):
    """One UTC day's counts, in total (`dimension` "") and by page, entry page, source,
    campaign, country, device and browser: the dashboard reads these for whole days
    instead of the views (rcxsite/analytics/rollups.py). For pages, `visits` is the visits
    that viewed the page."""

    __tablename__ = "analytics_daily"

    day: date = Field(primary_key=True)
    dimension: str = Field(primary_key=True, max_length=16)
    value: str = Field(primary_key=True, max_length=PATH_MAX)
    visitors: int = 0
    visits: int = 0
    views: int = 0
    bounces: int = 0
    duration_seconds: float = 0.0


class AnalyticsDailyPair(SQLModel, table=True):
    """One UTC day's counts under one filter (`filter` = `filter_value`, a dimension of
    AnalyticsDaily), in total (`dimension` "") and by each dimension: what a dashboard
    with one filter reads for whole days (rcxsite/analytics/pair_rollups.py). The key
    leads with the filter, so a period's rows of one filter are one range of the index."""

    __tablename__ = "analytics_daily_pair"
    __table_args__ = (Index("ix_analytics_daily_pair_day", "day"),)

    filter: str = Field(primary_key=True, max_length=16)
    filter_value: str = Field(primary_key=True, max_length=PATH_MAX)
    dimension: str = Field(primary_key=True, max_length=16)
    day: date = Field(primary_key=True)
    value: str = Field(primary_key=True, max_length=PATH_MAX)
    visitors: int = 0
    visits: int = 0
    views: int = 0
    bounces: int = 0
    duration_seconds: float = 0.0
