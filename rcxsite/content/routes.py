"""The route table: every path of the site is written here once.

Pages, header menus, footer links, the sitemap and the tests all read this table.
Content-driven routes (services, industries, case studies, articles) come from the
entries in `rcxsite/content/`, so adding an entry adds its route.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from rcxsite.content.articles import all_tags, load_articles, tag_slug
from rcxsite.content.careers import OPENINGS
from rcxsite.content.case_studies import CASE_STUDIES
from rcxsite.content.industries import INDUSTRIES
from rcxsite.content.services import SERVICES
from rcxsite.content.types import Article
from rcxsite.core import paths

# The paths services link to, for the screens that read them here.
from rcxsite.core.paths import (
    booking_path as booking_path,
)
from rcxsite.core.paths import (
    interview_path as interview_path,
)
from rcxsite.core.paths import (
    reset_password_path as reset_password_path,
)
from rcxsite.core.paths import (
    staff_candidate_path as staff_candidate_path,
)
from rcxsite.core.paths import (
    staff_customer_path as staff_customer_path,
)
from rcxsite.core.paths import (
    staff_invite_path as staff_invite_path,
)
from rcxsite.core.paths import (
    staff_quote_path as staff_quote_path,
)
from rcxsite.core.paths import (
    verify_email_path as verify_email_path,
)
from rcxsite.core.paths import (
    withdraw_application_path as withdraw_application_path,
)
from rcxsite.platform.settings import get_settings

Layout = Literal["site", "bare", "staff"]
# One page builder per kind (rcxsite/pages/__init__.py); a typo fails at import.
RouteKind = Literal[
    "home",
    "about",
    "products",
    "pricing",
    "careers",
    "opening",
    "gallery",
    "services",
    "service",
    "industry",
    "case_studies",
    "case_study",
    "blogs",
    "article",
    "tag",
    "testimonials",
    "life_at",
    "csr",
    "policy",
    "quote",
    "log_in",
    "forgot_password",
    "reset_password",
    "account",
    "verify_email",
    "search",
    "booking",
    "withdraw_application",
    "interview",
    "staff_log_in",
    "staff_invite",
    "staff_inbox",
    "staff_quote",
    "staff_customers",
    "staff_customer",
    "staff_team",
    "staff_audit",
    "staff_jobs",
    "staff_candidates",
    "staff_candidate",
    "staff_availability",
    "staff_calls",
    "staff_analytics",
]
MenuGroup = Literal["services", "industry", "insights"]
MENU_GROUPS: tuple[tuple[MenuGroup, str], ...] = (
    ("services", "Services"),
    ("industry", "Industry"),
    ("insights", "Insights"),
)


@dataclass(frozen=True)
class Route:
    path: str
    title: str
    description: str
    kind: RouteKind
    layout: Layout = "site"
    key: str = ""
    menu: MenuGroup | None = None
    label: str = ""
    icon: str = ""
    public: bool = True
    # Only for signed-in customers: signed-out visitors go to the login page, which
    # brings them back here afterwards.
    members_only: bool = False

    def __post_init__(self) -> None:
        if self.kind not in get_args(RouteKind):
            raise ValueError(f"route {self.path}: unknown kind {self.kind!r}")

    @property
    def text(self) -> str:
        """The words a link to this route shows."""
        return self.label or self.title


_company = get_settings().company_name

HOME = Route(
    "/",
    f"{_company} – Software development and digital services",
    f"{_company} designs, builds and runs custom software, web and mobile apps, AI and "
    "cloud platforms for growing companies.",
    kind="home",
    label="Home",
)
ABOUT = Route(
    "/about",
    f"About {_company}",
    f"Who we are: {_company} is an independent software services company of engineers, "
    "designers and consultants.",
    kind="about",
    label="About",
)
SERVICES_INDEX = Route(
    "/services",
    "Our services",
    "Software, web and mobile development, AI, DevOps, design, marketing and staff "
    "augmentation: everything we offer.",
    kind="services",
)
PRODUCTS = Route(
    "/products",
    "Products",
    f"Ready-made products by {_company} that you can adopt in days and extend as you grow.",
    kind="products",
)
PRICING = Route(
    paths.PRICING,
    "Pricing",
    "Clear monthly plans for product teams, with a free trial and no setup fee.",
    kind="pricing",
)
CAREERS = Route(
    "/careers",
    f"Careers at {_company}",
    f"Open positions at {_company}: engineering, design and delivery roles, remote-friendly.",
    kind="careers",
    label="Careers",
)
GALLERY = Route(
    "/gallery",
    "Gallery",
    f"Pictures from {_company}'s offices, workshops, hack days and community events.",
    kind="gallery",
)
TERMS = Route(
    "/terms-of-service",
    "Terms of Use",
    f"The terms that apply when you use the {_company} website and services.",
    kind="policy",
    key="terms",
)
PRIVACY = Route(
    "/privacy-policy",
    "Privacy Policy",
    f"How {_company} collects, uses and protects your personal data.",
    kind="policy",
    key="privacy",
)
COOKIES = Route(
    "/cookie-policy",
    "Cookie Policy",
    f"Which cookies and browser storage the {_company} website uses and why.",
    kind="policy",
    key="cookies",
)
QUOTE = Route(
    paths.QUOTE,
    paths.QUOTE_TITLE,
    "Book a call with our team: tell us about your project and get a proposal within two "
    "working days.",
    kind="quote",
)
CASE_STUDIES_INDEX = Route(
    "/insights/casestudies",
    "Case Studies",
    "How we helped clients in healthcare, finance, education, retail and more, with the "
    "results in figures.",
    kind="case_studies",
    menu="insights",
    icon="briefcase",
)
BLOGS = Route(
    "/insights/blogs",
    "Blogs",
    "Articles by our engineers on software delivery, cloud, AI and open source.",
    kind="blogs",
    menu="insights",
    icon="newspaper",
)
TESTIMONIALS = Route(
    "/insights/testimonials",
    "Testimonials",
    f"What clients say about working with {_company}.",
    kind="testimonials",
    menu="insights",
    icon="message-square-quote",
)
LIFE_AT = Route(
    f"/insights/lifeat{get_settings().company_slug}",
    f"Life at {_company}",
    f"How we work at {_company}: teams, learning, flexibility and the people behind our work.",
    kind="life_at",
    menu="insights",
    icon="smile",
)
CSR = Route(
    "/insights/csractivities",
    "CSR Activities",
    f"{_company}'s corporate social responsibility: education, environment and community work.",
    kind="csr",
    menu="insights",
    icon="hand-heart",
)
LOG_IN = Route(
    paths.LOG_IN,
    "Log in",
    f"Log in to your {_company} customer account or register.",
    kind="log_in",
    layout="bare",
    label="Log in",
    public=False,
)
FORGOT_PASSWORD = Route(
    paths.FORGOT_PASSWORD,
    "Forgot password",
    f"Request a link to reset the password of your {_company} account.",
    kind="forgot_password",
    layout="bare",
    public=False,
)
RESET_PASSWORD = Route(
    paths.RESET_PASSWORD,
    "Reset password",
    f"Choose a new password for your {_company} account.",
    kind="reset_password",
    layout="bare",
    public=False,
)
BOOKING = Route(
    paths.BOOKING,
    f"Your call with {_company}",
    f"See, move or cancel your call with {_company}.",
    kind="booking",
    public=False,
)
# The link in an applicant's confirmation mail: withdraw, erasing the application and CV.
WITHDRAW_APPLICATION = Route(
    paths.WITHDRAW_APPLICATION,
    "Withdraw your application",
    f"Withdraw your application to {_company}; your CV is erased at once.",
    kind="withdraw_application",
    public=False,
)
# The link in a candidate's interview invitation: see, move or cancel the interview.
INTERVIEW = Route(
    paths.INTERVIEW,
    f"Your interview with {_company}",
    f"See, move or cancel your interview with {_company}.",
    kind="interview",
    public=False,
)
ACCOUNT = Route(
    paths.ACCOUNT,
    "My account",
    f"Your {_company} account: details, plan, password, sign-ins and your data.",
    kind="account",
    label="My account",
    public=False,
    members_only=True,
)
# Results depend on `?q=`: not for search engines (noindex), not in the sitemap.
SEARCH = Route(
    "/search",
    "Search",
    f"Search the {_company} website: services, industries, case "
    "studies, articles, products and more.",
    kind="search",
    public=False,
)


# The link registration mails to prove the address (rcxsite.accounts.verification): not for
# search engines (noindex), not in the sitemap.
VERIFY_EMAIL = Route(
    paths.VERIFY_EMAIL,
    "Verify your email address",
    f"Confirm that the email address of your {_company} account is yours.",
    kind="verify_email",
    public=False,
)


# The staff back office (rcxsite/pages/staff/): never listed, linked or indexed; robots.txt
# disallows /staff. Its data reaches a page only through checked events.
_staff = f"{_company} staff"
STAFF_LOG_IN = Route(
    "/staff/log-in",
    "Staff sign-in",
    f"Sign in to the {_staff} area.",
    kind="staff_log_in",
    layout="bare",
    public=False,
)
STAFF_INVITE = Route(
    paths.STAFF_INVITE,
    "Staff invitation",
    f"Accept an invitation to the {_staff} area.",
    kind="staff_invite",
    layout="bare",
    public=False,
)
STAFF_INBOX = Route(
    "/staff",
    "Quote requests",
    "The sales inbox.",
    kind="staff_inbox",
    layout="staff",
    label="Quote requests",
    public=False,
)
STAFF_QUOTE = Route(
    paths.STAFF_QUOTE,
    "Quote request",
    "One quote request.",
    kind="staff_quote",
    layout="staff",
    public=False,
)
STAFF_CUSTOMERS = Route(
    "/staff/customers",
    "Customers",
    "Customer support.",
    kind="staff_customers",
    layout="staff",
    label="Customers",
    public=False,
)
STAFF_CUSTOMER = Route(
    paths.STAFF_CUSTOMER,
    "Customer",
    "One customer.",
    kind="staff_customer",
    layout="staff",
    public=False,
)
STAFF_TEAM = Route(
    "/staff/team",
    "Team",
    "Staff members and their roles.",
    kind="staff_team",
    layout="staff",
    label="Team",
    public=False,
)
STAFF_AUDIT = Route(
    "/staff/audit",
    "Audit log",
    "What staff did, and when.",
    kind="staff_audit",
    layout="staff",
    label="Audit log",
    public=False,
)
STAFF_JOBS = Route(
    "/staff/jobs",
    "Mail and jobs",
    "Outgoing mail and background jobs.",
    kind="staff_jobs",
    layout="staff",
    label="Mail and jobs",
    public=False,
)
STAFF_ANALYTICS = Route(
    "/staff/analytics",
    "Analytics",
    "Visitors, where they came from, and which became requests and won deals.",
    kind="staff_analytics",
    layout="staff",
    public=False,
)
STAFF_CALLS = Route(
    "/staff/calls",
    "My calls",
    "Booked calls to come, and the calendar feed.",
    kind="staff_calls",
    layout="staff",
    label="My calls",
    public=False,
)
STAFF_AVAILABILITY = Route(
    "/staff/availability",
    "Availability",
    "When a member takes calls.",
    kind="staff_availability",
    layout="staff",
    label="Availability",
    public=False,
)
STAFF_CANDIDATES = Route(
    "/staff/candidates",
    "Candidates",
    "Each opening's candidates, stage by stage.",
    kind="staff_candidates",
    layout="staff",
    label="Candidates",
    public=False,
)
STAFF_CANDIDATE = Route(
    paths.STAFF_CANDIDATE,
    "Candidate",
    "One candidate.",
    kind="staff_candidate",
    layout="staff",
    public=False,
)
STAFF_ROUTES: tuple[Route, ...] = (
    STAFF_LOG_IN,
    STAFF_INVITE,
    STAFF_INBOX,
    STAFF_QUOTE,
    STAFF_CUSTOMERS,
    STAFF_CUSTOMER,
    STAFF_TEAM,
    STAFF_AUDIT,
    STAFF_JOBS,
    STAFF_CALLS,
    STAFF_AVAILABILITY,
    STAFF_ANALYTICS,
    STAFF_CANDIDATES,
    STAFF_CANDIDATE,
)


SERVICE_ROUTES = tuple(
    Route(
        f"/services/{service.slug}",
        service.name,
        service.summary,
        kind="service",
        key=service.slug,
        menu="services",
        icon=service.icon,
    )
    for service in SERVICES
)
INDUSTRY_ROUTES = tuple(
    Route(
        f"/industry/{industry.slug}",
        f"{industry.name} software",
        industry.summary,
        kind="industry",
        key=industry.slug,
        menu="industry",
        icon=industry.icon,
        label=industry.name,
    )
    for industry in INDUSTRIES
)
OPENING_ROUTES = tuple(
    Route(
        f"/careers/{opening.slug}",
        opening.title,
        f"{opening.summary} {opening.location}.",
        kind="opening",
        key=opening.slug,
    )
    for opening in OPENINGS
)
CASE_STUDY_ROUTES = tuple(
    Route(
        f"/casestudies/{study.slug}",
        study.title,
        study.summary,
        kind="case_study",
        key=study.slug,
    )
    for study in CASE_STUDIES
)


def article_route(article: Article) -> Route:
    """An article's page; a draft's (`make dev` only) is left out of the sitemap."""
    return Route(
        f"/insights/{article.slug}",
        article.title,
        article.summary,
        kind="article",
        key=article.slug,
        public=not article.draft,
    )


ARTICLE_ROUTES = tuple(article_route(article) for article in load_articles())
# The Atom feed of the articles (rcxsite/meta/feed.py), served like sitemap.xml.
FEED_PATH = "/insights/feed.xml"


def tag_path(tag: str) -> str:
    return f"/insights/tags/{tag_slug(tag)}"


TAG_ROUTES = tuple(
    Route(
        tag_path(tag),
        f"Articles about {tag}",
        f"{_company} Insights articles about {tag}, newest first.",
        kind="tag",
        key=tag,
    )
    for tag in all_tags()
)

# Header menu "Insights" lists these in this order.
_INSIGHTS = (CASE_STUDIES_INDEX, BLOGS, TESTIMONIALS, LIFE_AT, CSR)

ROUTES: tuple[Route, ...] = (
    HOME,
    ABOUT,
    SERVICES_INDEX,
    *SERVICE_ROUTES,
    PRODUCTS,
    PRICING,
    CAREERS,
    *OPENING_ROUTES,
    GALLERY,
    *INDUSTRY_ROUTES,
    *CASE_STUDY_ROUTES,
    QUOTE,
    *_INSIGHTS,
    *ARTICLE_ROUTES,
    *TAG_ROUTES,
    TERMS,
    PRIVACY,
    COOKIES,
    LOG_IN,
    FORGOT_PASSWORD,
    RESET_PASSWORD,
    BOOKING,
    WITHDRAW_APPLICATION,
    INTERVIEW,
    ACCOUNT,
    VERIFY_EMAIL,
    SEARCH,
)
# Pages a login may return to (`/log-in?next=...`): only these, so no link can send a
# visitor elsewhere after logging in.
RETURN_AFTER_LOGIN = frozenset(route.path for route in ROUTES if route.members_only)
# Pages whose path holds a secret token (a reset, verification or staff invitation link, a
# call's manage link), as `[token]` in the path says.
TOKEN_ROUTES: tuple[Route, ...] = tuple(
    route for route in (*ROUTES, *STAFF_ROUTES) if "[token]" in route.path
)


def menu_routes(group: MenuGroup) -> tuple[Route, ...]:
    return tuple(route for route in ROUTES if route.menu == group)


def public_routes() -> tuple[Route, ...]:
    """The pages a search engine may list."""
    return tuple(route for route in ROUTES if route.public)


def route_for(kind: str, key: str = "") -> Route:
    return next(route for route in ROUTES if route.kind == kind and route.key == key)
