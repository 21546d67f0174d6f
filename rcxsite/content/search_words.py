"""Words visitors search for that a page does not use itself ("jobs" for the careers
page): the site search treats the page as if it said them. One entry per page, keyed by
its route; lower-case words or short phrases. `make check-content` refuses a key that is
not a public page."""

from __future__ import annotations

from rcxsite.content import routes

SEARCH_WORDS: dict[routes.Route, tuple[str, ...]] = {
    routes.CAREERS: ("jobs", "vacancies", "hiring", "openings", "recruitment", "apply"),
    routes.PRICING: ("price", "prices", "cost", "costs", "fees", "rates", "subscription"),
    routes.QUOTE: ("contact", "call", "estimate", "proposal", "meeting", "consultation"),
    routes.ABOUT: ("company", "history", "address", "office", "headquarters"),
    routes.GALLERY: ("photos", "pictures", "images", "events"),
    routes.LIFE_AT: ("culture", "benefits", "perks", "working at rcx"),
    routes.CSR: ("charity", "community", "social responsibility"),
    routes.TESTIMONIALS: ("reviews", "references", "feedback"),
    routes.CASE_STUDIES_INDEX: ("portfolio", "projects", "work", "success stories"),
    routes.PRODUCTS: ("software products", "tools", "saas"),
    routes.PRIVACY: ("gdpr", "personal data", "data protection"),
}
