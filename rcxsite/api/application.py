"""The API's FastAPI class: its routes, and its OpenAPI document as FastAPI's settings
cannot express it."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from rcxsite.api.envelope import API_PREFIX
from rcxsite.api.openapi_rules import document_bearer_auth
from rcxsite.api.routes import auth, booking, users


class ApiApp(FastAPI):
    """An app answering the /api/v1 routes, documented at /api/v1/openapi.json only.

    Call `install_error_handling` (error_handlers.py) once every other route is added.
    """

    def __init__(self, **settings: Any) -> None:
        super().__init__(
            title="RCX API",
            version="1",
            openapi_url=f"{API_PREFIX}/openapi.json",
            docs_url=None,
            redoc_url=None,
            swagger_ui_oauth2_redirect_url=None,
            **settings,
        )
        self.include_router(auth.router, prefix=API_PREFIX)
        self.include_router(users.router, prefix=API_PREFIX)
        self.include_router(booking.router, prefix=API_PREFIX)

    def openapi(self) -> dict[str, Any]:
        if self.openapi_schema is None:
            document_bearer_auth(super().openapi(), self.routes)
        assert self.openapi_schema is not None  # set by FastAPI.openapi()
        return self.openapi_schema
