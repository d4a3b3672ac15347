"""Running the application under uvicorn (what ``dizhu serve`` does)."""

from __future__ import annotations

import logging

from .settings import Settings

__all__ = ["serve", "trusted_proxies"]


def trusted_proxies(forwarded_allow_ips: str | None) -> frozenset[str]:
    """The addresses named by ``--forwarded-allow-ips`` (a comma-separated list).

    >>> sorted(trusted_proxies("127.0.0.1, 10.0.0.2"))
    ['10.0.0.2', '127.0.0.1']
    >>> trusted_proxies(None)
    frozenset()
    """
    if not forwarded_allow_ips:
        return frozenset()
    return frozenset(part.strip() for part in forwarded_allow_ips.split(",") if part.strip())


def serve(settings: Settings, *, access_log: bool = True) -> None:
    """Serve until interrupted (Ctrl-C or SIGTERM stop it cleanly)."""
    import uvicorn

    from .app import create_app
    from .protocol import guarded_protocol

    level = settings.log_level.upper()
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("dizhu").setLevel(level)
    logging.getLogger("dizhu").info("data directory: %s", settings.data_dir)
    if settings.database:
        from .database import describe

        logging.getLogger("dizhu").info("database: %s", describe(settings.database))
    proxies = settings.forwarded_allow_ips
    config = uvicorn.Config(
        create_app(settings, pin_server=True),
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        access_log=access_log,
        server_header=False,
        # One process serves HTTP; the computers think in their own pool.
        workers=1,
        timeout_graceful_shutdown=5,
        http=guarded_protocol(settings.max_header_bytes, settings.header_timeout, settings.client_connections,
                              trusted_proxies(proxies), max_body_bytes=settings.max_body,
                              ipv6_prefix=settings.ipv6_prefix),
        timeout_keep_alive=max(1, round(settings.keep_alive)),
        limit_concurrency=settings.max_connections,
        # Forwarded headers are anyone's to write: they are believed only from the
        # proxies the operator names (uvicorn would trust any from 127.0.0.1).
        proxy_headers=proxies is not None,
        forwarded_allow_ips=proxies if proxies is not None else "",
    )
    uvicorn.Server(config).run()
