"""The store contract and the multi-node guarantees, against a real PostgreSQL server.

Every test gets its own schema (``?schema=taku_test_…``), dropped afterwards.
Without ``TAKU_TEST_PG`` these tests skip, saying how to run them; with
``CI=true`` they must run, and fail when the server cannot be reached.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import urllib.parse
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable

import asyncpg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taku.app import Hub
from taku.core.commands import Chat
from taku.errors import DuplicateCommand, InvalidCommand, SeqConflict, StoreError, TableNotFound
from taku.plugins import load_registry
from taku.store import open_store
from taku.store.postgres import (
    SCHEMA_VERSION,
    PostgresEventStore,
    drop_schema,
    split_url,
    with_schema,
)
from taku.testing.netcut import CutProxy
from taku.testing.store_contract import EventStoreContract, make_events, new_table

pytestmark = pytest.mark.postgres

HOW_TO_RUN = (
    "PostgreSQL tests need a server: set TAKU_TEST_PG=postgresql://postgres@127.0.0.1:5432/test "
    "(or run `CI=true make test`, which sets it)"
)


def pg_base_url() -> str:
    """The server under test, or skip (locally) / fail (``CI=true``) when there is none."""
    url = os.environ.get("TAKU_TEST_PG")
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but TAKU_TEST_PG is not set: " + HOW_TO_RUN)
        pytest.skip(HOW_TO_RUN)
    return url


async def scratch_schema() -> str:
    """A ``--db`` URL naming a schema of its own on the test server (which must answer)."""
    base = pg_base_url()
    try:
        conn = await asyncpg.connect(split_url(base)[0], timeout=5)
    except (OSError, asyncpg.PostgresError, TimeoutError) as e:
        pytest.fail(f"TAKU_TEST_PG={base} cannot be reached ({e!r}); start PostgreSQL or unset it")
    await conn.close()
    return with_schema(base, "taku_test_" + uuid.uuid4().hex[:16])


class PostgresSetup:
    """Mixin: ``pg_url`` is a fresh schema on the test server, dropped after the test."""

    @pytest.fixture
    async def pg_url(self) -> AsyncIterator[str]:
        url = await scratch_schema()
        yield url
        await drop_schema(url)

    @pytest.fixture
    async def node(
        self, pg_url: str
    ) -> AsyncIterator[Callable[..., Awaitable[PostgresEventStore]]]:
        """Open another store on the same schema: another node, as far as the database can tell."""
        opened: list[PostgresEventStore] = []

        async def make(**kw: float) -> PostgresEventStore:
            s = PostgresEventStore(pg_url, **kw)  # type: ignore[arg-type]
            await s.open()
            opened.append(s)
            return s

        yield make
        for s in opened:
            await s.close()


class TestPostgresStore(PostgresSetup, EventStoreContract):
    @pytest.fixture
    async def lazy_node(self, pg_url: str) -> AsyncIterator[dict[str, PostgresEventStore]]:
        """A place for a store a test opens once and shares between hypothesis examples."""
        held: dict[str, PostgresEventStore] = {}
        yield held
        for s in held.values():
            await s.close()

    @pytest.fixture
    async def store(self, pg_url: str) -> AsyncIterator[PostgresEventStore]:
        s = open_store(pg_url)
        assert isinstance(s, PostgresEventStore)
        await s.open()
        yield s
        await s.close()

    @pytest.fixture
    def reopen(self, pg_url: str) -> Callable[[], Awaitable[PostgresEventStore]]:
        async def again() -> PostgresEventStore:
            s = PostgresEventStore(pg_url)
            await s.open()
            return s

        return again

    # ------------------------------------------------------------ schema

    async def test_schema_version_is_recorded_once(
        self, store: PostgresEventStore, node, pg_url: str
    ) -> None:  # type: ignore[no-untyped-def]
        """Opening the same database again changes nothing and records the version once."""
        await node()
        assert await store.schema_version() == SCHEMA_VERSION
        conn = await asyncpg.connect(split_url(pg_url)[0])
        try:
            n = await conn.fetchval(f'SELECT count(*) FROM "{store.schema}".schema_version')
        finally:
            await conn.close()
        assert n == SCHEMA_VERSION

    async def test_a_version_1_database_is_upgraded_and_keeps_its_events(
        self, store: PostgresEventStore, pg_url: str
    ) -> None:
        """A database as taku schema 1 left it (the events→tables foreign key, version 1
        recorded) opens at version 2 without the key, its events intact; an append to a
        table that does not exist is still refused."""
        tid = await new_table(store, 2)
        await store.close()
        s = f'"{store.schema}"'
        conn = await asyncpg.connect(split_url(pg_url)[0])
        try:
            await conn.execute(
                f"ALTER TABLE {s}.events ADD CONSTRAINT events_table_id_fkey"
                f" FOREIGN KEY (table_id) REFERENCES {s}.tables (table_id)"
            )
            await conn.execute(f"DELETE FROM {s}.schema_version WHERE version > 1")
            again = PostgresEventStore(pg_url)
            await again.open()
            try:
                assert await again.schema_version() == 2
                keys = await conn.fetchval(
                    "SELECT count(*) FROM pg_constraint WHERE contype = 'f'"
                    " AND connamespace = $1::regnamespace",
                    store.schema,
                )
                assert keys == 0
                assert [e.seq for e in await again.read(tid)] == [1, 2]
                await again.append(tid, make_events(tid, 3), expected_seq=2)
                with pytest.raises(TableNotFound):
                    await again.append("t-none", make_events("t-none", 1), expected_seq=0)
                assert await again.last_seq("t-none") == 0
            finally:
                await again.close()
        finally:
            await conn.close()

    async def test_the_append_statement_reads_by_key_only(
        self, store: PostgresEventStore, pg_url: str
    ) -> None:
        """The append's plans (generic, as every session plans them once; the batch form
        and the one-event form) look tables, events and commands up by their keys: nothing
        in them scans a whole table, so an append costs the same with ten commands written
        or ten million."""
        tids = [await new_table(store) for _ in range(20)]
        for t in tids[:5]:
            for seq in range(2, 12):
                await store.append(t, make_events(t, seq), expected_seq=seq - 1)
        conn = await asyncpg.connect(split_url(pg_url)[0], server_settings=store._session())
        try:
            await conn.execute(
                "PREPARE taku_append (text[], text[], bigint[], bigint[], text[], bigint[],"
                " text[], text[], text) AS " + store._sql_append
            )
            await conn.execute(
                "PREPARE taku_append_one (text, text, bigint, bigint, text, text, text) AS "
                + store._sql_append_one
            )
            plans = [
                await conn.fetchval(
                    "EXPLAIN (FORMAT JSON) EXECUTE taku_append"
                    "('{a,b}', '{c1,c2}', '{1,1}', '{2,2}', '{a,b}', '{2,2}',"
                    " '{x,x}', '{\"{}\",\"{}\"}', NULL)"
                ),
                await conn.fetchval(
                    "EXPLAIN (FORMAT JSON) EXECUTE taku_append_one('a', 'c1', 1, 2, 'x', '{}', NULL)"
                ),
            ]
        finally:
            await conn.close()
        for plan in plans:
            nodes: list[dict[str, object]] = []
            todo = [json.loads(plan)[0]["Plan"]]
            while todo:
                n = todo.pop()
                nodes.append(n)
                todo.extend(n.get("Plans", []))
            scans = {
                (n["Node Type"], n.get("Relation Name")) for n in nodes if "Relation Name" in n
            }
            assert scans, nodes
            assert not [s for s in scans if s[0] == "Seq Scan"], scans
            assert {r for _t, r in scans} >= {"tables", "events", "commands"}

    async def test_nodes_opening_at_once_all_succeed(self, pg_url: str) -> None:
        """Four nodes creating the schema at the same moment: none fails (advisory lock)."""
        stores = [PostgresEventStore(pg_url) for _ in range(4)]
        try:
            await asyncio.gather(*(s.open() for s in stores))
            assert [await s.schema_version() for s in stores] == [SCHEMA_VERSION] * 4
        finally:
            for s in stores:
                await s.close()

    async def test_newer_schema_is_refused(self, store: PostgresEventStore, pg_url: str) -> None:
        """A database written by a newer taku is not opened (store/schema_newer)."""
        conn = await asyncpg.connect(split_url(pg_url)[0])
        try:
            await conn.execute(
                f'INSERT INTO "{store.schema}".schema_version (version) VALUES ($1)',
                SCHEMA_VERSION + 1,
            )
        finally:
            await conn.close()
        with pytest.raises(StoreError) as e:
            await PostgresEventStore(pg_url).open()
        assert e.value.code == "store/schema_newer"

    async def test_unreachable_server_is_a_clear_error(self) -> None:
        """No server at the URL: store/unavailable, not a traceback from the driver."""
        with pytest.raises(StoreError) as e:
            await PostgresEventStore("postgresql://postgres@127.0.0.1:1/test").open()
        assert e.value.code == "store/unavailable"

    async def test_missing_database_is_a_clear_error(self, pg_url: str) -> None:
        """A database that does not exist: store/open_failed naming it."""
        dsn, _ = split_url(pg_url)
        with pytest.raises(StoreError) as e:
            await PostgresEventStore(dsn.rsplit("/", 1)[0] + "/taku_no_such_db").open()
        assert e.value.code == "store/open_failed"
        assert "taku_no_such_db" in e.value.message

    def test_schema_names_are_plain_identifiers(self) -> None:
        """?schema= takes only a plain identifier, so it is safe in DDL."""
        with pytest.raises(StoreError) as e:
            split_url('postgresql://h/db?schema=x";drop')
        assert e.value.code == "store/bad_url"
        assert split_url("postgresql://h/db?schema=abc&sslmode=disable") == (
            "postgresql://h/db?sslmode=disable",
            "abc",
        )

    # ------------------------------------------------------------ several nodes

    async def test_nodes_race_for_one_seq_exactly_one_wins(
        self, store: PostgresEventStore, node
    ) -> None:  # type: ignore[no-untyped-def]
        """Appends at one expected seq from two nodes, many rounds: one wins each seq, no gap."""
        other = await node()
        tid = await new_table(store)
        last = 1
        for _round in range(20):
            results = await asyncio.gather(
                store.append(tid, make_events(tid, last + 1, 1), expected_seq=last),
                other.append(tid, make_events(tid, last + 1, 2), expected_seq=last),
                return_exceptions=True,
            )
            assert sum(r is None for r in results) == 1, results
            assert sum(isinstance(r, SeqConflict) for r in results) == 1, results
            # the winner wrote 1 or 2 events; both nodes read the same gap-free stream
            written = 1 if results[0] is None else 2
            assert await other.last_seq(tid) == await store.last_seq(tid) == last + written
            last += written
        assert [e.seq for e in await other.read(tid)] == list(range(1, last + 1))

    async def test_command_id_is_unique_across_nodes(self, store: PostgresEventStore, node) -> None:  # type: ignore[no-untyped-def]
        """A command id appended on one node is a duplicate on the other, naming the first seqs."""
        other = await node()
        tid = await new_table(store)
        await store.append(tid, make_events(tid, 2, 2, command_id="c1"), expected_seq=1)
        with pytest.raises(DuplicateCommand) as e:
            await other.append(tid, make_events(tid, 4, 1, command_id="c1"), expected_seq=3)
        assert (e.value.first_seq, e.value.last_seq) == (2, 3)
        # the same command sent to both nodes at once: written once
        results = await asyncio.gather(
            store.append(tid, make_events(tid, 4, 1, command_id="c2"), expected_seq=3),
            other.append(tid, make_events(tid, 4, 1, command_id="c2"), expected_seq=3),
            return_exceptions=True,
        )
        assert sum(r is None for r in results) == 1
        assert all(r is None or isinstance(r, SeqConflict | DuplicateCommand) for r in results)
        assert await store.find_command(tid, "c2") == (4, 4)
        assert await other.last_seq(tid) == 4

    async def test_another_nodes_append_reaches_subscribers(
        self, store: PostgresEventStore, node
    ) -> None:  # type: ignore[no-untyped-def]
        """A subscriber on node B gets what node A appends, in seq order, through NOTIFY."""
        other = await node(resync_interval_s=60)  # no periodic resync: the NOTIFY alone must do it
        tid = await new_table(store, 2)
        got: list[int] = []

        async def consume() -> None:
            async for rec in other.subscribe(tid, after_seq=1):
                got.append(rec.seq)
                if rec.seq == 12:
                    return

        task = asyncio.create_task(consume())
        await asyncio.sleep(0.05)
        for seq in range(3, 13):
            await store.append(tid, make_events(tid, seq), expected_seq=seq - 1)
        await asyncio.wait_for(task, 10)
        assert got == list(range(2, 13))

    async def test_notification_missed_during_reconnect_is_recovered(
        self,
        store: PostgresEventStore,
        node,
        pg_url: str,  # type: ignore[no-untyped-def]
    ) -> None:
        """Node B's LISTEN connection is killed; what A appends while B is deaf still reaches B's subscriber."""
        deaf = await node(resync_interval_s=60, reconnect_min_s=0.5)
        tid = await new_table(store)
        got: list[int] = []
        reached = asyncio.Event()

        async def consume() -> None:
            async for rec in deaf.subscribe(tid, after_seq=1):
                got.append(rec.seq)
                if rec.seq == 4:
                    reached.set()

        task = asyncio.create_task(consume())
        try:
            await store.append(tid, make_events(tid, 2), expected_seq=1)
            await asyncio.wait_for(_until(lambda: got == [2]), 5)
            # kill B's listening backend, as a database restart would
            assert deaf._listen_conn is not None
            pid = deaf._listen_conn.get_server_pid()
            admin = await asyncpg.connect(split_url(pg_url)[0])
            try:
                assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
            finally:
                await admin.close()
            await asyncio.wait_for(_until(lambda: not deaf.listening.is_set()), 5)
            # appended while nobody on B listens: these notifications are lost
            await store.append(tid, make_events(tid, 3, 2), expected_seq=2)
            assert got == [2]
            await asyncio.wait_for(reached.wait(), 10)
            assert got == [2, 3, 4]
            assert deaf.reconnects == 1
        finally:
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

    async def test_writers_of_a_table_take_turns_across_nodes(
        self, store: PostgresEventStore, node
    ) -> None:  # type: ignore[no-untyped-def]
        """While node A holds a table's turn, node B's writer waits, then sees A's append."""
        other = await node()
        tid = await new_table(store)
        seen_by_b: list[int] = []

        async def b_writer() -> None:
            async with other.exclusive(tid):
                seen_by_b.append(await other.last_seq(tid))
                await other.append(
                    tid, make_events(tid, seen_by_b[0] + 1), expected_seq=seen_by_b[0]
                )

        async with store.exclusive(tid):
            task = asyncio.create_task(b_writer())
            await asyncio.sleep(0.1)  # room for B to misbehave
            assert seen_by_b == []
            await store.append(tid, make_events(tid, 2), expected_seq=1)
        await asyncio.wait_for(task, 10)
        assert seen_by_b == [2]
        assert [e.seq for e in await store.read(tid)] == [1, 2, 3]

    async def test_a_stuck_turn_times_out_into_optimistic_writes(
        self, store: PostgresEventStore, node
    ) -> None:  # type: ignore[no-untyped-def]
        """A turn held past lock_timeout does not block other nodes: they write, SeqConflict guards."""
        other = await node(lock_timeout_s=0.2)
        tid = await new_table(store)
        async with store.exclusive(tid):
            async with other.exclusive(tid):
                await other.append(tid, make_events(tid, 2), expected_seq=1)
            with pytest.raises(SeqConflict):
                await store.append(tid, make_events(tid, 2), expected_seq=1)
        assert await store.last_seq(tid) == 2

    @settings(
        max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(
        plan=st.lists(
            st.tuples(st.integers(1, 3), st.sampled_from(["a", "b", "c", None, None, None])),
            min_size=2,
            max_size=12,
        )
    )
    async def test_random_races_keep_one_gap_free_stream(
        self,
        store: PostgresEventStore,
        lazy_node: dict[str, PostgresEventStore],
        plan: list[tuple[int, str | None]],
    ) -> None:
        """Appends raced in pairs from two nodes, command ids repeated at random: the stream stays 1..n,
        each command id is written once as one run, and every answer agrees with what is stored."""
        if "other" not in lazy_node:  # one second node for every example
            lazy_node["other"] = PostgresEventStore(store.url)
            await lazy_node["other"].open()
        other = lazy_node["other"]
        nodes = (store, other)
        tid = await new_table(store)
        outcomes: list[tuple[str, object]] = []
        for i in range(0, len(plan), 2):
            pair = plan[i : i + 2]
            calls = []
            for j, (n, cid) in enumerate(pair):
                s = nodes[j]
                last = await s.last_seq(tid)
                command_id = cid or uuid.uuid4().hex
                calls.append(
                    (
                        command_id,
                        s.append(
                            tid,
                            make_events(tid, last + 1, n, command_id=command_id),
                            expected_seq=last,
                        ),
                    )
                )
            results = await asyncio.gather(*(c for _, c in calls), return_exceptions=True)
            outcomes += [(cid, r) for (cid, _), r in zip(calls, results, strict=True)]
        events = await store.read(tid)
        assert events == await other.read(tid)
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        runs: dict[str, list[int]] = {}
        for e in events:
            runs.setdefault(e.command_id, []).append(e.seq)
        for seqs in runs.values():  # one contiguous run per command id
            assert seqs == list(range(seqs[0], seqs[-1] + 1))
        for cid, r in outcomes:
            if r is None:
                assert cid in runs
            elif isinstance(r, DuplicateCommand):
                assert [r.first_seq, r.last_seq] == [runs[cid][0], runs[cid][-1]]
            else:
                assert isinstance(r, SeqConflict), r
        assert sum(r is None for _, r in outcomes) == len(runs) - 1  # the creation is the other run

    async def test_two_hubs_commands_interleave_without_loss(self, pg_url: str) -> None:
        """The application service on two nodes: concurrent commands all land once, both nodes fold the same state."""
        stores = [PostgresEventStore(pg_url), PostgresEventStore(pg_url)]
        hubs = [Hub(s, load_registry()) for s in stores]
        try:
            for s in stores:
                await s.open()
            created = await hubs[0].create_table(ruleset="generic", name="卓")
            tables = [await h.table(created.table_id) for h in hubs]
            n = 15

            async def send(i: int, k: int) -> tuple[int, int, bool]:
                return await tables[i].execute("m2", Chat(text=f"n{i}-{k}"), command_id=f"n{i}-{k}")

            acks = await asyncio.gather(*(send(i, k) for k in range(n) for i in (0, 1)))
            firsts = sorted(a[0] for a in acks)
            assert firsts == list(range(3, 3 + 2 * n))  # every command once, each its own seq
            assert not any(a[2] for a in acks)
            # a command id resent to the other node is acknowledged as a duplicate, not written again
            first_ack = acks[0]  # the ack of n0-0
            again = await tables[1].execute("m2", Chat(text="n0-0"), command_id="n0-0")
            assert again == (first_ack[0], first_ack[1], True)
            # the id with another command is refused on that node too, and writes nothing
            with pytest.raises(InvalidCommand) as refused:
                await tables[1].execute("m2", Chat(text="again"), command_id="n0-0")
            assert refused.value.code == "command/id_reused"
            await asyncio.wait_for(
                _until(lambda: tables[0].state.seq == tables[1].state.seq == 2 + 2 * n), 10
            )
            assert tables[0].state == tables[1].state
        finally:
            for h in hubs:
                await h.close()
            for s in stores:
                await s.close()


async def _until(cond: Callable[[], bool]) -> None:
    while not cond():
        await asyncio.sleep(0.01)


def _through(url: str, port: int) -> str:
    """``url`` with its host and port replaced by the loopback proxy's."""
    parts = urllib.parse.urlsplit(url)
    user = parts.netloc.rpartition("@")[0]
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{user}@127.0.0.1:{port}"))


class TestLostDatabase(PostgresSetup):
    """A node cut off from PostgreSQL (a proxy holding its bytes, no reset) or stuck behind a
    lock: it answers within its timeout with a retryable code and holds no other node back."""

    @pytest.fixture
    async def proxy(self, pg_url: str) -> AsyncIterator[CutProxy]:
        parts = urllib.parse.urlsplit(split_url(pg_url)[0])
        p = await CutProxy.start(parts.hostname or "127.0.0.1", parts.port or 5432)
        yield p
        await p.close()

    @pytest.fixture
    async def cut_node(self, pg_url: str, proxy: CutProxy) -> AsyncIterator[PostgresEventStore]:
        """Node A: reaches the database through ``proxy``, with short timeouts."""
        s = PostgresEventStore(
            _through(pg_url, proxy.port) + "&timeout_s=0.6&idle_timeout_s=0.4", ping_s=0.2
        )
        await s.open()
        yield s
        proxy.heal()
        await s.close()

    async def test_url_carries_the_timeouts(self, pg_url: str) -> None:
        s = PostgresEventStore(pg_url + "&timeout_s=1.5&lock_timeout_s=0.5&keepalive_s=4")
        assert (s.timeout_s, s.lock_timeout_s, s.keepalive_s, s.idle_timeout_s) == (1.5, 0.5, 4, 2)
        assert "timeout_s" not in split_url(pg_url + "&timeout_s=1.5")[0]
        with pytest.raises(StoreError) as bad:
            PostgresEventStore(pg_url + "&timeout_s=soon")
        assert bad.value.code == "store/bad_url"

    async def test_cut_node_answers_unavailable_within_its_timeout(
        self, cut_node: PostgresEventStore, proxy: CutProxy
    ) -> None:
        """Cut off: the append is answered store/unavailable within timeout_s, the next at once,
        the store says it is not reachable; healed, it is reachable and appends again."""
        tid = await new_table(cut_node)
        assert cut_node.reachable
        proxy.cut()
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        with pytest.raises(StoreError) as lost:
            await cut_node.append(tid, make_events(tid, 2, command_id="c2"), expected_seq=1)
        assert lost.value.code == "store/unavailable"
        assert loop.time() - t0 < cut_node.timeout_s + 0.5
        assert not cut_node.reachable
        t0 = loop.time()
        with pytest.raises(StoreError) as again:
            await cut_node.read(tid)
        assert again.value.code == "store/unavailable" and loop.time() - t0 < 0.1
        proxy.heal()
        await asyncio.wait_for(_until(lambda: cut_node.reachable), 5)
        # the held append may have committed once its bytes went through: the same command
        # id sent again is then a duplicate, never a second copy
        with contextlib.suppress(DuplicateCommand):
            await cut_node.append(tid, make_events(tid, 2, command_id="c2"), expected_seq=1)
        assert [(e.seq, e.command_id) for e in await cut_node.read(tid)][1:] == [(2, "c2")]

    async def test_silent_turn_holder_does_not_hold_the_table(
        self, cut_node: PostgresEventStore, proxy: CutProxy, node
    ) -> None:  # type: ignore[no-untyped-def]
        """Node A goes silent inside its turn: node B gets the turn once the server drops A's
        idle transaction (idle_timeout_s), not after lock_timeout_s; A's append is refused."""
        b = await node(lock_timeout_s=10)
        tid = await new_table(b)
        loop = asyncio.get_running_loop()
        async with cut_node.exclusive(tid):
            assert await cut_node.last_seq(tid) == 1
            proxy.cut()
            t0 = loop.time()
            async with b.exclusive(tid):
                await b.append(tid, make_events(tid, 2), expected_seq=1)
            waited = loop.time() - t0
            assert waited < cut_node.idle_timeout_s + 1.5, waited
            with pytest.raises(StoreError) as lost:
                await cut_node.append(tid, make_events(tid, 2), expected_seq=1)
            assert lost.value.code == "store/unavailable"
        proxy.heal()
        await asyncio.wait_for(_until(lambda: cut_node.reachable), 5)
        with pytest.raises(SeqConflict):
            await cut_node.append(tid, make_events(tid, 2), expected_seq=1)
        assert [e.seq for e in await b.read(tid)] == [1, 2]

    async def test_waiting_on_an_uncommitted_row_is_retryable(self, node, pg_url: str) -> None:  # type: ignore[no-untyped-def]
        """Another session's uncommitted insert of the same seq: after lock_timeout_s the append
        is answered store/retry (nothing written), never an internal error."""
        store = await node(lock_timeout_s=0.2)
        tid = await new_table(store)
        dsn, schema = split_url(pg_url)
        other = await asyncpg.connect(dsn)
        try:
            await other.execute("BEGIN")
            await other.execute(
                f'INSERT INTO "{schema}".events (table_id, seq, command_id, type, envelope)'
                " VALUES ($1, 2, 'other', 'chat_posted', '{}')",
                tid,
            )
            with pytest.raises(StoreError) as held:
                await store.append(tid, make_events(tid, 2), expected_seq=1)
            assert held.value.code == "store/retry"
            await other.execute("ROLLBACK")
        finally:
            await other.close()
        await store.append(tid, make_events(tid, 2), expected_seq=1)
        assert await store.last_seq(tid) == 2


class TestGroupCommit(PostgresSetup):
    """Appends waiting at the same moment go to PostgreSQL as one statement; a refused or
    colliding command fails alone; each table's appends keep their order."""

    @pytest.fixture
    async def store(self, pg_url: str) -> AsyncIterator[PostgresEventStore]:
        s = PostgresEventStore(pg_url)
        s.max_flushes = 1  # one batch in flight: the others wait for it, together
        await s.open()
        yield s
        await s.close()

    async def test_a_refused_command_in_the_middle_of_a_batch_fails_alone(
        self, store: PostgresEventStore
    ) -> None:
        tids = [await new_table(store) for _ in range(5)]
        await store.append(tids[3], make_events(tids[3], 2, command_id="seen"), expected_seq=1)
        before = store.batches
        results = await asyncio.gather(
            store.append(tids[0], make_events(tids[0], 2), expected_seq=1),  # alone, first
            store.append(tids[1], make_events(tids[1], 2, 2), expected_seq=1),
            store.append(tids[2], make_events(tids[2], 3), expected_seq=2),  # wrong seq
            store.append(tids[3], make_events(tids[3], 3, command_id="seen"), expected_seq=2),
            store.append(tids[4], make_events(tids[4], 2), expected_seq=1),
            return_exceptions=True,
        )
        assert store.batches - before == 2  # the first alone, the four others together
        assert results[0] is None and results[1] is None and results[4] is None
        assert isinstance(results[2], SeqConflict)
        assert isinstance(results[3], DuplicateCommand)
        assert (results[3].details["first_seq"], results[3].details["last_seq"]) == (2, 2)
        assert [await store.last_seq(t) for t in tids] == [2, 3, 1, 2, 2]

    async def test_writers_woken_by_a_batch_go_out_together(
        self, store: PostgresEventStore
    ) -> None:
        """Eight tables written at once, ten appends each, every writer waiting for its
        append before the next: the first goes alone, and from then on each round of the
        eight shares one statement (eleven in all, not one per append)."""
        tids = [await new_table(store) for _ in range(8)]

        async def write(t: str) -> None:
            for seq in range(2, 12):
                await store.append(t, make_events(t, seq), expected_seq=seq - 1)

        before = store.batches
        await asyncio.gather(*(write(t) for t in tids))
        assert store.batches - before == 11
        assert [await store.last_seq(t) for t in tids] == [11] * 8

    async def test_a_collision_with_another_writer_fails_only_its_command(
        self, store: PostgresEventStore, pg_url: str
    ) -> None:
        """Another session writes seq 2 of one table while the batch waits on its row: the
        statement fails as a whole, and each command is then tried alone."""
        tids = [await new_table(store) for _ in range(4)]
        dsn, schema = split_url(pg_url)
        other = await asyncpg.connect(dsn)
        try:
            await other.execute("BEGIN")
            await other.execute(
                f'INSERT INTO "{schema}".events (table_id, seq, command_id, type, envelope)'
                " VALUES ($1, 2, 'other', 'chat_posted', '{}')",
                tids[2],
            )
            batch = asyncio.gather(
                store.append(tids[0], make_events(tids[0], 2), expected_seq=1),
                store.append(tids[1], make_events(tids[1], 2), expected_seq=1),
                store.append(tids[2], make_events(tids[2], 2), expected_seq=1),
                store.append(tids[3], make_events(tids[3], 2), expected_seq=1),
                return_exceptions=True,
            )
            await asyncio.sleep(0.3)  # the batch waits on the uncommitted row
            await other.execute("COMMIT")
            results = await asyncio.wait_for(batch, 10)
            written = await other.fetch(
                f'SELECT table_id, command_id FROM "{schema}".events WHERE seq = 2'
            )
        finally:
            await other.close()
        assert results[0] is None and results[1] is None and results[3] is None
        assert isinstance(results[2], SeqConflict)
        assert dict(written)[tids[2]] == "other" and len(written) == 4

    async def test_each_tables_order_is_kept_across_concurrent_batches(self, pg_url: str) -> None:
        """Twenty appends to each of six tables, all started at once, each expecting the one
        before it: every one is written, in the order it was started."""
        store = PostgresEventStore(pg_url)
        store.max_flushes = 2  # two batches in flight at once
        await store.open()
        try:
            tids = [await new_table(store) for _ in range(6)]
            cids = {t: [f"{t}-{k}" for k in range(20)] for t in tids}
            before = store.batches
            await asyncio.gather(
                *(
                    store.append(
                        t, make_events(t, k + 2, command_id=cids[t][k]), expected_seq=k + 1
                    )
                    for k in range(20)
                    for t in tids
                )
            )
            assert store.batches - before < 6 * 20  # shared statements
            for t in tids:
                assert [(e.seq, e.command_id) for e in await store.read(t)][1:] == [
                    (k + 2, cids[t][k]) for k in range(20)
                ]
        finally:
            await store.close()
