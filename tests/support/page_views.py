"""A tab's page events as its websocket brings them to the site's middleware, driven in
process (tests/support/tabs.py), and page views as the recorder gets them."""

from __future__ import annotations

import uuid
from datetime import datetime

from reflex.istate.data import RouterData
from reflex_base.event import Event

from rcxsite.analytics.recording import PageView
from rcxsite.analytics.sources import arrival_of
from rcxsite.state.analytics.page_views import CountPageViews, PageViewState
from tests.support.tabs import Tab

FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0"
ADDRESS = "81.2.69.160"
FIRST_LOAD = "reflex___state____state.hydrate_and_load"
ROUTE_CHANGE = "reflex___state____state.reflex___state____on_load_internal_state.on_load_internal"


def page_view(at: datetime, path: str = "/") -> PageView:
    """A view of `path` by one Firefox visitor, as a page event makes it."""
    return PageView(
        at=at,
        path=path,
        address=ADDRESS,
        user_agent=FIREFOX,
        host="rcx.example",
        arrival=arrival_of({}),
    )


class Browser:
    """One tab's page events as its websocket brings them to the middleware."""

    def __init__(self, *, ip: str = ADDRESS) -> None:
        self.tab = Tab()
        self.token = str(uuid.uuid4())
        self.ip = ip
        self.loaded = False

    def load(self, path: str, query: dict[str, str] | None = None) -> None:
        """The tab's first load of a page (with the compiled page's hashes), then a move
        to `path` inside the site."""
        data = {
            "pathname": path,
            "asPath": path,
            "query": query or {},
            "headers": {"user-agent": FIREFOX, "host": "rcx.example", "origin": "https://rcx.test"},
            "token": self.token,
            "sid": self.tab.connection,
            "ip": self.ip,
        }
        self.tab.root.router = RouterData.from_router_data(data)
        if self.loaded:
            event = Event(name=ROUTE_CHANGE, router_data=data)
        else:
            event = Event(name=FIRST_LOAD, router_data=data, payload={"hashes": {path: "h"}})
        self.loaded = True
        self.tab.run_now_coroutine(
            CountPageViews().preprocess(app=None, state=self.tab.root, event=event)
        )

    def arrive(self, *, referrer: str = "", private: bool = False) -> None:
        self.tab.run_now(PageViewState.arrived, referrer, False, private)
