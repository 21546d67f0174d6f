"""The staff inbox of quote requests: one import for the screens.

Listing and export (`inbox_query`), one request (`inbox_detail`), what sales change
(`inbox_changes`, inputs in `inbox_inputs`), the same changes to a selection of the list
(`inbox_bulk`) and the spam folder's purge (leads' `spam`). Every
function takes the acting member as `actor` (None: nobody signed in) and checks the
permission itself: reading needs `Permission.READ_QUOTES`, every change and the export
`Permission.WORK_QUOTES`; a refusal is ServiceError 403. No Reflex or HTTP imports.
"""

from __future__ import annotations

from rcxsite.leads.spam import SPAM_KEPT_DAYS, purge_old_spam
from rcxsite.staff.inbox_bulk import SelectionInput, SelectionResult, change_selection
from rcxsite.staff.inbox_changes import (
    add_note,
    change_owner,
    change_status,
    log_contact,
    mark_spam,
    not_spam,
)
from rcxsite.staff.inbox_detail import (
    NO_QUOTE,
    CallDetail,
    ChangeView,
    NoteView,
    QuoteDetail,
    quote_detail,
)
from rcxsite.staff.inbox_inputs import ContactInput, NoteInput, OwnerInput, StatusInput
from rcxsite.staff.inbox_query import (
    ALL,
    EXPORT_HEADER,
    MINE,
    PAGE_SIZE,
    SORTS,
    STATUS_FILTERS,
    UNASSIGNED,
    InboxFilter,
    InboxPage,
    InboxRow,
    MemberChoice,
    export_csv,
    inbox_page,
    request_owners,
    with_search,
)

__all__ = [
    "ALL",
    "EXPORT_HEADER",
    "MINE",
    "NO_QUOTE",
    "PAGE_SIZE",
    "SORTS",
    "SPAM_KEPT_DAYS",
    "STATUS_FILTERS",
    "UNASSIGNED",
    "CallDetail",
    "ChangeView",
    "ContactInput",
    "InboxFilter",
    "InboxPage",
    "InboxRow",
    "MemberChoice",
    "NoteInput",
    "NoteView",
    "OwnerInput",
    "QuoteDetail",
    "SelectionInput",
    "SelectionResult",
    "StatusInput",
    "add_note",
    "change_owner",
    "change_selection",
    "change_status",
    "export_csv",
    "inbox_page",
    "log_contact",
    "mark_spam",
    "not_spam",
    "purge_old_spam",
    "quote_detail",
    "request_owners",
    "with_search",
]
