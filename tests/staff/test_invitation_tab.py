"""The invitation page's tab holds the invitee's name and address for the link that
loaded them: a connection on any other page (someone holding the tab's token, not the
link) makes it forget them, before Reflex sends it anything (rcxsite/state/stored_data.py)."""

from __future__ import annotations

from rcxsite.content import routes
from rcxsite.core import tokens
from rcxsite.state.staff.invite import StaffInviteState
from tests.support.staff import invite
from tests.support.tabs import Tab


def _link(token: str) -> str:
    """The link's path as an event brings it to the state (rcxsite/web/sealed_event_paths.py)."""
    return routes.staff_invite_path(tokens.marked(token))


def _opened(token: str) -> Tab:
    tab = Tab().open(_link(token))
    tab.run_now(StaffInviteState.open_link)
    state = tab.state(StaffInviteState)
    assert (state.name, state.email, state.step) == ("Held Invitee", "held@rcx.example", "password")
    return tab


def _checked(tab: Tab) -> StaffInviteState:
    state = tab.state(StaffInviteState)
    tab.run_now_coroutine(state._forget_unless_owner())
    return state


def test_a_reconnect_on_the_same_link_keeps_the_invitee() -> None:
    tab = _opened(invite("held@rcx.example", name="Held Invitee"))
    state = _checked(tab.reconnect())
    assert (state.name, state.email, state.step) == ("Held Invitee", "held@rcx.example", "password")


def test_a_connection_on_another_page_or_link_gets_nothing() -> None:
    token = invite("held@rcx.example", name="Held Invitee")
    for elsewhere in (routes.ABOUT.path, _link("y" * 43)):
        tab = _opened(token)
        tab.open(elsewhere)
        state = _checked(tab)
        assert (state.name, state.email, state.step) == ("", "", "checking"), elsewhere
