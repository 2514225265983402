"""Undo on a ニンジャスレイヤーTRPG table (issue #20), on the rulebook's NS-EX-01 numbers."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from taku.core.commands import Redo, Undo, UpdateCharacter
from taku_nstrpg import events as ev
from taku_nstrpg.commands import Attack

Make = Callable[..., Awaitable[Any]]


async def test_the_karate_punch_undone_brings_the_yakuza_back_and_redo_fells_it(ns: Make) -> None:
    """NS-EX-01 (カラテ 4, faces 1,1,4,6: 2 successes, 1 damage, the clone yakuza falls), undone."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=4, tairyoku=5)
    (y,) = await t.mobs("クローンヤクザ", 1, karate=1, tairyoku=1, ninja=False)
    before = t.f(y)
    t.roll(1, 1, 4, 6)
    out = await t.do(Attack(attacker=me, target=y))
    d = next(e for e in out if isinstance(e, ev.DamageResolved))
    assert (d.amount, d.tairyoku, d.status) == (1, 0, "removed")
    cursor = t.h.state.dice_cursor
    (undone,) = await t.gm_do(Undo())
    assert undone.command == "nstrpg.attack"  # type: ignore[attr-defined]
    assert t.f(y) == before  # タイリョク 1 again, on the board
    assert t.h.state.dice_cursor == cursor  # the four faces stay drawn
    # nstrpg has a view of its own: the restored game goes to nobody, the undo to all
    frame = (await t.h.frames(t.pl, after_seq=t.h.state.seq - 1))[0]
    assert frame["event"]["type"] == "undone" and "restore" not in frame["event"]
    await t.gm_do(Redo())
    assert t.f(y).tairyoku == 0
    t.assert_dice_used()


async def test_a_sheet_change_an_attack_used_cannot_be_undone_without_force(ns: Make) -> None:
    t = await ns()
    me = await t.pc("ニンジャ", karate=2, tairyoku=5)
    (y,) = await t.mobs("クローンヤクザ", 1, karate=1, tairyoku=1, ninja=False)
    await t.gm_do(UpdateCharacter(character_id=me, sheet={"karate": 4}))
    change = f"h{t.h._cid}"
    t.roll(1, 1, 4, 6)
    await t.do(Attack(attacker=me, target=y))
    err = await t.h.rejected(t.gm, Undo(command_id=change))
    assert err.code == "undo/depends"
    await t.gm_do(Undo(command_id=change, force=True, reason="カラテの書き間違い"))
    assert t.h.state.characters[me].sheet["karate"] == 2
    assert t.f(y).tairyoku == 0  # a forced undo keeps the later attack's logged result


async def test_a_public_log_with_a_hidden_undo_verifies_up_to_it() -> None:
    """nstrpg's undo is hidden (its game has a view of its own): the public export still
    verifies, and says what the GM's full log checks beyond it; the full log checks all."""
    from taku.app import Hub
    from taku.core.commands import Chat, CreateCharacter, RevealSeed
    from taku.plugins import load_registry
    from taku.store.memory import MemoryEventStore
    from taku.verify import lines_from_export, lines_from_records, verify_log

    reg = load_registry()
    store = MemoryEventStore()
    hub = Hub(store, reg)
    c = await hub.create_table(ruleset="nstrpg")
    t = await hub.table(c.table_id)
    gm = c.member_id
    await t.execute(gm, CreateCharacter(name="ニンジャ", sheet={"karate": 4}), command_id="c1")
    await t.execute(gm, UpdateCharacter(character_id="c3", sheet={"karate": 5}), command_id="c2")
    await t.execute(gm, Undo(), command_id="u1")
    assert t.state.characters["c3"].sheet["karate"] == 4
    await t.execute(gm, Chat(text="2D6"), command_id="r1")
    await t.execute(gm, RevealSeed(), command_id="s1")
    public = verify_log(lines_from_export(await t.export("jsonl")), reg)
    assert public.ok, [str(p) for p in public.problems]
    full = verify_log(lines_from_records(await store.read(c.table_id)), reg)
    assert full.ok and not any("GM の全ログ" in why for _, why in full.unchecked)
    await hub.close()
