"""The staff permission matrix over the real websocket, to the site's app served in this
process (tests/support/in_process_site.py): every checked staff event handler
(`STAFF_HANDLERS`), sent by no one, by a customer, by a customer's token passed off as a
staff cookie, by a forged staff cookie, by a disabled member and by each role, with a
payload built from its signature and the router data of its own page, whether or not
the page would ever send it.

No one and customers are sent to the sign-in page and never get "ok"; a role without the
permission gets "denied", nothing of the records in any frame, and no change in the
database: the refused calls are sent on a tab where an admin had loaded the record, so
only the check stands between them and the change. A role with the permission gets
neither. Afterwards the same calls by the roles that may make them change the database,
so the payloads are ones that would have done harm. A handler added to `STAFF_HANDLERS`
is in the matrix at once; one whose state no staff page opens fails it.

That the prerendered staff pages hold no record is tests/site/test_staff_pages_live.py's.
"""

from __future__ import annotations

import inspect
import json
import re
import urllib.parse
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
import reflex as rx
from reflex.state import State
from sqlalchemy import text

import rcxsite.rcxsite  # noqa: F401  (registers every state and page)
from rcxsite.accounts.sessions import COOKIE_NAME as CUSTOMER_COOKIE
from rcxsite.content import routes
from rcxsite.core.permissions import OPERATOR, Permission
from rcxsite.pages.staff import ON_LOAD
from rcxsite.platform.db import get_engine
from rcxsite.staff import members as staff_members
from rcxsite.staff.sessions import COOKIE_NAME as STAFF_COOKIE
from rcxsite.state.staff.access import STAFF_HANDLERS
from rcxsite.web.login_cookie import LOGIN_COOKIE_PATH
from rcxsite.web.staff_cookie import STAFF_COOKIE_PATH
from tests.support import service_calls
from tests.support.call_outcomes import add_call
from tests.support.customers import PASSWORD, register_customer
from tests.support.in_process_site import InProcessSite, in_process_site
from tests.support.quotes import add_quote
from tests.support.site import reset_state
from tests.support.staff import invite, member
from tests.support.staff_socket import FIELD, STAFF_STATE, Answer, StaffTab, state_delta

# What each role may do, written out rather than read from GRANTS: a change to GRANTS that
# is not also made here fails, so no role gains or loses a permission unnoticed.
MAY: dict[str, set[Permission]] = {
    "admin": set(Permission),
    "sales": {
        Permission.READ_QUOTES,
        Permission.WORK_QUOTES,
        Permission.TAKE_CALLS,
        Permission.READ_ANALYTICS,
    },
    "support": {Permission.READ_QUOTES, Permission.READ_CUSTOMERS, Permission.ACT_ON_CUSTOMERS},
}
ROLES = tuple(MAY)
# Sent by the allowed callers after the rest of their page (a locked customer gets no
# reset link), and once every other call is made (a deleted one gets nothing).
LATE = ("StaffCustomerState.lock",)
LAST = ("StaffCustomerState.delete",)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


@dataclass(frozen=True)
class Caller:
    name: str
    cookie: str
    role: str = ""  # a working member's role; "" for every caller who is none

    def may(self, rule: Permission) -> bool:
        return bool(self.role) and rule in MAY[self.role]


@dataclass
class World:
    site: InProcessSite
    callers: list[Caller]
    leaver: str  # an admin's staff cookie, for the one test that signs out
    quote_id: int
    customer_id: int
    customer_email: str
    company: str
    members: dict[str, dict[str, Any]]
    invite_email: str
    # Text that only a staff screen could have shown: seeded records and members.
    secrets: list[str] = field(default_factory=list)

    def page(self, state_name: str) -> str:
        """The path of the staff page whose on_load loads `state_name`, ids filled in."""
        for kind, handlers in ON_LOAD.items():
            if any(
                handler.state_full_name == _state(state_name).get_full_name()
                for handler in handlers
            ):
                [route] = [route for route in routes.STAFF_ROUTES if route.kind == kind]
                record = self.customer_id if "customer" in kind else self.quote_id
                return route.path.replace("[id]", str(record))
        raise AssertionError(f"no staff page loads {state_name}: add it to ON_LOAD")


def _state(name: str) -> type[rx.State]:
    pending = [State]
    while pending:
        state = pending.pop()
        if state.__name__ == name:
            return state
        pending.extend(state.get_substates())
    raise LookupError(name)


def _cases() -> list[tuple[str, Permission]]:
    return sorted((name, rule) for name, rule in STAFF_HANDLERS.items() if rule is not None)


# --- the set-up: members, customers and a quote request in the live site's database ---


def _post_ticket(site: InProcessSite, path: str, ticket: str) -> list[str]:
    """The cookies (name=value) the site sets for a one-time ticket."""
    answer = site.request("POST", path, json={"ticket": ticket}, headers={"Origin": site.url})
    assert answer.is_success, (answer.status_code, answer.text)
    return [header.split(";", 1)[0] for header in answer.headers.get_list("set-cookie")]


@pytest.fixture
def fresh_state() -> None:
    """The package's per-test clean-up stays off here: the module's tests share one world."""


@pytest.fixture(scope="module")
def site(site_root: object) -> Iterator[InProcessSite]:
    reset_state()
    with in_process_site() as served:
        yield served


@pytest.fixture(scope="module")
def world(site: InProcessSite) -> World:
    mark = uuid.uuid4().hex[:8]
    company = f"Matrix Secret {mark} Ltd"
    customer_email = f"matrix-target.{mark}@example.com"
    caller_email = f"matrix-caller.{mark}@example.com"
    customer_id = register_customer(customer_email, company_name=company)
    register_customer(caller_email)
    quote_id = add_quote(
        company=company, email=customer_email, message=f"Matrix secret message {mark}"
    )
    enrolled = {
        who: member(f"matrix-{who}-{mark}@rcx.example", role, f"Matrix {who.title()}")
        for who, role in (
            *((role, role) for role in ROLES),
            ("disabled", "admin"),
            ("target", "sales"),
            ("leaver", "admin"),
        )
    }
    members = {
        who: {"id": one.actor.member_id, "email": one.actor.email} for who, one in enrolled.items()
    }
    # The request's call began an hour ago: "Held" and "No-show" would change it.
    add_call(
        quote_id,
        members["target"]["id"],
        datetime.now(UTC) - timedelta(hours=1),
        email=customer_email,
    )
    signed_in = service_calls.authenticate(
        email=caller_email, password=PASSWORD, client_ip="198.51.100.77", via_ticket=True
    )
    # The target customer is signed in somewhere too: ending their sessions changes a row.
    service_calls.authenticate(email=customer_email, password=PASSWORD, client_ip="198.51.100.78")
    staff = {
        who: _post_ticket(site, STAFF_COOKIE_PATH, enrolled[who].cookie_ticket)[0]
        for who in (*ROLES, "disabled", "leaver")
    }
    login = "; ".join(_post_ticket(site, LOGIN_COOKIE_PATH, signed_in.cookie_ticket))
    login_value = login.split(";", 1)[0].split("=", 1)[1]
    customer_token = json.loads(urllib.parse.unquote(login_value))["Token"]
    # Disabled once signed in: the cookie stays in the browser, the session must not count.
    staff_members.set_disabled(actor=OPERATOR, member_id=members["disabled"]["id"], disabled=True)
    assert login.startswith(f"{CUSTOMER_COOKIE}=") and customer_id is not None
    callers = [
        Caller("no one", ""),
        Caller("a customer", login),
        Caller("a customer's token as a staff cookie", f"{STAFF_COOKIE}={customer_token}"),
        Caller("a forged staff cookie", f"{STAFF_COOKIE}={'A' * 43}"),
        Caller("a disabled admin", staff["disabled"]),
        *[Caller(role, staff[role], role) for role in ROLES],
    ]
    return World(
        site=site,
        callers=callers,
        leaver=staff["leaver"],
        quote_id=quote_id,
        customer_id=customer_id,
        customer_email=customer_email,
        company=company,
        members=members,
        invite_email=f"matrix-invited-{mark}@rcx.example",
        secrets=[
            customer_email,
            company,
            f"Matrix secret message {mark}",
            *[member["email"] for member in members.values()],
        ],
    )


# --- the database: what a refused call must leave as it was ---


def _rows(query: str, **params: object) -> list[tuple]:
    with get_engine().connect() as connection:
        return [tuple(row) for row in connection.execute(text(query), params)]


def _snapshot(world: World) -> dict[str, list[tuple]]:
    """Everything a staff handler of the matrix could change (sessions' last use aside)."""
    member_ids = tuple(member["id"] for member in world.members.values())
    marks = ",".join(str(i) for i in member_ids)
    queries = {
        "quote": ("SELECT status, owner_id, lost_reason FROM quote_request WHERE id = :q"),
        "notes": "SELECT count(*) FROM quote_note WHERE quote_request_id = :q",
        "history": "SELECT count(*) FROM quote_change WHERE quote_request_id = :q",
        "call": "SELECT status, active FROM booking WHERE quote_request_id = :q",
        "customer": "SELECT locked_at FROM customer WHERE id = :c",
        "reset links": "SELECT count(*) FROM password_reset_token WHERE customer_id = :c",
        "customer sessions": (
            "SELECT count(*), count(revoked_at) FROM login_session WHERE customer_id = :c"
        ),
        "members": (
            f"SELECT id, role, disabled_at, totp_secret, password_hash "
            f"FROM staff_member WHERE id IN ({marks}) ORDER BY id"
        ),
        "invitations": "SELECT count(*) FROM staff_invitation",
        "invited": "SELECT count(*) FROM staff_member WHERE email_key = :i",
        "call settings": (
            f"SELECT id, takes_calls, time_zone, calendar_feed_hash "
            f"FROM staff_member WHERE id IN ({marks}) ORDER BY id"
        ),
        "call hours": (
            f'SELECT staff_member_id, weekday, start, "end" FROM member_hours '
            f"WHERE staff_member_id IN ({marks}) ORDER BY staff_member_id, weekday"
        ),
        "date overrides": (
            f'SELECT staff_member_id, day, start, "end" FROM member_day '
            f"WHERE staff_member_id IN ({marks}) ORDER BY staff_member_id, day"
        ),
        "time off": (
            f"SELECT staff_member_id, first_day, last_day FROM member_time_off "
            f"WHERE staff_member_id IN ({marks}) ORDER BY staff_member_id, first_day"
        ),
        # A denied call leaves its trace (counted per member, handler and quarter hour);
        # nothing else.
        "audit": "SELECT id, action, target FROM audit_entry WHERE action <> 'denied' ORDER BY id",
    }
    return {
        name: _rows(query, q=world.quote_id, c=world.customer_id, i=world.invite_email)
        for name, query in queries.items()
    }


# --- a browser tab's websocket, with the caller's cookies on its handshake ---


# --- the calls ---


def _payload(world: World, name: str) -> dict[str, Any]:
    """Arguments for `name` from its signature: the forms and ids that would change the
    seeded records (an admin's role for the target member, the customer's own email for
    the deletion), plausible values for the rest."""
    # Days ahead of the site's today (the service refuses past days).
    soon = [(date.today() + timedelta(days=days)).isoformat() for days in (20, 21, 22)]
    forms = {
        "StaffAvailabilityState.save_settings": {
            "takes_calls": "on",
            "time_zone": "America/New_York",
        },
        "StaffAvailabilityState.save_week": {
            "mon": "08:00-12:00, 13:00-16:00",
        },
        "StaffAvailabilityState.add_day": {"day": soon[0], "hours": "10:00-12:00"},
        "StaffAvailabilityState.add_time_off": {"first_day": soon[1], "last_day": soon[2]},
        "StaffQuoteState.save_work": {
            "status": "lost",
            "reason": "Matrix says so",
            "owner": str(world.members["sales"]["id"]),
        },
        "StaffQuoteState.add_note": {"note": "A note from the matrix"},
        "StaffCustomerState.delete": {"email": world.customer_email},
        "StaffCustomersState.search": {"search": world.customer_email},
        "StaffInboxState.apply_filter": {
            "status": "all",
            "owner": "",
            "since": "",
            "until": "",
            "search": world.company,
        },
        "StaffAuditState.apply_filter": {"actor": "", "action": "", "since": "", "until": ""},
        "StaffTeamState.invite": {
            "email": world.invite_email,
            "name": "Matrix Invited",
            "role": "admin",
        },
    }
    by_name: dict[str, Any] = {
        "member_id": str(world.members["target"]["id"]),
        "role": "admin",
        "disabled": True,
        "field": "status",
        "value": "all",
        "page": 1,
    }
    state_name, handler_name = name.split(".")
    handler = getattr(_state(state_name), handler_name).fn
    values: dict[str, Any] = {}
    for parameter, spec in inspect.signature(handler).parameters.items():
        if parameter == "self":
            continue
        kind = str(spec.annotation)
        if "dict" in kind:
            values[parameter] = forms.get(name, {})
        elif parameter in by_name:
            values[parameter] = by_name[parameter]
        else:
            values[parameter] = True if "bool" in kind else 1 if "int" in kind else "1"
    return values


def _event(name: str) -> str:
    state_name, handler_name = name.split(".")
    return f"{_state(state_name).get_full_name()}.{handler_name}"


def _load_first(names: list[str]) -> list[str]:
    """A page's own load first (the record the others act on), `LATE` and `LAST` last."""
    return sorted(
        names, key=lambda name: (not name.endswith(".load"), name in LAST, name in LATE, name)
    )


def _judge(name: str, caller: Caller, rule: Permission, answer: Answer, secrets: list[str]) -> str:
    """ "" when the answer is what the table says, else what went wrong."""
    who = f"{name} by {caller.name}"
    signed_out = any(path.startswith(routes.STAFF_LOG_IN.path) for path in answer.redirects)
    if not caller.role:
        if not signed_out or answer.access in ("ok", "denied"):
            return f"{who}: not sent to sign in (access {answer.access!r}, {answer.redirects})"
    elif caller.may(rule):
        if answer.access != "ok" or signed_out:
            return f"{who}: refused (access {answer.access!r}, {answer.redirects})"
        return ""
    elif answer.access != "denied" or answer.redirects:
        return f"{who}: not denied (access {answer.access!r}, {answer.redirects})"
    body = "\n".join(answer.frames)
    leaked = [secret for secret in secrets if secret in body] + _EMAIL.findall(body)
    if leaked or answer.failed:
        return f"{who}: the answer holds {leaked or 'a failure'}"
    return ""


def test_a_signed_out_tab_keeps_no_staff_data(world: World) -> None:
    """As a customer's logout does, a staff sign-out leaves nothing of the records in the
    tab's stored state: the next person on that tab (a reload keeps its token) would get
    it with the page."""
    tab = StaffTab(world.site, world.leaver)
    for state_name in ("StaffInboxState", "StaffTeamState"):
        loaded = tab.send(_event(f"{state_name}.load"), {}, world.page(state_name))
        assert loaded.access == "ok"
    ended = tab.send(f"{STAFF_STATE}.sign_out", {}, routes.STAFF_TEAM.path)
    assert ended.redirects == [routes.STAFF_LOG_IN.path]
    tab.close()
    reloaded = StaffTab(world.site, "", tab.token)
    reloaded.close()
    body = "\n".join(reloaded.opening)
    assert reloaded.access == "signed_out"
    assert [secret for secret in world.secrets if secret in body] == []


def test_every_staff_handler_answers_every_caller_as_issue_19_says(world: World) -> None:
    site, cases = world.site, _cases()
    by_state: dict[str, list[str]] = {}
    for name, _ in cases:
        by_state.setdefault(name.split(".")[0], []).append(name)
    rules = dict(cases)
    pages = {state_name: world.page(state_name) for state_name in by_state}
    wrong: list[str] = []
    exercised: set[tuple[str, str]] = set()

    # 1. The refused calls, each on a tab where an admin has just loaded the page's record:
    # the state holds it (found, its id), so only the check keeps the handler from it.
    # A tab of its own for each caller and page: a signed-out event wipes the tab's staff
    # states (as a sign-out does), so a tab primed once would be empty for the next one.
    admin = next(caller for caller in world.callers if caller.role == "admin")

    def primed(state_name: str) -> str:
        tab = StaffTab(site, admin.cookie)
        loaded = tab.send(_event(f"{state_name}.load"), {}, pages[state_name])
        assert loaded.access == "ok" and not loaded.failed, (state_name, loaded.frames)
        tab.close()
        return tab.token

    before = _snapshot(world)
    for caller in world.callers:
        for state_name, names in by_state.items():
            refused = [name for name in _load_first(names) if not caller.may(rules[name])]
            if not refused:
                continue
            tab = StaffTab(site, caller.cookie, primed(state_name))
            try:
                # The admin's record went before the tab's state reached this caller's
                # connection (rcxsite/state/stored_data.py): the checks below stand
                # on their own.
                held = state_delta(tab.opening, _state(state_name).get_full_name())
                assert held.get(f"found{FIELD}") is not True, f"{state_name} was sent on"
                assert [s for s in world.secrets if s in "\n".join(tab.opening)] == []
                for name in refused:
                    answer = tab.send(_event(name), _payload(world, name), pages[state_name])
                    wrong.append(_judge(name, caller, rules[name], answer, world.secrets))
                    exercised.add((name, caller.name))
            finally:
                tab.close()
    after_refused = _snapshot(world)
    changed = {
        key: {
            "gone": sorted(set(before[key]) - set(after_refused[key])),
            "new": sorted(set(after_refused[key]) - set(before[key])),
        }
        for key in before
        if before[key] != after_refused[key]
    }
    assert changed == {}, f"refused calls changed the database: {changed}"
    denied = _rows("SELECT actor_id, target, count FROM audit_entry WHERE action = 'denied'")
    for role in ("sales", "support"):
        refused_names = {
            name
            for name, rule in cases
            if not MAY[role] & {rule} and name.split(".")[0] in by_state
        }
        traced = {target for actor, target, _ in denied if actor == world.members[role]["id"]}
        assert refused_names <= traced, (role, sorted(refused_names - traced))

    # 2. The allowed calls, each role on a tab of its own per page (its load first);
    # those in LAST (which end the record) once all the others are done.
    after_allowed: dict[str, list[tuple]] = {}
    for last in (False, True):
        if last:
            after_allowed = _snapshot(world)
        for caller in world.callers:
            for state_name, names in by_state.items():
                allowed = [
                    name
                    for name in _load_first(names)
                    if caller.may(rules[name]) and (name in LAST) == last
                ]
                if not allowed:
                    continue
                tab = StaffTab(site, caller.cookie)
                try:
                    if last:
                        tab.send(_event(f"{state_name}.load"), {}, pages[state_name])
                    for name in allowed:
                        answer = tab.send(_event(name), _payload(world, name), pages[state_name])
                        wrong.append(_judge(name, caller, rules[name], answer, world.secrets))
                        if answer.failed:
                            wrong.append(f"{name} by {caller.name}: the handler failed")
                        exercised.add((name, caller.name))
                finally:
                    tab.close()

    wrong = [line for line in wrong if line]
    assert wrong == [], "\n".join(wrong)
    expected = {(name, caller.name) for name, _ in cases for caller in world.callers}
    assert exercised == expected, sorted(expected - exercised)
    # The same payloads, sent by those allowed to, changed every kind of record (the
    # customer was locked, then deleted): the refused calls would have done harm.
    unchanged = [key for key in before if before[key] == after_allowed[key]]
    assert unchanged == [], f"the allowed calls changed nothing in {unchanged}"
    assert _snapshot(world)["customer"] == [], "the allowed deletion left the customer"


def _fresh_login(world: World, email: str) -> str:
    """The login cookies of a new session of the customer `email`."""
    ticket = service_calls.authenticate(
        email=email, password=PASSWORD, client_ip="198.51.100.79", via_ticket=True
    ).cookie_ticket
    return "; ".join(_post_ticket(world.site, LOGIN_COOKIE_PATH, ticket))


def _reconnected(world: World, token: str, cookie: str) -> str:
    """What a connection presenting the tab's token with `cookie` gets in its first frame."""
    tab = StaffTab(world.site, cookie, token)
    tab.close()
    return "\n".join(tab.opening)


def test_a_tabs_stored_data_reaches_only_whoever_loaded_it(world: World) -> None:
    """A tab's token outlives the sign-in that filled its state: whoever presents it again
    gets the state's data only if their own cookie resolves to the person who loaded it."""
    by_name = {caller.name: caller for caller in world.callers}
    sales, support = by_name["sales"], by_name["support"]

    def primed() -> str:
        tab = StaffTab(world.site, sales.cookie)
        tab.send(_event("StaffInboxState.load"), {}, world.page("StaffInboxState"))
        # The world's request by its company: other tests' newer requests may fill page 1.
        loaded = tab.send(
            _event("StaffInboxState.apply_filter"),
            _payload(world, "StaffInboxState.apply_filter"),
            world.page("StaffInboxState"),
        )
        tab.close()
        assert loaded.access == "ok" and world.company in "\n".join(loaded.frames)
        return tab.token

    # The member who loaded it, on a new connection: the data is theirs and stays.
    assert world.company in _reconnected(world, primed(), sales.cookie)
    for who, cookie in (
        ("no cookie", ""),
        ("another member", support.cookie),
        ("a customer", by_name["a customer"].cookie),
    ):
        body = _reconnected(world, primed(), cookie)
        assert [secret for secret in world.secrets if secret in body] == [], who

    # A customer's My account, loaded on a tab, then the session ended elsewhere (the
    # API's logout with the same token): the tab's token with the old cookie gets nothing.
    # A login of its own: the world's is idle by now (the test site idles logins fast).
    known = by_name["a customer"].cookie
    email = json.loads(urllib.parse.unquote(known.split(";", 1)[0].split("=", 1)[1]))[
        "EmailAddress"
    ]
    customer = _fresh_login(world, email)
    login = json.loads(urllib.parse.unquote(customer.split(";", 1)[0].split("=", 1)[1]))
    account = _state("AccountState").get_full_name()
    tab = StaffTab(world.site, customer)
    shown = tab.send(f"{account}.load", {}, routes.ACCOUNT.path)
    tab.close()
    assert login["EmailAddress"] in "\n".join(shown.frames)

    def email_sent(cookie: str) -> str:
        tab_again = StaffTab(world.site, cookie, tab.token)
        tab_again.close()
        return state_delta(tab_again.opening, account).get(f"email{FIELD}", "")

    assert email_sent(customer) == login["EmailAddress"]
    assert email_sent("") == ""
    again = StaffTab(world.site, customer, tab.token)
    again.send(f"{account}.load", {}, routes.ACCOUNT.path)
    again.close()
    answer = world.site.request(
        "POST", "/api/v1/Auth/Logout", headers={"Authorization": f"Bearer {login['Token']}"}
    )
    assert answer.status_code == 200
    assert email_sent(customer) == ""


def test_an_invitations_name_and_address_reach_only_its_own_link(world: World) -> None:
    """The invitation page holds the invitee's name and address for whoever opened the
    link; a connection that takes the tab over elsewhere (it has the tab's token, not the
    link), on another page or sending the page's own event from another link, gets
    neither."""
    email = f"matrix-held-{uuid.uuid4().hex[:8]}@rcx.example"
    token = invite(email, name="Held Invitee")
    tab = StaffTab(world.site, "")
    opened = tab.send(
        f"{_state('StaffInviteState').get_full_name()}.open_link",
        {},
        routes.staff_invite_path(token),
    )
    tab.close()
    assert email in "\n".join(opened.frames)
    body = _reconnected(world, tab.token, "")
    assert email not in body and "Held Invitee" not in body
    taken = StaffTab(world.site, "", tab.token)
    sent = taken.send(
        f"{_state('StaffInviteState').get_full_name()}.choose_password",
        {"form": {"new_password": "x", "confirm_new_password": "y"}},
        routes.staff_invite_path("y" * 43),
    )
    taken.close()
    assert email not in "\n".join(taken.opening + sent.frames)
