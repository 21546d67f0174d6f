"""What the sales inbox lists: the filter, one page of requests, and the same rows as CSV.

The filter is one `InboxFilter` for the page and the export, turned into SQL conditions
in one place (`_conditions`), so "Export CSV" writes exactly the rows the screen selects.
Counts per status are taken under the same owner, date and search filter (not the status
filter), so each status tab says how many requests choosing it would show.

A new search looks in every status but spam (`with_search`): the status chosen before it
would otherwise hide what the member is looking for. Each row says how long ago it
arrived, and a request still New once a working day of the company's week has passed
since it arrived (rcxsite/core/working_week.py) is overdue: the site promises a reply
within one working day. Both are measured on `now`, the wall clock unless a caller
passes another.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import ColumnElement, and_, case, or_, true
from sqlmodel import Session, col, func, select
from sqlmodel.sql.expression import Select

from rcxsite.booking import wording
from rcxsite.booking.outcomes import CallView, calls_of_requests
from rcxsite.content.quote import BUDGETS, SERVICE_CHOICES, label_of
from rcxsite.core import audit
from rcxsite.core.csv_cells import defuse
from rcxsite.core.forms import INVALID_CHARACTERS, has_forbidden_characters, too_long
from rcxsite.core.permissions import Permission, StaffActor, require
from rcxsite.core.service_errors import ServiceError
from rcxsite.core.working_week import last_arrival_due
from rcxsite.leads.export import HEADER, request_cells
from rcxsite.leads.statuses import NEW, QUOTE_STATUSES, SPAM, STATUS_LABELS
from rcxsite.models import Booking, QuoteRequest, StaffMember, utcnow
from rcxsite.models.booking import ACTIVE_STATUSES, BOOKED
from rcxsite.platform.db import session_scope
from rcxsite.staff.exports import READ_IN_CHUNKS, bounded_csv
from rcxsite.staff.inbox_detail import preferred_start
from rcxsite.staff.inbox_inputs import member_id

PAGE_SIZE = 50
SEARCH_MAX = 200
# Every status but spam: what "All" lists. Spam shows only when asked for by name.
ALL = "all"
STATUS_FILTERS: tuple[str, ...] = (*QUOTE_STATUSES, ALL)
# The roles that may own a quote request (those that may work the inbox).
OWNER_ROLES: tuple[str, ...] = ("admin", "sales")
MINE = "mine"
UNASSIGNED = "unassigned"
EXPORT_HEADER = (*HEADER, "status", "owner", "lost_reason")
# What the inbox screen can narrow when an export is too large for one download.
EXPORT_FILTERS = "status, owner, dates or search"
BAD_FILTER = "Please correct the filter."
# What the call column says of a time the visitor only preferred (nothing was booked).
PREFERRED = "Preferred"
# The call column of a request sent without one.
NO_CALL_SHORT = "No call"
# The status a request waits in for its first reply, and so the only one that is overdue.
AWAITING_REPLY = NEW
_LIKE_ESCAPE = "\\"
# The columns the list sorts by, each ascending; "-" before one reverses it. The default
# order ("") is the newest first, with New's overdue requests first, the longest waiting
# at the top (what needs a reply this morning), and "Calls today" by the call's time.
SORTS = ("received", "call", "status", "owner")
SORT_INVALID = "Please choose a column to sort by."


@dataclass(frozen=True, slots=True)
class InboxFilter:
    """What the inbox shows. `status`: one of QUOTE_STATUSES, or "all" (every status but
    spam); `owner`: "" any, "mine", "unassigned" or a member id as text; `since`/`until`:
    UTC days, both inclusive; `search`: text found case-blind in name, email, company or
    message (at most SEARCH_MAX characters; % and _ match themselves)."""

    status: str = NEW
    owner: str = ""
    since: date | None = None
    until: date | None = None
    search: str = ""
    # Only requests whose booked call is today, on the member's clock.
    calls_today: bool = False
    # One of SORTS, "-" and one of them, or "" (the default order).
    sort: str = ""


@dataclass(frozen=True, slots=True)
class InboxRow:
    id: int
    received: datetime
    name: str
    email: str
    company: str
    service: str
    service_label: str
    budget_label: str
    status: str
    status_label: str
    owner_id: int | None
    owner_name: str
    # The call on the viewing member's clock, their zone named ("Tue 2 Mar 2027, 10:00
    # (Europe/London)"): the booked one, else the time the visitor preferred; "" if none.
    call: str
    # The booked call's status unless Booked ("Cancelled", "Held"...), PREFERRED for a
    # time that was only a preference, "" otherwise.
    call_status: str
    # How long ago it arrived: "just now", "5 min", "2 h", "3 days".
    age: str
    # Still New a working day after it arrived.
    overdue: bool


@dataclass(frozen=True, slots=True)
class MemberChoice:
    """A member who may own requests: the owner filter's and select's options."""

    id: int
    name: str


@dataclass(frozen=True, slots=True)
class InboxPage:
    rows: Sequence[InboxRow]
    total: int
    page: int
    pages: int
    # Every status of QUOTE_STATUSES and "all", under the owner, date and search filter.
    counts: dict[str, int]
    members: Sequence[MemberChoice]
    # The overdue requests among counts["new"] (the same filter).
    overdue: int = 0
    # Requests (not spam) under the same owner, date and search filter whose booked
    # call is today on the member's clock.
    calls_today: int = 0


def with_search(where: InboxFilter, search: str) -> InboxFilter:
    """The filter once the member has typed `search`: a new search starts from "all"
    (every status but spam), whatever status was chosen before, so a name is found
    wherever its request is now (a request rescued from spam while the Spam chip was
    chosen, one moved on from New); a status chosen while searching then narrows it. The
    same search again, or clearing it, keeps the status."""
    if search.strip() and search.strip() != where.search.strip():
        return replace(where, status=ALL, search=search)
    return replace(where, search=search)


def age_text(age: timedelta) -> str:
    """How long a request has waited, as the list says it: "just now" for the first
    minute, then "5 min", "2 h" and "3 days" (whole units, rounded down)."""
    minutes = int(age.total_seconds() // 60)
    if minutes < 1:
        return "just now"
    if minutes < 60:
        return f"{minutes} min"
    if minutes < 24 * 60:
        return f"{minutes // 60} h"
    days = minutes // (24 * 60)
    return "1 day" if days == 1 else f"{days} days"


def _checked(where: InboxFilter) -> InboxFilter:
    """The filter with its search stripped, or ServiceError 422 naming the bad part."""
    fields: dict[str, str] = {}
    if where.status not in STATUS_FILTERS:
        fields["status"] = "Please choose a status from the list."
    owner = where.owner
    if owner not in ("", MINE, UNASSIGNED) and member_id(owner) is None:
        fields["owner"] = "Please choose an owner from the list."
    search = where.search.strip()
    if len(search) > SEARCH_MAX:
        fields["search"] = too_long(SEARCH_MAX)
    elif has_forbidden_characters(search):
        fields["search"] = INVALID_CHARACTERS
    if where.sort and where.sort.removeprefix("-") not in SORTS:
        fields["sort"] = SORT_INVALID
    if fields:
        raise ServiceError(422, BAD_FILTER, fields=fields)
    return replace(where, owner=owner, search=search)


def _like_pattern(search: str) -> str:
    escaped = search.replace(_LIKE_ESCAPE, _LIKE_ESCAPE * 2).replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _today(actor: StaffActor, now: datetime) -> tuple[datetime, datetime]:
    """The member's day at `now`, on the clock the list shows calls on (theirs, else the
    company's), as UTC moments: its start and the next day's."""
    zone = ZoneInfo(wording.zone_name(actor.time_zone))
    day = now.astimezone(zone).date()
    start = datetime.combine(day, time.min, tzinfo=zone)
    end = datetime.combine(day + timedelta(days=1), time.min, tzinfo=zone)
    return start.astimezone(UTC), end.astimezone(UTC)


def _calls_today(actor: StaffActor, now: datetime) -> ColumnElement[bool]:
    """Requests whose call, still on (booked, or moved to a new time), is today."""
    start, end = _today(actor, now)
    return col(QuoteRequest.id).in_(
        select(col(Booking.quote_request_id)).where(
            col(Booking.status).in_(ACTIVE_STATUSES),
            col(Booking.starts_at) >= start,
            col(Booking.starts_at) < end,
        )
    )


def _conditions(
    where: InboxFilter,
    actor: StaffActor,
    *,
    with_status: bool = True,
    now: datetime | None = None,
) -> list[ColumnElement[bool]]:
    """SQL conditions of a checked filter; `with_status=False` leaves the status (and
    "Calls today") out. `now`: the moment "today" is of (the wall clock by default)."""
    conditions: list[ColumnElement[bool]] = []
    if with_status and where.calls_today:
        conditions.append(_calls_today(actor, now or utcnow()))
    if with_status:
        if where.status == ALL:
            conditions.append(col(QuoteRequest.status) != SPAM)
        else:
            conditions.append(col(QuoteRequest.status) == where.status)
    if where.owner == MINE:
        conditions.append(col(QuoteRequest.owner_id) == actor.member_id)
    elif where.owner == UNASSIGNED:
        conditions.append(col(QuoteRequest.owner_id).is_(None))
    elif where.owner:
        conditions.append(col(QuoteRequest.owner_id) == member_id(where.owner))
    if where.since is not None:
        start = datetime.combine(where.since, time.min, tzinfo=UTC)
        conditions.append(col(QuoteRequest.created_at) >= start)
    if where.until is not None and where.until < date.max:
        end = datetime.combine(where.until + timedelta(days=1), time.min, tzinfo=UTC)
        conditions.append(col(QuoteRequest.created_at) < end)
    if where.search:
        pattern = _like_pattern(where.search)
        conditions.append(
            or_(
                *(
                    col(column).ilike(pattern, escape=_LIKE_ESCAPE)
                    for column in (
                        QuoteRequest.name,
                        QuoteRequest.email,
                        QuoteRequest.company,
                        QuoteRequest.message,
                    )
                )
            )
        )
    return conditions


def _all_of(conditions: list[ColumnElement[bool]]) -> ColumnElement[bool]:
    return and_(true(), *conditions)


_NEWEST_FIRST = (col(QuoteRequest.created_at).desc(), col(QuoteRequest.id).desc())
_STATUS_ORDER = case(
    {status: place for place, status in enumerate(QUOTE_STATUSES)},
    value=col(QuoteRequest.status),
    else_=len(QUOTE_STATUSES),
)


def _order(where: InboxFilter, due: datetime) -> list[ColumnElement[Any]]:
    """The ORDER BY of a checked filter (see SORTS); `due`: the latest arrival overdue."""
    column, descending = where.sort.removeprefix("-"), where.sort.startswith("-")
    if not column and where.calls_today:
        column = "call"
    if not column:
        if where.status != AWAITING_REPLY:
            return list(_NEWEST_FIRST)
        overdue = and_(
            col(QuoteRequest.status) == AWAITING_REPLY, col(QuoteRequest.created_at) <= due
        )
        waited = case((overdue, col(QuoteRequest.created_at)), else_=None)
        return [case((overdue, 0), else_=1), waited.asc(), *_NEWEST_FIRST]
    keys: dict[str, Any] = {
        "received": col(QuoteRequest.created_at),
        "call": col(Booking.starts_at),
        "status": _STATUS_ORDER,
        "owner": col(StaffMember.name),
    }
    key = keys[column]
    # Requests without a call or an owner come last either way.
    return [(key.desc() if descending else key.asc()).nulls_last(), *_NEWEST_FIRST]


def _owned_rows(
    condition: ColumnElement[bool], order: list[ColumnElement[Any]]
) -> Select[QuoteRequest, str]:
    """Requests with their owner's name (None when unassigned), in `order`."""
    return (
        select(QuoteRequest, StaffMember.name)
        .outerjoin(StaffMember, col(StaffMember.id) == col(QuoteRequest.owner_id))
        .outerjoin(Booking, col(Booking.quote_request_id) == col(QuoteRequest.id))
        .where(condition)
        .order_by(*order)
    )


def _page_rows(
    session: Session,
    condition: ColumnElement[bool],
    order: list[ColumnElement[Any]],
    *,
    searched: bool,
    page: int,
) -> Select[QuoteRequest, str]:
    """One page of `_owned_rows`. On PostgreSQL a search first collects the ids it
    matches (the trigram indexes of migration 0006 find them), then sorts those: left to
    itself the planner would walk the created_at index backwards testing every row's four
    ILIKEs until it has a page, a cost it underrates (a rare word: most of the table).
    MATERIALIZED keeps it from folding the search back into that walk."""
    if not searched or session.get_bind().dialect.name != "postgresql":
        return _owned_rows(condition, order).offset((page - 1) * PAGE_SIZE).limit(PAGE_SIZE)
    found = select(col(QuoteRequest.id)).where(condition).cte("found").prefix_with("MATERIALIZED")
    return (
        _owned_rows(col(QuoteRequest.id).in_(select(found.c.id)), order)
        .offset((page - 1) * PAGE_SIZE)
        .limit(PAGE_SIZE)
    )


def _call_columns(quote: QuoteRequest, call: CallView | None, zone: str) -> tuple[str, str]:
    if call is not None:
        status = "" if call.status == BOOKED else call.status_label
        return wording.short_time(call.start, zone), status
    if quote.call_date is None:
        return NO_CALL_SHORT, ""
    start = preferred_start(quote.call_date, quote.call_time)
    return (wording.short_time(start, zone), PREFERRED) if start else ("", "")


@dataclass(frozen=True, slots=True)
class _Clock:
    """The moment a page is read at, and the latest arrival overdue by then."""

    now: datetime
    due: datetime

    @classmethod
    def at(cls, now: datetime | None) -> _Clock:
        moment = utcnow() if now is None else now.astimezone(UTC)
        return cls(now=moment, due=last_arrival_due(moment))

    def overdue(self, quote: QuoteRequest) -> bool:
        return quote.status == AWAITING_REPLY and quote.created_at <= self.due


def _row(
    quote: QuoteRequest,
    owner_name: str | None,
    call: CallView | None,
    zone: str,
    clock: _Clock,
) -> InboxRow:
    assert quote.id is not None
    call_time, call_status = _call_columns(quote, call, zone)
    return InboxRow(
        id=quote.id,
        received=quote.created_at,
        name=quote.name,
        email=quote.email,
        company=quote.company,
        service=quote.service,
        service_label=label_of(SERVICE_CHOICES, quote.service),
        budget_label=label_of(BUDGETS, quote.budget),
        status=quote.status,
        status_label=STATUS_LABELS.get(quote.status, quote.status),
        owner_id=quote.owner_id,
        owner_name=owner_name or "",
        call=call_time,
        call_status=call_status,
        age=age_text(clock.now - quote.created_at),
        overdue=clock.overdue(quote),
    )


def request_owners(*, actor: StaffActor | None) -> list[MemberChoice]:
    """Who may own a request, for a member who may read requests (ServiceError otherwise)."""
    require(actor, Permission.READ_QUOTES)
    with session_scope() as session:
        return owner_choices(session)


def owner_choices(session: Session) -> list[MemberChoice]:
    """Enabled admin and sales members, by name: who may own a request."""
    members = session.exec(
        select(StaffMember.id, StaffMember.name)
        .where(col(StaffMember.role).in_(OWNER_ROLES), col(StaffMember.disabled_at).is_(None))
        .order_by(col(StaffMember.name), col(StaffMember.id))
    ).all()
    return [
        MemberChoice(id=member_id, name=name)
        for member_id, name in members
        if member_id is not None
    ]


def _counts(
    session: Session, where: InboxFilter, actor: StaffActor, clock: _Clock
) -> tuple[dict[str, int], int]:
    """The count per status, and how many New requests are overdue, in one query."""
    # count(*), not count(id): the (status, created_at) index alone can answer both (an
    # index-only scan).
    grouped = session.exec(
        select(
            QuoteRequest.status,
            func.count(),
            func.count().filter(col(QuoteRequest.created_at) <= clock.due),
        )
        .where(_all_of(_conditions(where, actor, with_status=False)))
        .group_by(col(QuoteRequest.status))
    ).all()
    counts = dict.fromkeys(STATUS_FILTERS, 0)
    overdue = 0
    for status, count, due in grouped:
        if status in counts:
            counts[status] = count
        if status != SPAM:
            counts[ALL] += count
        if status == AWAITING_REPLY:
            overdue = due
    return counts, overdue


def _count_calls_today(
    session: Session, where: InboxFilter, actor: StaffActor, clock: _Clock
) -> int:
    """Requests (not spam) under the filter but its status whose call is today: read from
    the day's bookings, a handful, not from every request."""
    start, end = _today(actor, clock.now)
    return session.exec(
        select(func.count())
        .select_from(Booking)
        .join(QuoteRequest, col(QuoteRequest.id) == col(Booking.quote_request_id))
        .where(
            col(Booking.status).in_(ACTIVE_STATUSES),
            col(Booking.starts_at) >= start,
            col(Booking.starts_at) < end,
            col(QuoteRequest.status) != SPAM,
            *_conditions(where, actor, with_status=False),
        )
    ).one()


def inbox_page(
    *,
    actor: StaffActor | None,
    where: InboxFilter,
    page: int = 1,
    now: datetime | None = None,
) -> InboxPage:
    """One page (PAGE_SIZE rows, in the filter's order: see SORTS) of the requests `where`
    selects, each with its call on the member's clock, its age and whether it is overdue
    at `now` (default: the wall clock), with the counts per status (and of overdue
    requests, and of calls today) and the members the owner filter offers. A page past
    the last shows the last one."""
    member = require(actor, Permission.READ_QUOTES)
    where = _checked(where)
    clock = _Clock.at(now)
    condition = _all_of(_conditions(where, member, now=clock.now))
    with session_scope() as session:
        total = session.exec(select(func.count()).select_from(QuoteRequest).where(condition)).one()
        pages = max(1, -(-total // PAGE_SIZE))
        page = min(max(1, page), pages)
        order = _order(where, clock.due)
        found = session.exec(
            _page_rows(session, condition, order, searched=bool(where.search), page=page)
        ).all()
        calls = calls_of_requests(session, (quote.id for quote, _ in found if quote.id))
        counts, overdue = _counts(session, where, member, clock)
        calls_today = _count_calls_today(session, where, member, clock)
        return InboxPage(
            rows=[
                _row(quote, owner_name, calls.get(quote.id or 0), member.time_zone, clock)
                for quote, owner_name in found
            ],
            total=total,
            page=page,
            pages=pages,
            counts=counts,
            members=owner_choices(session),
            overdue=overdue,
            calls_today=calls_today,
        )


def _described(where: InboxFilter) -> str:
    parts = [f"status {where.status}", f"owner {where.owner or 'any'}"]
    if where.since:
        parts.append(f"since {where.since.isoformat()}")
    if where.until:
        parts.append(f"until {where.until.isoformat()}")
    if where.search:
        parts.append(f"search {where.search!r}")
    if where.calls_today:
        parts.append("calls today")
    return ", ".join(parts)


def export_csv(*, actor: StaffActor | None, where: InboxFilter) -> str:
    """Every request `where` selects (all pages, in the list's order) as CSV: the command line's
    columns plus status, owner and lost reason, formula-like cells defused. The export is
    recorded in the audit log ("quotes_exported") in the same transaction; one over the
    size a download may have is refused (ServiceError 413) and recorded nowhere."""
    member = require(actor, Permission.WORK_QUOTES)
    where = _checked(where)
    count = 0
    with session_scope() as session:
        found = session.exec(
            _owned_rows(
                _all_of(_conditions(where, member)), _order(where, last_arrival_due(utcnow()))
            ).execution_options(**READ_IN_CHUNKS)
        )

        def lines() -> Iterator[list[str]]:
            nonlocal count
            for quote, owner_name in found:
                status = STATUS_LABELS.get(quote.status, quote.status)
                yield [
                    *request_cells(quote),
                    *(defuse(cell) for cell in (status, owner_name or "", quote.lost_reason)),
                ]
                count += 1

        text = bounded_csv(EXPORT_HEADER, lines(), filters=EXPORT_FILTERS)
        noun = "quote request" if count == 1 else "quote requests"
        audit.record(
            session,
            action="quotes_exported",
            actor=member,
            target="quote requests",
            detail=f"{count} {noun} ({_described(where)})",
        )
    return text
