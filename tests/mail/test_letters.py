"""Each account, staff and sales mail says the same in its plain-text and HTML parts: both
are made from one list of paragraphs (rcxsite/mail/letters.py)."""

from __future__ import annotations

import re
from email.message import EmailMessage
from html import unescape

import pytest

from rcxsite.leads.notification import send_quote_mail
from rcxsite.leads.validation import QuoteInput
from rcxsite.mail import letters, messages
from rcxsite.staff.mail import send_staff_invitation_mail
from tests.support.quotes import quote_fields
from tests.support.site import outbox_messages

LINK = "https://rcx.test/some/link?token=a<b>&c"


def _words(text: str) -> list[str]:
    """The words a reader reads, links' addresses and the link fallback line aside."""
    text = re.sub(r"\(?https?://\S+|If the link does not work[^:]*:", " ", text)
    return re.findall(r"[\w£'’-]+", text)


def _parts(message: EmailMessage) -> tuple[str, str]:
    plain, html = message.get_body(("plain",)), message.get_body(("html",))
    assert plain is not None and html is not None
    return plain.get_content(), html.get_content()


def _html_words(html: str) -> list[str]:
    return _words(unescape(re.sub(r"<[^>]+>", " ", html)))


SENDERS = {
    "reset": lambda: messages.send_password_reset_mail(
        to="a@example.com", user_name="Ann <b>", link=LINK, valid_minutes=30
    ),
    "verification": lambda: messages.send_email_verification_mail(
        to="a@example.com", link=LINK, valid_days=7
    ),
    "password changed": lambda: messages.send_password_changed_mail(
        to="a@example.com", user_name="Ann"
    ),
    "account deleted": lambda: messages.send_account_deleted_mail(
        to="a@example.com", user_name="Ann"
    ),
    "registration attempt": lambda: messages.send_registration_attempt_mail(
        to="a@example.com", user_name="Ann"
    ),
    "staff invitation": lambda: send_staff_invitation_mail(
        to="a@example.com", name="Ann", link=LINK, valid_hours=48
    ),
    "sales": lambda: send_quote_mail(
        QuoteInput.parse(quote_fields(name="Ann <b>", company="A & B")),
        request_id=7,
        session=None,  # type: ignore[arg-type]
    ),
}


@pytest.mark.parametrize("mail", SENDERS)
def test_the_text_and_html_parts_say_the_same_words(mail: str) -> None:
    SENDERS[mail]()
    [message] = outbox_messages() or outbox_messages(verification=True)
    text, html = _parts(message)
    assert _words(text) == _html_words(html)
    assert "<b>" not in html.replace("<body", "")  # a name is text, never markup


def test_a_main_link_stands_on_its_own_line_and_is_spelled_out_in_html() -> None:
    words = letters.letter(
        "Hello,",
        ("Open ", letters.Link("your page", LINK, action=True), " today."),
        ("Or ", letters.Link("log in", "https://rcx.test/log-in"), "."),
    )
    assert words.text() == (
        f"Hello,\n\nOpen your page today.\n\n{LINK}\n\nOr log in (https://rcx.test/log-in).\n"
    )
    html = words.html()
    assert '<a href="https://rcx.test/some/link?token=a&lt;b&gt;&amp;c">your page</a>' in html
    assert "copy this address into your browser:<br>https://rcx.test/some/link" in html


def test_a_table_and_a_message_keep_their_shape() -> None:
    words = letters.letter(
        letters.Table([("Name", "Ann"), ("Company", "A & B")]),
        letters.Verbatim("Message", "Line one\nLine <two>"),
    )
    assert words.text() == "Name:    Ann\nCompany: A & B\n\nMessage:\nLine one\nLine <two>\n"
    assert "<td>A &amp; B</td>" in words.html()
    assert '<p style="white-space:pre-wrap">Line one\nLine &lt;two&gt;</p>' in words.html()
