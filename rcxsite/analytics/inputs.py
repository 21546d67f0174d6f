"""The dashboard's question: a period (one of the fixed ones, or two dates) and the filters
chosen by clicking rows. One model with its limits and texts, as the screen sends it."""

from __future__ import annotations

from datetime import date
from typing import Literal, get_args

from pydantic import Field, ValidationInfo, field_validator

from rcxsite.core.forms import FormInput, problem
from rcxsite.models.analytics import HOST_MAX, PATH_MAX

PeriodKey = Literal["today", "7d", "30d", "month", "last_month", "12m", "custom"]
PERIODS: dict[str, str] = {
    "today": "Today",
    "7d": "Last 7 days",
    "30d": "Last 30 days",
    "month": "This month",
    "last_month": "Last month",
    "12m": "Last 12 months",
    "custom": "Custom",
}
Dimension = Literal["page", "entry", "source", "campaign", "country", "device", "browser"]
DIMENSIONS: tuple[Dimension, ...] = get_args(Dimension)
# The longest custom period: what is kept of the views (ANALYTICS_KEEP_MONTHS) and more.
MAX_DAYS = 800

PERIOD_INVALID = "Please choose a period."
DATE_REQUIRED = "Please choose both dates."
DATES_REVERSED = "The first date must not be after the last."
TOO_LONG = f"Please choose at most {MAX_DAYS} days."
FILTER_INVALID = "This filter is not one the dashboard knows."
EARLIEST, LATEST = date(2000, 1, 1), date(2099, 12, 31)
OUT_OF_RANGE = "Please choose dates between 2000 and 2099."


class DashboardQuery(FormInput):
    period: str = Field("30d", max_length=20)
    start: date | None = None
    end: date | None = None
    filters: dict[str, str] = Field(default_factory=dict)

    @field_validator("period")
    @classmethod
    def _period(cls, value: str) -> str:
        if value not in PERIODS:
            raise problem(PERIOD_INVALID)
        return value

    @field_validator("end")
    @classmethod
    def _dates(cls, value: date | None, info: ValidationInfo) -> date | None:
        if info.data.get("period") != "custom":
            return value
        start = info.data.get("start")
        if start is None or value is None:
            raise problem(DATE_REQUIRED)
        if start > value:
            raise problem(DATES_REVERSED)
        if (value - start).days >= MAX_DAYS:
            raise problem(TOO_LONG)
        if start < EARLIEST or value > LATEST:
            raise problem(OUT_OF_RANGE)
        return value

    @field_validator("filters")
    @classmethod
    def _filters(cls, value: dict[str, str]) -> dict[str, str]:
        for dimension, chosen in value.items():
            if dimension not in DIMENSIONS or len(chosen) > max(PATH_MAX, HOST_MAX):
                raise problem(FILTER_INVALID)
        return value
