"""The application service: pipelined commands on one table, durability before acks, failures."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence
from pathlib import Path

import msgspec
import pytest

from taku.app import Hub
from taku.core.commands import Chat
from taku.core.events import Recorded
from taku.errors import InvalidCommand, StoreError
from taku.plugins import load_registry
from taku.store import MemoryEventStore, SQLiteEventStore
from taku.store.base import EventStore


async def _table(store) -> tuple[Hub, object, str]:  # type: ignore[no-untyped-def]
    await store.open()
    hub = Hub(store, load_registry())
    created = await hub.create_table(ruleset="generic", name="t")
    return hub, await hub.table(created.table_id), created.member_id


async def test_concurrent_commands_on_one_table_share_commits(tmp_path: Path) -> None:
    """Many commands on one table at once: all acknowledged in seq order, gap-free, and
    written in fewer transactions than commands (they share the group commit)."""
    store = SQLiteEventStore(tmp_path / "t.db")
    hub, table, gm = await _table(store)
    published: list[int] = []
    sub = await table.subscribe(
        gm, lambda frame: published.append(int(frame.split(b'"seq":')[1].split(b",")[0])), 2
    )
    commits0 = store.commits
    acks = await asyncio.gather(
        *(table.execute(gm, Chat(text=f"line {i}"), command_id=f"c{i}") for i in range(60))
    )
    assert sorted(a[0] for a in acks) == list(range(3, 63))
    assert published == list(range(3, 63))  # broadcast in seq order
    assert store.commits - commits0 < 60
    assert [r.seq for r in await store.read(table.table_id)] == list(range(1, 63))
    table.unsubscribe(sub)
    await hub.close()
    await store.close()


class _Publications:
    """A hub's ``publishing``: what is delivered inside each outermost publication."""

    def __init__(self) -> None:
        self.depth = 0
        self.runs: list[list[str]] = []

    def __enter__(self) -> None:
        if self.depth == 0:
            self.runs.append([])
        self.depth += 1

    def __exit__(self, *exc: object) -> None:
        self.depth -= 1

    def note(self, what: str) -> None:
        self.runs[-1].append(what) if self.depth else self.runs.append([f"outside: {what}"])


@pytest.mark.parametrize("backend", ["memory", "sqlite"])
async def test_a_batchs_commands_are_published_as_one(tmp_path: Path, backend: str) -> None:
    """A table's commands stored in one batch reach their subscribers, and their acks
    their senders, inside one publication (one for each table of the batch): where
    the server writes each connection's frames of the batch in one write."""
    store = MemoryEventStore() if backend == "memory" else SQLiteEventStore(tmp_path / "t.db")
    await store.open()
    hub = Hub(store, load_registry())
    pubs = hub.publishing = _Publications()
    tables = []
    for i in range(4):
        created = await hub.create_table(ruleset="generic", name=f"t{i}")
        table = await hub.table(created.table_id)
        await table.subscribe(
            created.member_id, lambda f, i=i: pubs.note(f"t{i} seq {json.loads(f)['seq']}"), 2
        )
        tables.append((table, created.member_id))
    pubs.runs.clear()
    commits = getattr(store, "commits", 0)
    for n in range(2):
        for i, (table, gm) in enumerate(tables):
            table.submit(
                gm,
                Chat(text=f"line {n}"),
                command_id=f"c{i}-{n}",
                reply=lambda o, i=i, n=n: pubs.note(f"ack t{i} {o[0]}"),
            )
    for _ in range(500):
        if sum(len(r) for r in pubs.runs) == 16:
            break
        await asyncio.sleep(0.01)
    batches = getattr(store, "commits", 1) - commits
    # one publication per table of each batch, not one per command
    assert len(pubs.runs) <= 4 * batches and len(pubs.runs) < 8
    assert all(len({re.findall(r"\bt\d", w)[0] for w in run}) == 1 for run in pubs.runs)
    if backend == "memory":  # one batch: a publication for each table
        assert len(pubs.runs) == 4
    seen = [what for run in pubs.runs for what in run]
    assert all(not w.startswith("outside") for w in seen)
    for i in range(4):  # each table's events, then its acks, in seq order
        mine = [w for w in seen if f"t{i} " in w]
        assert [w.split()[-1] for w in mine] == ["3", "3", "4", "4"]
    await hub.close()
    await store.close()


async def test_a_duplicate_waits_for_the_first_to_be_durable() -> None:
    """The same command id sent while the first is still being stored gets the same ack."""
    store = MemoryEventStore()
    hub, table, gm = await _table(store)
    a, b = await asyncio.gather(
        table.execute(gm, Chat(text="x"), command_id="same"),
        table.execute(gm, Chat(text="x"), command_id="same"),
    )
    assert a[:2] == b[:2] and {a[2], b[2]} == {False, True}
    assert await store.last_seq(table.table_id) == 3


class FailingStore(MemoryEventStore):
    """Fails the append of one chosen command id (an I/O error), after a delay."""

    fail_id = ""
    append_nowait = EventStore.append_nowait  # through append(), as any store that does not batch

    async def append(self, table_id: str, events: Sequence[Recorded], *, expected_seq: int) -> None:
        await asyncio.sleep(0.01)
        if events and events[0].command_id == self.fail_id:
            raise StoreError("disk full", code="store/commit_failed")
        await super().append(table_id, events, expected_seq=expected_seq)


async def test_a_failed_append_fails_the_commands_built_on_it_and_nothing_else() -> None:
    """When an append fails, commands decided on top of it fail with store/retry, nothing
    of them is published, and the next command is decided on the durable state."""
    store = FailingStore()
    hub, table, gm = await _table(store)
    store.fail_id = "bad"
    results = await asyncio.gather(
        table.execute(gm, Chat(text="ok"), command_id="ok1"),
        table.execute(gm, Chat(text="bad"), command_id="bad"),
        table.execute(gm, Chat(text="after"), command_id="after"),
        return_exceptions=True,
    )
    assert results[0] == (3, 3, False)
    assert isinstance(results[1], StoreError) and results[1].code == "store/commit_failed"
    assert isinstance(results[2], StoreError) and results[2].code == "store/retry"
    assert table.state.seq == 3 and await store.last_seq(table.table_id) == 3
    # resent, the command that failed as a consequence now goes through
    assert await table.execute(gm, Chat(text="after"), command_id="after") == (4, 4, False)
    with pytest.raises(StoreError) as e:
        await table.execute(gm, Chat(text="bad"), command_id="bad")
    assert e.value.code == "store/commit_failed"
    assert [r.seq for r in await store.read(table.table_id)] == [1, 2, 3, 4]


class RefusingStore(MemoryEventStore):
    """Refuses one append at once (as a closed store does), then works again."""

    refuse = False

    def append_nowait(self, table_id, events, *, expected_seq, done):  # type: ignore[no-untyped-def]
        if self.refuse:
            self.refuse = False
            raise StoreError("the store is not open", code="store/closed")
        super().append_nowait(table_id, events, expected_seq=expected_seq, done=done)


async def test_an_append_refused_at_once_leaves_nothing_half_done() -> None:
    """A store that refuses an append when it is handed over: that command fails, the
    table's next command continues the stream without a gap."""
    store = RefusingStore()
    hub, table, gm = await _table(store)
    store.refuse = True
    with pytest.raises(StoreError) as e:
        await table.execute(gm, Chat(text="lost"), command_id="r1")
    assert e.value.code == "store/closed"
    assert await table.execute(gm, Chat(text="kept"), command_id="r2") == (3, 3, False)
    assert await table.execute(gm, Chat(text="lost"), command_id="r1") == (4, 4, False)
    assert [r.seq for r in await store.read(table.table_id)] == [1, 2, 3, 4]


async def test_a_render_bug_does_not_stop_the_event(monkeypatch) -> None:
    """When a ruleset's text rendering raises, subscribers still get the event (its
    text falls back to the event type) and the command is acknowledged."""
    import taku.app as app_module

    real = app_module.render

    def buggy(event, state, ruleset, actor):  # type: ignore[no-untyped-def]
        if getattr(event, "text", "") == "boom":
            raise KeyError("a bug")
        return real(event, state, ruleset, actor)

    monkeypatch.setattr(app_module, "render", buggy)
    hub, table, gm = await _table(MemoryEventStore())
    frames: list[bytes] = []
    await table.subscribe(gm, frames.append, 2)
    assert await table.execute(gm, Chat(text="boom"), command_id="b1") == (3, 3, False)
    assert await table.execute(gm, Chat(text="fine"), command_id="b2") == (4, 4, False)
    assert [json.loads(f)["text"] for f in frames] == ["chat_posted", "GM: fine"]


class HeldStore(MemoryEventStore):
    """Writes each append at once but answers only when the test releases it."""

    def __init__(self) -> None:
        super().__init__()
        self.held: list[tuple[object, BaseException | None]] = []
        self.holding = False

    def append_nowait(self, table_id, events, *, expected_seq, done):  # type: ignore[no-untyped-def]
        if not self.holding:
            return super().append_nowait(table_id, events, expected_seq=expected_seq, done=done)
        try:
            self._append_now(table_id, events, expected_seq)
        except Exception as e:  # noqa: BLE001
            self.held.append((done, e))
        else:
            self.held.append((done, None))

    def release(self) -> None:
        held, self.held = self.held, []
        for done, err in held:
            done(err)  # type: ignore[operator]


async def test_a_tables_answers_come_in_the_order_of_its_commands() -> None:
    """Answers known at once (a repeat of an acknowledged id, a rejection, a repeat of an
    id still in flight) wait behind the table's commands in flight."""
    store = HeldStore()
    hub, table, gm = await _table(store)
    assert (await table.execute(gm, Chat(text="y"), command_id="Y"))[:2] == (3, 3)
    store.holding = True
    answers: list[tuple[str, object]] = []

    def reply(name: str):  # type: ignore[no-untyped-def]
        return lambda outcome: answers.append((name, outcome))

    table.submit(gm, Chat(text="x"), command_id="X", reply=reply("X"))
    table.submit(gm, Chat(text="b"), command_id="B", reply=reply("B"))
    table.submit(gm, Chat(text="x"), command_id="X", reply=reply("X again"))
    table.submit(gm, Chat(text="y"), command_id="Y", reply=reply("Y again"))
    table.submit(gm, Chat(text="s"), command_id="S", expected_seq=3, reply=reply("stale"))
    assert answers == []  # nothing is answered before the commands in flight
    store.release()
    assert [name for name, _ in answers] == ["X", "B", "X again", "Y again", "stale"]
    assert answers[0][1] == (4, 4, False) and answers[1][1] == (5, 5, False)
    assert answers[2][1] == (4, 4, True) and answers[3][1] == (3, 3, True)
    assert getattr(answers[4][1], "code", None) == "command/stale_seq"


async def test_get_log_shows_only_what_was_published() -> None:
    """An event durable in the store but not yet sent to the subscribers is not in a log reply."""
    store = HeldStore()
    hub, table, gm = await _table(store)
    store.holding = True
    table.submit(gm, Chat(text="x"), command_id="X", reply=lambda outcome: None)
    assert await store.last_seq(table.table_id) == 3  # written
    assert [json.loads(f)["seq"] for f in await table.log_frames(gm, 0, 100)] == [1, 2]
    store.release()
    assert [json.loads(f)["seq"] for f in await table.log_frames(gm, 0, 100)] == [1, 2, 3]


async def test_a_command_id_sent_again_with_another_command_is_refused(tmp_path: Path) -> None:
    """A reused command id with a different command is refused with command/id_reused and
    writes nothing, whether the first is still in flight, already stored, or stored
    before a restart; the same command again keeps its duplicate ack."""
    store = HeldStore()
    hub, table, gm = await _table(store)
    store.holding = True
    answers: list[object] = []
    table.submit(gm, Chat(text="first"), command_id="K", reply=answers.append)
    table.submit(
        gm, Chat(text="other"), command_id="K", reply=answers.append
    )  # while the first is in flight
    store.release()
    assert answers[0] == (3, 3, False)
    assert getattr(answers[1], "code", None) == "command/id_reused"
    store.holding = False
    with pytest.raises(InvalidCommand) as e:  # once stored
        await table.execute(gm, Chat(text="other"), command_id="K")
    assert e.value.code == "command/id_reused"
    with pytest.raises(InvalidCommand) as e:  # the same type with another argument
        await table.execute(gm, Chat(text="first", character_id="c9"), command_id="K")
    assert e.value.code == "command/id_reused"
    assert await table.execute(gm, Chat(text="first"), command_id="K") == (3, 3, True)
    assert await store.last_seq(table.table_id) == 3
    await hub.close()

    # the fingerprint is stored with the events: a restarted server still tells them apart
    db = tmp_path / "t.db"
    sq = SQLiteEventStore(db)
    hub, table, gm = await _table(sq)
    tid = table.table_id
    assert await table.execute(gm, Chat(text="kept"), command_id="L") == (3, 3, False)
    await hub.close()
    await sq.close()
    sq = SQLiteEventStore(db)
    await sq.open()
    hub = Hub(sq, load_registry())
    table = await hub.table(tid)
    with pytest.raises(InvalidCommand) as e:
        await table.execute(gm, Chat(text="changed"), command_id="L")
    assert e.value.code == "command/id_reused"
    assert await table.execute(gm, Chat(text="kept"), command_id="L") == (3, 3, True)
    await hub.close()
    await sq.close()


async def test_the_same_command_is_compared_on_its_canonical_form() -> None:
    """Key order and an omitted default do not make a command different."""
    store = MemoryEventStore()
    hub, table, gm = await _table(store)
    first = table.decode_command(b'{"type":"create_character","name":"A","sheet":{"hp":3,"mp":1}}')
    again = table.decode_command(
        b'{"sheet":{"mp":1,"hp":3},"owner":null,"name":"A","type":"create_character"}'
    )
    assert await table.execute(gm, first, command_id="C") == (3, 3, False)
    assert await table.execute(gm, again, command_id="C") == (3, 3, True)


async def test_events_stored_without_a_fingerprint_repeat_their_ack() -> None:
    """A log written before taku kept command fingerprints still loads, and a repeat of
    one of its command ids gets the first ack, as it did then."""
    store = MemoryEventStore()
    hub, table, gm = await _table(store)
    tid = table.table_id
    await table.execute(gm, Chat(text="old"), command_id="O")
    await hub.close()
    stream = store._events[tid]
    stream[-1] = msgspec.structs.replace(
        stream[-1], command_fingerprint=None
    )  # as an old version wrote it
    hub = Hub(store, load_registry())
    table = await hub.table(tid)
    assert await table.execute(gm, Chat(text="whatever"), command_id="O") == (3, 3, True)


async def test_an_undo_sent_again_gets_its_duplicate_ack() -> None:
    """An ``undo`` (or ``redo``) sent again with its command id after a lost ack gets the
    first ack again, marked duplicate, and the same id with another command is
    command/id_reused: neither is an internal error, and nothing new is written."""
    from taku.core.commands import CreateCharacter, Redo, Undo

    store = MemoryEventStore()
    hub, table, gm = await _table(store)
    await table.execute(gm, CreateCharacter(name="ヤモト"), command_id="A")
    first = await table.execute(gm, Undo(), command_id="U")
    assert await table.execute(gm, Undo(), command_id="U") == (*first[:2], True)
    with pytest.raises(InvalidCommand) as e:
        await table.execute(gm, Redo(), command_id="U")
    assert e.value.code == "command/id_reused"
    redone = await table.execute(gm, Redo(), command_id="R")
    assert await table.execute(gm, Redo(), command_id="R") == (*redone[:2], True)
    assert await store.last_seq(table.table_id) == redone[1]
    await hub.close()
