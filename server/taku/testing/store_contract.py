"""The behaviour every :class:`~taku.store.base.EventStore` must show.

Subclass :class:`EventStoreContract` in a ``Test…`` class and supply an async
``store`` fixture that yields an opened, empty store, and (for backends that
persist) ``reopen``, an async callable giving a fresh store on the same data::

    class TestMyStore(EventStoreContract):
        @pytest.fixture
        async def store(self):
            s = MyStore(...); await s.open(); yield s; await s.close()
"""

from __future__ import annotations

import asyncio
import datetime as dt
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import pytest

from taku.core.events import Recorded
from taku.errors import DuplicateCommand, SeqConflict, StoreError, TableNotFound
from taku.store.base import EventStore, Snapshot, TableRecord, TokenRecord

__all__ = ["EventStoreContract", "make_events"]

T0 = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


def make_events(
    table_id: str, first_seq: int, n: int = 1, *, command_id: str | None = None, size: int = 10
) -> list[Recorded]:
    """``n`` chat events continuing ``table_id`` at ``first_seq``, one command id."""
    cid = command_id or uuid.uuid4().hex
    return [
        Recorded(
            table_id=table_id,
            seq=first_seq + i,
            type="chat_posted",
            data=msgspec.Raw(
                msgspec.json.encode(
                    {"type": "chat_posted", "text": "x" * size + str(first_seq + i)}
                )
            ),
            actor="m2",
            time=T0 + dt.timedelta(seconds=first_seq + i),
            command_id=cid,
        )
        for i in range(n)
    ]


def table_record(table_id: str | None = None) -> TableRecord:
    tid = table_id or "t" + uuid.uuid4().hex[:12]
    return TableRecord(
        table_id=tid, ruleset="generic", name="卓", created=T0.isoformat(), seed=b"s" * 32
    )


async def new_table(store: EventStore, n: int = 1) -> str:
    rec = table_record()
    await store.create_table(rec, make_events(rec.table_id, 1, n), "create")
    return rec.table_id


class EventStoreContract:
    """The contract of DESIGN.md "Storage" and :mod:`taku.store.base`, as tests."""

    async def test_the_hash_chain_survives_the_store(self, store: EventStore, reopen: Any) -> None:
        """Every field the hash chain covers (:mod:`taku.core.chain`) comes back as written,
        hidden parts and command records included, also after a reopen: the stream read
        back still links from its genesis to the same head."""
        from taku.core import chain

        rec = table_record()
        tid = rec.table_id
        first = make_events(tid, 1, 2, command_id="create")
        first = chain.seal(first, chain.genesis(tid, "sha256:00", 0))
        await store.create_table(rec, first, "create")
        hidden = msgspec.structs.replace(
            make_events(tid, 3, 1, command_id="c3")[0],
            audience=("m2",),
            redacted=msgspec.Raw(b'{"type":"redacted","of":"chat_posted"}'),
            salt="ab" * 16,
            commitment="sha256:" + "cd" * 32,
            command=msgspec.Raw(
                '{"decided":{"type":"chat","text":"ひみつ"},"version":"1","at":2}'.encode()
            ),
            command_salt="ef" * 16,
            command_commitment="sha256:" + "01" * 32,
        )
        sealed = chain.seal([hidden], first[-1].hash or "")
        await store.append(tid, sealed, expected_seq=2)
        written = [*first, *sealed]
        again = await reopen()
        try:
            for s in (store, again):
                back = await s.read(tid)
                assert back == written
                prev = chain.genesis(tid, "sha256:00", 0)
                for r in back:
                    prev = chain.link(prev, chain.body_of(r))
                    assert r.hash == prev, f"seq {r.seq} does not link"
        finally:
            if again is not store:
                await again.close()

    async def test_create_and_read(self, store: EventStore) -> None:
        """A new table holds its first events from seq 1, in order."""
        tid = await new_table(store, 3)
        events = await store.read(tid)
        assert [e.seq for e in events] == [1, 2, 3]
        assert await store.last_seq(tid) == 3
        assert (await store.get_table(tid)).seed == b"s" * 32  # type: ignore[union-attr]

    async def test_table_ids_are_unique(self, store: EventStore) -> None:
        """Creating a table whose id exists fails and leaves the first intact."""
        rec = table_record()
        await store.create_table(rec, make_events(rec.table_id, 1), "a")
        with pytest.raises(StoreError) as e:
            await store.create_table(rec, make_events(rec.table_id, 1), "b")
        assert e.value.code == "store/table_exists"
        assert len(await store.read(rec.table_id)) == 1

    async def test_append_continues_the_stream(self, store: EventStore) -> None:
        """Appends at the right expected seq extend the stream without gaps."""
        tid = await new_table(store)
        await store.append(tid, make_events(tid, 2, 2), expected_seq=1)
        await store.append(tid, make_events(tid, 4, 1), expected_seq=3)
        assert [e.seq for e in await store.read(tid)] == [1, 2, 3, 4]

    async def test_stale_expected_seq_conflicts_and_writes_nothing(self, store: EventStore) -> None:
        """An append whose expected seq is taken raises SeqConflict with nothing written."""
        tid = await new_table(store, 2)
        with pytest.raises(SeqConflict):
            await store.append(tid, make_events(tid, 2, 3), expected_seq=1)
        assert await store.last_seq(tid) == 2

    async def test_concurrent_appends_exactly_one_wins(self, store: EventStore) -> None:
        """Two appends at one expected seq: exactly one is written."""
        tid = await new_table(store)
        results = await asyncio.gather(
            store.append(tid, make_events(tid, 2, 2), expected_seq=1),
            store.append(tid, make_events(tid, 2, 1), expected_seq=1),
            return_exceptions=True,
        )
        assert sum(r is None for r in results) == 1
        assert sum(isinstance(r, SeqConflict) for r in results) == 1
        events = await store.read(tid)
        assert [e.seq for e in events] == list(range(1, len(events) + 1))

    async def test_duplicate_command_is_refused_with_its_seqs(self, store: EventStore) -> None:
        """A command id appended twice raises DuplicateCommand naming the first seqs."""
        tid = await new_table(store)
        await store.append(tid, make_events(tid, 2, 2, command_id="c1"), expected_seq=1)
        with pytest.raises(DuplicateCommand) as e:
            await store.append(tid, make_events(tid, 4, 1, command_id="c1"), expected_seq=3)
        assert (e.value.first_seq, e.value.last_seq) == (2, 3)
        assert await store.find_command(tid, "c1") == (2, 3)
        assert await store.find_command(tid, "nope") is None
        assert await store.last_seq(tid) == 3

    async def test_append_nowait_answers_each_append_in_order(self, store: EventStore) -> None:
        """append_nowait: appends started back to back are written in order, and each
        ``done`` hears its own outcome (None once durable, else the append's error)."""
        tid = await new_table(store)
        answers: list[tuple[int, BaseException | None]] = []
        finished = asyncio.Event()

        def done_for(i: int) -> Callable[[BaseException | None], None]:
            def done(err: BaseException | None) -> None:
                answers.append((i, err))
                if len(answers) == 4:
                    finished.set()

            return done

        store.append_nowait(
            tid, make_events(tid, 2, 2, command_id="a"), expected_seq=1, done=done_for(0)
        )
        store.append_nowait(
            tid, make_events(tid, 4, 1, command_id="b"), expected_seq=3, done=done_for(1)
        )
        store.append_nowait(
            tid, make_events(tid, 4, 1, command_id="c"), expected_seq=3, done=done_for(2)
        )
        store.append_nowait(
            tid, make_events(tid, 5, 1, command_id="a"), expected_seq=4, done=done_for(3)
        )
        await asyncio.wait_for(finished.wait(), 10)
        by_index = dict(answers)
        assert by_index[0] is None and by_index[1] is None
        assert isinstance(by_index[2], SeqConflict)
        assert isinstance(by_index[3], DuplicateCommand)
        assert [e.seq for e in await store.read(tid)] == [1, 2, 3, 4]
        assert await store.find_command(tid, "b") == (4, 4)

    async def test_command_ids_are_per_table(self, store: EventStore) -> None:
        """The same command id may be used on two tables."""
        a, b = await new_table(store), await new_table(store)
        await store.append(a, make_events(a, 2, command_id="same"), expected_seq=1)
        await store.append(b, make_events(b, 2, command_id="same"), expected_seq=1)
        assert await store.last_seq(a) == await store.last_seq(b) == 2

    async def test_unknown_table(self, store: EventStore) -> None:
        """Appending to an unknown table fails; reading it gives nothing."""
        with pytest.raises(TableNotFound):
            await store.append("nope", make_events("nope", 1), expected_seq=0)
        assert await store.read("nope") == []
        assert await store.last_seq("nope") == 0
        assert await store.get_table("nope") is None

    async def test_ranges(self, store: EventStore) -> None:
        """read(after_seq, to_seq) returns exactly that half-open range, in order."""
        tid = await new_table(store, 10)
        assert [e.seq for e in await store.read(tid, after_seq=3, to_seq=6)] == [4, 5, 6]
        assert [e.seq for e in await store.read(tid, after_seq=8)] == [9, 10]
        assert await store.read(tid, after_seq=10) == []
        assert [e.seq for e in await store.read(tid, to_seq=2)] == [1, 2]

    async def test_tables_are_isolated(self, store: EventStore) -> None:
        """Events of one table never show in another."""
        a, b = await new_table(store, 2), await new_table(store, 5)
        assert all(e.table_id == a for e in await store.read(a))
        assert len(await store.read(a)) == 2 and len(await store.read(b)) == 5
        listed = {t.table_id for t in await store.list_tables()}
        assert {a, b} <= listed

    async def test_large_payload_round_trips(self, store: EventStore) -> None:
        """A 200 KB event comes back byte for byte, envelope included (its command's
        fingerprint too: the application service refuses a reused command id by it)."""
        tid = await new_table(store)
        big = make_events(tid, 2, size=200_000)
        big[0] = msgspec.structs.replace(
            big[0],
            audience=("m2", "@gm"),
            redacted=msgspec.Raw(b'{"type":"redacted","of":"x"}'),
            draws=7,
            command_fingerprint="0f" * 16,
        )
        await store.append(tid, big, expected_seq=1)
        (got,) = await store.read(tid, after_seq=1)
        assert got == big[0]
        assert bytes(got.data) == bytes(big[0].data)

    async def test_tokens(self, store: EventStore) -> None:
        """Tokens are found by table and hash only."""
        tid = await new_table(store)
        tok = TokenRecord(token_hash="h1", table_id=tid, role="player")
        await store.add_token(tok)
        assert await store.find_token(tid, "h1") == tok
        assert await store.find_token(tid, "h2") is None
        assert await store.find_token("other", "h1") is None

    async def test_subscribe_catches_up_then_goes_live(self, store: EventStore) -> None:
        """subscribe yields stored events after the seq, then live ones: no gap, no repeat."""
        tid = await new_table(store, 3)
        got: list[int] = []

        async def consume() -> None:
            async for rec in store.subscribe(tid, after_seq=1):
                got.append(rec.seq)
                if rec.seq == 8:
                    return

        task = asyncio.create_task(consume())
        await asyncio.sleep(0.05)
        for seq in range(4, 9):
            await store.append(tid, make_events(tid, seq), expected_seq=seq - 1)
        await asyncio.wait_for(task, 10)
        assert got == list(range(2, 9))

    async def test_reopen_keeps_everything(
        self, store: EventStore, reopen: Callable[[], Awaitable[EventStore]]
    ) -> None:
        """Closed and opened again, the store has every appended event and token."""
        tid = await new_table(store, 2)
        await store.append(tid, make_events(tid, 3, 2), expected_seq=2)
        await store.add_token(TokenRecord(token_hash="h", table_id=tid, role="gm", member_id="m2"))
        await store.close()
        again = await reopen()
        try:
            assert [e.seq for e in await again.read(tid)] == [1, 2, 3, 4]
            token = await again.find_token(tid, "h")
            assert token is not None and token.member_id == "m2"
            await again.append(tid, make_events(tid, 5), expected_seq=4)
        finally:
            await again.close()

    # ------------------------------------------------------------ snapshots (a cache)

    async def test_snapshot_nearest_at_or_below_a_seq(self, store: EventStore) -> None:
        """``get_snapshot`` gives the table's snapshot with the highest seq at or below
        ``at_most`` (the latest without it), or None when there is none that low."""
        tid = await new_table(store, 30)
        for seq in (10, 20, 30):
            await store.put_snapshot(
                Snapshot(table_id=tid, seq=seq, version="v1", data=b"s%d" % seq)
            )
        assert await store.get_snapshot(tid, at_most=9) is None
        assert (await store.get_snapshot(tid, at_most=10)).seq == 10  # type: ignore[union-attr]
        assert (await store.get_snapshot(tid, at_most=29)).data == b"s20"  # type: ignore[union-attr]
        latest = await store.get_snapshot(tid)
        assert latest == Snapshot(table_id=tid, seq=30, version="v1", data=b"s30")
        assert await store.get_snapshot("t-none") is None

    async def test_snapshot_at_the_same_seq_is_replaced(self, store: EventStore) -> None:
        """A second snapshot at one seq replaces the first (a new version, other bytes);
        any bytes round-trip."""
        tid = await new_table(store, 5)
        await store.put_snapshot(Snapshot(table_id=tid, seq=5, version="v1", data=b"old"))
        blob = bytes(range(256)) * 40
        await store.put_snapshot(Snapshot(table_id=tid, seq=5, version="v2", data=blob))
        got = await store.get_snapshot(tid, at_most=5)
        assert got is not None and got.version == "v2" and got.data == blob

    async def test_snapshots_are_deleted_per_table_or_all_and_nothing_else(
        self, store: EventStore
    ) -> None:
        """Deleting a table's snapshots leaves other tables' snapshots and every event;
        deleting all leaves only the events."""
        a, b = await new_table(store, 4), await new_table(store, 4)
        for tid in (a, b):
            for seq in (2, 4):
                await store.put_snapshot(Snapshot(table_id=tid, seq=seq, version="v", data=b"x"))
        assert await store.delete_snapshots(a) == 2
        assert await store.get_snapshot(a) is None
        assert (await store.get_snapshot(b)).seq == 4  # type: ignore[union-attr, unused-ignore]
        assert await store.delete_snapshots() == 2
        assert await store.get_snapshot(b) is None
        assert [e.seq for e in await store.read(a)] == [1, 2, 3, 4]
        assert await store.last_seq(b) == 4

    async def test_reopen_keeps_snapshots(self, store: EventStore, reopen: Any) -> None:
        """Snapshots outlive a restart of the store (so a restarted server loads fast)."""
        tid = await new_table(store, 3)
        await store.put_snapshot(Snapshot(table_id=tid, seq=3, version="v", data=b"abc"))
        await store.close()
        again = await reopen()
        try:
            assert (await again.get_snapshot(tid)).data == b"abc"  # type: ignore[union-attr, unused-ignore]
        finally:
            await again.close()

    async def test_timer_tables_are_those_with_a_timer_still_armed(self, store: EventStore) -> None:
        """``timer_tables`` names a table while its log holds more ``timer_set`` than
        ``timer_expired`` and ``timer_cancelled``: set; set then expired (not named); set,
        cancelled, set again; and a chat line that only quotes a timer's type (not named)."""

        def timer(tid: str, seq: int, kind: str) -> Recorded:
            data = {"type": kind, "timer_id": f"timer{seq}", "deadline": T0.isoformat()}
            if kind == "timer_set":
                data["duration_s"] = 60  # type: ignore[assignment]
            return Recorded(
                table_id=tid,
                seq=seq,
                type=kind,
                data=msgspec.Raw(msgspec.json.encode(data)),
                actor=None,
                time=T0,
                command_id=uuid.uuid4().hex,
            )

        assert await store.timer_tables() == []
        armed, done, again, quoted = [await new_table(store) for _ in range(4)]
        plans = {
            armed: ["timer_set"],
            done: ["timer_set", "timer_expired"],
            again: ["timer_set", "timer_cancelled", "timer_set"],
        }
        for tid, kinds in plans.items():
            for i, kind in enumerate(kinds):
                await store.append(tid, [timer(tid, i + 2, kind)], expected_seq=i + 1)
        line = make_events(quoted, 2)[0]
        text = msgspec.json.encode({"type": "chat_posted", "text": '"type":"timer_set"'})
        await store.append(
            quoted, [msgspec.structs.replace(line, data=msgspec.Raw(text))], expected_seq=1
        )
        assert sorted(await store.timer_tables()) == sorted([armed, again])
