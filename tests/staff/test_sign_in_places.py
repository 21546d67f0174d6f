"""Wrong sign-ins lock the place they come from, not the member: an attacker elsewhere
cannot keep a member out; many places at once only slow the member's sign-in from places
they never signed in from."""

from __future__ import annotations

import threading
import time

import pytest

from rcxsite.core.ratelimit import RateLimited
from rcxsite.core.service_errors import ServiceError
from rcxsite.staff import two_factor
from rcxsite.staff.inputs import StaffSignInInput
from rcxsite.staff.sign_in import SIGN_IN_REFUSED, StaffSignedIn, sign_in
from tests.support.fixtures import Configure
from tests.support.staff import STAFF_IP as IP
from tests.support.staff import STAFF_PASSWORD, member

ATTACKER = "203.0.113.66"
LOCKED = "Too many requests. Try again in 15 minutes."
# Wrong sign-ins from this many places turn slowing on (with the member limit below).
SLOWING_PLACES = 5


def _sign_in(email: str, code: str, ip: str, password: str = STAFF_PASSWORD) -> StaffSignedIn:
    return sign_in(
        StaffSignInInput.parse({"email": email, "password": password, "code": code}), client_ip=ip
    )


def _wrong(email: str, ip: str) -> ServiceError:
    with pytest.raises(ServiceError) as refused:
        _sign_in(email, "000000", ip, password="a wrong password 12")
    return refused.value


def test_five_wrong_attempts_lock_their_address_and_not_the_member() -> None:
    enrolled = member("sam@rcx.example")
    for _ in range(5):
        assert _wrong("sam@rcx.example", ATTACKER).message == SIGN_IN_REFUSED
    with pytest.raises(RateLimited) as locked:
        _sign_in("sam@rcx.example", two_factor.current_code(enrolled.secret), ATTACKER)
    assert locked.value.message == LOCKED
    # The member, at the office (and at home, an address never used before), signs in.
    assert (
        _sign_in("sam@rcx.example", two_factor.current_code(enrolled.secret), IP).actor.email
        == "sam@rcx.example"
    )
    home = _sign_in("sam@rcx.example", enrolled.recovery_codes[0], "192.0.2.40")
    assert home.actor.email == "sam@rcx.example"


def test_many_places_slow_the_member_elsewhere_but_never_lock_the_office(
    configure: Configure,
) -> None:
    configure(
        staff_member_failure_limit="4 per 15 minutes", staff_slow_sign_in_limit="1 per 2 seconds"
    )
    enrolled = member("sam@rcx.example")  # enrolled, and so signed in, from IP
    for number in range(5):  # the fifth is past the member's limit: slowed, still checked
        assert _wrong("sam@rcx.example", f"203.0.113.{number}").status == 401
    # Each place not used before is paced on its own: a first attempt is checked, the
    # next one at once waits its turn.
    assert _wrong("sam@rcx.example", "203.0.113.99").status == 401
    slowed = _wrong("sam@rcx.example", "203.0.113.99")
    assert slowed.status == 429 and slowed.retry_after is not None and slowed.retry_after <= 2
    # The office, where the member signed in before, is not slowed at all.
    assert (
        _sign_in("sam@rcx.example", two_factor.current_code(enrolled.secret), IP).actor.email
        == "sam@rcx.example"
    )
    # A place never used before does not wait for the other places' turns.
    home = _sign_in("sam@rcx.example", enrolled.recovery_codes[0], "192.0.2.40")
    assert home.actor.email == "sam@rcx.example"


def _slow_down(configure: Configure, **settings: str) -> None:
    """Past the member's limit: wrong sign-ins from SLOWING_PLACES places turn slowing on."""
    configure(staff_member_failure_limit=f"{SLOWING_PLACES - 1} per 15 minutes", **settings)
    for number in range(SLOWING_PLACES):
        assert _wrong("sam@rcx.example", f"203.0.113.{number}").status == 401


def test_a_slowed_place_that_keeps_trying_is_locked_like_any_other(
    configure: Configure,
) -> None:
    member("sam@rcx.example")
    _slow_down(configure)
    answers = [_wrong("sam@rcx.example", ATTACKER) for _ in range(12)]
    # Paced or checked, each attempt counts at its place: the fifth is the last one.
    assert [answer.message for answer in answers[5:]] == [LOCKED] * 7
    assert [answer.status for answer in answers[:5]] == [401, 429, 429, 429, 429]


def test_a_member_signs_in_from_a_new_place_while_one_place_keeps_trying(
    configure: Configure,
) -> None:
    enrolled = member("sam@rcx.example")
    _slow_down(configure)  # the real pace: one attempt per place every 5 seconds
    answers: list[ServiceError] = []
    stop = threading.Event()

    def keep_trying() -> None:
        while not stop.is_set():
            answers.append(_wrong("sam@rcx.example", ATTACKER))

    attacker = threading.Thread(target=keep_trying)
    attacker.start()
    try:
        while len(answers) < 20:
            time.sleep(0.01)
        home = _sign_in("sam@rcx.example", enrolled.recovery_codes[0], "192.0.2.40")
        away = _sign_in("sam@rcx.example", enrolled.recovery_codes[1], "192.0.2.41")
        tried_meanwhile = len(answers)
    finally:
        stop.set()
        attacker.join()
    assert (home.actor.email, away.actor.email) == ("sam@rcx.example", "sam@rcx.example")
    assert len(answers) > tried_meanwhile >= 20
    assert {answer.message for answer in answers[5:]} == {LOCKED}


def test_new_places_together_are_capped_and_the_office_never_is(
    configure: Configure,
) -> None:
    enrolled = member("sam@rcx.example")  # enrolled, and so signed in, from IP
    # The fifth wrong sign-in, already slowed, takes the first of the three.
    _slow_down(configure, staff_slow_sign_in_member_limit="3 per 15 minutes")
    for number in (10, 11):
        assert _wrong("sam@rcx.example", f"203.0.113.{number}").status == 401
    capped = _wrong("sam@rcx.example", "203.0.113.12")
    assert (capped.status, capped.message) == (429, LOCKED)
    with pytest.raises(RateLimited):
        _sign_in("sam@rcx.example", enrolled.recovery_codes[0], "192.0.2.40")
    assert (
        _sign_in("sam@rcx.example", two_factor.current_code(enrolled.secret), IP).actor.email
        == "sam@rcx.example"
    )
