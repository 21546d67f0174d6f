"""Pages being built (replaced by the inbox and customer pages)."""

from __future__ import annotations

import reflex as rx

from rcxsite.routes import Route


def _page(route: Route) -> rx.Component:
    return rx.el.div(rx.el.h1(route.title, class_name="staff-title"), class_name="staff-page")


staff_inbox_page = staff_quote_page = staff_customers_page = staff_customer_page = _page
