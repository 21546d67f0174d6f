"""The REST API under /api/v1 for other clients of the accounts service.

`ApiApp` (application.py) is a FastAPI app with the API's routes and its OpenAPI document
at /api/v1/openapi.json; there is no docs page (Swagger UI would load its code from a CDN,
and no policy names a third-party origin), and no root docs or root OpenAPI document. The
server Reflex mounts its backend in (rcxsite/web/server.py) is such an app, with the site's
HTTP layer around it; `install_error_handling` (error_handlers.py) answers every failure
under /api/v1 with the envelope and bounds request bodies (body_limit.py).
"""
