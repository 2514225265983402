"""Prometheus metrics of a taku process (prometheus-client), scraped at ``/metrics``.

The server and the application service call the small functions below at the moments
they measure; each is cheap (a counter increment or a histogram observation, no I/O).
The per-command ones (commands, their latency, commit latency and batch sizes) count
in plain Python objects on the event loop, read by a collector at scrape time;
prometheus-client's own metrics (a lock per observation) serve the rest. The metrics
live in :data:`REGISTRY`, one per process; :func:`exposition` renders them in the text
format. Names, labels and units: docs/operations.md.
"""

from __future__ import annotations

import bisect
import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any, ParamSpec

from prometheus_client import CollectorRegistry, Counter, Gauge
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

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
    "STAGES",
    "stages",
    "subscribers_changed",
    "tables_changed",
    "timed_commit",
]

REGISTRY = CollectorRegistry(auto_describe=True)
"""taku's own registry (not prometheus-client's global one, which other libraries share)."""
CONTENT_TYPE = CONTENT_TYPE_LATEST

_BATCH_BUCKETS = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0)
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


class _Histogram:
    """A histogram written from the event loop's thread only (no lock per observation)."""

    __slots__ = ("bounds", "counts", "total")

    def __init__(self, bounds: tuple[float, ...]) -> None:
        self.bounds = bounds
        self.counts = [0] * (len(bounds) + 1)  # the last one: above every bound (+Inf)
        self.total = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, value)] += 1  # le: value <= bound
        self.total += value

    def buckets(self) -> list[tuple[str, float]]:
        """Cumulative ``(le, count)`` pairs, ``+Inf`` last, as the text format has them."""
        counts, running, out = list(self.counts), 0, []
        for bound, n in zip((*map(floatToGoString, self.bounds), "+Inf"), counts, strict=True):
            running += n
            out.append((bound, float(running)))
        return out


class _CommandPath(Collector):
    """The metrics of every command (counted on the event loop, read at scrape time):
    prometheus-client's own metrics take a lock per observation, several per command."""

    def __init__(self) -> None:
        self.commands: dict[tuple[str, str], int] = {}
        self.latency: dict[str, _Histogram] = {}
        self.commit = _Histogram(_LATENCY_BUCKETS_S)
        self.batch = _Histogram(_BATCH_BUCKETS)

    def collect(self) -> Iterator[Metric]:
        # list(...) copies in one step: a scrape on --metrics-port runs in another thread
        commands = CounterMetricFamily(
            "taku_commands",
            "Commands answered, by ruleset and outcome (ok, duplicate, rejected, error).",
            labels=["ruleset", "outcome"],
        )
        for (ruleset, outcome), n in list(self.commands.items()):
            commands.add_metric([ruleset, outcome], n)
        yield commands
        latency = HistogramMetricFamily(
            "taku_command_latency_seconds",
            "From a command's frame read to its ack (or error) written, in seconds.",
            labels=["ruleset"],
        )
        for ruleset, h in list(self.latency.items()):
            latency.add_metric([ruleset], h.buckets(), h.total)
        yield latency
        commit = HistogramMetricFamily(
            "taku_store_commit_latency_seconds",
            "From a command's events handed to the store to the store's answer (durable), "
            "in seconds.",
        )
        commit.add_metric([], self.commit.buckets(), self.commit.total)
        yield commit
        batch = HistogramMetricFamily(
            "taku_store_commit_batch_size",
            "Appends (commands) written in one store transaction (SQLite's group commit; "
            "PostgreSQL: one per transaction).",
        )
        batch.add_metric([], self.batch.buckets(), self.batch.total)
        yield batch


_PATH = _CommandPath()
REGISTRY.register(_PATH)

STAGES = ("decide", "queue", "commit", "wake", "publish", "write", "total")
"""The stages of a command's path, in order (see :class:`StageTimings`)."""

_STAGE_BUCKETS_S = (*(m * 10.0**e for e in range(-6, 1) for m in (1.0, 2.0, 5.0)), 10.0)
"""1 µs to 10 s, three buckets a decade: a stage's median and tail, from one scrape."""


class Marks:
    """When one command passed each point of its path (``time.perf_counter``, s)."""

    __slots__ = ("committed", "decided", "picked", "published", "received", "woke")

    def __init__(self, received: float, decided: float) -> None:
        self.received = received
        self.decided = decided
        self.picked = self.committed = self.woke = self.published = 0.0


class StageTimings(Collector):
    """Per-stage timings of the command path, recorded only while :attr:`enabled`
    (``taku serve --stage-timings``; off by default, a few clock reads per command).

    Stages (seconds, one histogram each, ``taku_command_stage_seconds{stage}``):

    - ``decide``: the command's frame read → its events decided and handed to the store
      (decoding, the rules, the records and their chain);
    - ``queue``: handed to the store → the store's writer took up the batch holding it
      (SQLite: waiting for the batch before to commit);
    - ``commit``: the writer took up the batch → the batch is durable (insert and fsync);
    - ``wake``: durable → the event loop runs the batch's answer (the thread hand-off,
      the loop's backlog); for a store without a writer thread (memory), handed → answer;
    - ``publish``: the answer runs → the command's events and ack are handed to its
      subscribers' connections (waiting behind the batch's earlier commands included);
    - ``write``: handed to the connections → written to their sockets;
    - ``total``: frame read → written.

    Recorded on the pipelined path of a store this process owns (SQLite; memory has
    no ``queue`` and ``commit``) and on the locked path of a shared store
    (PostgreSQL), which has no ``queue`` and no ``wake``: its commands wait for the
    table's lock (and the store's) before they are decided, so that wait is in
    ``decide``; ``publish`` runs from durable to the ack handed on. Event loop only.
    """

    def __init__(self) -> None:
        self.enabled = False
        self.hist = {stage: _Histogram(_STAGE_BUCKETS_S) for stage in STAGES}
        self.batch: tuple[float, float, float] | None = None
        """The batch being answered: (taken up, durable, answer started), or None."""

    def batch_times(self, picked: float, committed: float) -> None:
        """The store, on the loop: the batch it is about to answer was taken up at
        ``picked`` and was durable at ``committed`` (``perf_counter``), until
        :meth:`batch_done`."""
        self.batch = (picked, committed, time.perf_counter())

    def batch_done(self) -> None:
        self.batch = None

    def observe(self, marks: Marks, written: float) -> None:
        """One command written at ``written``: each stage whose two ends it has."""
        h = self.hist
        h["decide"].observe(marks.decided - marks.received)
        if marks.picked:
            h["queue"].observe(marks.picked - marks.decided)
            h["commit"].observe(marks.committed - marks.picked)
            h["wake"].observe(marks.woke - marks.committed)
        elif marks.committed:
            h["commit"].observe(marks.committed - marks.decided)
        elif marks.woke:
            h["wake"].observe(marks.woke - marks.decided)
        start = marks.woke or marks.committed
        if start and marks.published:
            h["publish"].observe(marks.published - start)
        if marks.published:
            h["write"].observe(written - marks.published)
        h["total"].observe(written - marks.received)

    def reset(self) -> None:
        self.hist = {stage: _Histogram(_STAGE_BUCKETS_S) for stage in STAGES}

    def collect(self) -> Iterator[Metric]:
        if not self.enabled:
            return
        family = HistogramMetricFamily(
            "taku_command_stage_seconds",
            "Time a command spends in each stage of its path (taku serve --stage-timings), "
            "in seconds: decide, queue, commit, wake, publish, write, total.",
            labels=["stage"],
        )
        for stage, h in list(self.hist.items()):
            family.add_metric([stage], h.buckets(), h.total)
        yield family


stages = StageTimings()
"""The process's stage timings (disabled until ``taku serve --stage-timings``)."""
REGISTRY.register(stages)

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
    ``seconds`` from its frame read to the answer written. Event loop only."""
    key = (ruleset, outcome)
    commands = _PATH.commands
    commands[key] = commands.get(key, 0) + 1
    latency = _PATH.latency.get(ruleset)
    if latency is None:
        latency = _PATH.latency[ruleset] = _Histogram(_LATENCY_BUCKETS_S)
    latency.observe(seconds)


P = ParamSpec("P")


def timed_commit(done: Callable[P, None]) -> Callable[P, None]:
    """``done`` (a store's answer callback), observing the time from now to its call as
    the commit latency."""
    t0 = time.perf_counter()

    def answered(*args: P.args, **kwargs: P.kwargs) -> None:
        _PATH.commit.observe(time.perf_counter() - t0)
        done(*args, **kwargs)

    return answered


@contextlib.contextmanager
def commit_timer() -> Iterator[None]:
    """Observe the time spent in the block as the commit latency (an awaited
    ``store.append``). Event loop only."""
    t0 = time.perf_counter()
    yield
    _PATH.commit.observe(time.perf_counter() - t0)


def commit_batch(appends: int) -> None:
    """One store transaction holding ``appends`` commands' events. Event loop only."""
    _PATH.batch.observe(appends)


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
