"""Undo and redo as compensating events, and forks (issue #20, items 1 and 2).

The definition checked throughout: after any event, a table's members,
characters, game and chat equal the plain fold of its log without the events of
the commands undone at that moment (and without the ``undone``/``redone`` events).
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taku.app import Hub
from taku.core.commands import (
    AddChannel,
    Chat,
    CreateCharacter,
    Redo,
    RemoveCharacter,
    RevealSeed,
    RollDice,
    SetChatPalette,
    Undo,
    UpdateCharacter,
)
from taku.core.events import HistorySettings
from taku.core.table import TableState, fold
from taku.errors import TakuError
from taku.plugins import load_registry
from taku.store.memory import MemoryEventStore
from taku.testing.harness import TableHarness
from taku.verify import check_fork, lines_from_records, verify_log

REGISTRY = load_registry()
PARTS = ("members", "characters", "game", "chat")


def parts(state: TableState) -> dict[str, Any]:
    return {p: msgspec.to_builtins(getattr(state, p)) for p in PARTS}


async def fold_without_undone(h: TableHarness) -> TableState:
    """The reference: the plain fold of the log without the undone commands' events."""
    recs = await h.hub.store.read(h.table.table_id)
    undone = set(h.state.undone)
    kept = [r for r in recs if r.command_id not in undone and r.type not in ("undone", "redone")]
    # the plain fold wants seqs without gaps: number the kept events anew
    kept = [msgspec.structs.replace(r, seq=i + 1) for i, r in enumerate(kept)]
    return fold(TableState(table_id=h.table.table_id), kept, h.table.ruleset, h.table.decoder)


# --------------------------------------------------------------------------- the property

OPS = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "create",
                "create",
                "update",
                "remove",
                "chat",
                "roll",
                "channel",
                "palette",
                "undo",
                "undo",
                "undo_pick",
                "undo_force",
                "redo",
                "redo_pick",
            ]
        ),
        st.integers(0, 40),
        st.booleans(),
    ),
    min_size=1,
    max_size=14,
)


async def _run(ops: list[tuple[str, int, bool]]) -> None:
    h = await TableHarness.create("generic", faces=[1, 2, 3, 4, 5, 6] * 40)
    pl = await h.join("たろう")
    sent: list[str] = []  # command ids the harness used, in order
    for op, n, as_player in ops:
        who = pl if as_player and op in ("create", "update", "chat", "roll") else h.gm
        chars = sorted(h.state.characters)
        ch = chars[n % len(chars)] if chars else None
        cmd: Any
        match op:
            case "create":
                cmd = CreateCharacter(name=f"キャラ{n}")
            case "update" if ch:
                cmd = UpdateCharacter(character_id=ch, sheet={"hp": n})
            case "remove" if ch:
                cmd = RemoveCharacter(character_id=ch)
            case "chat":
                cmd = Chat(text=f"こんにちは{n}")
            case "roll":
                cmd = RollDice(expression="2D6")
            case "channel":
                cmd = AddChannel(name=f"部屋{n}")
            case "palette" if ch:
                cmd = SetChatPalette(character_id=ch, palette=f"2D6 {n}")
            case "undo":
                cmd = Undo()
            case "undo_pick" if sent:
                cmd = Undo(command_id=sent[n % len(sent)])
            case "undo_force" if sent:
                cmd = Undo(command_id=sent[n % len(sent)], force=True, reason="検証")
            case "redo":
                cmd = Redo()
            case "redo_pick" if h.state.undone:
                cmd = Redo(command_id=h.state.undone[n % len(h.state.undone)])
            case _:
                continue
        before = h.state.seq
        try:
            await h.send(who, cmd)
            sent.append(f"h{h._cid}")
        except TakuError:
            assert h.state.seq == before  # a refusal writes nothing
        if op.startswith(("undo", "redo")):
            assert parts(h.state) == parts(await fold_without_undone(h))
    assert parts(h.state) == parts(await fold_without_undone(h))
    recs = await h.hub.store.read(h.table.table_id)
    # the dice an undone command drew stay drawn
    assert h.state.dice_cursor == sum(r.draws for r in recs)
    await h.assert_replay_matches()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OPS)
def test_fold_with_undo_and_redo_is_the_fold_without_the_undone_commands(ops: Any) -> None:
    asyncio.run(_run(ops))


# --------------------------------------------------------------------------- scripted


async def test_undo_takes_back_the_last_command_and_redo_restores_it() -> None:
    h = await TableHarness.create("generic")
    (a,) = await h.send(h.gm, CreateCharacter(name="アヤ"))
    (b,) = await h.send(h.gm, CreateCharacter(name="ボブ"))
    (undone,) = await h.send(h.gm, Undo())
    assert undone.command_id == "h2" and undone.command == "create_character"  # type: ignore[attr-defined]
    assert list(h.state.characters) == [a.character_id]  # type: ignore[attr-defined]
    (redone,) = await h.send(h.gm, Redo())
    assert redone.command_id == "h2"  # type: ignore[attr-defined]
    assert list(h.state.characters) == [a.character_id, b.character_id]  # type: ignore[attr-defined]
    assert h.state.undone == ()
    await h.assert_replay_matches()


async def test_an_earlier_command_that_a_later_one_depends_on_needs_force() -> None:
    h = await TableHarness.create("generic")
    (a,) = await h.send(h.gm, CreateCharacter(name="アヤ"))
    cid = a.character_id  # type: ignore[attr-defined]
    await h.send(h.gm, CreateCharacter(name="ボブ"))  # another character: independent
    await h.send(h.gm, UpdateCharacter(character_id=cid, sheet={"hp": 3}))
    err = await h.rejected(h.gm, Undo(command_id="h1"))
    assert err.code == "undo/depends" and err.details["seq"] == 5
    err = await h.rejected(h.gm, Undo(command_id="h1", force=True))
    assert err.code == "undo/reason_required"
    await h.send(h.gm, Undo(command_id="h1", force=True, reason="作り直す"))
    assert cid not in h.state.characters
    # the independent one can be undone on its own, and later ones too
    h2 = await TableHarness.create("generic")
    await h2.send(h2.gm, CreateCharacter(name="アヤ"))
    await h2.send(h2.gm, CreateCharacter(name="ボブ"))
    await h2.send(h2.gm, Chat(text="よろしく"))
    (ev,) = await h2.send(h2.gm, Undo(command_id="h1"))
    assert [c.name for c in h2.state.characters.values()] == ["ボブ"]
    await h.assert_replay_matches()
    await h2.assert_replay_matches()


async def test_refusals_have_stable_codes_and_write_nothing() -> None:
    h = await TableHarness.create("generic")
    pl = await h.join("たろう")
    assert (await h.rejected(h.gm, Redo())).code == "undo/nothing"
    assert (await h.rejected(h.gm, Undo(command_id="nope"))).code == "undo/unknown_command"
    await h.send(h.gm, CreateCharacter(name="アヤ"))  # h3 (a refused command uses its id too)
    await h.send(h.gm, Undo())  # h4
    assert (await h.rejected(h.gm, Undo(command_id="h3"))).code == "undo/already_undone"
    assert (await h.rejected(h.gm, Undo(command_id="h4"))).code == "undo/not_undoable"
    await h.send(h.gm, Redo())
    assert (await h.rejected(h.gm, Redo(command_id="h3"))).code == "undo/not_undone"
    # a player, on a table that does not allow players' undo
    await h.send(pl, Chat(text="やあ"))
    assert (await h.rejected(pl, Undo())).code == "undo/players_not_allowed"
    assert (await h.rejected(pl, Redo())).code == "undo/players_not_allowed"


async def test_a_player_undoes_their_own_last_command_while_nobody_acted_since() -> None:
    store = MemoryEventStore()
    hub = Hub(store, REGISTRY)
    c = await hub.create_table(ruleset="generic", history=HistorySettings(player_undo=True))
    t = await hub.table(c.table_id)
    pl = (await hub.join(c.table_id, c.player_token, "たろう")).member_id
    other = (await hub.join(c.table_id, c.player_token, "じろう")).member_id
    await t.execute(pl, CreateCharacter(name="アヤ"), command_id="p1")
    await t.execute(pl, Undo(), command_id="p2")
    assert t.state.characters == {}
    await t.execute(pl, Redo(), command_id="p3")
    assert len(t.state.characters) == 1
    await t.execute(other, Chat(text="おっと"), command_id="o1")
    for cmd in (Undo(command_id="p1"), Undo(command_id="o1", force=True, reason="x")):
        try:
            await t.execute(pl, cmd, command_id="p4")
            raise AssertionError("not refused")
        except TakuError as e:
            assert e.code in ("undo/not_last", "command/forbidden")
    await hub.close()


async def test_undone_dice_stay_drawn_and_verify_accepts_the_log() -> None:
    store = MemoryEventStore()
    hub = Hub(store, REGISTRY)  # the server's seeded dice
    c = await hub.create_table(ruleset="generic")
    t = await hub.table(c.table_id)
    await t.execute(c.member_id, RollDice(expression="3D6"), command_id="r1")
    cursor = t.state.dice_cursor
    await t.execute(c.member_id, CreateCharacter(name="アヤ"), command_id="c1")
    await t.execute(c.member_id, Undo(command_id="r1"), command_id="u1")
    await t.execute(c.member_id, Undo(), command_id="u2")
    await t.execute(c.member_id, Redo(command_id="c1"), command_id="u3")
    assert t.state.dice_cursor == cursor == 3
    await t.execute(c.member_id, RollDice(expression="1D6"), command_id="r2")
    assert t.state.dice_cursor == 4  # the next roll draws the next face, not r1's again
    await t.execute(c.member_id, RevealSeed(), command_id="s1")
    rep = verify_log(lines_from_records(await store.read(c.table_id)), REGISTRY)
    assert rep.ok, [str(p) for p in rep.problems]
    assert rep.counts["commands"] >= 6
    await hub.close()


async def test_verify_names_a_forged_undo() -> None:
    store = MemoryEventStore()
    hub = Hub(store, REGISTRY)
    c = await hub.create_table(ruleset="generic")
    t = await hub.table(c.table_id)
    await t.execute(c.member_id, CreateCharacter(name="アヤ"), command_id="c1")
    await t.execute(c.member_id, Undo(), command_id="u1")
    recs = await store.read(c.table_id)
    lines = lines_from_records(recs)
    forged = lines[-1]
    data = dict(forged.data)
    data["restore"] = {"characters": {"c9": {"id": "c9", "name": "偽"}}}
    # an edited restore no longer matches deciding the undo again
    lines[-1] = dataclasses.replace(forged, data=data, public=data)
    rep = verify_log(lines, REGISTRY)
    assert any(p.code == "verify/differs" and p.seq == forged.seq for p in rep.problems)
    await hub.close()


# --------------------------------------------------------------------------- forks


async def test_a_fork_starts_from_the_source_state_and_then_diverges() -> None:
    h = await TableHarness.create("generic", faces=[1, 2, 3, 4, 5, 6] * 4)
    pl = await h.join("たろう")
    (a,) = await h.send(pl, CreateCharacter(name="アヤ"))
    await h.send(h.gm, SetChatPalette(character_id=a.character_id, palette="2D6"))  # type: ignore[attr-defined]
    at = h.state.seq
    at_state = await h.table.past_state(at)
    await h.send(h.gm, CreateCharacter(name="あとから"))
    f = await h.hub.fork_table(h.table.table_id, h.gm, at_seq=at)
    fork = await h.hub.table(f.created.table_id)
    assert f.source_seq == at and f.source_head == at_state.head
    first = (await h.hub.store.read(fork.table_id, to_seq=1))[0]
    created = msgspec.json.decode(first.data)
    assert created["forked_from"] == {
        "table_id": h.table.table_id,
        "seq": at,
        "head": at_state.head,
    }
    assert fork.record.seed != h.table.record.seed
    assert fork.state.seed_hash != h.state.seed_hash
    # the same characters, game and chat; the members carried, absent until they rejoin
    assert fork.state.characters == at_state.characters
    assert fork.state.chat == at_state.chat and fork.state.game == at_state.game
    assert set(fork.state.members) == set(at_state.members)
    assert fork.state.members[pl].present is False and fork.state.members[h.gm].present
    # the player joins again as themselves with their new link; the source's token does not open it
    j = await h.hub.join(fork.table_id, f.member_tokens[pl])
    assert j.member_id == pl and fork.state.members[pl].present
    # they diverge: new ids never meet the source's
    await fork.execute(pl, CreateCharacter(name="分岐のキャラ"), command_id="f1")
    await h.send(pl, CreateCharacter(name="元のキャラ"))
    assert not set(fork.state.characters) - set(at_state.characters) & set(h.state.characters)
    assert "分岐のキャラ" not in [c.name for c in h.state.characters.values()]
    assert "元のキャラ" not in [c.name for c in fork.state.characters.values()]
    # the fork's own log verifies; with the source's, its prefix too
    await fork.execute(h.gm, RevealSeed(), command_id="s1")
    lines = lines_from_records(await h.hub.store.read(fork.table_id))
    rep = verify_log(lines, REGISTRY)
    assert rep.ok, [str(p) for p in rep.problems]
    source = lines_from_records(await h.hub.store.read(h.table.table_id))
    check_fork(lines, source, REGISTRY, rep)
    assert rep.ok and rep.counts["fork_prefix"] == at, [str(p) for p in rep.problems]
    # a source log changed before the fork's seq is caught
    i = next(i for i, ln in enumerate(source) if ln.data.get("type") == "character_created")
    bad = {**source[i].data, "name": "別人"}
    source[i] = dataclasses.replace(source[i], data=bad, public=bad)
    rep = verify_log(lines, REGISTRY)
    check_fork(lines, source, REGISTRY, rep)
    assert {p.code for p in rep.problems} >= {"verify/chain", "verify/fork"}


async def test_a_forks_log_alone_is_not_plainly_verified() -> None:
    """Without its source's log the state a fork carries (``table_forked``) is checked
    against nothing: a fork's own log alone is PARTLY VERIFIED, naming that seq and the
    way to check it (``--fork-source``); with the source's log it is VERIFIED."""
    h = await TableHarness.create("generic")
    pl = await h.join("たろう")
    await h.send(pl, CreateCharacter(name="アヤ"))
    f = await h.hub.fork_table(h.table.table_id, h.gm, at_seq=h.state.seq)
    fork = await h.hub.table(f.created.table_id)
    await fork.execute(h.gm, RevealSeed(), command_id="s1")
    lines = lines_from_records(await h.hub.store.read(fork.table_id))
    rep = verify_log(lines, REGISTRY)
    assert rep.ok and rep.verdict == "PARTLY VERIFIED", rep.unchecked
    ((at, why),) = rep.unchecked
    assert at == 2 and "--fork-source" in why and h.table.table_id in why
    await h.send(h.gm, RevealSeed())
    check_fork(lines, lines_from_records(await h.hub.store.read(h.table.table_id)), REGISTRY, rep)
    assert rep.verdict == "VERIFIED", (rep.problems, rep.unchecked)


async def test_only_the_gm_forks_unless_the_table_allows_members() -> None:
    h = await TableHarness.create("generic")
    pl = await h.join("たろう")
    try:
        await h.hub.fork_table(h.table.table_id, pl)
        raise AssertionError("a player forked")
    except TakuError as e:
        assert e.code == "fork/forbidden"
    try:
        await h.hub.fork_table(h.table.table_id, h.gm, at_seq=99)
        raise AssertionError("forked past the end")
    except TakuError as e:
        assert e.code == "fork/bad_seq"
    hub = Hub(MemoryEventStore(), REGISTRY)
    c = await hub.create_table(ruleset="generic", history=HistorySettings(fork_by_members=True))
    p2 = (await hub.join(c.table_id, c.player_token, "じろう")).member_id
    f = await hub.fork_table(c.table_id, p2)
    fork = await hub.table(f.created.table_id)
    assert fork.state.members[p2].role == "gm"
    await hub.close()


async def test_exports_strike_through_the_undone_commands() -> None:
    h = await TableHarness.create("generic")
    await h.send(h.gm, Chat(text="まちがい"))
    await h.send(h.gm, Chat(text="のこる"))
    await h.send(h.gm, Undo(command_id="h1", reason="誤爆"))
    page = await h.table.export("html")
    struck = [ln for ln in page.splitlines() if "まちがい" in ln]
    assert len(struck) == 1 and "undone" in struck[0] and "<del" in struck[0]
    assert "<del" not in next(ln for ln in page.splitlines() if "のこる" in ln)
    assert "#3 の操作を取り消しました：誤爆" in page
    text = await h.table.export("text")
    line = next(ln for ln in text.splitlines() if "\u0336" in ln)
    assert line.endswith("（取り消し）") and line.startswith("[3]")
    assert "のこる（取り消し）" not in text
    await h.send(h.gm, Redo())
    assert "<del" not in await h.table.export("html")


async def test_an_undo_far_back_on_a_long_table_reads_back_to_it_and_verifies() -> None:
    """The log is read backwards a page at a time until the target, and folded from a
    snapshot before it; deciding the undo again on the whole log gives the same event."""
    store = MemoryEventStore()
    hub = Hub(store, REGISTRY, snapshot_every=100)
    c = await hub.create_table(ruleset="generic")
    t = await hub.table(c.table_id)
    gm = c.member_id
    await t.execute(gm, CreateCharacter(name="アヤ"), command_id="early")
    for i in range(510):  # past one page of the log (500 events)
        await t.execute(gm, Chat(text=f"{i}"), command_id=f"chat{i}")
    await t.execute(gm, Undo(command_id="early"), command_id="u1")
    assert t.state.characters == {}
    await t.execute(gm, Undo(), command_id="u2")  # the default: the last chat line
    assert t.state.undone == ("early", "chat509")
    await t.execute(gm, Redo(command_id="early"), command_id="u3")
    assert [ch.name for ch in t.state.characters.values()] == ["アヤ"]
    await t.execute(gm, RevealSeed(), command_id="s1")
    rep = verify_log(lines_from_records(await store.read(c.table_id)), REGISTRY)
    assert rep.ok, [str(p) for p in rep.problems]
    await hub.close()


def test_taku_verify_fork_source_checks_the_prefix(tmp_path: Any, capsys: Any) -> None:
    from taku.cli import main
    from taku.store import open_store

    db = tmp_path / "t.db"

    async def make() -> tuple[str, str]:
        store = open_store(str(db))
        await store.open()
        hub = Hub(store, REGISTRY)
        c = await hub.create_table(ruleset="generic")
        t = await hub.table(c.table_id)
        await t.execute(c.member_id, CreateCharacter(name="アヤ"), command_id="c1")
        await t.execute(c.member_id, Undo(), command_id="u1")
        f = await hub.fork_table(c.table_id, c.member_id, at_seq=3)
        await hub.close()
        await store.close()
        return c.table_id, f.created.table_id

    source, fork = asyncio.run(make())
    assert main(["verify", "--db", str(db), fork, "--fork-source", source]) == 0
    out = capsys.readouterr().out
    assert "検証成功 [VERIFIED]" in out and "分岐元の seq 3 の状態と一致" in out
    # the fork's own log against another table as its source fails
    other = asyncio.run(make())[0]
    assert main(["verify", "--db", str(db), fork, "--fork-source", other]) == 1
    assert (
        "失敗 seq" in (out := capsys.readouterr().out)
        and "分岐元のログと分岐した卓の始まりが一致しません" in out
    )


async def test_a_timer_is_stopped_not_undone() -> None:
    from taku.core.commands import SetTimer

    h = await TableHarness.create("generic")
    await h.send(h.gm, SetTimer(duration_s=60, label="手番"))
    assert (await h.rejected(h.gm, Undo(command_id="h1"))).code == "undo/not_undoable"
    assert (await h.rejected(h.gm, Undo())).code == "undo/nothing"  # nothing else to undo


async def test_a_forced_redo_reads_forced_as_a_forced_undo_does() -> None:
    """The log line of a forced redo says （強制）, as the forced undo's does."""
    h = await TableHarness.create("generic")
    (made,) = await h.send(h.gm, CreateCharacter(name="ヤモト", sheet={"karate": 5}))
    cid = made.character_id  # type: ignore[attr-defined]
    await h.send(h.gm, UpdateCharacter(character_id=cid, sheet={"karate": 6}))
    await h.send(h.gm, Undo(command_id="h1", force=True, reason="作り直し"))
    await h.send(h.gm, Redo(command_id="h1", force=True, reason="やはり戻す"))
    text = await h.table.export("text")
    assert "の操作を取り消しました（強制）：作り直し" in text
    assert "の操作をやり直しました（強制）：やはり戻す" in text


async def test_a_redo_refused_for_a_later_dependent_command_does_not_say_undo() -> None:
    """undo/depends answers a redo too: its Japanese message fits both (not 取り消せません)."""
    h = await TableHarness.create("generic")
    (made,) = await h.send(h.gm, CreateCharacter(name="ヤモト", sheet={"karate": 5}))
    cid = made.character_id  # type: ignore[attr-defined]
    await h.send(h.gm, UpdateCharacter(character_id=cid, sheet={"karate": 6}))
    await h.send(h.gm, Undo())
    await h.send(h.gm, UpdateCharacter(character_id=cid, sheet={"karate": 9}))
    err = await h.rejected(h.gm, Redo())
    assert err.code == "undo/depends"
    from taku.codes import message

    ja = message(err.code, err.details)
    assert "取り消せません" not in ja and "やり直し" in ja and "6番" in ja, ja


async def test_a_spectator_never_forks_even_when_members_may() -> None:
    """``history.fork_by_members`` lets the players fork (the web client shows them
    「ここから分岐」), not a spectator: the forker is the fork's GM and sees what a GM sees."""
    hub = Hub(MemoryEventStore(), REGISTRY)
    c = await hub.create_table(ruleset="generic", history=HistorySettings(fork_by_members=True))
    spec = (await hub.join(c.table_id, c.spectator_token, "見学")).member_id
    try:
        await hub.fork_table(c.table_id, spec)
        raise AssertionError("a spectator forked")
    except TakuError as e:
        assert e.code == "fork/forbidden"
    await hub.close()


async def test_an_undo_decided_in_a_worker_thread_folds_and_refuses_the_same(
    monkeypatch: Any,
) -> None:
    """An undo with a long stretch of log to fold again is decided in a worker thread
    (taku.history.OFF_LOOP_ENTRIES; here every one): the table ends as the fold without
    the undone commands, and the refusals keep their codes."""
    from taku import history

    monkeypatch.setattr(history, "OFF_LOOP_ENTRIES", 1)
    await _run(
        [
            ("create", 0, False),
            ("chat", 1, True),
            ("update", 0, False),
            ("roll", 2, True),
            ("undo_pick", 0, False),
            ("undo_force", 0, False),
            ("undo", 0, False),
            ("redo", 0, False),
            ("redo_pick", 0, False),
            ("undo_pick", 3, False),
        ]
    )
    h = await TableHarness.create("generic")
    assert (await h.rejected(h.gm, Undo(command_id="nope"))).code == "undo/unknown_command"
    (a,) = await h.send(h.gm, CreateCharacter(name="アヤ"))
    await h.send(h.gm, UpdateCharacter(character_id=a.character_id, sheet={"hp": 3}))  # type: ignore[attr-defined]
    err = await h.rejected(h.gm, Undo(command_id="h2"))
    assert err.code == "undo/depends" and err.details["seq"] == 4
    await h.assert_replay_matches()


async def test_an_undo_far_back_leaves_the_event_loop_to_the_other_tables(
    monkeypatch: Any,
) -> None:
    """While an undo far back is being folded again (held here in its worker thread),
    another table's commands go on, and a command on its own table is kept: the undo
    is decided again on the table as it is then."""
    import threading

    from taku import history
    from taku.core import undo as core_undo

    monkeypatch.setattr(history, "OFF_LOOP_ENTRIES", 1)
    started, go = threading.Event(), threading.Event()
    real = core_undo.decide

    def held(*args: Any, **kw: Any) -> Any:
        started.set()
        assert go.wait(5), "the event loop was held: the other table could not go on"
        return real(*args, **kw)

    monkeypatch.setattr(core_undo, "decide", held)
    hub = Hub(MemoryEventStore(), REGISTRY)
    c, d = await hub.create_table(ruleset="generic"), await hub.create_table(ruleset="generic")
    t, other = await hub.table(c.table_id), await hub.table(d.table_id)
    await t.execute(c.member_id, CreateCharacter(name="アヤ"), command_id="early")
    for i in range(20):
        await t.execute(c.member_id, Chat(text=f"{i}"), command_id=f"chat{i}")
    undoing = asyncio.ensure_future(
        t.execute(c.member_id, Undo(command_id="early"), command_id="u1")
    )
    assert await asyncio.to_thread(started.wait, 5)
    seq = other.state.seq
    assert await other.execute(d.member_id, Chat(text="その間に"), command_id="x") == (
        seq + 1,
        seq + 1,
        False,
    )
    await t.execute(c.member_id, Chat(text="同じ卓でも"), command_id="same")
    assert not undoing.done()
    go.set()
    await undoing
    assert t.state.characters == {} and t.state.undone == ("early",)
    texts = [r for r in await hub.store.read(c.table_id) if r.command_id == "same"]
    assert len(texts) == 1 and t.state.seq > texts[0].seq  # kept, the undo after it
    await hub.close()


async def test_an_undo_far_back_on_a_table_that_never_waits_is_still_done(
    monkeypatch: Any,
) -> None:
    """A table whose every worker-thread decision is overtaken by a new command still
    gets its undo: the last try is decided on the event loop, which nothing overtakes."""
    import threading

    from taku import history
    from taku.app.commands import MAX_CONFLICT_RETRIES
    from taku.core import undo as core_undo

    monkeypatch.setattr(history, "OFF_LOOP_ENTRIES", 1)
    hub = Hub(MemoryEventStore(), REGISTRY)
    c = await hub.create_table(ruleset="generic")
    t = await hub.table(c.table_id)
    await t.execute(c.member_id, CreateCharacter(name="アヤ"), command_id="early")
    loop = asyncio.get_running_loop()
    real = core_undo.decide
    overtaken: list[int] = []

    def busy(*args: Any, **kw: Any) -> Any:
        if threading.current_thread() is not threading.main_thread():
            n = len(overtaken)  # a command lands while the undo is decided in its thread
            asyncio.run_coroutine_threadsafe(
                t.execute(c.member_id, Chat(text=f"割り込み {n}"), command_id=f"x{n}"), loop
            ).result(5)
            overtaken.append(n)
        return real(*args, **kw)

    monkeypatch.setattr(core_undo, "decide", busy)
    await t.execute(c.member_id, Undo(command_id="early"), command_id="u1")
    assert len(overtaken) == MAX_CONFLICT_RETRIES - 1
    assert t.state.characters == {} and t.state.undone == ("early",)
    await hub.close()
