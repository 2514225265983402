"""structlog configuration: JSON lines in production, console rendering on a TTY.

Configure once at startup (:func:`configure`). Context (``conn_id``,
``table_id``, ``member_id``, ``command_id``) is bound with contextvars by the
network layer. Tokens and their hashes are never logged.

One pipeline: the standard library's loggers (websockets, asyncpg …) go through a
root handler whose :class:`structlog.stdlib.ProcessorFormatter` runs the same
processors and the same renderer, so their lines are JSON too (with ``logger``, the
library logger's name). taku's own lines keep structlog's direct writer (no
``logging`` call on the command path).
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


def _msgspec_dumps_text(obj: Any, default: Any = None) -> str:
    """The same, as text (a :class:`logging.Formatter` returns ``str``)."""
    return _encoder.encode(obj).decode()


class _TakuHandler(logging.StreamHandler):
    """The root handler :func:`configure` installs (one; replaced on a new call)."""


def configure(*, json: bool | None = None, level: str = "info", cache: bool = True) -> None:
    """Set up structlog for the server.

    Args:
        json: JSON lines (default when stdout is not a TTY) or console rendering.
        level: the lowest level logged (``debug``, ``info``, ``warning`` …).
        cache: cache loggers on first use (production); tests pass False.

    The standard library's root logger gets one handler writing to stdout through the
    same renderer, at the same ``level``.
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
        stdlib_render: list[Any] = [
            structlog.processors.dict_tracebacks,
            structlog.processors.JSONRenderer(serializer=_msgspec_dumps_text),
        ]
    else:
        structlog.configure(
            processors=[*shared, structlog.dev.ConsoleRenderer()],
            wrapper_class=structlog.make_filtering_bound_logger(lvl),
            logger_factory=structlog.PrintLoggerFactory(),
            cache_logger_on_first_use=cache,
        )
        stdlib_render = [structlog.dev.ConsoleRenderer()]
    handler = _TakuHandler(sys.stdout)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=[*shared, structlog.stdlib.add_logger_name],
            processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, *stdlib_render],
        )
    )
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _TakuHandler)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(lvl)
