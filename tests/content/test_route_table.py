"""The route table is the single source of paths, menus and pages."""

from __future__ import annotations

import re
from pathlib import Path

import rcxsite
from rcxsite.content import routes
from rcxsite.content.case_studies import CASE_STUDIES
from rcxsite.content.industries import INDUSTRIES
from rcxsite.content.services import SERVICES
from rcxsite.pages import PAGE_BUILDERS

SPEC_PATHS = {
    "/",
    "/terms-of-service",
    "/privacy-policy",
    "/cookie-policy",
    "/about",
    "/services",
    "/services/software-development",
    "/services/web-development",
    "/services/ai-machine-learning",
    "/services/devops",
    "/services/ui-ux",
    "/services/internetmarketing",
    "/services/mobile-app-development",
    "/services/staff-augmentation",
    "/services/startup-services",
    "/products",
    "/pricing",
    "/careers",
    "/gallery",
    "/industry/healthcare",
    "/industry/ecommerce",
    "/industry/fintech",
    "/industry/education",
    "/industry/realestate",
    "/industry/travel",
    "/casestudies/healthcare",
    "/casestudies/fintech",
    "/casestudies/education",
    "/casestudies/ecommerce",
    "/casestudies/automobile",
    "/casestudies/Hospitality",
    "/request-a-quote",
    "/insights/casestudies",
    "/insights/blogs",
    "/insights/whaleblog",
    "/insights/whyopensourcematters",
    "/insights/msopensource",
    "/insights/understandingblockchain",
    "/insights/understandingdevops",
    "/insights/testimonials",
    "/insights/csractivities",
    "/insights/lifeatrcx",
    "/log-in",
    "/forgot-password",
    "/authentication/reset-password/[token]",
}


def test_every_spec_route_is_in_the_table() -> None:
    assert {route.path for route in routes.ROUTES} >= SPEC_PATHS


def test_paths_are_unique_and_every_kind_has_a_page_builder() -> None:
    paths = [route.path for route in routes.ROUTES]
    assert len(paths) == len(set(paths))
    assert {route.kind for route in routes.ROUTES} <= PAGE_BUILDERS.keys()


def test_menus_follow_the_spec_order() -> None:
    assert [r.text for r in routes.menu_routes("services")] == [
        "Software Development",
        "Web Development",
        "Startup Services",
        "AI & Machine Learning",
        "DevOps",
        "Mobile App Development",
        "UI UX",
        "Internet Marketing & SEO",
        "Staff Augmentation",
    ]
    assert [r.text for r in routes.menu_routes("industry")] == [
        "Healthcare",
        "E-commerce",
        "FinTech",
        "Education",
        "Real Estate",
        "Travel",
    ]
    assert [r.text for r in routes.menu_routes("insights")] == [
        "Case Studies",
        "Blogs",
        "Testimonials",
        "Life at RCX",
        "CSR Activities",
    ]
    assert routes.menu_routes("insights")[0].path == "/insights/casestudies"
    assert all(route.icon for group, _ in routes.MENU_GROUPS for route in routes.menu_routes(group))


def test_content_entries_become_routes() -> None:
    paths = {route.path for route in routes.ROUTES}
    assert {f"/services/{s.slug}" for s in SERVICES} <= paths
    assert {f"/industry/{i.slug}" for i in INDUSTRIES} <= paths
    assert {f"/casestudies/{c.slug}" for c in CASE_STUDIES} <= paths


def test_titles_and_descriptions_are_unique() -> None:
    titles = [route.title for route in routes.ROUTES]
    descriptions = [route.description for route in routes.ROUTES]
    assert len(titles) == len(set(titles))
    assert len(descriptions) == len(set(descriptions))


def test_account_pages_use_the_bare_layout_and_stay_out_of_the_sitemap() -> None:
    bare = {route.path for route in routes.ROUTES if route.layout == "bare"}
    assert bare == {"/log-in", "/forgot-password", "/authentication/reset-password/[token]"}
    assert not bare & {route.path for route in routes.public_routes()}


def test_no_route_path_is_written_outside_the_route_table() -> None:
    """A quoted absolute site path in Python code outside the route table and the paths
    services link to (core/paths.py, which the table reads) is a second copy."""
    package = Path(rcxsite.__file__).parent
    written_once = {Path("content/routes.py"), Path("core/paths.py")}
    quoted_paths = re.compile(
        r"""["'](/(?:services|industry|casestudies|insights|log-in|forgot-password|about|"""
        r"""careers|request-a-quote|pricing|authentication)[^"'\s]*)["']"""
    )
    offenders = [
        f"{path.relative_to(package)}: {match}"
        for path in package.rglob("*.py")
        if path.relative_to(package) not in written_once
        for match in quoted_paths.findall(path.read_text())
    ]
    assert offenders == []
