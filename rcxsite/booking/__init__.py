"""Booked calls: the free times of the members who take calls, booking one atomically (it
is the quote request in the sales inbox, owned by its host), and the manage link's
reschedule and cancel. Framework-free: the quote page, the manage page, the REST API and
the staff screens call these functions.

- `rules.py`: the company's rules (BOOKING_* settings); `inputs.py`: what clients send;
- `availability.py`: members' hours, overrides and time off; `slots.py`: the free times;
- `service.py`: book, reschedule, cancel, the manage link's view, an address's calls;
  `hosting.py`: who hosts a call (free and ranked); `placement.py`: writing it with the
  first host the database accepts;
- `invitation.py`, `notices.py`, `wording.py`, `links.py`: the mails, their .ics
  invitations and the reminders.
"""

from rcxsite.booking import calls, hours, hours_inputs
from rcxsite.booking.inputs import BookingInput, CancelInput, RescheduleInput, SlotQuery, utc_text
from rcxsite.booking.rules import Rules, rules
from rcxsite.booking.service import (
    ALREADY_BOOKED,
    CANCELLED_NOTICE,
    LINK_INVALID,
    NOT_CANCELLED,
    PAST_NOTICE,
    TAKEN,
    BookingReceipt,
    ManagedCall,
    UpcomingCall,
    book,
    book_again,
    cancel,
    manage_url,
    managed_call,
    reschedule,
    slots_to_move_to,
    upcoming_for_email,
)
from rcxsite.booking.slots import Slot, SlotList, free_slots

__all__ = [
    "ALREADY_BOOKED",
    "CANCELLED_NOTICE",
    "LINK_INVALID",
    "NOT_CANCELLED",
    "PAST_NOTICE",
    "TAKEN",
    "BookingInput",
    "BookingReceipt",
    "CancelInput",
    "ManagedCall",
    "RescheduleInput",
    "Rules",
    "Slot",
    "SlotList",
    "SlotQuery",
    "UpcomingCall",
    "book",
    "book_again",
    "calls",
    "cancel",
    "free_slots",
    "hours",
    "hours_inputs",
    "manage_url",
    "managed_call",
    "reschedule",
    "rules",
    "slots_to_move_to",
    "upcoming_for_email",
    "utc_text",
]
