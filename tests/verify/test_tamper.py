"""The tamper suite of issue 17: every way of changing a log after the fact is caught by
``taku verify``, with a message naming the seq and what differs; the true log passes.

Each table is played on a real store (SQLite, and PostgreSQL with ``TAKU_TEST_PG``), its
events are then edited in the database itself (as a server operator could), or in a
jsonl export (as whoever hands the log around could), and verified again. Two kinds of
forger: one who edits an event and leaves the hashes (the chain breaks at that seq),
and one who also recomputes the hashes from there (then deciding the command again
shows what differs; a forger who rewrites the command too is caught by a head a
player holds).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import sqlite3
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest

from taku import cli
from taku.app import Hub
from taku.core import chain
from taku.core.commands import Chat, CreateCharacter, Override, RevealSeed, UpdateCharacter
from taku.core.events import Recorded
from taku.plugins import load_registry
from taku.store import open_store
from taku.store.base import EventStore
from taku.verify import Report, lines_from_export, lines_from_records, verify_log
from taku_yodomi import commands as Y

REGISTRY = load_registry()


# --------------------------------------------------------------------------- stores


@dataclass
class Backend:
    """A store to play on, and raw access to its events table (what a tamperer edits)."""

    kind: str
    url: str

    def open(self) -> EventStore:
        return open_store(self.url)

    async def rows(self, table_id: str) -> list[dict[str, Any]]:
        if self.kind == "sqlite":
            with sqlite3.connect(self.url) as db:
                got = db.execute(
                    "SELECT envelope FROM events WHERE table_id=? ORDER BY seq", (table_id,)
                ).fetchall()
            return [json.loads(r[0]) for r in got]
        import asyncpg

        from taku.store.postgres import split_url

        dsn, schema = split_url(self.url)
        conn = await asyncpg.connect(dsn)
        try:
            got = await conn.fetch(
                f'SELECT envelope FROM "{schema}".events WHERE table_id=$1 ORDER BY seq', table_id
            )
        finally:
            await conn.close()
        return [json.loads(r[0]) for r in got]

    async def rewrite(self, table_id: str, envelopes: list[dict[str, Any]]) -> None:
        """Replace the table's events with ``envelopes``, bypassing taku."""
        rows = [(table_id, e["seq"], json.dumps(e, ensure_ascii=False)) for e in envelopes]
        if self.kind == "sqlite":
            with sqlite3.connect(self.url) as db:
                db.execute("DELETE FROM events WHERE table_id=?", (table_id,))
                db.executemany("INSERT INTO events VALUES (?, ?, ?)", rows)
            return
        import asyncpg

        from taku.store.postgres import split_url

        dsn, schema = split_url(self.url)
        conn = await asyncpg.connect(dsn)
        try:
            async with conn.transaction():
                await conn.execute(f'DELETE FROM "{schema}".events WHERE table_id=$1', table_id)
                for e in envelopes:
                    await conn.execute(
                        f'INSERT INTO "{schema}".events (table_id, seq, command_id, type, envelope) '
                        "VALUES ($1, $2, $3, $4, $5::json)",
                        table_id,
                        e["seq"],
                        e["command_id"],
                        e["type"],
                        json.dumps(e, ensure_ascii=False),
                    )
        finally:
            await conn.close()

    async def verify(self, table_id: str, heads: tuple[str, ...] = ()) -> Report:
        store = self.open()
        await store.open()
        try:
            recs = await store.read(table_id)
        finally:
            await store.close()
        return verify_log(lines_from_records(recs), REGISTRY, heads=heads)


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    if request.param == "sqlite":
        yield Backend("sqlite", str(tmp_path / "taku.db"))
        return
    base = os.environ.get("TAKU_TEST_PG")
    if not base:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but TAKU_TEST_PG is not set")
        pytest.skip("PostgreSQL tamper tests need TAKU_TEST_PG")
    from taku.store.postgres import drop_schema, with_schema

    url = with_schema(base, "taku_test_" + uuid.uuid4().hex[:16])
    yield Backend("postgres", url)
    await drop_schema(url)


# --------------------------------------------------------------------------- sessions


@dataclass
class Session:
    table_id: str
    gm: str
    player: str
    acks: list[tuple[int, str]]
    """``(head_seq, head)`` of every ack the player received."""
    frames: dict[str | None, list[bytes]]
    """The log as the public, the GM and the player would export it."""


async def _play(backend: Backend, ruleset: str, script: Callable[..., Any]) -> Session:
    store = backend.open()
    await store.open()
    hub = Hub(store, REGISTRY)
    try:
        created = await hub.create_table(ruleset=ruleset, name="検証卓")
        table = await hub.table(created.table_id)
        player = (await hub.join(created.table_id, created.player_token, "たろう")).member_id
        ids = itertools.count()
        acks: list[tuple[int, str]] = []

        async def send(member: str, command: Any) -> None:
            await table.execute(member, command, command_id=f"c{next(ids)}")
            if member == player:  # the ack's head, as net.py sends it
                acks.append((table.state.seq, chain.short(table.state.head)))

        await script(send, table, created.member_id, player)
        recs = await store.read(created.table_id)
        frames = {who: table.viewer_frames(recs, who) for who in (None, created.member_id, player)}
    finally:
        await hub.close()
        await store.close()
    return Session(created.table_id, created.member_id, player, acks, frames)


async def _nstrpg(send: Any, table: Any, gm: str, pl: str) -> None:
    await send(pl, Chat(text="N5"))
    await send(pl, Chat(text="2D6>=7 攻撃"))
    await send(pl, Chat(text="ドーモ、たろうです"))
    await send(pl, CreateCharacter(name="ニンジャ", sheet={"karate": 2}))
    cid = next(iter(table.state.characters))
    await send(pl, UpdateCharacter(character_id=cid, sheet={"karate": 3}))
    await send(gm, Override(path=["characters", cid, "sheet", "neuron"], value=4, reason="成長"))
    await send(pl, Chat(text="SN3"))
    await send(pl, Chat(text="N4"))
    await send(gm, RevealSeed())
    await send(pl, Chat(text="N6"))  # the next epoch
    await send(pl, Chat(text="おつかれさまでした"))
    await send(gm, RevealSeed())


async def _yodomi(send: Any, table: Any, gm: str, pl: str) -> None:
    await send(pl, CreateCharacter(name="アキラ", sheet={"pp": 40}))
    cid = next(iter(table.state.characters))
    await send(pl, Y.RollKeyNumber(character_id=cid))
    await send(pl, Y.ChooseSuit(character_id=cid, suit="♦"))
    await send(gm, Y.DealCards(character_id=cid, count=5))
    await send(gm, RevealSeed())
    await send(gm, Y.DealCards(character_id=cid, count=3))  # cut again with the new seed
    await send(gm, RevealSeed())


async def _chabu(send: Any, table: Any, gm: str, pl: str) -> None:
    await send(pl, CreateCharacter(name="ケン", sheet={}))
    await send(pl, Chat(text="CH<=50 調査"))
    await send(pl, Chat(text="SCH<=40"))  # a secret check
    await send(pl, Chat(text="CHD3+5 ダメージ"))
    await send(gm, RevealSeed())
    await send(pl, Chat(text="CH50VS40"))
    await send(gm, RevealSeed())


# --------------------------------------------------------------------------- tampering


def _find(envs: list[dict[str, Any]], pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    return next(e for e in envs if pred(e))


def _rechain(envs: list[dict[str, Any]], from_seq: int = 1) -> list[dict[str, Any]]:
    """What a forger with database access does after an edit: recompute every hash from
    ``from_seq`` (and the commitments of the hidden events edited, with their salts)."""
    recs = [msgspec.json.decode(json.dumps(e).encode(), type=Recorded) for e in envs]
    out: list[dict[str, Any]] = []
    prev = ""
    for rec in recs:
        if rec.seq >= from_seq:
            if rec.salt:
                rec = msgspec.structs.replace(rec, commitment=chain.commitment(rec.salt, rec.data))
            if not prev:
                first = json.loads(bytes(recs[0].data))
                prev = chain.genesis(rec.table_id, first["seed_hash"], 0)
            (rec,) = chain.seal([rec], prev)
        prev = rec.hash or ""
        out.append(json.loads(msgspec.json.encode(rec)))
    return out


def _codes_at(report: Report) -> set[tuple[str, int | None]]:
    return {(p.code, p.seq) for p in report.problems}


async def test_the_true_logs_verify(backend: Backend, tmp_path: Path) -> None:
    """From the database, from the public's, the GM's and the player's jsonl exports, and
    from the full log: accepted, each saying what it could not check."""
    for ruleset, script in (("nstrpg", _nstrpg), ("yodomi", _yodomi), ("chabu", _chabu)):
        s = await _play(backend, ruleset, script)
        report = await backend.verify(s.table_id, heads=(f"{s.acks[-1][0]}:{s.acks[-1][1]}",))
        assert report.ok, [str(p) for p in report.problems]
        rows = await backend.rows(s.table_id)
        # every command decided again, but the table's creation
        assert report.counts["commands"] == len({r["command_id"] for r in rows}) - 1 > 5
        assert all("unchained" not in why for _, why in report.unchecked)
        assert [e.split(":")[0] for e in report.epochs][-1].startswith("期 2")
        rcs = {}
        for who, frames in s.frames.items():
            text = "\n".join(f.decode() for f in frames)
            rep = verify_log(lines_from_export(text), REGISTRY, heads=(s.acks[0][1],))
            assert rep.ok, (who, [str(p) for p in rep.problems])
            if who is None:  # the public: hidden events are named as not checked
                assert any("このログにない非公開の出来事" in w for _, w in rep.unchecked)
                assert not rep.complete and rep.verdict == "PARTLY VERIFIED"
            if who == s.gm and ruleset == "nstrpg":
                # the GM sees every event of nstrpg, but not a player's secret command
                assert all("非公開のコマンド" in w for _, w in rep.unchecked), rep.unchecked
            path = tmp_path / f"{ruleset}-{who}.jsonl"
            path.write_text(text, encoding="utf-8")
            rcs[who] = await asyncio.to_thread(
                cli.main, ["verify", str(path), "--head", s.acks[-1][1]]
            )
        full = "\n".join(json.dumps(e, ensure_ascii=False) for e in await backend.rows(s.table_id))
        rep = verify_log(lines_from_export(full), REGISTRY)
        assert rep.complete, rep.unchecked
        path = tmp_path / f"{ruleset}-full.jsonl"
        path.write_text(full, encoding="utf-8")
        rcs["full"] = await asyncio.to_thread(
            cli.main, ["verify", str(path), "--head", s.acks[-1][1]]
        )
        # VERIFIED (0) only when every seq was checked; PARTLY VERIFIED (3) otherwise
        assert rcs["full"] == 0 and rcs[None] == 3, rcs


TAMPERS: dict[
    str, tuple[str, Callable[[list[dict[str, Any]]], tuple[list[dict[str, Any]], int]]]
] = {}


def tamper(name: str, ruleset: str = "nstrpg"):  # type: ignore[no-untyped-def]
    def register(fn):  # type: ignore[no-untyped-def]
        TAMPERS[name] = (ruleset, fn)
        return fn

    return register


@tamper("success count raised, faces left alone")
def _successes(envs: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    e = _find(envs, lambda e: e["data"].get("expression") == "N5")
    e["data"]["successes"] += 3
    return envs, e["seq"]


@tamper("a face changed")
def _face(envs: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    e = _find(envs, lambda e: e["data"].get("expression") == "2D6>=7")
    f = e["data"]["rolls"][0]["faces"]
    f[0] = f[0] % 6 + 1
    return envs, e["seq"]


@tamper("chat text edited")
def _chat(envs: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    e = _find(envs, lambda e: e["type"] == "chat_posted")
    e["data"]["text"] = "ドーモ、じろうです"
    return envs, e["seq"]


@tamper("a character sheet edited")
def _sheet(envs: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    e = _find(envs, lambda e: e["type"] == "character_updated")
    e["data"]["sheet"]["karate"] = 9
    return envs, e["seq"]


@tamper("a GM override edited")
def _override(envs: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    e = _find(envs, lambda e: e["type"] == "gm_overridden")
    e["data"]["value"] = 9
    return envs, e["seq"]


@tamper("a secret roll's face edited")
def _secret(envs: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    e = _find(envs, lambda e: e.get("audience") is not None and e["type"] == "dice_rolled")
    f = e["data"]["rolls"][0]["faces"]
    f[0] = f[0] % 6 + 1
    return envs, e["seq"]


@tamper("a command record removed from a chained event")
def _no_command(envs: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    e = _find(envs, lambda e: e["data"].get("expression") == "N5" and e.get("command"))
    del e["command"]
    return envs, e["seq"]


@tamper("the last roll removed and the seqs after it renumbered")
def _removed(envs: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    e = _find(envs, lambda e: e["data"].get("expression") == "N4")
    out = [x for x in envs if x is not e]
    for x in out:
        if x["seq"] > e["seq"]:
            x["seq"] -= 1
    return out, e["seq"]


@tamper("two events swapped")
def _swapped(envs: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    a = _find(envs, lambda e: e["data"].get("expression") == "2D6>=7")
    b = _find(envs, lambda e: e["type"] == "chat_posted")
    a["seq"], b["seq"] = b["seq"], a["seq"]
    envs.sort(key=lambda e: e["seq"])
    return envs, min(a["seq"], b["seq"])


@tamper("the deck's order changed", "yodomi")
def _deck(envs: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    e = _find(envs, lambda e: e["type"] == "yodomi.deck_shuffled")
    d = e["data"]["deck"]
    d[0], d[-1] = d[-1], d[0]
    return envs, e["seq"]


@tamper("a dealt card changed", "yodomi")
def _card(envs: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    e = _find(envs, lambda e: e["type"] == "yodomi.cards_dealt")
    e["data"]["cards"][0] = "JK1" if e["data"]["cards"][0] != "JK1" else "JK2"
    return envs, e["seq"]


@pytest.mark.parametrize("name", list(TAMPERS))
async def test_a_tampered_database_is_rejected_at_its_seq(backend: Backend, name: str) -> None:
    """Each edit, hashes left as they were: rejected at the edited seq. The same edit with
    every hash (and commitment) recomputed: still rejected at that seq, by deciding the
    command again (what differs is named), or by the head the player holds."""
    ruleset, fn = TAMPERS[name]
    s = await _play(backend, ruleset, _nstrpg if ruleset == "nstrpg" else _yodomi)
    true_rows = await backend.rows(s.table_id)
    held = f"{s.acks[-1][0]}:{s.acks[-1][1]}"

    rows, seq = fn(json.loads(json.dumps(true_rows)))
    await backend.rewrite(s.table_id, rows)
    report = await backend.verify(s.table_id)
    assert not report.ok
    assert any(p.seq == seq for p in report.problems), (seq, [str(p) for p in report.problems])
    assert all(str(p).startswith(f"seq {p.seq}: ") for p in report.problems if p.seq)

    rows, seq = fn(json.loads(json.dumps(true_rows)))
    await backend.rewrite(s.table_id, _rechain(rows))
    report = await backend.verify(s.table_id, heads=(held,))
    assert not report.ok, name
    hit = [
        p
        for p in report.problems
        if p.seq == seq
        and p.code in ("verify/differs", "verify/command", "verify/faces", "verify/result")
    ]
    assert hit or ("verify/head", s.acks[-1][0]) in _codes_at(report), [
        str(p) for p in report.problems
    ]


async def test_a_whole_forged_tail_fails_against_a_head_a_player_holds(backend: Backend) -> None:
    """A forger who holds every seed inserts a roll and re-decides everything after it:
    the forged log is consistent in itself, but not with the head the player got at the end."""
    s = await _play(backend, "nstrpg", _nstrpg)
    rows = await backend.rows(s.table_id)
    # the forger: the same table and seed, the same commands, one roll more before the reveal
    registry = REGISTRY
    store = backend.open()
    await store.open()
    try:
        record = await store.get_table(s.table_id)
    finally:
        await store.close()
    assert record is not None
    from taku.core import table as core_table
    from taku.core.dice import SeededDice, epoch_seed, seed_hash
    from taku.core.ruleset import Context

    rs = registry.get("nstrpg")
    decoder = core_table.event_decoder(rs)
    commands = core_table.command_decoder(rs)
    recs = [msgspec.json.decode(json.dumps(e).encode(), type=Recorded) for e in rows]
    cut = next(r.seq for r in recs if b'"N4"' in bytes(r.data))
    state = core_table.fold(
        core_table.TableState(table_id=s.table_id), [r for r in recs if r.seq < cut], rs, decoder
    )
    forged = [r for r in recs if r.seq < cut]

    def decide(command: Any, actor: str, command_id: str) -> None:
        nonlocal state
        seed = epoch_seed(record.seed, state.epoch)
        ctx = Context(
            actor=actor,
            role=state.role_of(actor),
            dice=SeededDice(seed, state.dice_cursor),
            options=state.rules,
            next_seq=state.seq + 1,
            seed=seed,
            next_seed_hash=seed_hash(epoch_seed(record.seed, state.epoch + 1)),
        )
        (ev,) = core_table.decide(state, command, ctx, rs)
        rec = Recorded(
            table_id=s.table_id,
            seq=state.seq + 1,
            type=type(ev).__struct_config__.tag,
            data=msgspec.Raw(msgspec.json.encode(ev)),
            actor=actor,
            time=forged[-1].time,
            command_id=command_id,
            draws=ctx.dice.cursor - state.dice_cursor,
            command=msgspec.Raw(
                msgspec.json.encode({"decided": command, "version": rs.version, "at": state.seq})
            ),
        )
        (rec,) = chain.seal([rec], forged[-1].hash or "")
        forged.append(rec)
        state = core_table.fold(state, [rec], rs, decoder)

    decide(Chat(text="N6"), s.player, "forged-1")  # the inserted roll
    for r in recs:
        if r.seq >= cut and bytes(r.command) != b"null":
            cmd = commands.decode(msgspec.json.encode(json.loads(bytes(r.command))["decided"]))
            decide(cmd, r.actor or "", r.command_id)
    await backend.rewrite(s.table_id, [json.loads(msgspec.json.encode(r)) for r in forged])

    alone = await backend.verify(s.table_id)
    assert alone.ok, [str(p) for p in alone.problems]  # consistent in itself: the seeds allow it
    head_seq, head = s.acks[-1]
    report = await backend.verify(s.table_id, heads=(f"{head_seq}:{head}",))
    assert [(p.code, p.seq) for p in report.problems] == [("verify/head", head_seq)]
    assert f"あなたの控えたヘッドは seq {head_seq} で {head}" in str(report.problems[0])
    # the head a player got before the forged part still matches: the log is true up to there
    early = next((q, h) for q, h in s.acks if q < cut)
    assert (await backend.verify(s.table_id, heads=(f"{early[0]}:{early[1]}",))).ok


async def test_a_truncated_log_misses_the_held_head(backend: Backend) -> None:
    """Cutting the log's end leaves a consistent chain, but one short of the player's head."""
    s = await _play(backend, "nstrpg", _nstrpg)
    rows = await backend.rows(s.table_id)
    await backend.rewrite(s.table_id, rows[:-3])
    head_seq, head = s.acks[-1]
    report = await backend.verify(s.table_id, heads=(f"{head_seq}:{head}",))
    assert ("verify/head", head_seq) in _codes_at(report)
    report = await backend.verify(s.table_id, heads=(head,))  # the short form alone
    assert any(p.code == "verify/head" for p in report.problems)


def _export(s: Session, who: str | None) -> list[dict[str, Any]]:
    return [json.loads(f) for f in s.frames[who]]


def _verify_export(lines: list[dict[str, Any]]) -> Report:
    return verify_log(
        lines_from_export("\n".join(json.dumps(x, ensure_ascii=False) for x in lines)), REGISTRY
    )


async def test_tampered_exports_are_rejected_at_their_seq(tmp_path: Path) -> None:
    """In a jsonl export: a face changed on a line marked redacted, a public roll replaced
    by a redacted stand-in, a chat line edited, a hidden event's content changed."""
    s = await _play(Backend("sqlite", str(tmp_path / "t.db")), "nstrpg", _nstrpg)

    gm = _export(s, s.gm)
    secret = next(
        x for x in gm if x.get("stand_in") is not None and x["event"]["type"] == "dice_rolled"
    )
    secret["redacted"] = True  # claims to be the stand-in, with a face changed
    secret["event"]["rolls"][0]["faces"][0] = secret["event"]["rolls"][0]["faces"][0] % 6 + 1
    report = _verify_export(gm)
    assert ("verify/chain", secret["seq"]) in _codes_at(report), [str(p) for p in report.problems]

    gm = _export(s, s.gm)
    secret = next(
        x for x in gm if x.get("stand_in") is not None and x["event"]["type"] == "dice_rolled"
    )
    secret["event"]["rolls"][0]["faces"][0] = secret["event"]["rolls"][0]["faces"][0] % 6 + 1
    report = _verify_export(gm)
    assert ("verify/commitment", secret["seq"]) in _codes_at(report)

    public = _export(s, None)
    roll = next(x for x in public if x["event"].get("expression") == "2D6>=7")
    roll["event"] = {"type": "redacted", "of": "dice_rolled", "note": "シークレットダイス"}
    roll["redacted"] = True
    report = _verify_export(public)
    assert ("verify/chain", roll["seq"]) in _codes_at(report)

    public = _export(s, None)
    line = next(x for x in public if x["event"]["type"] == "chat_posted")
    line["event"]["text"] = "ドーモ、じろうです"
    report = _verify_export(public)
    assert ("verify/chain", line["seq"]) in _codes_at(report)
    path = tmp_path / "tampered.jsonl"
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in public), encoding="utf-8")
    assert await asyncio.to_thread(cli.main, ["verify", str(path)]) == 1


async def test_two_nodes_keep_one_chain(backend: Backend) -> None:
    """Two nodes on one PostgreSQL database appending to one table in turns, and at once:
    each event chains from the one before it, whichever node wrote that."""
    if backend.kind != "postgres":
        pytest.skip("several nodes share PostgreSQL only")
    stores = [backend.open(), backend.open()]
    for st in stores:
        await st.open()
    hubs = [Hub(st, REGISTRY) for st in stores]
    try:
        created = await hubs[0].create_table(ruleset="generic", name="二台の卓")
        tid = created.table_id
        tables = [await h.table(tid) for h in hubs]
        for i in range(6):
            await tables[i % 2].execute(
                created.member_id, Chat(text=f"1D6 {i}"), command_id=f"n{i}"
            )
        await asyncio.gather(
            *(
                tables[i % 2].execute(created.member_id, Chat(text=f"2D6 {i}"), command_id=f"m{i}")
                for i in range(6)
            )
        )
        await tables[1].execute(created.member_id, RevealSeed(), command_id="reveal")
        head = chain.short(tables[1].state.head)
    finally:
        for h in hubs:
            await h.close()
        for st in stores:
            await st.close()
    report = await backend.verify(tid, heads=(head,))
    assert report.ok, [str(p) for p in report.problems]
    assert report.counts["chained"] == report.counts["events"] == 2 + 12 + 1


# --------------------------------------------------------------------------- the second round
# The gaps left after the suite above, each as a tamper that passed before its fix:
# (a) on a public export, past a hidden event, a forged ruleset result (an nstrpg 成功数
#     raised, faces left alone, the export's heads recomputed) was VERIFIED with exit 0;
# (b) the display fields of an export (text, speaker, outcome) were not checked;
# (c) --head named the head's seq, not the edited one;
# (d) event_version was not chained; a log chained before it must still verify.

FIXTURES = Path(__file__).parent / "fixtures"


def _text(frames: list[dict[str, Any]]) -> str:
    return "\n".join(json.dumps(f, ensure_ascii=False) for f in frames)


def _verify(frames: list[dict[str, Any]], heads: tuple[str, ...] = ()) -> Report:
    return verify_log(lines_from_export(_text(frames)), REGISTRY, heads=heads)


def _reheaded(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What a forger handing an export around does after an edit: recompute every head."""
    lines = lines_from_export(_text(frames))
    prev = chain.genesis(lines[0].table_id, lines[0].public["seed_hash"], 0)
    for ln, f in zip(lines, frames, strict=True):
        prev = chain.link(prev, ln.body())
        f["head"] = chain.short(prev)
    return frames


async def _session(tmp_path: Path) -> Session:
    return await _play(Backend("sqlite", str(tmp_path / "t.db")), "nstrpg", _nstrpg)


def _public(s: Session) -> list[dict[str, Any]]:
    return [json.loads(f) for f in s.frames[None]]


async def test_a_forged_success_count_past_a_hidden_event_fails_on_a_public_export(
    tmp_path: Path,
) -> None:
    """(a) The public export lacks the secret SN3; N4 comes after it. Its 成功数 raised by
    3 (faces and result text left alone), every head recomputed: not VERIFIED, but a
    failure at N4's seq, from reading N4 again with its own faces (nstrpg's chat_dice)."""
    s = await _session(tmp_path)
    public = _public(s)
    secret = next(f for f in public if f.get("redacted"))
    roll = next(f for f in public if f["event"].get("expression") == "N4")
    assert roll["seq"] > secret["seq"]
    true = roll["event"]["successes"]
    roll["event"]["successes"] += 3
    report = _verify(_reheaded(public))
    assert report.verdict == "NOT VERIFIED"
    # read again from its faces (no state needed), and decided again past the secret roll
    assert {(p.code, p.seq) for p in report.problems} == {
        ("verify/result", roll["seq"]),
        ("verify/differs", roll["seq"]),
    }
    assert f"successes が {true + 3} ですが、この出目で 'N4' を計算すると {true} です" in str(
        report.problems[0]
    )
    path = tmp_path / "forged.jsonl"
    path.write_text(_text(public), encoding="utf-8")
    assert await asyncio.to_thread(cli.main, ["verify", str(path)]) == 1


async def test_past_a_hidden_event_the_public_export_is_never_plainly_verified(
    tmp_path: Path, capsys: Any
) -> None:
    """(a) The true public export: every command after the secret roll is decided again
    on the public state (and matches), the hidden seq is named as not checked, and the
    verdict is PARTLY VERIFIED with exit 3. A secret roll changes no state, so a chat
    line forged past it (its command left alone, heads recomputed) is a failure at its seq."""
    s = await _session(tmp_path)
    public = _public(s)
    secret = next(f for f in public if f.get("redacted"))["seq"]
    report = _verify(public)
    assert report.ok and report.verdict == "PARTLY VERIFIED"
    assert [seq for seq, _ in report.unchecked] == [secret, secret]
    assert any("公開の状態" in n and "で判定し直し、一致" in n for n in report.notes), report.notes
    path = tmp_path / "public.jsonl"
    path.write_text(_text(public), encoding="utf-8")
    capsys.readouterr()
    assert await asyncio.to_thread(cli.main, ["verify", str(path)]) == 3
    out = capsys.readouterr().out
    assert out.startswith("一部のみ検証 [PARTLY VERIFIED]") and f"seq {secret}" in out, out

    line = next(f for f in public if f["event"].get("text") == "おつかれさまでした")
    assert line["seq"] > secret
    line["event"]["text"] = "おつかれ"
    report = _verify(_reheaded(public))
    assert ("verify/differs", line["seq"]) in _codes_at(report), [str(p) for p in report.problems]


async def test_past_a_hidden_deal_a_difference_is_named_as_not_checked(tmp_path: Path) -> None:
    """(a) yodomi's shuffled deck is hidden from everyone, the GM too, and changes the
    state: past it, deciding the next deal again on the GM's state differs for a true log
    (the pile's size is unknown). That seq is named as not checked with what differs, and
    the verdict is PARTLY VERIFIED, never VERIFIED; the full log decides it."""
    s = await _play(Backend("sqlite", str(tmp_path / "y.db")), "yodomi", _yodomi)
    gm = [json.loads(f) for f in s.frames[s.gm]]
    report = _verify(gm)
    assert report.ok and report.verdict == "PARTLY VERIFIED", [str(p) for p in report.problems]
    # the second deal (after the first reveal): the pile it is cut from is not known
    last = [f for f in gm if f["command_id"] == gm[-3]["command_id"]]
    assert len(last) == 2 and all(f.get("redacted") for f in last)
    undecided = [(q, w) for q, w in report.unchecked if "公開の状態" in w]
    assert [q for q, _ in undecided] == [f["seq"] for f in last], report.unchecked
    assert "個の出目を引いていますが、判定し直すと" in undecided[-1][1]


async def test_an_edited_display_field_in_an_export_is_rejected(tmp_path: Path) -> None:
    """(b) The text, the speaker's name and the 成功/失敗 badge of an exported line are
    rendered again from its event: an edit of any is rejected at its seq, and the true
    export passes (its lines rendered with the export's state)."""
    s = await _session(tmp_path)
    assert _verify(_public(s)).ok

    public = _public(s)
    chat = next(f for f in public if f["event"]["type"] == "chat_posted")
    chat["text"] = chat["text"].replace("ドーモ", "ドーモドーモ")
    report = _verify(public)
    assert [(p.code, p.seq) for p in report.problems] == [("verify/display", chat["seq"])]
    assert "text はログでは" in str(report.problems[0]) and "ドーモ、たろうです" in str(
        report.problems[0]
    )

    public = _public(s)
    roll = next(f for f in public if f["event"].get("expression") == "2D6>=7")
    roll["outcome"] = "failure" if roll.get("outcome") == "success" else "success"
    roll["speaker"]["name"] = "じろう"
    report = _verify(public)
    assert [(p.code, p.seq) for p in report.problems] == [("verify/display", roll["seq"])]


async def test_a_held_head_names_the_first_edited_seq(tmp_path: Path) -> None:
    """(c) A chat line edited in an export, heads left alone, checked against the last
    head the player holds: the finding names the edited seq, not the head's."""
    s = await _session(tmp_path)
    public = _public(s)
    chat = next(f for f in public if f["event"]["type"] == "chat_posted")
    chat["event"]["text"] = "ドーモ、じろうです"
    head_seq, head = s.acks[-1]
    assert head_seq > chat["seq"]
    report = _verify(public, heads=(f"{head_seq}:{head}",))
    heads = [p for p in report.problems if p.code == "verify/head"]
    assert [p.seq for p in heads] == [chat["seq"]], [str(p) for p in report.problems]
    assert f"鎖が seq {chat['seq']} で切れています" in str(heads[0])
    assert f"seq {head_seq} であなたの控えたヘッド" in str(heads[0])
    report = _verify(public, heads=(head,))  # the head alone, without its seq
    heads = [p for p in report.problems if p.code == "verify/head"]
    assert [p.seq for p in heads] == [chat["seq"]], [str(p) for p in report.problems]


async def test_event_version_is_chained(backend: Backend) -> None:
    """(d) An event's event_version changed in the database: the chain breaks there; with
    every hash recomputed, deciding the command again names it."""
    s = await _play(backend, "nstrpg", _nstrpg)
    rows = await backend.rows(s.table_id)
    target = next(r for r in rows if r["type"] == "chat_posted")
    target["event_version"] = 2
    await backend.rewrite(s.table_id, rows)
    report = await backend.verify(s.table_id)
    assert ("verify/chain", target["seq"]) in _codes_at(report)
    assert {p.seq for p in report.problems} == {target["seq"]}
    await backend.rewrite(s.table_id, _rechain(rows))
    report = await backend.verify(s.table_id)
    assert ("verify/differs", target["seq"]) in {(p.code, p.seq) for p in report.problems}
    assert "event_version がログでは 2、判定し直すと 1 です" in str(report.problems[0])


def test_a_log_chained_before_event_version_still_verifies() -> None:
    """(d) A log written by the code before event_version was chained (chain format 1,
    checked in): its full log is VERIFIED, its public export PARTLY VERIFIED (the secret
    roll), both reach the head it ended at, and both say they are format 1. An edit of
    its event_version is caught by deciding the command again."""
    full = (FIXTURES / "chain1-nstrpg.full.jsonl").read_text("utf-8")
    public = (FIXTURES / "chain1-nstrpg.public.jsonl").read_text("utf-8")
    head = "15:" + json.loads(full.splitlines()[-1])["hash"][:16]
    rep = verify_log(lines_from_export(full), REGISTRY, heads=(head,))
    assert rep.verdict == "VERIFIED" and rep.counts["chained"] == 15, rep.problems
    assert any("seq 1-15: 鎖の形式1" in n for n in rep.notes), rep.notes
    rep = verify_log(lines_from_export(public), REGISTRY, heads=(head,))
    assert rep.ok and rep.verdict == "PARTLY VERIFIED", rep.problems

    rows = [json.loads(x) for x in full.splitlines()]
    chat = next(r for r in rows if r["type"] == "chat_posted")
    chat["event_version"] = 2
    rep = verify_log(lines_from_export(_text(rows)), REGISTRY, heads=(head,))
    assert ("verify/differs", chat["seq"]) in {(p.code, p.seq) for p in rep.problems}


def test_a_format_1_log_goes_on_in_format_2_but_never_back() -> None:
    """(d) An old table played on after the upgrade: its events chained in format 1, the
    new ones in format 2 from the last old hash. That verifies; a format 1 event after a
    format 2 one (which would leave its event_version uncovered) breaks the chain there."""
    from taku.core.events import Recorded

    rows = [
        json.loads(x)
        for x in (FIXTURES / "chain1-nstrpg.full.jsonl").read_text("utf-8").splitlines()
    ]
    recs = [msgspec.json.decode(json.dumps(r).encode(), type=Recorded) for r in rows]

    def sealed(formats: list[int]) -> list[dict[str, Any]]:
        out, prev = [], ""
        for rec, fmt in zip(recs, formats, strict=True):
            if not prev:
                prev = chain.genesis(rec.table_id, json.loads(bytes(rec.data))["seed_hash"], 0)
            prev = chain.link(prev, chain.body_of(rec, fmt))
            out.append(json.loads(msgspec.json.encode(msgspec.structs.replace(rec, hash=prev))))
        return out

    assert sealed([1] * 15) == rows  # the fixture is format 1 throughout
    rep = verify_log(lines_from_export(_text(sealed([1] * 10 + [2] * 5))), REGISTRY)
    assert rep.verdict == "VERIFIED", [str(p) for p in rep.problems]
    assert any(n.startswith("seq 1-10: 鎖の形式1") for n in rep.notes), rep.notes
    rep = verify_log(lines_from_export(_text(sealed([1] * 10 + [2, 2, 1, 2, 2]))), REGISTRY)
    assert [(p.code, p.seq) for p in rep.problems] == [("verify/chain", 13)]


async def test_a_line_shows_a_name_the_table_had(tmp_path: Path) -> None:
    """(b) A line spoken as a character renamed later: the export shows today's name,
    a frame saved when it arrived the name then; both are accepted. A name the
    character never had is rejected at that seq."""

    async def script(send: Any, table: Any, gm: str, pl: str) -> None:
        await send(pl, CreateCharacter(name="ヤモト", sheet={}))
        cid = next(iter(table.state.characters))
        await send(pl, Chat(text="ドーモ", character_id=cid))
        await send(pl, UpdateCharacter(character_id=cid, name="ヤモト・コキ"))
        await send(gm, RevealSeed())

    s = await _play(Backend("sqlite", str(tmp_path / "r.db")), "nstrpg", script)
    public = _public(s)
    line = next(f for f in public if f["event"]["type"] == "chat_posted")
    assert line["speaker"]["name"] == "ヤモト・コキ" and "ヤモト・コキ" in line["text"]
    assert _verify(public).ok
    line["speaker"]["name"] = "ヤモト"  # as it arrived, before the rename
    line["text"] = line["text"].replace("ヤモト・コキ", "ヤモト")
    assert _verify(public).ok, [str(p) for p in _verify(public).problems]
    line["speaker"]["name"] = line["text"] = "ナンシー"
    report = _verify(public)
    assert [(p.code, p.seq) for p in report.problems] == [("verify/display", line["seq"])]


async def test_an_open_epoch_names_the_seqs_whose_dice_it_leaves_unchecked(
    tmp_path: Path,
) -> None:
    """Chat after the last reveal draws no die: still VERIFIED. A roll after it is named
    as not checked (its epoch's seed is not revealed), so the log is PARTLY VERIFIED."""

    async def script(send: Any, table: Any, gm: str, pl: str) -> None:
        await send(pl, Chat(text="2D6"))
        await send(gm, RevealSeed())
        await send(pl, Chat(text="おつかれさまでした"))

    s = await _play(Backend("sqlite", str(tmp_path / "e.db")), "nstrpg", script)
    gm = [json.loads(f) for f in s.frames[s.gm]]
    report = _verify(gm)
    assert report.verdict == "VERIFIED", report.unchecked
    assert report.epochs[-1].endswith("進行中、シード未公開")

    async def rolled(send: Any, table: Any, gm: str, pl: str) -> None:
        await script(send, table, gm, pl)
        await send(pl, Chat(text="1D6"))

    s = await _play(Backend("sqlite", str(tmp_path / "f.db")), "nstrpg", rolled)
    gm = [json.loads(f) for f in s.frames[s.gm]]
    report = _verify(gm)
    last = gm[-1]["seq"]
    assert report.ok and report.verdict == "PARTLY VERIFIED"
    assert any(q == last and f"seq {last} で引かれたダイス" in w for q, w in report.unchecked), (
        report.unchecked
    )


async def test_a_hidden_command_without_its_salt_is_not_verified(tmp_path: Path) -> None:
    """The GM's full log with a hidden command's ``command_salt`` left out: the chain and
    the head still hold (they cover the commitment, not the command), the command is
    decided again, but nothing ties the command shown to the commitment everyone received.
    Not VERIFIED: the seq is named as not checked."""
    backend = Backend("sqlite", str(tmp_path / "t.db"))
    s = await _play(backend, "nstrpg", _nstrpg)
    rows = await backend.rows(s.table_id)
    hidden = next(r for r in rows if r.get("command_salt"))
    del hidden["command_salt"]
    full = "\n".join(json.dumps(e, ensure_ascii=False) for e in rows)
    head = f"{s.acks[-1][0]}:{s.acks[-1][1]}"
    report = verify_log(lines_from_export(full), REGISTRY, heads=(head,))
    assert report.ok, [str(p) for p in report.problems]
    assert report.verdict == "PARTLY VERIFIED"
    assert (
        hidden["seq"],
        f"塩のない非公開のコマンド（コミットメントと照合されません）: seq {hidden['seq']}",
    ) in report.unchecked


async def test_a_held_head_as_copied_from_the_header_or_garbled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The web client's header shows ``指紋 SEQ:HEAD``: copied whole, it is the head it
    shows. A head that is no head (``zz:qq``) is a finding naming it, not a traceback."""
    backend = Backend("sqlite", str(tmp_path / "t.db"))
    s = await _play(backend, "nstrpg", _nstrpg)
    rows = await backend.rows(s.table_id)
    path = tmp_path / "full.jsonl"
    path.write_text("\n".join(json.dumps(e, ensure_ascii=False) for e in rows), encoding="utf-8")
    seq, head = s.acks[-1]
    copied = f"指紋 {seq}:{head}"
    capsys.readouterr()  # the log lines of the play
    assert await asyncio.to_thread(cli.main, ["verify", str(path), "--head", copied]) == 0
    assert capsys.readouterr().out.startswith("検証成功 [VERIFIED]")
    for bad in ("zz:qq", f"x{seq}:{head}", f"{seq}:{'z' * 16}"):
        assert await asyncio.to_thread(cli.main, ["verify", str(path), "--head", bad]) == 1, bad
        out = capsys.readouterr().out
        assert out.startswith("検証失敗 [NOT VERIFIED]") and "はヘッドではありません" in out, (
            bad,
            out,
        )
        assert "[verify/head]" in out, out


async def test_export_as_a_member_the_table_does_not_have_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``taku export --as`` with a typo gave the public's log without a word, as if the
    member had seen no hidden event; it names the members instead. A member's name (the
    one a player knows) works as their id does."""
    backend = Backend("sqlite", str(tmp_path / "t.db"))
    s = await _play(backend, "nstrpg", _nstrpg)
    base = ["export", "--db", backend.url, s.table_id, "--format", "jsonl"]
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        await asyncio.to_thread(cli.main, [*base, "--as", "m99"])
    assert "m99" in str(exc.value.code) and s.player in str(exc.value.code)
    assert capsys.readouterr().out == ""
    assert await asyncio.to_thread(cli.main, [*base, "--as", s.player]) == 0
    by_id = capsys.readouterr().out
    assert await asyncio.to_thread(cli.main, [*base, "--as", "たろう"]) == 0
    assert capsys.readouterr().out == by_id
    with pytest.raises(SystemExit):  # --full is the GM's whole log, never one member's
        await asyncio.to_thread(cli.main, [*base, "--full", "--as", s.player])


async def test_a_held_head_shorter_than_the_fingerprint_is_refused(tmp_path: Path) -> None:
    """A head's short form is 16 hex digits (64 bits). Eight were accepted: a prefix of
    32 bits, which whoever holds the seeds can hit with a forged log after about 2**32
    hashes (minutes on one machine), so a player who noted half the fingerprint got
    VERIFIED for it. Anything shorter than the fingerprint the clients show is refused."""
    backend = Backend("sqlite", str(tmp_path / "t.db"))
    s = await _play(backend, "nstrpg", _nstrpg)
    seq, head = s.acks[-1]
    assert (await backend.verify(s.table_id, heads=(f"{seq}:{head}",))).verdict == "VERIFIED"
    report = await backend.verify(s.table_id, heads=(f"{seq}:{head[:8]}",))
    assert report.verdict == "NOT VERIFIED"
    assert [p.code for p in report.problems] == ["verify/head"]
    assert "16 桁の16進数" in report.problems[0].detail


async def test_an_edited_audience_in_an_export_is_rejected(tmp_path: Path) -> None:
    """A frame's ``audience`` (who saw a hidden event) is not in the chain, like ``text``:
    a player's export claiming another member saw their secret roll was VERIFIED. It is
    compared with the audience deciding the command again gives."""
    s = await _session(tmp_path)
    mine = [json.loads(f) for f in s.frames[s.player]]
    secret = next(f for f in mine if f.get("audience") and f.get("command_salt"))
    assert _verify(mine).ok
    secret["audience"] = sorted([*secret["audience"], "m99"])
    report = _verify(mine)
    assert ("verify/differs", secret["seq"]) in _codes_at(report), [str(p) for p in report.problems]


async def test_a_chained_event_without_its_command_is_a_forgery(backend: Backend) -> None:
    """A chained log always records its commands (chain format 1 on), so a command record
    removed (and the hashes recomputed) was PARTLY VERIFIED as "written before taku
    logged commands". It is NOT VERIFIED, naming the seq, from the database and from a
    jsonl export."""
    s = await _play(backend, "nstrpg", _nstrpg)
    rows, seq = _no_command(await backend.rows(s.table_id))
    rows = _rechain(rows)
    report = verify_log(lines_from_export("\n".join(json.dumps(r) for r in rows)), REGISTRY)
    assert report.verdict == "NOT VERIFIED" and report.exit_code == 1
    assert ("verify/command", seq) in _codes_at(report), [str(p) for p in report.problems]
    assert not any("コマンドの記録がない" in why for _, why in report.unchecked)
    await backend.rewrite(s.table_id, rows)
    report = await backend.verify(s.table_id)
    assert ("verify/command", seq) in _codes_at(report), [str(p) for p in report.problems]


def test_the_report_is_in_japanese_with_its_codes_beside(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every line of ``taku verify``'s report reads in Japanese (its users are Japanese
    players): the verdict, each 失敗 line with its seq, what differs and its stable code,
    the 未検証 lines and the notes; the exit codes stay 3 and 1."""
    public = (FIXTURES / "chain1-nstrpg.public.jsonl").read_text("utf-8")
    path = tmp_path / "public.jsonl"
    path.write_text(public, encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["verify", str(path)]) == 3
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("一部のみ検証 [PARTLY VERIFIED]: 出来事 15 件"), out
    assert "未検証 このログにない非公開の出来事（内容が公開されれば検証されます）: seq 10" in out
    frames = [json.loads(x) for x in public.splitlines()]
    roll = next(f for f in frames if f["event"].get("expression") == "N5")
    roll["event"]["successes"] += 3
    path.write_text("\n".join(json.dumps(f, ensure_ascii=False) for f in frames), "utf-8")
    assert cli.main(["verify", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("検証失敗 [NOT VERIFIED]: 出来事 15 件のうちに問題が"), out
    true = roll["event"]["successes"] - 3
    assert (
        f"失敗 seq {roll['seq']}: ダイスの結果（合計・成功数・成否）が、その出目から計算したものと"
        f"違います: successes が {true + 3} ですが、この出目で 'N5' を計算すると {true} です"
        " [verify/result]"
    ) in out, out
    prefixes = ("検証失敗 ", "失敗 seq ", "未検証 ", "  期 ", "  注: ")
    assert all(line.startswith(prefixes) for line in out), out


def test_verify_of_a_missing_file_database_or_table_says_so_in_japanese(tmp_path: Path) -> None:
    """What a player mistypes is answered in Japanese too, without a traceback."""
    with pytest.raises(SystemExit) as exc:
        cli.main(["verify", str(tmp_path / "nai.jsonl")])
    assert "ファイル" in str(exc.value.code) and "がありません" in str(exc.value.code)
    with pytest.raises(SystemExit) as exc:
        cli.main(["verify", "--db", str(tmp_path / "nai.db"), "t1"])
    assert str(exc.value.code) == f"taku: データベース {str(tmp_path / 'nai.db')!r} がありません"
    db = tmp_path / "t.db"
    asyncio.run(_play(Backend("sqlite", str(db)), "nstrpg", _greeting))
    with pytest.raises(SystemExit) as exc:
        cli.main(["verify", "--db", str(db), "t_nai"])
    assert str(exc.value.code) == f"taku: {db} に卓 't_nai' がありません"


async def _greeting(send: Any, table: Any, gm: str, pl: str) -> None:
    await send(pl, Chat(text="よろしく"))
