"""Terms of use, privacy policy and cookie policy, keyed by the route's `key`."""

from rcxsite.content.company import ADDRESS, COMPANY, EMAIL
from rcxsite.content.types import Policy, Section

POLICIES: dict[str, Policy] = {
    "terms": Policy(
        title="Terms of Use",
        updated="2026-11-01",
        intro=f"These terms apply when you use the {COMPANY} website and customer account.",
        sections=(
            Section(
                "Using the site",
                "You may browse and share the site's pages for your own "
                "information. Do not attempt to disrupt the site or its services.",
            ),
            Section(
                "Your account",
                "Keep your password secret. You are responsible for what "
                "happens in your account; tell us at once if you suspect misuse.",
            ),
            Section(
                "Content",
                f"The text and images on this site belong to {COMPANY} unless stated otherwise.",
            ),
            Section("Contact", f"{COMPANY}, {ADDRESS}. Email: {EMAIL}."),
        ),
    ),
    "privacy": Policy(
        title="Privacy Policy",
        updated="2026-11-28",
        intro=f"This policy explains what personal data {COMPANY} collects and why.",
        sections=(
            Section(
                "What we collect",
                "When you register: your name, email address, mobile "
                "number, company and location. When you request a quote: the details you "
                "enter in the form.",
            ),
            Section(
                "Why",
                "To run your account, answer your requests and send the emails you "
                "ask for, such as password reset links. We never sell your data.",
            ),
            Section(
                "Counting visits",
                f"{COMPANY} counts the pages of this site that are viewed, on our own server and "
                "with no cookie and no analytics service. For each page view we keep the page, "
                "the website that linked to it (its name only), the campaign named in the link "
                "(utm_source, utm_medium, utm_campaign, utm_term, utm_content, or the ad "
                "network of an ad's click id), your country, the kind of device, and your "
                "browser's and system's names. We do not keep your IP address or your "
                "browser's full description: a visitor is a code made from them with a random "
                "value that changes every day and is deleted after two days, so nobody, us "
                "included, can tell who you are or recognise you on another day. Visits from "
                "browsers that send Global Privacy Control or Do Not Track, from search "
                "engines' robots and from automated browsers are not counted.",
            ),
            Section(
                "Why we count",
                "To know which pages help our visitors and which articles, campaigns and "
                "websites bring them, so that we spend on what works. When you send a quote "
                "request, book a call or register, we keep with it the page you arrived on and "
                "where you came from (as above), so we can tell which of them lead to projects.",
            ),
            Section(
                "How long",
                "Account data is kept while your account exists; quote requests for two years. "
                "Page views and visits are kept 13 months; the daily codes, two days.",
            ),
            Section(
                "Your rights",
                f"You may ask for a copy, correction or deletion of your data at {EMAIL}.",
            ),
        ),
    ),
    "cookies": Policy(
        title="Cookie Policy",
        updated="2026-11-28",
        intro="We use only the cookies and browser storage the site needs to work.",
        sections=(
            Section(
                "userSession cookie",
                "Keeps you logged in for up to 30 days after you log "
                "in. Removed when you log out. Scripts on the page cannot read it.",
            ),
            Section(
                "userSessionActive cookie",
                "Holds only the value 1, for as long as the "
                "userSession cookie: it tells the page that you may be logged in, so that "
                "the header asks our server only then.",
            ),
            Section(
                "Session storage",
                "Remembers for ten minutes that you are signed in, for the "
                "header. Cleared when you close the tab.",
            ),
            Section(
                "No tracking",
                "We use no advertising or third-party tracking cookies, "
                "and no analytics service sees your visit. We count page views on our own "
                "server without any cookie or browser storage (see the Privacy Policy, "
                "Counting visits).",
            ),
            Section(
                "Managing cookies",
                "You can delete cookies and site data in your browser's "
                "settings at any time. If you do, you will simply need to log in again; "
                "every public page keeps working without them.",
            ),
            Section(
                "Questions",
                f"Write to {EMAIL} if you want to know more about the data "
                "this website keeps in your browser.",
            ),
        ),
    ),
}
