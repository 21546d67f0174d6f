"""/staff (the sales inbox): a thin adapter over rcxsite.staff.inbox.

The filter the member last applied is kept on the tab (coming back from a request shows
the same list) and is only replaced once the service has accepted a new one, so paging
and "Export CSV" always use a filter the screen shows rows for.
"""

from __future__ import annotations

import reflex as rx
from reflex.event import EventSpec

from rcxsite import routes
from rcxsite.core.permissions import Permission
from rcxsite.leads.statuses import STATUS_LABELS
from rcxsite.staff import inbox
from rcxsite.staff.inbox_query import SEARCH_MAX
from rcxsite.state.service_calls import call_service
from rcxsite.state.staff.access import acting, staff_event
from rcxsite.state.staff.display import NO_NAME, day, form_text, number_id, when

FILTER_FIELDS = ("status", "owner", "search")
EXPORT_FILENAME = "rcx-quote-requests.csv"
# What a filter control may send, kept to a little over what the service accepts so an
# overlong search is refused with its message instead of being cut silently.
_LIMITS = {"status": 16, "owner": 16, "since": 10, "until": 10, "search": SEARCH_MAX + 1}
_FILTER_LABELS = {**STATUS_LABELS, inbox.ALL: "All"}


def _call(row: inbox.InboxRow) -> str:
    """ "Tue 2 Mar 2027, 10:00 (Europe/London)", and " · Cancelled" when it is not simply
    booked ("Preferred" when nothing was)."""
    if not row.call:
        return "—"
    return f"{row.call} · {row.call_status}" if row.call_status else row.call


def _row(row: inbox.InboxRow) -> dict[str, str]:
    return {
        "id": str(row.id),
        "path": routes.staff_quote_path(row.id),
        "received": when(row.received),
        "name": row.name or NO_NAME,
        "company": row.company or "—",
        "call": _call(row),
        "service": row.service_label,
        "budget": row.budget_label,
        "status": row.status_label,
        "owner": row.owner_name or "Unassigned",
    }


class StaffInboxState(rx.State):
    """One page of quote requests under the member's filter, with the counts per status."""

    rows: list[dict[str, str]] = []
    # One chip per status filter: value, label, count.
    counts: list[dict[str, str]] = []
    # Members the owner filter offers: id, name.
    members: list[dict[str, str]] = []
    page: int = 1
    pages: int = 1
    total: int = 0
    status_filter: str = "new"
    owner_filter: str = ""
    since: str = ""
    until: str = ""
    search: str = ""
    filter_errors: dict[str, str] = dict.fromkeys(FILTER_FIELDS, "")
    error: str = ""

    def _filter(self, values: dict[str, str]) -> inbox.InboxFilter:
        return inbox.InboxFilter(
            status=values["status"],
            owner=values["owner"],
            since=day(values["since"]),
            until=day(values["until"]),
            search=values["search"],
        )

    def _current(self) -> dict[str, str]:
        return {
            "status": self.status_filter,
            "owner": self.owner_filter,
            "since": self.since,
            "until": self.until,
            "search": self.search,
        }

    async def _show(self, values: dict[str, str], page: int) -> None:
        """Load `page` under the filter `values`; keep the filter only if it was accepted."""
        outcome = await call_service(
            inbox.inbox_page, actor=acting(), where=self._filter(values), page=page
        )
        self.filter_errors = outcome.field_messages(FILTER_FIELDS)
        if not outcome.ok:
            self.error = outcome.form_message()
            return
        result = outcome.result()
        self.error = ""
        self.status_filter, self.owner_filter = values["status"], values["owner"]
        self.since, self.until, self.search = values["since"], values["until"], values["search"]
        self.page, self.pages, self.total = result.page, result.pages, result.total
        self.rows = [_row(row) for row in result.rows]
        self.counts = [
            {
                "value": status,
                "label": _FILTER_LABELS.get(status, status),
                "count": str(result.counts.get(status, 0)),
            }
            for status in inbox.STATUS_FILTERS
        ]
        self.members = [{"id": str(member.id), "name": member.name} for member in result.members]

    @staff_event(Permission.READ_QUOTES)
    async def load(self) -> None:
        """Opening the page shows the member's last filter, from its first page."""
        await self._show(self._current(), 1)

    @staff_event(Permission.READ_QUOTES)
    async def apply_filter(self, form: dict[str, str]) -> None:
        """The filter form (Enter in Search): every control at once, from page 1."""
        values = {name: form_text(form, name, limit) for name, limit in _LIMITS.items()}
        await self._show(values, 1)

    @staff_event(Permission.READ_QUOTES)
    async def filter_by(self, field: str, value: str) -> None:
        """One control changed (a status chip, a select, a date): applied at once."""
        if field not in ("status", "owner", "since", "until"):
            return
        values = self._current()
        values[field] = str(value)[: _LIMITS[field]]
        await self._show(values, 1)

    @staff_event(Permission.READ_QUOTES)
    async def go_to_page(self, page: int) -> None:
        await self._show(self._current(), number_id(page) or 1)

    @staff_event(Permission.WORK_QUOTES)
    async def export_csv(self) -> EventSpec | None:
        """Every row of the filter the screen shows (all pages), as the service writes it."""
        outcome = await call_service(
            inbox.export_csv, actor=acting(), where=self._filter(self._current())
        )
        if not outcome.ok:
            self.error = outcome.message()
            return None
        self.error = ""
        return rx.download(data=outcome.result(), filename=EXPORT_FILENAME)


__all__ = ["StaffInboxState"]
