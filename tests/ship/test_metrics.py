"""Prometheus metrics at /metrics (issue 19, item 4): a scrape, commands, and the series move."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from taku.net import ServerConfig, TakuServer
from taku.store import MemoryEventStore, SQLiteEventStore
from taku.testing.peer import Raw, new_table
from taku.testing.server import RunningServer, start_server, stop_server


async def get(url: str) -> tuple[int, str, bytes]:
    def fetch() -> tuple[int, str, bytes]:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                return r.status, r.headers["Content-Type"], r.read()
        except urllib.error.HTTPError as e:
            with e:
                return e.code, e.headers["Content-Type"], e.read()

    return await asyncio.to_thread(fetch)


Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def scrape(server: RunningServer) -> Samples:
    status, ctype, body = await get(server.http_url + "metrics")
    assert status == 200 and ctype.startswith("text/plain")
    out: Samples = {}
    for family in text_string_to_metric_families(body.decode()):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def delta(after: Samples, before: Samples, name: str, **labels: str) -> float:
    key = (name, tuple(sorted(labels.items())))
    return after.get(key, 0.0) - before.get(key, 0.0)


@pytest.fixture
async def sqlite_server(tmp_path: Path) -> AsyncIterator[RunningServer]:
    running = await start_server(SQLiteEventStore(tmp_path / "t.db"))
    yield running
    await stop_server(running)


async def test_a_scrape_sees_commands_connections_and_errors_move(
    sqlite_server: RunningServer,
) -> None:
    before = await scrape(sqlite_server)
    gm = await Raw.connect(sqlite_server.ws_url)
    created = await new_table(gm)
    tid = created["table_id"]
    gm_sub = await gm.request({"type": "subscribe", "table_id": tid, "after_seq": 0})
    assert gm_sub["type"] == "subscribed" and gm_sub["seq"] >= 1
    for n in range(2):
        reply = await gm.request(
            {"type": "chat", "table_id": tid, "text": f"2D6 {n}", "command_id": f"c{n}"}
        )
        assert reply["type"] == "ack"
    again = await gm.request({"type": "chat", "table_id": tid, "text": "2D6 0", "command_id": "c0"})
    assert again["duplicate"] is True
    bad = await gm.request(
        {"type": "command", "table_id": tid, "command_id": "x1", "command": {"type": "no_such"}}
    )
    assert bad["type"] == "error"
    # a second viewer catches up from seq 0 (every event so far comes from the store)
    late = await Raw.connect(sqlite_server.ws_url)
    await late.request({"type": "join", "table_id": tid, "token": created["spectator_token"]})
    subscribed = await late.request({"type": "subscribe", "table_id": tid, "after_seq": 0})
    head = subscribed["seq"]
    after = await scrape(sqlite_server)

    assert delta(after, before, "taku_commands_total", ruleset="generic", outcome="ok") == 2
    assert delta(after, before, "taku_commands_total", ruleset="generic", outcome="duplicate") == 1
    assert delta(after, before, "taku_commands_total", ruleset="generic", outcome="rejected") == 1
    assert delta(after, before, "taku_command_latency_seconds_count", ruleset="generic") == 4
    assert delta(after, before, "taku_store_commit_latency_seconds_count") >= 2
    assert delta(after, before, "taku_store_commit_batch_size_count") >= 1
    assert delta(after, before, "taku_store_commit_batch_size_sum") >= 2
    assert delta(after, before, "taku_connections_open") == 2
    assert delta(after, before, "taku_subscribers") == 2
    assert delta(after, before, "taku_tables_loaded") == 1
    assert delta(after, before, "taku_catch_up_events_total") == gm_sub["seq"] + head
    assert delta(after, before, "taku_errors_total", code=bad["code"]) == 1

    # a peer that vanishes without a closing handshake is a dropped connection
    late.ws.transport.abort()  # type: ignore[attr-defined]
    for _ in range(200):
        now = await scrape(sqlite_server)
        if delta(now, after, "taku_connections_open") == -1:
            break
        await asyncio.sleep(0.01)
    assert delta(now, after, "taku_connections_dropped_total", reason="lost") == 1
    assert delta(now, after, "taku_subscribers") == -1
    await gm.close()


async def test_metrics_are_served_on_loopback_only_unless_asked() -> None:
    from taku.app import Hub
    from taku.plugins import load_registry

    assert ServerConfig().metrics is None
    for host, metrics, served in [
        ("127.0.0.1", None, True),
        ("::1", None, True),
        ("localhost", None, True),
        ("0.0.0.0", None, False),
        ("192.0.2.1", None, False),
        ("0.0.0.0", True, True),
        ("127.0.0.1", False, False),
    ]:
        hub = Hub(MemoryEventStore(), load_registry())
        assert TakuServer(hub, ServerConfig(host=host, metrics=metrics)).metrics is served, host


async def test_metrics_off_answers_404() -> None:
    running = await start_server(MemoryEventStore(), metrics=False)
    try:
        status, _, _ = await get(running.http_url + "metrics")
        assert status == 404
    finally:
        await stop_server(running)


async def test_healthz_reports_whether_the_store_answers(tmp_path: Path) -> None:
    running = await start_server(SQLiteEventStore(tmp_path / "h.db"))
    try:
        assert await get(running.http_url + "healthz") == (
            200,
            "text/plain; charset=utf-8",
            b"ok\n",
        )
        await running.store.close()  # the store stops answering; the server stays up
        status, _, body = await get(running.http_url + "healthz")
        assert (status, body) == (503, b"store unavailable\n")
    finally:
        await running.server.stop()
        await running.hub.close()


async def test_readyz_is_false_while_draining() -> None:
    running = await start_server(MemoryEventStore())
    try:
        assert (await get(running.http_url + "readyz"))[0] == 200
        await running.server.drain(0)
        status, _, body = await get(running.http_url + "readyz")
        assert (status, body) == (503, b"draining\n")
        # still serving meanwhile: a new connection gets its tables
        peer = await Raw.connect(running.ws_url)
        await new_table(peer)
        await peer.close()
    finally:
        await stop_server(running)


def test_the_dashboard_and_the_docs_name_only_metrics_that_exist() -> None:
    """docs/operations.md's table and the Grafana dashboard's queries use the metrics
    the server exports (a renamed metric breaks them)."""
    import json
    import re

    from taku import metrics

    root = Path(__file__).resolve().parents[2]
    metrics.stages.enabled = True  # taku serve --stage-timings adds its histograms
    try:
        exported = {m.name for m in metrics.REGISTRY.collect()}
    finally:
        metrics.stages.enabled = False
    dash = json.loads((root / "docs" / "grafana" / "taku.json").read_text(encoding="utf-8"))
    exprs = [t["expr"] for p in dash["panels"] for t in p["targets"]]
    used = {
        re.sub(r"_(total|bucket|sum|count)$", "", n)
        for e in exprs
        for n in re.findall(r"taku_\w+", e)
    }
    assert used and used <= exported, used - exported
    doc = (root / "docs" / "operations.md").read_text(encoding="utf-8")
    documented = {re.sub(r"_total$", "", n) for n in re.findall(r"^\| `(taku_\w+)`", doc, re.M)}
    assert documented == exported


def test_histogram_buckets_count_a_value_at_its_bound_and_are_cumulative() -> None:
    """Prometheus buckets are "less than or equal": 5 ms lands in le=0.005 and every
    bucket above it, 5.1 ms only from le=0.01 on; +Inf and _count hold both."""
    from taku import metrics

    metrics.command_answered("bucket-test", "ok", 0.005)
    metrics.command_answered("bucket-test", "ok", 0.0051)
    samples = {
        (s.name, s.labels.get("le")): s.value
        for f in text_string_to_metric_families(metrics.exposition().decode())
        for s in f.samples
        if s.labels.get("ruleset") == "bucket-test"
    }
    bucket = "taku_command_latency_seconds_bucket"
    assert samples[(bucket, "0.002")] == 0
    assert samples[(bucket, "0.005")] == 1
    assert samples[(bucket, "0.01")] == 2 and samples[(bucket, "+Inf")] == 2
    assert samples[("taku_command_latency_seconds_count", None)] == 2
    assert samples[("taku_command_latency_seconds_sum", None)] == pytest.approx(0.0101)
    assert samples[("taku_commands_total", None)] == 2


@pytest.fixture
def stage_timings() -> Iterator[None]:
    from taku import metrics

    metrics.stages.reset()
    metrics.stages.enabled = True
    yield
    metrics.stages.enabled = False


STAGE = "taku_command_stage_seconds"


PIPELINED = ("decide", "queue", "commit", "wake", "publish", "write")
LOCKED = ("decide", "commit", "publish", "write")
"""The locked path's stages: its commands wait for the lock before deciding, in one task."""


@pytest.fixture(params=["sqlite", "postgres"])
async def staged_server(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[RunningServer, tuple[str, ...]]]:
    """A server on SQLite (the pipelined path) or PostgreSQL (the locked path), with the
    stages its commands are timed in."""
    if request.param == "sqlite":
        running = await start_server(SQLiteEventStore(tmp_path / "t.db"))
        yield running, PIPELINED
        await stop_server(running)
        return
    from tests.store.test_postgres import scratch_schema

    from taku.store.postgres import PostgresEventStore, drop_schema

    url = await scratch_schema()
    running = await start_server(PostgresEventStore(url))
    try:
        yield running, LOCKED
    finally:
        await stop_server(running)
        await drop_schema(url)


async def test_stage_timings_split_each_command_into_its_stages(
    staged_server: tuple[RunningServer, tuple[str, ...]], stage_timings: None
) -> None:
    """taku serve --stage-timings: every stage of each command is timed once, on the
    SQLite (pipelined) and the PostgreSQL (locked) path, and the stages add up to the
    command's total (they partition it)."""
    running, parts = staged_server
    gm = await Raw.connect(running.ws_url)
    tid = (await new_table(gm))["table_id"]
    await gm.request({"type": "subscribe", "table_id": tid, "after_seq": 0})
    before = await scrape(running)
    for n in range(3):
        reply = await gm.request(
            {"type": "chat", "table_id": tid, "text": f"hi {n}", "command_id": f"s{n}"}
        )
        assert reply["type"] == "ack"
    after = await scrape(running)
    for stage in set(PIPELINED) - set(parts):
        assert delta(after, before, f"{STAGE}_count", stage=stage) == 0, stage
    for stage in (*parts, "total"):
        assert delta(after, before, f"{STAGE}_count", stage=stage) == 3, stage
        assert delta(after, before, f"{STAGE}_bucket", stage=stage, le="+Inf") == 3
    sums = {s: delta(after, before, f"{STAGE}_sum", stage=s) for s in (*parts, "total")}
    assert sums["commit"] > 0 and sums["total"] > 0
    assert sum(sums[s] for s in parts) == pytest.approx(sums["total"], rel=1e-6)
    await gm.close()


async def test_stage_timings_are_off_unless_asked(sqlite_server: RunningServer) -> None:
    gm = await Raw.connect(sqlite_server.ws_url)
    tid = (await new_table(gm))["table_id"]
    await gm.request({"type": "chat", "table_id": tid, "text": "hi", "command_id": "o1"})
    assert not any(name.startswith(STAGE) for name, _ in await scrape(sqlite_server))
    await gm.close()
