"""Running the application under uvicorn (what ``dizhu serve`` does)."""

from __future__ import annotations

import logging

from .settings import Settings

__all__ = ["serve"]


def serve(settings: Settings, *, access_log: bool = True) -> None:
    """Serve until interrupted (Ctrl-C or SIGTERM stop it cleanly)."""
    import uvicorn

    from .app import create_app

    level = settings.log_level.upper()
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("dizhu").setLevel(level)
    logging.getLogger("dizhu").info("data directory: %s", settings.data_dir)
    if settings.database:
        from .database import describe

        logging.getLogger("dizhu").info("database: %s", describe(settings.database))
    config = uvicorn.Config(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        access_log=access_log,
        server_header=False,
        # One process serves HTTP; the computers think in their own pool.
        workers=1,
        timeout_graceful_shutdown=5,
    )
    uvicorn.Server(config).run()
