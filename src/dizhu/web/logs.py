"""Logging a failure without what it might quote.

An exception's text can quote game state (an engine refusal names cards, a
storage error may echo a row), and no log line may hold hidden cards.  So
failures are logged by their type and stack frames (file, line, function and
source line), never by their message.
"""

from __future__ import annotations

import logging
import traceback

__all__ = ["log_failure"]


def log_failure(logger: logging.Logger, what: str, exc: BaseException) -> None:
    """Log ``what`` failed, with the exception's type and frames only."""
    frames = "".join(traceback.format_tb(exc.__traceback__))
    logger.error("%s: %s\n%s", what, type(exc).__name__, frames.rstrip())
