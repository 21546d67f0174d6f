"""/staff (the sales inbox): a thin adapter over rcxsite.staff.inbox.

The filter is the page's address (/staff?status=spam&q=rita&page=2): a link opens that
view, Back undoes a filter, and coming back from a request shows the same list. A filter
is only taken once the service has accepted it (then the address follows), so paging and
"Export CSV" always use a filter the screen shows rows for. A new search starts from
"All" whatever chip was chosen (`inbox.with_search`); a chip chosen while searching narrows
the search.

The rows ticked for a change to several at once are kept here, as ids of the rows shown:
a tick for a row the page does not show is ignored, and a new page or filter keeps only
the ticks of rows still shown. The change itself is checked again for each request by
the service.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping
from dataclasses import replace

import reflex as rx
from reflex.event import EventSpec

from rcxsite.content import routes
from rcxsite.core.permissions import Permission
from rcxsite.leads.statuses import NEW, STATUS_LABELS
from rcxsite.models.types import LOST_REASON_MAX, STATUS_MAX
from rcxsite.staff import inbox
from rcxsite.staff.inbox_inputs import OWNER_MAX
from rcxsite.staff.inbox_query import SEARCH_MAX
from rcxsite.state.service_calls import FormCall, call_service
from rcxsite.state.staff.access import acting, staff_event, staff_screen
from rcxsite.state.staff.address import arrived, going_to, moved
from rcxsite.state.staff.display import NO_NAME, day, form_text, number_id, when

FILTER_FIELDS = ("status", "owner", "search", "sort")
# The fields of the form that changes the ticked requests (beside their controls), and
# what its input may refuse that no control stands for (the ticks, the form as a whole).
SELECTION_FIELDS = ("owner", "status", "reason")
_UNPLACED = ("ids", "request")
EXPORT_FILENAME = "rcx-quote-requests.csv"
# What a filter control may send, kept to a little over what the service accepts so an
# overlong search is refused with its message instead of being cut silently.
_LIMITS = {
    "status": 16,
    "owner": 16,
    "since": 10,
    "until": 10,
    "search": SEARCH_MAX + 1,
    "sort": 16,
    "today": 1,
}
# "Calls today" on, as the address and the state spell it.
TODAY = "1"
_FILTER_LABELS = {**STATUS_LABELS, inbox.ALL: "All"}
# One past each input's own limit, so an overlong value gets the input's message.
_SELECTION_LIMITS = {
    "owner": OWNER_MAX + 1,
    "status": STATUS_MAX + 1,
    "reason": LOST_REASON_MAX + 1,
}


# The filter's names in the address, as short as people type them.
_URL_NAMES = {
    "status": "status",
    "owner": "owner",
    "since": "since",
    "until": "until",
    "sort": "sort",
    "today": "today",
}
_URL_SEARCH = "q"


def _default_status(values: Mapping[str, str]) -> str:
    """The status an address that names none means: New, or All with a search (a search
    starts from All, `inbox.with_search`) or with "Calls today"."""
    return inbox.ALL if values["search"].strip() or values["today"] == TODAY else NEW


def inbox_url(values: Mapping[str, str], page: int = 1) -> str:
    """The inbox's address for a filter and page (the plain path for New, page 1)."""
    params = {
        url: values[name]
        for name, url in _URL_NAMES.items()
        if values[name] and not (name == "status" and values[name] == _default_status(values))
    }
    if values["search"]:
        params[_URL_SEARCH] = values["search"]
    if page > 1:
        params["page"] = str(page)
    query = urllib.parse.urlencode(params)
    return routes.STAFF_INBOX.path + (f"?{query}" if query else "")


def _from_url(params: Mapping[str, str]) -> tuple[dict[str, str], int]:
    """The filter and page an address asks for (`_default_status` when it names none)."""
    values = {name: str(params.get(url, ""))[: _LIMITS[name]] for name, url in _URL_NAMES.items()}
    values["search"] = str(params.get(_URL_SEARCH, ""))[: _LIMITS["search"]]
    if not values["status"]:
        values["status"] = _default_status(values)
    return values, number_id(str(params.get("page", ""))) or 1


# The badge of a request still New a working day after it arrived.
OVERDUE = "Overdue"


def _call(row: inbox.InboxRow) -> str:
    """ "Tue 2 Mar 2027, 10:00 (Europe/London)", and " · Cancelled" when it is not simply
    booked ("Preferred" when nothing was)."""
    if not row.call:
        return "—"
    return f"{row.call} · {row.call_status}" if row.call_status else row.call


def _row(row: inbox.InboxRow, zone: str) -> dict[str, str]:
    """One row's texts; `zone`: the member's, whose clock the times are on."""
    name = row.name or NO_NAME
    return {
        "id": str(row.id),
        "path": routes.staff_quote_path(row.id),
        "received": when(row.received, zone),
        "age": row.age,
        "overdue": OVERDUE if row.overdue else "",
        "name": name,
        "select_label": f"Select {name}",
        "company": row.company or "—",
        "call": _call(row),
        "service": row.service_label,
        "budget": row.budget_label,
        "status": row.status_label,
        "owner": row.owner_name or "Unassigned",
    }


@staff_screen
class StaffInboxState(rx.State):
    """One page of quote requests under the member's filter, with the counts per status."""

    rows: list[dict[str, str]] = []
    # One chip per status filter: value, label, count, and for New how many are overdue
    # ("" when none).
    counts: list[dict[str, str]] = []
    # Members the owner filter offers: id, name.
    members: list[dict[str, str]] = []
    page: int = 1
    pages: int = 1
    total: int = 0
    status_filter: str = NEW
    owner_filter: str = ""
    since: str = ""
    until: str = ""
    search: str = ""
    # A column of inbox.SORTS, "-" and one (reversed), or "" (the default order).
    sort: str = ""
    # TODAY when only requests with a call today are listed, else "".
    calls_today: str = ""
    # How many requests (not spam) under the other filters have their call today.
    calls_today_count: str = "0"
    filter_errors: dict[str, str] = dict.fromkeys(FILTER_FIELDS, "")
    error: str = ""
    notice: str = ""
    # Ids (as text) of the rows ticked, in the order the list shows them.
    selected: list[str] = []
    selection_errors: dict[str, str] = dict.fromkeys(SELECTION_FIELDS, "")
    # A refusal of the whole selection form (nothing ticked, nothing chosen).
    selection_error: str = ""
    # Bumped when a change to the selection is done: its form shows "No change" again.
    selection_revision: int = 0
    # The addresses filter changes moved the tab to whose loads have not come (address.py).
    _moves: list[str] = []

    def _filter(self, values: dict[str, str]) -> inbox.InboxFilter:
        return inbox.InboxFilter(
            status=values["status"],
            owner=values["owner"],
            since=day(values["since"]),
            until=day(values["until"]),
            search=values["search"],
            calls_today=values["today"] == TODAY,
            sort=values["sort"],
        )

    def _current(self) -> dict[str, str]:
        return {
            "status": self.status_filter,
            "owner": self.owner_filter,
            "since": self.since,
            "until": self.until,
            "search": self.search,
            "sort": self.sort,
            "today": self.calls_today,
        }

    async def _show(self, values: dict[str, str], page: int) -> None:
        """Load `page` under the filter `values`; keep the filter only if it was accepted."""
        actor = acting()
        outcome = await call_service(
            inbox.inbox_page, actor=actor, where=self._filter(values), page=page
        )
        self.filter_errors = outcome.field_messages(FILTER_FIELDS)
        if not outcome.ok:
            self.error = outcome.form_message()
            return
        result = outcome.result()
        self.error = self.notice = ""
        self.status_filter, self.owner_filter = values["status"], values["owner"]
        self.since, self.until, self.search = values["since"], values["until"], values["search"]
        self.sort, self.calls_today = values["sort"], TODAY if values["today"] == TODAY else ""
        self.calls_today_count = str(result.calls_today)
        self.page, self.pages, self.total = result.page, result.pages, result.total
        self.rows = [_row(row, actor.time_zone) for row in result.rows]
        shown = {row["id"] for row in self.rows}
        self.selected = [quote_id for quote_id in self.selected if quote_id in shown]
        self.counts = [
            {
                "value": status,
                "label": _FILTER_LABELS.get(status, status),
                "count": str(result.counts.get(status, 0)),
                "overdue": str(result.overdue) if status == NEW and result.overdue else "",
            }
            for status in inbox.STATUS_FILTERS
        ]
        self.members = [{"id": str(member.id), "name": member.name} for member in result.members]

    async def _show_and_move(self, values: dict[str, str], page: int) -> EventSpec | None:
        """`_show`, then the address follows the filter it took (a new entry in the
        browser's history, which Back undoes)."""
        await self._show(values, page)
        if self.error or any(self.filter_errors.values()):
            return None
        url = inbox_url(self._current(), self.page)
        if url == going_to(self._moves, inbox_url(*_from_url(self.router.url.query_parameters))):
            return None
        self._moves = moved(self._moves, url)
        return rx.redirect(url)

    @staff_event(Permission.READ_QUOTES)
    async def load(self) -> None:
        """The page's address says the filter and page (a link, a reload, Back)."""
        values, page = _from_url(self.router.url.query_parameters)
        left = arrived(self._moves, inbox_url(values, page))
        if left is not None:  # a filter change's own move: its rows are shown already
            self._moves = left
            return
        await self._show(values, page)

    @staff_event(Permission.READ_QUOTES)
    async def apply_filter(self, form: dict[str, str]):
        """The filter form (Enter in Search): every control at once, from page 1; a new
        search text starts from "All"."""
        values = {name: form_text(form, name, limit) for name, limit in _LIMITS.items()}
        values["today"] = self.calls_today  # a chip, not a control of the form
        before = replace(self._filter(values), search=self.search)
        values["status"] = inbox.with_search(before, values["search"]).status
        return await self._show_and_move(values, 1)

    @staff_event(Permission.READ_QUOTES)
    async def filter_by(self, field: str, value: str):
        """One control changed (a status chip, a select, a date): applied at once."""
        if field not in ("status", "owner", "since", "until", "sort"):
            return None
        values = self._current()
        values[field] = str(value)[: _LIMITS[field]]
        return await self._show_and_move(values, 1)

    @staff_event(Permission.READ_QUOTES)
    async def sort_by(self, column: str):
        """A column's header: sorted by it, and reversed by a second click."""
        column = str(column)[: _LIMITS["sort"]]
        values = self._current()
        values["sort"] = f"-{column}" if self.sort == column else column
        return await self._show_and_move(values, 1)

    @staff_event(Permission.READ_QUOTES)
    async def toggle_calls_today(self):
        """The "Calls today" chip: today's calls in every status (but spam), by time; a
        second click goes back to New (Back, to the list before it)."""
        values = self._current()
        if self.calls_today:
            values.update(today="", status=NEW)
        else:
            values.update(today=TODAY, status=inbox.ALL)
        return await self._show_and_move(values, 1)

    @staff_event(Permission.READ_QUOTES)
    async def go_to_page(self, page: int):
        return await self._show_and_move(self._current(), number_id(page) or 1)

    @staff_event(Permission.WORK_QUOTES)
    async def toggle_row(self, quote_id: str) -> None:
        """A row's checkbox: ticked or unticked (only rows the page shows)."""
        wanted = str(number_id(quote_id))
        if wanted in self.selected:
            self.selected = [each for each in self.selected if each != wanted]
        elif any(row["id"] == wanted for row in self.rows):
            ticked = {*self.selected, wanted}
            self.selected = [row["id"] for row in self.rows if row["id"] in ticked]

    @staff_event(Permission.WORK_QUOTES)
    async def toggle_page(self) -> None:
        """ "Select all on this page": ticks every row shown, or none when all were."""
        every = [row["id"] for row in self.rows]
        self.selected = [] if self.selected == every else every

    async def _change_selection(self, fields: dict[str, str]) -> None:
        """Apply `fields` (owner, status, reason) to the ticked requests; the list shows
        them afterwards as they now are, and the notice says what was done."""
        self.error = self.notice = self.selection_error = ""
        raw = {"ids": list(self.selected), **fields}
        call = await FormCall.read(inbox.SelectionInput, raw)
        outcome = await call.send(inbox.change_selection, actor=acting())
        self.selection_errors = outcome.field_messages(SELECTION_FIELDS)
        if not outcome.ok:
            # What no control shows beside it: no row ticked, nothing chosen, a refusal.
            unplaced = [text for text in outcome.field_messages(_UNPLACED).values() if text]
            self.selection_error = unplaced[0] if unplaced else outcome.form_message()
            return
        self.selected = []
        self.selection_revision += 1
        await self._show(self._current(), self.page)
        self.notice = outcome.result().message

    @staff_event(Permission.WORK_QUOTES)
    async def change_selection(self, form: dict[str, str]) -> None:
        """The selection's form: "Assign to" and "Set status" (a reason for Lost)."""
        fields = {name: form_text(form, name, limit) for name, limit in _SELECTION_LIMITS.items()}
        await self._change_selection(fields)

    @staff_event(Permission.WORK_QUOTES)
    async def assign_selection_to_me(self) -> None:
        """ "Assign to me": the ticked requests to the member who asks."""
        await self._change_selection({"owner": str(acting().member_id)})

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
