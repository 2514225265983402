"""Tables that last a campaign: snapshots, event versions and upcasting, idle tables
unloaded, bounded acks (issue 18)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, ClassVar

import msgspec
import pytest

from taku import app as app_module
from taku.app import Hub
from taku.core.commands import (
    Chat,
    CreateCharacter,
    Override,
    RenameMember,
    RollDice,
    UpdateCharacter,
)
from taku.core.dice import ScriptedDice
from taku.core.events import Event
from taku.core.table import TableState, fold
from taku.errors import CommandIdReused, InvalidCommand, UnreadableEvent
from taku.plugins import load_registry
from taku.snapshots import snapshot_version
from taku.store import MemoryEventStore, SQLiteEventStore
from taku.store.base import EventStore, Snapshot

STORES = ["memory", "sqlite", "postgres"]


@pytest.fixture(params=STORES)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[EventStore]:
    if request.param == "memory":
        s: EventStore = MemoryEventStore()
    elif request.param == "sqlite":
        s = SQLiteEventStore(tmp_path / "t.db")
    else:
        from tests.store.test_postgres import scratch_schema

        from taku.store.postgres import PostgresEventStore, drop_schema

        url = await scratch_schema()
        s = PostgresEventStore(url)
        await s.open()
        try:
            yield s
        finally:
            await s.close()
            await drop_schema(url)
        return
    await s.open()
    yield s
    await s.close()


def _dice(table_id: str, seed: bytes, cursor: int) -> ScriptedDice:
    return ScriptedDice([(cursor + i) % 6 + 1 for i in range(50)])


async def _played(store: EventStore, every: int = 7) -> tuple[Hub, str]:
    """A generic table with chat, dice, characters, overrides and renames (about 60 events)."""
    hub = Hub(store, load_registry(), dice=_dice, snapshot_every=every, idle_unload_s=None)
    created = await hub.create_table(ruleset="generic", name="長い卓")
    t = await hub.table(created.table_id)
    gm = created.member_id
    await t.execute(gm, CreateCharacter(name="ヤモト", sheet={"karate": 3}), command_id="mk")
    cid = next(iter(t.state.characters))
    for i in range(20):
        await t.execute(gm, Chat(text=f"行 {i}"), command_id=f"chat{i}")
        await t.execute(gm, RollDice(expression="2D6"), command_id=f"roll{i}")
        if i % 3 == 0:
            await t.execute(
                gm,
                UpdateCharacter(character_id=cid, sheet={"karate": i}),
                command_id=f"up{i}",
            )
        if i % 5 == 0:
            await t.execute(
                gm,
                Override(path=["characters", cid, "sheet", "hp"], value=i, reason="GM"),
                command_id=f"ov{i}",
            )
            await t.execute(gm, RenameMember(name=f"GM{i}"), command_id=f"rn{i}")
    return hub, created.table_id


async def _truth(store: EventStore, hub: Hub, tid: str, seq: int) -> TableState:
    t = await hub.table(tid)
    return fold(TableState(table_id=tid), await store.read(tid, to_seq=seq), t.ruleset, t.reader)


async def test_states_from_snapshots_equal_the_events_and_survive_deleting_them(
    store: EventStore,
) -> None:
    """Every past state (``get_state`` at any seq), and the table loaded again, is the
    fold of the events, with snapshots and after every snapshot is deleted."""
    hub, tid = await _played(store)
    t = await hub.table(tid)
    last = t.state.seq
    await hub.close()  # waits for the snapshot writes
    snap = await store.get_snapshot(tid)
    assert snap is not None and snap.seq % 7 == 0 and snap.version == snapshot_version(t.ruleset)
    truths = [await _truth(store, hub, tid, s) for s in range(last + 1)]
    for round_ in ("with snapshots", "without"):
        again = Hub(store, load_registry(), snapshot_every=7, idle_unload_s=None)
        table = await again.table(tid)
        assert table.state == truths[last], round_
        for s in [*range(last, -1, -1), *range(0, last + 1, 3)]:  # back, then forward in steps
            assert await table.past_state(s) == truths[s], (round_, s)
        await again.close()
        assert await store.delete_snapshots(tid) > 0 or round_ == "without"


async def test_load_and_get_state_start_from_the_nearest_snapshot() -> None:
    """A snapshot (of today's version) is where a load and a past state start: the
    events below it are not folded again (a planted snapshot shows it)."""
    store = MemoryEventStore()
    hub, tid = await _played(store, every=0)  # no snapshots of its own
    t = await hub.table(tid)
    last, rs = t.state.seq, t.ruleset
    await hub.close()
    at10 = await _truth(store, hub, tid, 10)
    planted = msgspec.structs.replace(at10, name="植えた")
    from taku.snapshots import make_snapshot

    await store.put_snapshot(make_snapshot(planted, rs))  # type: ignore[arg-type]
    again = Hub(store, load_registry(), snapshot_every=7, idle_unload_s=None)
    table = await again.table(tid)
    assert table.state.name == "植えた" and table.state.seq == last
    assert (await table.past_state(12)).name == "植えた"
    assert (await table.past_state(9)).name == "長い卓"  # below the snapshot: from the start
    await again.close()


async def test_snapshots_of_another_ruleset_version_are_dropped() -> None:
    """A snapshot written for another version of the ruleset is never read: the table
    folds from its events, and the old snapshots are deleted."""
    store = MemoryEventStore()
    hub, tid = await _played(store, every=0)
    t = await hub.table(tid)
    truth, last = t.state, t.state.seq
    await hub.close()
    await store.put_snapshot(
        Snapshot(table_id=tid, seq=last, version="generic@0.9/s1", data=b'{"table_id":"x"}')
    )
    again = Hub(store, load_registry(), snapshot_every=7, idle_unload_s=None)
    table = await again.table(tid)
    assert table.state == truth
    await again.close()
    snap = await store.get_snapshot(tid)
    assert snap is None or snap.version == snapshot_version(t.ruleset)


async def test_a_long_fold_leaves_the_event_loop_to_others() -> None:
    """Loading a long table without snapshots, and a past state far from any, fold in
    slices: another task runs many times meanwhile."""
    store = MemoryEventStore()
    hub = Hub(store, load_registry(), snapshot_every=0, idle_unload_s=None)
    created = await hub.create_table(ruleset="generic")
    t = await hub.table(created.table_id)
    await asyncio.gather(
        *(t.execute("m2", Chat(text=f"{i}"), command_id=f"c{i}") for i in range(3000))
    )
    await hub.close()
    ticks = 0
    stop = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            await asyncio.sleep(0)

    task = asyncio.create_task(ticker())
    again = Hub(store, load_registry(), snapshot_every=0, idle_unload_s=None)
    table = await again.table(created.table_id)
    after_load = ticks
    await table.past_state(2900)
    stop.set()
    await task
    assert after_load >= 3000 // app_module.FOLD_SLICE
    assert ticks - after_load >= 2900 // app_module.FOLD_SLICE
    await again.close()


# --------------------------------------------------------------------------- upcasting


class Moved(Event, frozen=True, kw_only=True, tag="up.moved"):
    """Version 2: a position (version 1 had ``x`` only)."""

    version: ClassVar[int] = 2
    position: dict[str, int]


def _upcast_ruleset(with_upcaster: bool = True) -> Any:
    from taku.core.ruleset import Ruleset

    def evolve(game: Any, event: Any, table: Any, options: Any) -> Any:
        if isinstance(event, Moved):
            return {**(game or {}), "at": dict(event.position)}
        return game

    def v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
        return {"type": data["type"], "position": {"x": data.pop("x"), "y": 0}}

    return Ruleset(
        id="up",
        name="アップキャスト",
        version="2",
        events=(Moved,),
        initial_state=lambda options: {},
        evolve=evolve,
        upcasters={("up.moved", 1): v1_to_v2} if with_upcaster else {},
    )


def _records(tid: str, moves: list[tuple[int, dict[str, Any]]]) -> list[Any]:
    import datetime as dt

    from taku.core.events import Recorded, TableCreated

    t0 = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    created = TableCreated(name="卓", ruleset="up", ruleset_version="1")
    out = [
        Recorded(
            table_id=tid,
            seq=1,
            type="table_created",
            data=msgspec.Raw(msgspec.json.encode(created)),
            actor=None,
            time=t0,
            command_id="create",
        )
    ]
    for i, (version, data) in enumerate(moves):
        out.append(
            Recorded(
                table_id=tid,
                seq=2 + i,
                type="up.moved",
                data=msgspec.Raw(msgspec.json.encode({"type": "up.moved", **data})),
                actor=None,
                time=t0,
                command_id=f"m{i}",
                event_version=version,
            )
        )
    return out


def test_old_versions_are_upcast_before_decoding() -> None:
    """Version-1 events fold to the state their version-2 form gives."""
    from taku.core.upcast import EventReader

    rs = _upcast_ruleset()
    reader = EventReader.of(rs)
    old = _records("t1", [(1, {"x": 3}), (2, {"position": {"x": 5, "y": 1}}), (1, {"x": 7})])
    new = _records(
        "t1",
        [
            (2, {"position": {"x": 3, "y": 0}}),
            (2, {"position": {"x": 5, "y": 1}}),
            (2, {"position": {"x": 7, "y": 0}}),
        ],
    )
    a = fold(TableState(table_id="t1"), old, rs, reader)
    b = fold(TableState(table_id="t1"), new, rs, reader)
    assert a == b and a.game == {"at": {"x": 7, "y": 0}}
    assert msgspec.json.decode(reader.data(old[1])) == {
        "type": "up.moved",
        "position": {"x": 3, "y": 0},
    }


@pytest.mark.parametrize(
    ("ruleset", "moves", "reason"),
    [
        (False, [(1, {"x": 3})], "no upcaster from version 1 to 2"),
        (True, [(3, {"position": {}})], "version 3 is newer than this code's 2"),
        (True, [(2, {"position": "east"})], "the data does not fit the type"),
    ],
)
def test_an_unreadable_event_names_table_seq_and_type(
    ruleset: bool, moves: list[Any], reason: str
) -> None:
    from taku import codes
    from taku.core.upcast import EventReader

    rs = _upcast_ruleset(with_upcaster=ruleset)
    with pytest.raises(UnreadableEvent) as e:
        fold(TableState(table_id="t9"), _records("t9", moves), rs, EventReader.of(rs))
    err = e.value
    assert (err.code, err.table_id, err.seq, err.type) == (
        "store/unreadable_event",
        "t9",
        2,
        "up.moved",
    )
    assert reason in err.details["reason"]
    assert "t9" in codes.message(err.code, err.details) and "up.moved" in codes.message(
        err.code, err.details
    )


async def test_an_unreadable_event_fails_the_load_clearly() -> None:
    """A table whose log holds an event of a type its ruleset does not have is not
    loaded with a silently different state: loading raises, naming the event."""
    from taku.store.base import TableRecord

    store = MemoryEventStore()
    recs = _records("tx", [(1, {"x": 1})])
    recs[1] = msgspec.structs.replace(recs[1], type="generic.nothing")
    await store.create_table(
        TableRecord(table_id="tx", ruleset="generic", name="卓", created="", seed=b"s" * 32),
        recs,
        "create",
    )
    hub = Hub(store, load_registry(), idle_unload_s=None)
    with pytest.raises(UnreadableEvent) as e:
        await hub.table("tx")
    assert (e.value.seq, e.value.type) == (2, "generic.nothing")
    await hub.close()


async def test_a_stored_override_that_no_longer_fits_is_reported() -> None:
    """A GM override the ruleset no longer accepts changes nothing and is reported:
    its seq is in the state (the view's ``unfit_overrides``), never silently dropped."""
    from taku.core.table import view

    store = MemoryEventStore()
    hub = Hub(store, load_registry(), idle_unload_s=None)
    created = await hub.create_table(ruleset="generic")
    t = await hub.table(created.table_id)
    await t.execute("m2", CreateCharacter(name="ヤモト", sheet={"hp": 3}), command_id="mk")
    cid = next(iter(t.state.characters))
    ov = await t.execute(
        "m2",
        Override(path=["characters", cid, "sheet", "hp"], value=5, reason=""),
        command_id="ov",
    )
    await hub.close()
    # a later ruleset whose sheets take no "hp"
    import dataclasses

    strict = msgspec.defstruct("Sheet", [("karate", int, 0)], forbid_unknown_fields=True)
    generic = load_registry().get("generic")
    rs = dataclasses.replace(generic, sheet=strict)
    from taku.core.upcast import EventReader

    recs = await store.read(created.table_id)
    state = fold(TableState(table_id=created.table_id), recs, rs, EventReader.of(rs))
    assert state.unfit_overrides == (ov[0],)
    assert state.characters[cid].sheet == {"hp": 3}
    assert view(state, state.viewer("m2"), rs)["unfit_overrides"] == [ov[0]]


# --------------------------------------------------------------------------- memory


async def test_acks_keep_recent_ids_and_the_store_answers_older_repeats(
    monkeypatch: pytest.MonkeyPatch, store: EventStore
) -> None:
    """Past :data:`ACKS_KEPT` command ids a table forgets the oldest; a repeat of one is
    still answered with its first ack (the store's unique index), another member's
    reuse of it is refused, and so is the id sent with another command."""
    monkeypatch.setattr(app_module, "ACKS_KEPT", 5)
    hub = Hub(store, load_registry(), idle_unload_s=None)
    created = await hub.create_table(ruleset="generic")
    t = await hub.table(created.table_id)
    first = await t.execute("m2", Chat(text="最初"), command_id="old")
    for i in range(30):
        await t.execute("m2", Chat(text=f"{i}"), command_id=f"c{i}")
    assert "old" not in t.acks and len(t.acks) <= 10
    seq = t.state.seq
    again = await t.execute("m2", Chat(text="最初"), command_id="old")
    assert again == (first[0], first[1], True)
    with pytest.raises(CommandIdReused):
        await t.execute("m2", Chat(text="別"), command_id="old")
    joined = await hub.join(created.table_id, created.player_token, "PL")
    with pytest.raises(InvalidCommand) as e:
        await t.execute(joined.member_id, Chat(text="最初"), command_id="old")
    assert e.value.code == "command/id_taken"
    assert t.state.seq == seq + 1  # only the join was written
    ok = await t.execute("m2", Chat(text="次"), command_id="next")
    assert ok[0] == t.state.seq and not ok[2]
    await hub.close()


def test_taku_replay_to_starts_from_the_nearest_snapshot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``taku replay --to`` folds from the snapshot at or below ``--to`` (a planted one
    shows it), and gives the events' state once the snapshots are deleted."""
    import json

    from taku import cli
    from taku.snapshots import make_snapshot

    db = tmp_path / "r.db"

    async def setup() -> tuple[str, int]:
        store = SQLiteEventStore(db)
        await store.open()
        hub, tid = await _played(store, every=0)
        t = await hub.table(tid)
        at10 = await _truth(store, hub, tid, 10)
        await store.put_snapshot(
            make_snapshot(msgspec.structs.replace(at10, name="植えた"), t.ruleset)  # type: ignore[arg-type]
        )
        last = t.state.seq
        await hub.close()
        await store.close()
        return tid, last

    tid, last = asyncio.run(setup())
    capsys.readouterr()  # the set-up's log lines
    assert cli.main(["replay", "--db", str(db), tid, "--to", "12"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert (shown["seq"], shown["name"]) == (12, "植えた")

    async def drop() -> None:
        store = SQLiteEventStore(db)
        await store.open()
        await store.delete_snapshots()
        await store.close()

    asyncio.run(drop())
    capsys.readouterr()
    assert cli.main(["replay", "--db", str(db), tid, "--to", "12"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert (shown["seq"], shown["name"]) == (12, "長い卓")
    assert cli.main(["replay", "--db", str(db), tid]) == 0
    assert json.loads(capsys.readouterr().out)["seq"] == last
