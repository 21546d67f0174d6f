"""`python -m rcxsite.staff invite|list|disable|enable|reset-2fa|hours|calendar|
sync-calendars`: the team from a shell.

Invitation links are printed on the last line (and mailed), so the first admin can be
invited on a server whose mail is not set up yet.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from sqlalchemy.exc import SQLAlchemyError

from rcxsite.booking import hours
from rcxsite.booking.calendars import connections, sync
from rcxsite.booking.calendars.inputs import CalendarInput
from rcxsite.booking.hours_inputs import WEEKDAY_KEYS, WeekInput, hours_text
from rcxsite.core.permissions import OPERATOR, ROLES
from rcxsite.core.service_errors import ServiceError
from rcxsite.mail import wait_for_outgoing_mail
from rcxsite.models.calendars import CALDAV, ICS
from rcxsite.models.types import utcnow
from rcxsite.staff import members
from rcxsite.staff.inputs import InviteInput


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m rcxsite.staff", description="Staff members (database from DATABASE_URL)."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    invite = commands.add_parser("invite", help="invite a member; prints the invitation link")
    invite.add_argument("email")
    invite.add_argument("--name", required=True)
    invite.add_argument("--role", required=True, choices=ROLES)
    commands.add_parser("list", help="members, roles, two-factor status and last sign-in")
    for name, text in (
        ("disable", "disable a member and end their sessions"),
        ("enable", "enable a disabled member"),
        ("reset-2fa", "clear a member's two-factor sign-in; prints a new link"),
    ):
        commands.add_parser(name, help=text).add_argument("email")
    week = commands.add_parser(
        "hours", help="set a member's weekly hours on some days (the other days are kept)"
    )
    week.add_argument("email")
    week.add_argument("--day", required=True, action="append", choices=WEEKDAY_KEYS)
    week.add_argument(
        "--intervals",
        required=True,
        help='e.g. 09:00-12:30,13:30-17:30 on the member\'s wall clock; "" for no calls',
    )
    calendar = commands.add_parser(
        "calendar", help="connect a member's calendar: its busy times block their calls"
    )
    calendar.add_argument("email")
    where = calendar.add_mutually_exclusive_group(required=True)
    where.add_argument("--ics", metavar="URL", help="a private iCal address")
    where.add_argument("--caldav", metavar="URL", help="a CalDAV calendar's address")
    calendar.add_argument("--user", default="", help="the CalDAV user name")
    calendar.add_argument(
        "--password-stdin", action="store_true", help="read the CalDAV app password from stdin"
    )
    calendar.add_argument(
        "--write-calls", action="store_true", help="add booked calls to this CalDAV calendar"
    )
    commands.add_parser("sync-calendars", help="read every connected calendar now")
    return parser


def _connect_calendar(member_id: int, args: argparse.Namespace) -> str:
    form = {
        "kind": CALDAV if args.caldav else ICS,
        "url": args.caldav or args.ics,
        "username": args.user,
        "password": sys.stdin.readline().rstrip("\n") if args.password_stdin else "",
        "write_calls": args.write_calls,
    }
    return connections.connect(CalendarInput.parse(form), actor=OPERATOR, member_id=member_id)


def _sync_calendars() -> str:
    lines = []
    for email, calendar, result in sync.sync_all():
        lines.append(
            f"{email}\t{calendar.kind}\t"
            f"{connections.shown_address(calendar.url)}\t"
            f"{result.message if result.ok else 'failed: ' + result.message}"
        )
    return "\n".join(lines) or "No calendars are connected."


def _set_hours(member_id: int, days: list[str], intervals: str) -> str:
    """The member's week with `days` set to `intervals`, saved like the page's form."""
    settings = hours.call_settings(actor=OPERATOR, member_id=member_id)
    form = {WEEKDAY_KEYS[row.weekday]: hours_text(row.intervals) for row in settings.week}
    form.update(dict.fromkeys(days, intervals))
    saved = hours.set_week(WeekInput.parse(form), actor=OPERATOR, member_id=member_id)
    week = hours.call_settings(actor=OPERATOR, member_id=member_id).week
    lines = [f"{row.name}: {row.text or 'no calls'}" for row in week]
    return "\n".join([saved, *lines])


def _run(args: argparse.Namespace) -> str:
    if args.command == "invite":
        form = InviteInput.parse({"email": args.email, "name": args.name, "role": args.role})
        return members.invite(form, actor=OPERATOR).link
    if args.command == "list":
        lines = [
            f"{row.email}\t{row.name}\t{row.role}\t"
            f"{'2FA' if row.two_factor else 'not enrolled'}\t"
            f"{'disabled' if row.disabled else 'enabled'}\t"
            f"{row.last_sign_in_at.isoformat() if row.last_sign_in_at else 'never signed in'}"
            for row in members.list_members(actor=OPERATOR)
        ]
        return "\n".join(lines) or "No staff members yet."
    if args.command == "sync-calendars":
        return _sync_calendars()
    member_id = members.member_by_email(args.email)
    if args.command == "calendar":
        return _connect_calendar(member_id, args)
    if args.command == "hours":
        return _set_hours(member_id, args.day, args.intervals)
    if args.command == "reset-2fa":
        return members.reset_two_factor(actor=OPERATOR, member_id=member_id).link
    return members.set_disabled(
        actor=OPERATOR, member_id=member_id, disabled=args.command == "disable"
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    started = utcnow()
    try:
        output = _run(args)
    except ServiceError as refusal:
        details = "; ".join(f"{field}: {text}" for field, text in refusal.fields.items())
        print(f"error: {details or refusal.message}", file=sys.stderr)
        return 1
    except SQLAlchemyError as error:
        print(
            f"error: the database could not be used ({type(error).__name__}); "
            "is it migrated (make migrate)?",
            file=sys.stderr,
        )
        return 1
    print(output)
    # The invitation mail is sent in the background; the process must not end before it.
    wait_for_outgoing_mail(30, since=started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
