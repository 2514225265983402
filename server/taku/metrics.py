"""Prometheus metrics of a taku process (prometheus-client), scraped at ``/metrics``.

The server and the application service call the small functions below at the moments
they measure; each is cheap (a counter increment or a histogram observation, no I/O)
and safe from any thread (the SQLite writer thread reports its batches). The metrics
live in :data:`REGISTRY`, one per process; :func:`exposition` renders them in the text
format. Names, labels and units: docs/operations.md.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any, ParamSpec

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

__all__ = [
    "CONTENT_TYPE",
    "REGISTRY",
    "catch_up_sent",
    "command_answered",
    "commit_batch",
    "commit_timer",
    "connection_closed",
    "connection_opened",
    "error_sent",
    "exposition",
    "serve_elsewhere",
    "subscribers_changed",
    "tables_changed",
    "timed_commit",
]

REGISTRY = CollectorRegistry(auto_describe=True)
"""taku's own registry (not prometheus-client's global one, which other libraries share)."""
CONTENT_TYPE = CONTENT_TYPE_LATEST

_LATENCY_BUCKETS_S = (
    0.0005,
    0.001,
    0.002,
    0.005,
    0.01,
    0.02,
    0.05,
    0.1,
    0.2,
    0.5,
    1.0,
    2.0,
    5.0,
)

COMMANDS = Counter(
    "taku_commands",
    "Commands answered, by ruleset and outcome (ok, duplicate, rejected, error).",
    ["ruleset", "outcome"],
    registry=REGISTRY,
)
COMMAND_LATENCY = Histogram(
    "taku_command_latency_seconds",
    "From a command's frame decoded to its ack (or error) written, in seconds.",
    ["ruleset"],
    buckets=_LATENCY_BUCKETS_S,
    registry=REGISTRY,
)
COMMIT_LATENCY = Histogram(
    "taku_store_commit_latency_seconds",
    "From a command's events handed to the store to the store's answer (durable), in seconds.",
    buckets=_LATENCY_BUCKETS_S,
    registry=REGISTRY,
)
COMMIT_BATCH = Histogram(
    "taku_store_commit_batch_size",
    "Appends (commands) written in one store transaction (SQLite's group commit; "
    "PostgreSQL: one per transaction).",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256),
    registry=REGISTRY,
)
CONNECTIONS = Gauge("taku_connections_open", "WebSocket connections open.", registry=REGISTRY)
SUBSCRIBERS = Gauge(
    "taku_subscribers", "Subscriptions to tables (one per connection and table).", registry=REGISTRY
)
TABLES = Gauge("taku_tables_loaded", "Tables loaded in this process.", registry=REGISTRY)
CATCH_UP = Counter(
    "taku_catch_up_events",
    "Events sent from the store to subscribers catching up (after_seq behind the table).",
    registry=REGISTRY,
)
ERRORS = Counter(
    "taku_errors", "error messages sent, by code (taku.codes).", ["code"], registry=REGISTRY
)
DROPPED = Counter(
    "taku_connections_dropped",
    "Connections that ended without a normal close, by reason "
    "(backlog, frame_too_large, ping_timeout, protocol_error, lost, other).",
    ["reason"],
    registry=REGISTRY,
)


def command_answered(ruleset: str, outcome: str, seconds: float) -> None:
    """A command's answer: ``outcome`` is ``ok``, ``duplicate``, ``rejected`` or ``error``;
    ``seconds`` from its frame decoded to the answer written."""
    COMMANDS.labels(ruleset, outcome).inc()
    COMMAND_LATENCY.labels(ruleset).observe(seconds)


P = ParamSpec("P")


def timed_commit(done: Callable[P, None]) -> Callable[P, None]:
    """``done`` (a store's answer callback), observing the time from now to its call as
    the commit latency."""
    t0 = time.perf_counter()

    @functools.wraps(done)
    def answered(*args: P.args, **kwargs: P.kwargs) -> None:
        COMMIT_LATENCY.observe(time.perf_counter() - t0)
        done(*args, **kwargs)

    return answered


def commit_timer() -> Any:
    """A context manager observing the time spent in it as the commit latency (an
    awaited ``store.append``)."""
    return COMMIT_LATENCY.time()


def commit_batch(appends: int) -> None:
    """One store transaction holding ``appends`` commands' events."""
    COMMIT_BATCH.observe(appends)


def connection_opened() -> None:
    CONNECTIONS.inc()


def connection_closed(close_code: int | None, reason: str | None = None) -> None:
    """A connection ended with ``close_code`` (None: no closing handshake); ``reason``
    when the server dropped it itself (``backlog``)."""
    CONNECTIONS.dec()
    if reason is None:
        if close_code in (1000, 1001):
            return  # a normal close, by either side
        reason = {
            1009: "frame_too_large",
            1011: "ping_timeout",
            1002: "protocol_error",
            1007: "protocol_error",
            1006: "lost",
            None: "lost",
        }.get(close_code, "other")
    DROPPED.labels(reason).inc()


def subscribers_changed(delta: int) -> None:
    SUBSCRIBERS.inc(delta)


def tables_changed(delta: int) -> None:
    TABLES.inc(delta)


def catch_up_sent(events: int) -> None:
    CATCH_UP.inc(events)


def error_sent(code: str) -> None:
    ERRORS.labels(code).inc()


def exposition() -> bytes:
    """Every metric in Prometheus' text format (``CONTENT_TYPE``)."""
    return generate_latest(REGISTRY)


def serve_elsewhere(host: str, port: int) -> Any:
    """Serve ``/metrics`` on a port of its own (prometheus-client's HTTP server, in a
    thread); returns (server, thread)."""
    from prometheus_client import start_http_server

    return start_http_server(port, addr=host, registry=REGISTRY)
