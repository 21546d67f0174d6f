"""The goals (requests sent, calls booked, registrations, won deals), counted from the
requests and accounts themselves, and the funnel from a visit to a won deal.

"Quote requests" counts every request but spam, those that booked a call too, as the
inbox's "All" does; "Calls booked" is the part of them that booked one. A request or
account keeps the source of the counted visit it came from; one sent by a visitor who
was not counted (privacy signals, a crawler) or through the API has none: it is "not
attributed", counted apart and never divided by the visitors, whose rates are of the
attributed ones only (so at most 100%)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, literal, select
from sqlmodel import Session, col

from rcxsite.analytics.dashboard.figures import Figures
from rcxsite.analytics.dashboard.filters import goal_filters, in_period, visit_filters
from rcxsite.analytics.dashboard.parts import parts_of
from rcxsite.analytics.dashboard.period import Period
from rcxsite.analytics.dimensions import PAGE
from rcxsite.analytics.sql import bucket_of
from rcxsite.core import paths
from rcxsite.leads.statuses import SPAM, WON
from rcxsite.models import AnalyticsVisit, Booking, Customer, QuoteRequest

GOALS = ("Quote requests", "Calls booked", "Registrations", "Won")


# The source of a request or account that no counted visit brought.
NOT_ATTRIBUTED = ""


@dataclass(frozen=True, slots=True)
class Goal:
    name: str
    count: int  # every one, attributed or not
    not_attributed: int
    # The attributed ones per 100 visitors (at most 100); None when the goals are not the
    # visitors' own (see filters.goals_filtered).
    rate: float | None


def rate(count: int, visitors: int) -> float | None:
    """`count` per 100 of `visitors`, at most 100 (a visitor may send two requests); None
    without visitors."""
    return min(100 * count / visitors, 100.0) if visitors else None


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


def requests_by_bucket(session: Session, period: Period, filters: dict[str, str]) -> dict[str, int]:
    """Quote requests (every one but spam, as the goal counts them) per bucket key."""
    bucket = bucket_of(session, col(QuoteRequest.created_at), period.bucket).label("bucket")
    statement = (
        select(bucket, func.count())
        .where(
            in_period(col(QuoteRequest.created_at), period),
            col(QuoteRequest.status) != SPAM,
            *goal_filters(QuoteRequest, filters),
        )
        .group_by(bucket)
    )
    return {str(key): int(count) for key, count in session.execute(statement)}


def by_attribution(
    session: Session, period: Period, filters: dict[str, str]
) -> tuple[dict[str, int], dict[str, int]]:
    """Each goal's count of the attributed ones, and of the others."""
    attributed: dict[str, int] = {}
    others: dict[str, int] = {}
    for source, goals in goal_counts(session, period, filters, "source").items():
        into = others if source == NOT_ATTRIBUTED else attributed
        for goal, count in goals.items():
            into[goal] = into.get(goal, 0) + count
    return attributed, others


def goals_of(
    attributed: dict[str, int], others: dict[str, int], figures: Figures, *, own: bool
) -> list[Goal]:
    return [
        Goal(
            name,
            attributed.get(name, 0) + others.get(name, 0),
            others.get(name, 0),
            rate(attributed.get(name, 0), figures.visitors) if own else None,
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
        table, conditions = parts.rows(PAGE)
        total += int(
            session.execute(
                select(func.coalesce(func.sum(col(table.visits)), 0)).where(
                    *conditions, col(table.value) == path
                )
            ).scalar_one()
        )
    for raw in parts.raw:
        total += int(
            session.execute(
                select(func.count()).where(
                    in_period(col(AnalyticsVisit.started_at), raw),
                    *visit_filters(filters),
                    *visit_filters({"page": path}),  # and the page filter, if any
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
    """Each step and its count, from the counted visits (`totals`: the attributed goals);
    a request's steps are None when the goals cannot be filtered as the visits are (`own`
    False)."""
    return [
        ("Visits", figures.visits),
        (
            f"Viewed {paths.QUOTE_TITLE}",
            _visits_that_viewed(session, period, filters, paths.QUOTE),
        ),
        (
            "Requests sent",
            totals.get("Quote requests", 0) if own else None,
        ),
        ("Won", totals.get("Won", 0) if own else None),
    ]
