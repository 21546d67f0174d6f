"""The API's FastAPI class: two additions that FastAPI's settings cannot express."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from starlette.types import ASGIApp

from rcxsite.api.openapi_rules import document_bearer_auth
from rcxsite.api.vary import InnerVaryOriginDropped


class ApiApp(FastAPI):
    def build_middleware_stack(self) -> ASGIApp:
        # Around the finished stack: Reflex adds its CORS layer after create_api() returns.
        return InnerVaryOriginDropped(super().build_middleware_stack())

    def openapi(self) -> dict[str, Any]:
        if self.openapi_schema is None:
            document_bearer_auth(super().openapi(), self.routes)
        assert self.openapi_schema is not None  # set by FastAPI.openapi()
        return self.openapi_schema
