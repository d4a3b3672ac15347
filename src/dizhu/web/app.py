"""The FastAPI application: routes of docs/API.md, the UI's files, the plumbing.

``create_app(settings)`` builds a fresh application (each test gets its
own); the storage, the bot pool and the background jobs start with the
application's lifespan (lifespan.py) and stop with it.  The routes are in
routes/, a router by concern; what they take from the request and from
``app.state`` is in deps.py.
"""

from __future__ import annotations

import mimetypes

from fastapi import Depends, FastAPI

from .assets import UIAssets
from .botpool import BotRunner
from .deps import json_write, known_query
from .errors import install_handlers
from .guard import HostCheck, RequestBudget, allowed_host_names
from .lifespan import lifespan
from .middleware import BodyLimit, HeadAsGet, SafetyNet, SecurityHeaders
from .routes import games, health, pages, puzzles, reviews
from .routes.responses import EVERY_ROUTE
from .settings import Settings

__all__ = ["create_app"]

# Module scripts are refused under `nosniff` unless served as JavaScript;
# some systems' MIME tables lack these.
for _type, _ext in (("text/javascript", ".js"), ("text/javascript", ".mjs"), ("text/css", ".css"),
                    ("image/svg+xml", ".svg"), ("application/manifest+json", ".webmanifest"),
                    ("font/woff2", ".woff2"), ("application/json", ".json")):
    mimetypes.add_type(_type, _ext)


def create_app(settings: Settings | None = None, *, bots: BotRunner | None = None,
               pin_server: bool = False) -> FastAPI:
    """A new application.  ``bots`` replaces the bot pool (tests).  ``pin_server``: this process
    is the server's own (``dizhu serve``), and keeps to the cores the bot pool leaves it."""
    settings = settings or Settings()
    app = FastAPI(
        title="dizhu",
        version="1",
        summary="Play Dou Dizhu (Fight the Landlord) against computer players.",
        description="The contract is docs/API.md.  The human sits at seat 0.",
        docs_url=None,  # the interactive pages load scripts from a CDN; the CSP forbids that
        redoc_url=None,
        lifespan=lifespan(settings, bots, pin_server),
        dependencies=[Depends(known_query), Depends(json_write)],
        responses=EVERY_ROUTE,
    )
    install_handlers(app)
    app.state.ipv6_prefix = settings.ipv6_prefix
    app.state.ui_files = UIAssets(settings.static_dir)
    # Added last = outermost: the security headers wrap even the 413 and 500 answers; a request
    # for another host or over its client's budget goes no further than the guards.
    app.add_middleware(BodyLimit, limit=settings.max_body)
    app.add_middleware(SafetyNet)
    app.add_middleware(HeadAsGet)
    app.add_middleware(HostCheck, names=allowed_host_names(settings.allowed_hosts, settings.host))
    app.add_middleware(RequestBudget, per_minute=settings.request_per_minute, burst=settings.request_burst,
                       ipv6_prefix=settings.ipv6_prefix)
    app.add_middleware(SecurityHeaders)
    # In this order: the UI's catch-all last.
    for module in (health, games, puzzles, reviews, pages):
        app.include_router(module.router)
    return app
