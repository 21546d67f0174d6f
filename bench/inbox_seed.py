"""100,000 made-up quote requests for the inbox bench, inserted in bulk.

The spread is meant to look like two years of a real inbox: most requests worked to an
end (lost, won), a tenth still new, about 5 % spam; two thirds owned by one of the sales
and admin members (unevenly), new requests and spam mostly unassigned; names, companies,
e-mail addresses and messages drawn from lists so that a search finds what it would in
real data. `SEARCH_HIT` is in a few hundred messages, `SEARCH_NAME` in a few thousand
names (and the e-mail addresses made of them), `SEARCH_MISS` in none.
Deterministic: the same seed gives the same rows.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import Engine, insert

from rcxsite.content.quote import BUDGETS, CALL_TIMES, SERVICE_CHOICES, TIMELINES
from rcxsite.models import QuoteRequest, StaffMember

BATCH = 5_000
DAYS = 730
SEARCH_HIT = "lotus"  # "Lotus Notes", in about 0.4 % of the messages
SEARCH_HIT_SHARE = 0.004
SEARCH_MISS = "zqxjv"
SEARCH_NAME = "smith"  # a surname: one in LAST, in about 2.5 % of the names
# (status, weight): a tenth still new, about 5 % spam.
STATUSES = (
    ("new", 10),
    ("contacted", 18),
    ("qualified", 14),
    ("won", 15),
    ("lost", 38),
    ("spam", 5),
)
# (name, role, share of the owned requests)
MEMBERS = (
    ("Sam Sales", "sales", 30),
    ("Priya Patel", "sales", 25),
    ("Tom Baker", "sales", 20),
    ("Ewa Nowak", "sales", 12),
    ("Liam O'Neill", "sales", 8),
    ("Ada Admin", "admin", 5),
    ("Sue Support", "support", 0),
)
FIRST = (
    "Alice",
    "Ben",
    "Chloe",
    "Daniel",
    "Emma",
    "Farid",
    "Grace",
    "Hugo",
    "Isla",
    "Jack",
    "Kasia",
    "Leo",
    "Maya",
    "Noah",
    "Olivia",
    "Pavel",
    "Quinn",
    "Ruby",
    "Sofia",
    "Theo",
    "Uma",
    "Victor",
    "Wren",
    "Xavier",
    "Yusuf",
    "Zoë",
    "Amir",
    "Bea",
    "Conor",
    "Dara",
    "Elif",
    "Finn",
    "Greta",
    "Hannah",
    "Ivan",
    "Jonas",
    "Kofi",
    "Lena",
    "Mateo",
    "Nina",
)
LAST = (
    "Smith",
    "Jones",
    "Taylor",
    "Brown",
    "Williams",
    "Wilson",
    "Johnson",
    "Davies",
    "Patel",
    "Wright",
    "Khan",
    "Evans",
    "Thomas",
    "Roberts",
    "Walker",
    "Müller",
    "García",
    "Rossi",
    "Nowak",
    "Kowalski",
    "Dubois",
    "Jensen",
    "Novak",
    "Murphy",
    "Kelly",
    "O'Brien",
    "Hughes",
    "Edwards",
    "Green",
    "Hall",
    "Wood",
    "Harris",
    "Clarke",
    "Lewis",
    "Young",
    "King",
    "Baker",
    "Hill",
    "Moore",
    "Ward",
)
COMPANY_WORDS = (
    "Acme",
    "Northwind",
    "Bluebell",
    "Harbour",
    "Summit",
    "Granite",
    "Pioneer",
    "Silverline",
    "Oakridge",
    "Meridian",
    "Beacon",
    "Kestrel",
    "Lumen",
    "Atlas",
    "Cobalt",
    "Evergreen",
    "Falcon",
    "Horizon",
    "Ironbridge",
    "Juniper",
    "Keystone",
    "Larch",
    "Maple",
    "Nimbus",
    "Orchard",
    "Quarry",
    "Riverside",
    "Saffron",
    "Thistle",
    "Union",
    "Vantage",
    "Willow",
    "Yardley",
    "Zenith",
    "Brightwater",
    "Castlegate",
    "Driftwood",
    "Elmstead",
    "Foxglove",
    "Greystone",
)
COMPANY_KINDS = (
    "Logistics",
    "Health",
    "Foods",
    "Energy",
    "Legal",
    "Retail",
    "Finance",
    "Media",
    "Engineering",
    "Travel",
    "Insurance",
    "Property",
    "Education",
    "Analytics",
    "Fashion",
    "Construction",
    "Pharma",
    "Motors",
    "Telecom",
    "Labs",
)
COMPANY_FORMS = ("Ltd", "Ltd", "Ltd", "plc", "GmbH", "LLP", "Group", "& Co", "Inc", "")
TECH = (
    "Shopify",
    "Salesforce",
    "SAP",
    "Dynamics 365",
    "WordPress",
    "Magento",
    "HubSpot",
    "Xero",
    "Sage",
    "Zendesk",
    "Jira",
    "SharePoint",
    "Oracle",
    "Excel",
    "Access",
    "Power BI",
    "Tableau",
    "Stripe",
    "Twilio",
    "Kubernetes",
    "AWS",
    "Azure",
    "Google Cloud",
    "React Native",
    "Flutter",
    "Django",
    "Rails",
    ".NET",
    "PHP",
    "Java",
)
OPENINGS = (
    "Hello, we are looking for a partner to help us with a new project.",
    "Hi team, a colleague recommended you.",
    "We are a growing business and our current systems no longer keep up.",
    "Good morning, I saw your case studies and would like to talk.",
    "We have a tender coming up and need a quote for the work below.",
    "Our board approved a budget for this year and we want to start soon.",
)
NEEDS = (
    "We need a customer portal that connects to {tech}.",
    "Our team wants to replace a spreadsheet process with a proper web app on {tech}.",
    "We would like a mobile app for our field staff, with offline use, syncing to {tech}.",
    "The current website is slow and hard to edit; we are thinking of moving off {tech}.",
    "We need reporting dashboards fed from {tech} for the management team.",
    "Can you integrate our warehouse system with {tech} and our couriers?",
    "We want to automate invoicing between {tech} and our bank.",
    "Our online shop on {tech} needs a redesign and better checkout conversion.",
    "We need help moving our on-premise servers and {tech} to the cloud.",
    "We are after a booking system for appointments with reminders by text message.",
)
DETAILS = (
    "About {users} people would use it every day.",
    "We have an in-house developer who can help.",
    "Security and GDPR are important to us; we hold health data.",
    "Ideally the first version goes live before the summer.",
    "We would like a fixed price for the first phase if possible.",
    "Please call me in the morning, afternoons are busy here.",
    "We tried an off-the-shelf product last year and it did not fit.",
    "There are around {users} thousand records to migrate.",
    "Accessibility matters: some of our customers use screen readers.",
    "We operate in the UK and Germany, so two languages are needed.",
)
RARE = "We still run part of the business on Lotus Notes and need to migrate away from it."
SPAM = (
    "Cheap SEO backlinks!!! Rank #1 on Google in 7 days, visit our site now.",
    "Dear Sir/Madam, we offer guest posts on high authority sites at low prices.",
    "Congratulations, you have been selected. Reply with your bank details.",
)
LOST_REASONS = (
    "Too expensive",
    "Went with another agency",
    "No budget this year",
    "No reply after three calls",
    "Project cancelled",
)


def members(now: datetime) -> list[dict[str, Any]]:
    """The staff members, as insert values (ids 1.. in MEMBERS' order)."""
    return [
        {
            "id": index,
            "name": name,
            "email": f"member{index}@rcx.example",
            "email_key": f"member{index}@rcx.example",
            "role": role,
            "password_hash": "",
            "totp_secret": "",
            "totp_last_step": 0,
            "recovery_code_hashes": "[]",
            "time_zone": "Europe/London",
            "created_at": now - timedelta(days=DAYS + 30),
        }
        for index, (name, role, _share) in enumerate(MEMBERS, start=1)
    ]


def _ascii(address: str) -> str:
    """ "Zoë.O'Brien@x.com" -> "zoe.obrien@x.com"."""
    folded = unicodedata.normalize("NFKD", address).encode("ascii", "ignore").decode()
    return folded.lower().replace("'", "")


def _company(pick: random.Random) -> tuple[str, str]:
    word, kind = pick.choice(COMPANY_WORDS), pick.choice(COMPANY_KINDS)
    form = pick.choice(COMPANY_FORMS)
    domain = f"{word}{kind}".lower() + pick.choice((".co.uk", ".com", ".de", ".io"))
    return " ".join(part for part in (word, kind, form) if part), domain


def _message(pick: random.Random, spam: bool) -> str:
    if spam:
        return pick.choice(SPAM)
    users = str(pick.randint(5, 400))
    parts = [
        pick.choice(OPENINGS),
        pick.choice(NEEDS).format(tech=pick.choice(TECH)),
        *(detail.format(users=users) for detail in pick.sample(DETAILS, pick.randint(1, 3))),
    ]
    if pick.random() < SEARCH_HIT_SHARE:
        parts.insert(2, RARE)
    return " ".join(parts)


def quote_rows(count: int, now: datetime, seed: int = 19) -> Iterator[dict[str, Any]]:
    """`count` quote requests, as insert values, received over the last DAYS days."""
    pick = random.Random(seed)
    statuses, status_weights = zip(*STATUSES, strict=True)
    owners = [index for index, (_n, role, _s) in enumerate(MEMBERS, start=1) if role != "support"]
    owner_weights = [MEMBERS[index - 1][2] for index in owners]
    services = [value for value, _label in SERVICE_CHOICES]
    for _ in range(count):
        created = now - timedelta(seconds=pick.uniform(0, DAYS * 86_400))
        status = pick.choices(statuses, status_weights)[0]
        unassigned = status == "spam" or (status == "new" and pick.random() < 0.7)
        first, last = pick.choice(FIRST), pick.choice(LAST)
        company, domain = _company(pick)
        call_day: date = (created + timedelta(days=pick.randint(1, 30))).date()
        yield {
            "name": f"{first} {last}",
            "company": company,
            "email": _ascii(f"{first}.{last}{pick.randint(1, 99)}@{domain}"),
            "phone": "" if pick.random() < 0.4 else f"+44 7{pick.randint(10**8, 10**9 - 1)}",
            "service": pick.choice(services),
            "budget": pick.choice(BUDGETS)[0],
            "timeline": pick.choice(TIMELINES)[0],
            "message": _message(pick, status == "spam"),
            "call_date": call_day,
            "call_time": pick.choice(CALL_TIMES)[0],
            "client_ip_hash": f"{pick.getrandbits(256):064x}",
            "created_at": created,
            "mailed_at": created + timedelta(seconds=pick.randint(1, 30)),
            "status": status,
            "owner_id": None if unassigned else pick.choices(owners, owner_weights)[0],
            "lost_reason": pick.choice(LOST_REASONS) if status == "lost" else "",
        }


def seed(engine: Engine, count: int, now: datetime | None = None) -> None:
    """Insert the members and `count` requests, BATCH rows per statement."""
    now = now or datetime.now(UTC)
    member_table, quote_table = StaffMember.__table__, QuoteRequest.__table__  # type: ignore[attr-defined]
    with engine.begin() as connection:
        connection.execute(insert(member_table), members(now))
        batch: list[dict[str, Any]] = []
        for row in quote_rows(count, now):
            batch.append(row)
            if len(batch) == BATCH:
                connection.execute(insert(quote_table), batch)
                batch = []
        if batch:
            connection.execute(insert(quote_table), batch)
