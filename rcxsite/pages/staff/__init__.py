"""The staff back office's pages (rcxsite/content/routes.py STAFF_ROUTES), with their on_load
handlers: one module per page, named as its state's module (rcxsite/state/staff/, or the
feature's own folder: booking's Availability and My calls, careers' Candidates). All data
arrives through checked events; the prerendered pages hold none."""

from __future__ import annotations

from collections.abc import Callable

import reflex as rx
from reflex.event import EventHandler

from rcxsite.content.routes import Route, RouteKind
from rcxsite.pages.booking.availability import staff_availability_page
from rcxsite.pages.booking.calls import staff_calls_page
from rcxsite.pages.careers.candidates import staff_candidate_page, staff_candidates_page
from rcxsite.pages.staff.analytics import staff_analytics_page
from rcxsite.pages.staff.audit import staff_audit_page
from rcxsite.pages.staff.customers import staff_customer_page, staff_customers_page
from rcxsite.pages.staff.inbox import staff_inbox_page
from rcxsite.pages.staff.invite import staff_invite_page
from rcxsite.pages.staff.jobs import staff_jobs_page
from rcxsite.pages.staff.quote import staff_quote_page
from rcxsite.pages.staff.sign_in import staff_log_in_page
from rcxsite.pages.staff.team import staff_team_page
from rcxsite.state.booking.availability import StaffAvailabilityState
from rcxsite.state.booking.calls import StaffCallsState
from rcxsite.state.careers.candidates import CandidatesState, CandidateState
from rcxsite.state.staff.analytics import StaffAnalyticsState
from rcxsite.state.staff.audit import StaffAuditState
from rcxsite.state.staff.customers import StaffCustomersState, StaffCustomerState
from rcxsite.state.staff.inbox import StaffInboxState
from rcxsite.state.staff.invite import StaffInviteState
from rcxsite.state.staff.jobs import StaffJobsState
from rcxsite.state.staff.quote import StaffQuoteState
from rcxsite.state.staff.sign_in import StaffSignInState
from rcxsite.state.staff.team import StaffTeamState

BUILDERS: dict[RouteKind, Callable[[Route], rx.Component]] = {
    "staff_log_in": staff_log_in_page,
    "staff_invite": staff_invite_page,
    "staff_inbox": staff_inbox_page,
    "staff_quote": staff_quote_page,
    "staff_customers": staff_customers_page,
    "staff_customer": staff_customer_page,
    "staff_team": staff_team_page,
    "staff_audit": staff_audit_page,
    "staff_jobs": staff_jobs_page,
    "staff_analytics": staff_analytics_page,
    "staff_calls": staff_calls_page,
    "staff_availability": staff_availability_page,
    "staff_candidates": staff_candidates_page,
    "staff_candidate": staff_candidate_page,
}

ON_LOAD: dict[RouteKind, list[EventHandler]] = {
    "staff_log_in": [StaffSignInState.prepare],
    "staff_invite": [StaffInviteState.open_link],
    "staff_inbox": [StaffInboxState.load],
    "staff_quote": [StaffQuoteState.load],
    "staff_customers": [StaffCustomersState.load],
    "staff_customer": [StaffCustomerState.load],
    "staff_team": [StaffTeamState.load],
    "staff_audit": [StaffAuditState.load],
    "staff_jobs": [StaffJobsState.load],
    "staff_analytics": [StaffAnalyticsState.load],
    "staff_calls": [StaffCallsState.load],
    "staff_availability": [StaffAvailabilityState.load],
    "staff_candidates": [CandidatesState.load],
    "staff_candidate": [CandidateState.load],
}
