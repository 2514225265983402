"""structlog configuration: JSON lines in production, console rendering on a TTY.

Configure once at startup (:func:`configure`). Context (``conn_id``,
``table_id``, ``member_id``, ``command_id``) is bound with contextvars by the
network layer. Tokens and their hashes are never logged.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

import msgspec
import structlog

__all__ = ["configure"]

_encoder = msgspec.json.Encoder(enc_hook=repr)


def _msgspec_dumps(obj: Any, default: Any = None) -> bytes:
    """structlog's JSONRenderer passes ``default``; msgspec takes an ``enc_hook`` instead."""
    return _encoder.encode(obj)


def configure(*, json: bool | None = None, level: str = "info", cache: bool = True) -> None:
    """Set up structlog for the server.

    Args:
        json: JSON lines (default when stdout is not a TTY) or console rendering.
        level: the lowest level logged (``debug``, ``info``, ``warning`` …).
        cache: cache loggers on first use (production); tests pass False.
    """
    if json is None:
        json = not sys.stdout.isatty()
    lvl = logging.getLevelNamesMapping()[level.upper()]
    shared: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    if json:
        structlog.configure(
            processors=[
                *shared,
                structlog.processors.dict_tracebacks,
                structlog.processors.JSONRenderer(serializer=_msgspec_dumps),
            ],
            wrapper_class=structlog.make_filtering_bound_logger(lvl),
            logger_factory=structlog.BytesLoggerFactory(),
            cache_logger_on_first_use=cache,
        )
    else:
        structlog.configure(
            processors=[*shared, structlog.dev.ConsoleRenderer()],
            wrapper_class=structlog.make_filtering_bound_logger(lvl),
            logger_factory=structlog.PrintLoggerFactory(),
            cache_logger_on_first_use=cache,
        )
