"""The bearer scheme in the OpenAPI document, where the routes' own code leaves it out.

`signed_in` (rcxsite/api/signed_in.py) reads the `Authorization` header itself, so that a
missing or dead token gets the API's 401 envelope before the route runs; FastAPI therefore
documents a plain optional header, which OpenAPI ignores for `Authorization`. This names
the HTTP bearer scheme instead: required on every route that depends on `signed_in`,
optional on a route that only reads the header (`/Auth/Logout`).

The request bodies' rules (required, format, pattern, lengths) come from the input models
themselves (rcxsite.core.forms.Documented).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, iter_route_contexts
from starlette.routing import BaseRoute

from rcxsite.api.signed_in import signed_in

BEARER = "bearerAuth"
BEARER_SCHEME = {
    "type": "http",
    "scheme": "bearer",
    "bearerFormat": "JWT",
    "description": "The token that POST /api/v1/Auth/Login answers with",
}
_HEADER = "authorization"


def _depends_on_sign_in(dependant: Dependant) -> bool:
    return any(
        dependency.call is signed_in or _depends_on_sign_in(dependency)
        for dependency in dependant.dependencies
    )


def _reads_authorization(operation: dict[str, Any]) -> bool:
    return any(
        parameter.get("in") == "header" and parameter.get("name", "").lower() == _HEADER
        for parameter in operation.get("parameters", ())
    )


def document_bearer_auth(document: dict[str, Any], routes: Iterable[BaseRoute]) -> None:
    """Add the bearer scheme to `document` (in place) and drop the header parameters."""
    # Included routers' routes are reached the way FastAPI's own document generator does.
    signed_in_only = {
        (context.path_format, method.lower())
        for context in iter_route_contexts(list(routes))
        if isinstance(context.original_route, APIRoute)
        and _depends_on_sign_in(context.original_route.dependant)
        for method in context.methods or ()
    }
    for path, operations in document.get("paths", {}).items():
        for method, operation in operations.items():
            if (path, method) in signed_in_only:
                operation["security"] = [{BEARER: []}]
            elif _reads_authorization(operation):
                operation["security"] = [{BEARER: []}, {}]
            else:
                continue
            kept = [
                parameter
                for parameter in operation.get("parameters", ())
                if not (
                    parameter.get("in") == "header" and parameter.get("name", "").lower() == _HEADER
                )
            ]
            if kept:
                operation["parameters"] = kept
            else:
                operation.pop("parameters", None)
    document.setdefault("components", {}).setdefault("securitySchemes", {})[BEARER] = BEARER_SCHEME
