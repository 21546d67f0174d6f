"""Page builders, one per route kind of the route table (rcxsite/content/routes.py). A page with a
state has it in the module of the same name under rcxsite/state/ (pages/login.py and
state/login.py; pages/staff/team.py and state/staff/team.py)."""

from collections.abc import Callable

import reflex as rx
from reflex.event import EventHandler

from rcxsite.content.routes import Route, RouteKind
from rcxsite.pages import (
    case_studies,
    company,
    insights,
    login,
    my_account,
    offerings,
    password_reset,
    policies,
    quote,
    search,
    staff,
    verify_email,
)
from rcxsite.pages.booking import manage as booking_manage
from rcxsite.pages.careers import interview as careers_interview
from rcxsite.pages.careers import openings as careers_openings
from rcxsite.pages.careers import withdraw as careers_withdraw
from rcxsite.pages.home import home_page

PageBuilder = Callable[[Route], rx.Component]

# on_load handlers per route kind; the header's session check is SessionWatch (layouts).
PAGE_ON_LOAD: dict[RouteKind, list[EventHandler]] = (
    login.ON_LOAD
    | company.ON_LOAD
    | password_reset.ON_LOAD
    | my_account.ON_LOAD
    | search.ON_LOAD
    | staff.ON_LOAD
    | verify_email.ON_LOAD
    | quote.ON_LOAD
    | booking_manage.ON_LOAD
    | careers_openings.ON_LOAD
    | careers_withdraw.ON_LOAD
    | careers_interview.ON_LOAD
)

PAGE_BUILDERS: dict[RouteKind, PageBuilder] = {
    "home": home_page,
    "about": company.about_page,
    "products": company.products_page,
    "pricing": company.pricing_page,
    "careers": careers_openings.careers_page,
    "opening": careers_openings.opening_page,
    "gallery": company.gallery_page,
    "services": offerings.services_page,
    "service": offerings.service_page,
    "industry": offerings.industry_page,
    "case_studies": case_studies.case_studies_page,
    "case_study": case_studies.case_study_page,
    "blogs": insights.blogs_page,
    "article": insights.article_page,
    "tag": insights.tag_page,
    "testimonials": insights.testimonials_page,
    "life_at": insights.life_at_page,
    "csr": insights.csr_page,
    "policy": policies.policy_page,
    "quote": quote.quote_page,
    "log_in": login.log_in_page,
    "forgot_password": password_reset.forgot_password_page,
    "reset_password": password_reset.reset_password_page,
    "account": my_account.account_page,
    "verify_email": verify_email.verify_email_page,
    "search": search.search_page,
    "booking": booking_manage.booking_page,
    "withdraw_application": careers_withdraw.withdraw_page,
    "interview": careers_interview.interview_page,
    **staff.BUILDERS,
}
