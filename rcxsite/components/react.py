"""Reflex wrappers for React components: our own (components_js/) and npm packages."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex_base.components.component import field
from reflex_components_core.react_router.dom import ReactRouterLink

import components_js


class NavDropdown(rx.Component):
    """A header menu whose panel holds the children (components_js/NavDropdown.jsx)."""

    library = components_js.library("NavDropdown.jsx")
    tag = "NavDropdown"

    label: rx.Var[str] = field(doc="The trigger button's text.")
    paths: rx.Var[list[str]] = field(doc="Paths that mark the trigger as the active section.")


class _MobileMenuPart(rx.Component):
    library = components_js.library("MobileMenu.jsx")


class MobileMenu(_MobileMenuPart):
    """The phone menu: its trigger and a modal <dialog> holding the children.

    Any link or `data-menu-close` element inside closes it.
    """

    tag = "MobileMenu"


class MobileSection(_MobileMenuPart):
    """A group of the phone menu that opens and closes in the browser."""

    tag = "MobileSection"

    label: rx.Var[str] = field(doc="The group's toggle button text.")


class ResultDialog(rx.Component):
    """A modal message with one OK button; Escape counts as OK."""

    library = components_js.library("ResultDialog.jsx")
    tag = "ResultDialog"

    open: rx.Var[bool] = field(doc="Shown while true.")
    title: rx.Var[str] = field(doc="The dialog's heading.")
    message: rx.Var[str] = field(doc="The dialog's text.")
    # Reflex reads an event trigger's arguments from `EventHandler[spec]`, a subscription
    # typed for pyright that mypy refuses.
    on_ok: rx.EventHandler[rx.event.no_args_event_spec] = field(  # type: ignore[type-arg, valid-type]
        doc="OK or Escape."
    )


class PasswordInput(rx.Component):
    """A password input whose show/hide button works in the browser alone."""

    library = components_js.library("PasswordInput.jsx")
    tag = "PasswordInput"

    label: rx.Var[str] = field(doc="The field's label; the button says Show/Hide <label>.")
    input_id: rx.Var[str]
    name: rx.Var[str]
    auto_complete: rx.Var[str]
    invalid: rx.Var[str] = field(doc='"true" while the field has an error.')
    described_by: rx.Var[str]
    max_length: rx.Var[int] = field(doc="The input's maxLength: its input model's limit.")


class _SiteEffect(rx.Component):
    library = components_js.library("SiteEffects.jsx")


class ScrollToTop(_SiteEffect):
    tag = "ScrollToTop"


class SessionWatch(_SiteEffect):
    """Runs `on_check` on every path change while the browser holds a session."""

    tag = "SessionWatch"

    on_check: rx.EventHandler[rx.event.no_args_event_spec]  # type: ignore[type-arg, valid-type]


class OversizeGuard(_SiteEffect):
    """Refuses, with `message`, to send a form larger than one websocket message."""

    tag = "OversizeGuard"

    limit_bytes: rx.Var[int]
    message: rx.Var[str]


class ActionFailureNotice(_SiteEffect):
    """Shows the submitted form's `data-failure` text (else `fallback`) when the server
    reports that it could not handle an event (rcxsite/state/failures.py)."""

    tag = "ActionFailureNotice"

    fallback: rx.Var[str]
    event_name: rx.Var[str] = field(doc="The window event that reports the failure.")


class HeaderShell(_SiteEffect):
    """A <header> that reports `data-scrolled` once the page is scrolled past 100 px."""

    tag = "HeaderShell"


class NavigationLoading(_SiteEffect):
    """Shows its children while the next route's code loads."""

    tag = "NavigationLoading"


class NavLink(ReactRouterLink):
    """A client-side link that marks itself `aria-current="page"` on its own route."""

    tag = "NavLink"
    alias = "ReactRouterNavLink"

    end: rx.Var[bool] = field(doc="Match the path exactly instead of as a prefix.")


class DiscSpinner(rx.Component):
    """The ClipLoader disc spinner of react-spinners (components_js/DiscSpinner.jsx)."""

    library = components_js.library("DiscSpinner.jsx")
    tag = "DiscSpinner"
    lib_dependencies: list[str] = ["react-spinners@0.17.0"]

    color: rx.Var[str]
    size: rx.Var[int]
    css_override: rx.Var[dict[str, str]]


def nav_link(
    *children: rx.Component | rx.Var[Any] | str, to: str | rx.Var[str], **props: Any
) -> rx.Component:
    """An internal link, marked current on its route and below it.

    Prefix matching, because prerendered pages are served at `/path/` and React Router's
    exact (`end`) matching would miss them; "/" itself only ever matches the home page.
    """
    return NavLink.create(*children, to=to, **props)


class Gallery(rx.Component):
    """Thumbnails that open a keyboard-friendly lightbox (components_js/Gallery.jsx)."""

    library = components_js.library("Gallery.jsx")
    tag = "Gallery"

    items: rx.Var[list[dict[str, str | int]]] = field(
        doc="Pictures: src, alt, title, caption, width, height."
    )


class _OneTimePart(rx.Component):
    library = components_js.library("OneTimeSecret.jsx")


class OneTimeSecret(_OneTimePart):
    """A secret the server shows once (`rcxsite.state.one_time.show_once`): held in the
    page's memory only, rendered nowhere until it arrives."""

    tag = "OneTimeSecret"

    slot: rx.Var[str] = field(doc="The name the server shows it under.")
    kind: rx.Var[str] = field(
        doc='"text" (a <code>), "lines" (a list), "svg" (markup), "link" (an <a> to it).'
    )
    label: rx.Var[str] = field(doc="The accessible name of an svg, the text of a link.")


class OneTimeDownload(_OneTimePart):
    """A button that saves a one-time secret as a text file, in the browser alone."""

    tag = "OneTimeDownload"

    slot: rx.Var[str] = field(doc="The secret's slot.")
    filename: rx.Var[str] = field(doc="The file's name.")
    heading: rx.Var[str] = field(doc="Text before the secret's lines.")
