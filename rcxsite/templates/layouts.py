"""The site's two layouts: the site layout (header, page, footer) and the bare one of the
account screens."""

from __future__ import annotations

import reflex as rx
from reflex_components_core.el.elements.inline import A as PlainAnchor

from rcxsite.components.loading import loading_view
from rcxsite.components.react import (
    ActionFailureNotice,
    NavigationLoading,
    OversizeGuard,
    ScrollToTop,
    SessionWatch,
)
from rcxsite.platform.settings import SOCKET_MESSAGE_LIMIT_BYTES
from rcxsite.state import messages as msg
from rcxsite.state.analytics.page_views import PageViewState
from rcxsite.state.failures import ACTION_FAILED_EVENT
from rcxsite.state.session import SessionState
from rcxsite.views.footer import footer
from rcxsite.views.navbar import navbar

MAIN_ID = "main-content"
TOO_MUCH_TEXT = "What you entered is too long to send. Please shorten it and try again."
# Room for what Reflex adds around the form's values in the same message.
_EVENT_OVERHEAD_BYTES = 8 * 1024


# What only the browser knows of the tab's first page (rcxsite/state/analytics/page_views.py).
_ARRIVED = PageViewState.arrived(
    rx.Var("document.referrer"),
    rx.Var("navigator.webdriver===true"),
    rx.Var('navigator.globalPrivacyControl===true||navigator.doNotTrack==="1"'),
)


def frame(*children: rx.Component, watch_session: bool = True) -> rx.Component:
    """What every layout shares; `watch_session`: the header follows the customer login."""
    return rx.fragment(
        # A plain <a>: `rx.el.a` is a router link, which turns "#main" into "/page/#main".
        PlainAnchor.create("Skip to main content", href=f"#{MAIN_ID}", class_name="skip-link"),
        ScrollToTop.create(),
        SessionWatch.create(on_check=SessionState.check) if watch_session else rx.fragment(),
        OversizeGuard.create(
            limit_bytes=SOCKET_MESSAGE_LIMIT_BYTES - _EVENT_OVERHEAD_BYTES, message=TOO_MUCH_TEXT
        ),
        ActionFailureNotice.create(
            fallback=msg.SOMETHING_WENT_WRONG, event_name=ACTION_FAILED_EVENT
        ),
        NavigationLoading.create(loading_view()),
        *children,
    )


def site_layout(content: rx.Component) -> rx.Component:
    """Header, the page's content and the footer."""
    return frame(
        navbar(),
        rx.el.main(content, id=MAIN_ID, class_name="site-main", tab_index=-1, on_mount=_ARRIVED),
        footer(),
    )


def bare_layout(content: rx.Component) -> rx.Component:
    """The account screens: no header, no footer."""
    return frame(
        rx.el.main(content, id=MAIN_ID, class_name="bare-main", tab_index=-1, on_mount=_ARRIVED)
    )
