"""The game server: the HTTP API of docs/API.md and the browser UI, from one origin.

>>> from dizhu.web import Settings, create_app
>>> app = create_app(Settings(data_dir="/tmp/dizhu-doc", workers=0))
>>> sorted(path for path in app.openapi()["paths"] if path.startswith("/api/games/{game_id}/"))[:3]
['/api/games/{game_id}/act', '/api/games/{game_id}/another-round', '/api/games/{game_id}/autoplay']

Run it with ``dizhu serve`` (see ``dizhu serve --help``).
"""

from typing import Any

from .settings import Settings

__all__ = ["create_app", "Settings"]


def __getattr__(name: str) -> Any:
    # Lazy, so that the bot worker processes (which import dizhu.web.worker) never load FastAPI.
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
