"""Who stands behind the work: leadership, clients, certifications and offices.

One entry each; `make check-content` checks that every portrait and logo file exists, that
a client's case study is one of content/case_studies.py, and that offices' phone numbers
dial. Portraits (assets/people/) and client wordmarks (assets/clients/) are drawn by us in
the site's illustration style: no photograph of a real person, no third party's artwork.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from rcxsite.content.company import ADDRESS, EMAIL, PHONE
from rcxsite.content.testimonials import TESTIMONIALS
from rcxsite.content.types import Testimonial


@dataclass(frozen=True)
class Person:
    slug: str
    name: str
    role: str
    bio: str

    @property
    def portrait(self) -> str:
        return f"/people/{self.slug}.svg"


@dataclass(frozen=True)
class Client:
    slug: str
    name: str
    sector: str
    # The slug of its case study (content/case_studies.py), "" for none.
    case_study: str = ""

    @property
    def logo(self) -> str:
        return f"/clients/{self.slug}.svg"


@dataclass(frozen=True)
class Credential:
    name: str
    detail: str


@dataclass(frozen=True)
class Office:
    city: str
    role: str
    address: str
    phone: str
    email: str

    @property
    def phone_href(self) -> str:
        return "tel:" + self.phone.replace(" ", "")

    @property
    def map_url(self) -> str:
        return "https://www.openstreetmap.org/search?query=" + quote(self.address)


LEADERSHIP: tuple[Person, ...] = (
    Person(
        "amara-okafor",
        "Amara Okafor",
        "Chief Executive",
        "Founded RCX in 2014 after twelve years building trading systems; still reviews "
        "every proposal before it leaves the building.",
    ),
    Person(
        "daniel-brooks",
        "Daniel Brooks",
        "Chief Technology Officer",
        "Leads our architecture guild and the engineering standards every team follows, "
        "from code review to on-call.",
    ),
    Person(
        "priya-raman",
        "Priya Raman",
        "Head of Delivery",
        "Runs the delivery practice: fixed budgets, fortnightly demos and the weekly report "
        "every client receives.",
    ),
    Person(
        "jonas-weber",
        "Jonas Weber",
        "Head of Design",
        "Brings research and accessibility into every project from the first workshop; "
        "leads our Berlin studio.",
    ),
    Person(
        "sofia-martins",
        "Sofia Martins",
        "Head of Data and AI",
        "Ships machine-learning features that earn their keep, with the monitoring to prove "
        "it after launch.",
    ),
    Person(
        "tom-ashworth",
        "Tom Ashworth",
        "Client Partner",
        "Your first call: scopes new work with buyers and stays their contact for the "
        "length of the relationship.",
    ),
)

CLIENTS: tuple[Client, ...] = (
    Client("northway-clinics", "Northway Clinics", "Healthcare", "healthcare"),
    Client("lendwise", "Lendwise", "Financial services", "fintech"),
    Client("eastbridge-university", "Eastbridge University", "Education", "education"),
    Client("linea-fashion", "Linea Fashion", "Retail", "ecommerce"),
    Client("kestrel-motor-group", "Kestrel Motor Group", "Automotive", "automobile"),
    Client("casa-alma-hotels", "Casa Alma Hotels", "Hospitality", "Hospitality"),
    Client("harbour-vale-lettings", "Harbour & Vale Lettings", "Real estate", "realestate"),
    Client("alpine-trail-holidays", "Alpine Trail Holidays", "Travel", "travel"),
)

CREDENTIALS: tuple[Credential, ...] = (
    Credential("ISO/IEC 27001:2022", "Certified information security management"),
    Credential("ISO 9001:2015", "Certified quality management"),
    Credential("Cyber Essentials Plus", "Independently tested security controls"),
    Credential("WCAG 2.2 AA", "Accessibility audits on every public project"),
    Credential("Cloud partners", "Certified engineers on the three major clouds"),
)

OFFICES: tuple[Office, ...] = (
    Office("London", "Head office", ADDRESS, PHONE, EMAIL),
    Office(
        "Manchester",
        "Delivery centre",
        "4 Hilton Street, Manchester M1 1JJ, United Kingdom",
        "+44 161 496 0750",
        "manchester@rcx.example",
    ),
    Office(
        "Berlin",
        "Design studio",
        "Oranienstraße 24, 10999 Berlin, Germany",
        "+49 30 5557 3120",
        "berlin@rcx.example",
    ),
)


def client_quote(case_study: str) -> Testimonial | None:
    """The quote (content/testimonials.py) of the client whose case study this is."""
    names = {client.name for client in CLIENTS if client.case_study == case_study}
    return next((item for item in TESTIMONIALS if item.company in names), None)
