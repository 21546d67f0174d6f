"""The goals (requests sent, calls booked, registrations, won deals), counted from the
requests and accounts themselves, and the funnel from a visit to a won deal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, literal, select
from sqlmodel import Session, col

from rcxsite.analytics.dashboard.figures import Figures
from rcxsite.analytics.dashboard.filters import goal_filters, in_period, visit_filters
from rcxsite.analytics.dashboard.parts import daily, parts_of
from rcxsite.analytics.dashboard.period import Period
from rcxsite.analytics.rollups import PAGE
from rcxsite.core import paths
from rcxsite.leads.statuses import SPAM, WON
from rcxsite.models import AnalyticsDaily, AnalyticsVisit, Booking, Customer, QuoteRequest

GOALS = ("Quote requests", "Calls booked", "Registrations", "Won")


@dataclass(frozen=True, slots=True)
class Goal:
    name: str
    count: int
    rate: float | None  # per 100 visitors; None when the goals are not the visitors' own


def goal_counts(
    session: Session, period: Period, filters: dict[str, str], by: str | None
) -> dict[str, dict[str, int]]:
    """Each goal's count, by the value of a request's or account's column `by` (all under
    "" when None)."""
    booked = select(col(Booking.quote_request_id))
    request_of = col(QuoteRequest.created_at)
    statements: dict[str, tuple[Any, Any]] = {}
    quote_key = getattr(QuoteRequest, by) if by else literal("")
    customer_key = getattr(Customer, by) if by else literal("")
    statements["Quote requests"] = (
        quote_key,
        select(quote_key, func.count()).where(
            in_period(request_of, period),
            col(QuoteRequest.status) != SPAM,
            col(QuoteRequest.id).not_in(booked),
            *goal_filters(QuoteRequest, filters),
        ),
    )
    statements["Calls booked"] = (
        quote_key,
        select(quote_key, func.count())
        .select_from(QuoteRequest)
        .where(
            in_period(request_of, period),
            col(QuoteRequest.id).in_(booked),
            col(QuoteRequest.status) != SPAM,
            *goal_filters(QuoteRequest, filters),
        ),
    )
    statements["Registrations"] = (
        customer_key,
        select(customer_key, func.count()).where(
            in_period(col(Customer.created_at), period), *goal_filters(Customer, filters)
        ),
    )
    statements["Won"] = (
        quote_key,
        select(quote_key, func.count()).where(
            in_period(request_of, period),
            col(QuoteRequest.status) == WON,
            *goal_filters(QuoteRequest, filters),
        ),
    )
    counts: dict[str, dict[str, int]] = {}
    for goal, (key, statement) in statements.items():
        for value, count in session.execute(statement.group_by(key)):
            counts.setdefault(str(value), {})[goal] = int(count)
    return counts


def goals_of(totals: dict[str, int], figures: Figures, *, own: bool) -> list[Goal]:
    return [
        Goal(
            name,
            totals.get(name, 0),
            (100 * totals.get(name, 0) / figures.visitors if figures.visitors else 0.0)
            if own
            else None,
        )
        for name in GOALS
    ]


def _visits_that_viewed(
    session: Session, period: Period, filters: dict[str, str], path: str
) -> int:
    """Visits that viewed `path` (counted days: each day's visits that viewed it)."""
    parts = parts_of(session, period, filters)
    total = 0
    if parts.counted is not None:
        total += int(
            session.execute(
                select(func.coalesce(func.sum(col(AnalyticsDaily.visits)), 0)).where(
                    *daily(PAGE, parts.counted), col(AnalyticsDaily.value) == path
                )
            ).scalar_one()
        )
    for raw in parts.raw:
        total += int(
            session.execute(
                select(func.count()).where(
                    in_period(col(AnalyticsVisit.started_at), raw),
                    *visit_filters({**filters, "page": path}),
                )
            ).scalar_one()
        )
    return total


def funnel(
    session: Session,
    period: Period,
    filters: dict[str, str],
    *,
    figures: Figures,
    totals: dict[str, int],
    own: bool,
) -> list[tuple[str, int | None]]:
    """Each step and its count; a request's steps are None when the goals cannot be
    filtered as the visits are (`own` False)."""
    return [
        ("Visits", figures.visits),
        (
            f"Viewed {paths.QUOTE_TITLE}",
            _visits_that_viewed(session, period, filters, paths.QUOTE),
        ),
        (
            "Requests sent",
            totals.get("Quote requests", 0) + totals.get("Calls booked", 0) if own else None,
        ),
        ("Won", totals.get("Won", 0) if own else None),
    ]
