"""The site's HTTP layer: what the server does to requests and answers around the pages
Reflex serves and around the REST API (rcxsite/api/).

Page caching, HEAD, page paths without a redirect, the not-found page, security headers,
`Vary`, the cookie bridges from the websocket screens to HttpOnly cookies, the sealing of
tokens before Reflex stores an event, and the files for crawlers. server.py builds the
server from them, its middleware in one ordered list (`middleware`).

Kept free of imports here: the states import the cookie paths from this package.
"""
