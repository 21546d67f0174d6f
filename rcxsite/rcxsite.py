"""The Reflex app: every route of the route table, in its layout, plus the not-found page."""

from collections.abc import Callable

import reflex as rx

from rcxsite.analytics.recording import written_at_shutdown
from rcxsite.components.connection import connection_notice
from rcxsite.components.loading import loading_view
from rcxsite.content import routes
from rcxsite.content.not_found import TITLE as NOT_FOUND_TITLE
from rcxsite.job_kinds import alongside_the_site
from rcxsite.meta.tags import meta_tags, og_image_url, page_title
from rcxsite.pages import PAGE_BUILDERS, PAGE_ON_LOAD
from rcxsite.pages.not_found import not_found_page
from rcxsite.platform.logs import configure_logging
from rcxsite.platform.migrations import schema_ready
from rcxsite.platform.settings import get_settings
from rcxsite.platform.shared_setup import checked_at_start
from rcxsite.state.analytics.page_views import CountPageViews
from rcxsite.state.build_keys import keep_states_per_build
from rcxsite.state.failures import report_event_failure
from rcxsite.state.frontend_errors import (
    FrontendErrorReports,
    bound_frontend_error_reports,
    report_frontend_error,
)
from rcxsite.state.route_lookup import BoundedRouteApp
from rcxsite.state.socket_records import keep_tabs_of_stopped_workers
from rcxsite.state.stale_build import AskStaleTabsToReload
from rcxsite.state.stored_data import StoredDataGuard, private_state_folder
from rcxsite.templates.layouts import bare_layout, site_layout
from rcxsite.templates.staff_layout import staff_layout
from rcxsite.web.server import server

keep_tabs_of_stopped_workers()
keep_states_per_build()
bound_frontend_error_reports()
private_state_folder()
configure_logging(log_file=get_settings().log_file)

LAYOUTS = {"site": site_layout, "bare": bare_layout, "staff": staff_layout}


def _page(route: routes.Route) -> Callable[[], rx.Component]:
    """The route's page, in its layout, built when Reflex compiles it."""
    build = PAGE_BUILDERS[route.kind]

    def page() -> rx.Component:
        return LAYOUTS[route.layout](build(route))

    # Reflex writes a page's memoized parts into a module named after the module of the
    # callable it was given: the page's own, so that each page's JavaScript holds its own
    # parts only (one module for all pages put every page's, the staff office's too, in
    # the chunk every public page loads).
    page.__module__ = build.__module__
    return page


app = BoundedRouteApp(
    stylesheets=["/styles.css", "/accounts.css", "/pages.css"],
    hydrate_fallback=loading_view,
    # Our own connection notice instead of Reflex's toasts: no toast library on every page.
    toaster=None,
    backend_exception_handler=report_event_failure,
    frontend_exception_handler=report_frontend_error,
    api_transformer=server,
    head_components=[rx.el.link(rel="icon", href="/favicon.svg", type="image/svg+xml")],
)
app.add_middleware(StoredDataGuard(), index=0)
# First of all: a tab of another build has no event handled here, only the question.
app.add_middleware(AskStaleTabsToReload(), index=0)
app.add_middleware(FrontendErrorReports())
app.add_middleware(CountPageViews())
app.register_lifespan_task(checked_at_start)
app.register_lifespan_task(schema_ready)
app.register_lifespan_task(alongside_the_site)
app.register_lifespan_task(written_at_shutdown)
app.app_wraps[(5, "Overlay")] = lambda stateful: connection_notice() if stateful else None

for route in (*routes.ROUTES, *routes.STAFF_ROUTES):
    app.add_page(
        _page(route),
        route=route.path,
        title=page_title(route),
        description=route.description,
        image=og_image_url(),
        meta=meta_tags(route),
        on_load=PAGE_ON_LOAD.get(route.kind) or None,
    )

app.add_page(
    site_layout(not_found_page()),
    route="404",
    title=f"{NOT_FOUND_TITLE} | {get_settings().company_name}",
    description="The page you are looking for does not exist.",
)
