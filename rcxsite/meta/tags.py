"""Head tags for a route, all derived from the route table and `SITE_URL`."""

from __future__ import annotations

import html
import json
from typing import Any

import reflex as rx

from rcxsite.content import company
from rcxsite.content.careers import opening_of
from rcxsite.content.routes import FEED_PATH, Route
from rcxsite.content.types import Opening
from rcxsite.platform.settings import get_settings


def page_title(route: Route) -> str:
    company = get_settings().company_name
    return route.title if company in route.title else f"{route.title} | {company}"


def canonical_url(route: Route) -> str:
    # Pages are served as folders (/about/ answers, /about redirects to it).
    path = route.path if route.path.endswith("/") else route.path + "/"
    return get_settings().site_url + path


def og_image_url() -> str:
    return f"{get_settings().site_url}/og-image.png"


def meta_tags(route: Route) -> list[dict[str, Any] | rx.Component]:
    settings = get_settings()
    title = page_title(route)
    image = og_image_url()
    tags: list[dict[str, Any] | rx.Component] = [
        {"property": "og:type", "content": "website"},
        {"property": "og:site_name", "content": settings.company_name},
        {"property": "og:title", "content": title},
        {"property": "og:description", "content": route.description},
        {"name": "twitter:card", "content": "summary_large_image"},
        {"name": "twitter:title", "content": title},
        {"name": "twitter:description", "content": route.description},
        {"name": "twitter:image", "content": image},
    ]
    if "[" not in route.path:
        tags.append({"property": "og:url", "content": canonical_url(route)})
        tags.append(rx.el.link(rel="canonical", href=canonical_url(route)))
    if not route.public:
        # Account pages: not for search engines, and a reset link must not leak as a referrer.
        tags.append({"name": "robots", "content": "noindex"})
        tags.append({"name": "referrer", "content": "no-referrer"})
    if route.layout == "site":
        # Feed readers find the articles' feed from any page of the site.
        tags.append(
            rx.el.link(
                rel="alternate",
                type="application/atom+xml",
                href=FEED_PATH,
                title=f"{settings.company_name} Insights",
            )
        )
    if route.kind == "home":
        tags.append(structured_data())
    if route.kind == "opening":
        tags.append(structured_data(job_posting_json_ld(opening_of(route.key))))
    return tags


def organization_json_ld() -> str:
    """schema.org Organization for the home page, so search engines know who runs the site."""
    settings = get_settings()
    data = {
        "@context": "https://schema.org",
        "@type": "Organization",
        "name": settings.company_name,
        "url": f"{settings.site_url}/",
        "logo": f"{settings.site_url}/logo.svg",
        "description": company.TAGLINE,
        "foundingDate": str(company.FOUNDED),
        "email": company.EMAIL,
        "telephone": company.PHONE,
        "address": {"@type": "PostalAddress", "streetAddress": company.ADDRESS},
        "sameAs": [settings.facebook_url, settings.instagram_url, settings.linkedin_url],
    }
    return _script_safe(data)


def job_posting_json_ld(opening: Opening) -> str:
    """schema.org JobPosting for an opening's page: what search engines' job listings
    require (title, description, datePosted, validThrough, employmentType,
    hiringOrganization, jobLocation or applicantLocationRequirements, baseSalary)."""
    settings = get_settings()
    description = "".join(
        [
            f"<p>{html.escape(opening.summary)}</p>",
            "<h2>What you will do</h2><ul>",
            *(f"<li>{html.escape(item)}</li>" for item in opening.responsibilities),
            "</ul><h2>What we look for</h2><ul>",
            *(f"<li>{html.escape(item)}</li>" for item in opening.requirements),
            "</ul>",
        ]
    )
    data: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "JobPosting",
        "title": opening.title,
        "description": description,
        "datePosted": opening.posted.isoformat(),
        "validThrough": f"{opening.open_until.isoformat()}T23:59:59+00:00",
        "employmentType": opening.employment_type,
        "hiringOrganization": {
            "@type": "Organization",
            "name": settings.company_name,
            "sameAs": f"{settings.site_url}/",
            "logo": f"{settings.site_url}/logo.svg",
        },
        "baseSalary": {
            "@type": "MonetaryAmount",
            "currency": "GBP",
            "value": {
                "@type": "QuantitativeValue",
                "minValue": opening.pay[0],
                "maxValue": opening.pay[1],
                "unitText": opening.pay_per,
            },
        },
        "directApply": False,
    }
    if opening.office:
        data["jobLocation"] = {
            "@type": "Place",
            "address": {
                "@type": "PostalAddress",
                "streetAddress": company.ADDRESS,
                "addressLocality": opening.office,
                "addressCountry": "GB",
            },
        }
    if opening.remote:
        data["jobLocationType"] = "TELECOMMUTE"
        data["applicantLocationRequirements"] = {"@type": "Country", "name": "GB"}
    return _script_safe(data)


def _script_safe(data: dict[str, Any]) -> str:
    # "</" inside a script element would end it early.
    return json.dumps(data, ensure_ascii=False).replace("</", "<\\/")


def structured_data(text: str | None = None) -> rx.Component:
    """A JSON-LD script: the Organization's unless `text` is given."""
    return rx.el.script(
        type="application/ld+json",
        custom_attrs={"dangerouslySetInnerHTML": {"__html": text or organization_json_ld()}},
    )
