"""My account's quote requests: newest first, each with who at RCX answers it (the
salesperson who owns it, or the sales team while nobody does), and only once the address
is the customer's."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from rcxsite import accounts
from rcxsite.accounts.my_account import SALES_TEAM
from rcxsite.content import routes
from rcxsite.models import utcnow
from rcxsite.platform.settings import get_settings
from rcxsite.state.my_account import AccountState
from tests.support.customers import add_customer, register_customer
from tests.support.quotes import BASE_TIME, add_quotes
from tests.support.staff import add_member
from tests.support.tabs import Tab, login_cookie

EMAIL = "dana@client.example"


def _requests(**owners: int | None) -> None:
    """One request from EMAIL per keyword (its service), a day apart, oldest first."""
    add_quotes(
        [
            {
                "email": EMAIL.upper(),
                "service": service.replace("_", "-"),
                "owner_id": owner,
                "created_at": BASE_TIME + timedelta(days=day),
            }
            for day, (service, owner) in enumerate(owners.items())
        ]
    )


def test_each_request_names_its_owner_or_the_sales_team_newest_first() -> None:
    sam = add_member("Sam Sales", "sam.sales@rcx.example", "sales")
    customer_id = add_customer(EMAIL, verified=True)
    add_quotes([{"email": "someone.else@client.example", "owner_id": sam.member_id}])
    _requests(web_development=sam.member_id, devops=None)

    quotes = accounts.account_overview(customer_id=customer_id).quotes

    assert [(q.service, q.contact_name, q.contact_email) for q in quotes] == [
        ("DevOps", SALES_TEAM, get_settings().sales_email),
        ("Web Development", "Sam Sales", "sam.sales@rcx.example"),
    ]
    assert SALES_TEAM == "Our sales team"
    assert [q.sent_on for q in quotes] == [
        (BASE_TIME + timedelta(days=1)).date(),
        BASE_TIME.date(),
    ]


def test_an_owner_who_left_or_a_request_judged_spam_is_answered_by_the_team() -> None:
    gone = add_member("Gil Gone", "gil@rcx.example", "sales", disabled_at=utcnow())
    sam = add_member("Sam Sales", "sam.sales@rcx.example", "sales")
    customer_id = add_customer(EMAIL, verified=True)
    _requests(web_development=gone.member_id)
    add_quotes(
        [
            {
                "email": EMAIL,
                "owner_id": sam.member_id,
                "status": "spam",
                "created_at": BASE_TIME + timedelta(days=3),
            }
        ]
    )

    quotes = accounts.account_overview(customer_id=customer_id).quotes

    assert [(q.status, q.contact_name) for q in quotes] == [
        ("Received", SALES_TEAM),
        ("Received", SALES_TEAM),
    ]


def test_nothing_until_the_address_is_verified() -> None:
    sam = add_member("Sam Sales", "sam.sales@rcx.example", "sales")
    customer_id = add_customer(EMAIL, verified=False)
    _requests(web_development=sam.member_id)

    assert accounts.account_overview(customer_id=customer_id).quotes == ()


def test_the_page_lists_them_with_a_mail_link_to_the_contact() -> None:
    sam = add_member("Sam Sales", "sam+sales?cc=x@rcx.example", "sales")
    register_customer(EMAIL, verified=True)
    _requests(web_development=sam.member_id, devops=None)
    tab = Tab().open(routes.ACCOUNT.path, cookie=login_cookie(EMAIL))
    sales = get_settings().sales_email

    asyncio.run(tab.run(AccountState.load))

    account = tab.state(AccountState)
    assert [
        (quote["service"], quote["contact"], quote["contact_email"], quote["contact_href"])
        for quote in account.quotes
    ] == [
        ("DevOps", SALES_TEAM, sales, f"mailto:{sales}"),
        # What a visitor reads as the address is the whole address the link mails.
        (
            "Web Development",
            "Sam Sales",
            "sam+sales?cc=x@rcx.example",
            "mailto:sam%2Bsales%3Fcc%3Dx@rcx.example",
        ),
    ]
