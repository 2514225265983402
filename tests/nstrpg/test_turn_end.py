"""The ターン終了フェイズ in its order (NSTRPG 2-9, CHECKLIST NS-42) and entry row 3's window
(2-15, NS-99), over the command path with scripted dice."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from taku.core.table import turn
from taku_nstrpg import commands as c
from taku_nstrpg import mapping as mp
from taku_nstrpg import turn_end as te
from taku_nstrpg._render import render
from taku_nstrpg.events import TurnEnded

from .test_affordances import find, offered

Make = Callable[..., Awaitable[Any]]

ROOM = "\n".join(("#########", "#.......#", "W.......D", "#.......#", "#########"))


async def combat(ns: Make) -> tuple[Any, str, str, str]:
    """A ninja PC (【DKK】10) and a boss on ROOM, a reinforcement mob not yet on the map (no
    手番 until placed), and turn 1 played to its end (every 手番 ended): the ターン終了フェイズ
    is due."""
    t = await ns()
    me = await t.pc("ボブ", karate=4, neuron=5, wazamae=4, dkk=10, tairyoku=8, seishin=3)
    boss = await t.npc("ボス", kind="boss", karate=4, neuron=3, wazamae=3, tairyoku=8)
    (mob,) = await t.mobs("クローンヤクザ", 1, karate=1, neuron=1, wazamae=1, tairyoku=1)
    await t.gm_do(mp.SetMap(text=ROOM))
    await t.gm_do(mp.Place(character_id=me, at=(2, 2)))
    await t.gm_do(mp.Place(character_id=boss, at=(6, 2)))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    await play_turn(t, me, boss)
    return t, me, boss, mob


async def play_turn(t: Any, *ids: str) -> None:
    for cid in ids:  # in initiative order (2-3): 【ニューロン】5, 3 (then 1, once placed)
        await t.gm_do(c.BeginTurnOf(character_id=cid))
        await t.gm_do(c.EndTurnOf(character_id=cid))


def phase(t: Any) -> tuple[str, str]:
    tr = turn(t.h.table.state, t.h.table.ruleset)
    assert tr is not None
    return tr.phase, tr.phase_label


def gm_offers(t: Any) -> set[str]:
    return {a.command.removeprefix("nstrpg.") for a in offered(t, t.gm)}


async def test_the_steps_go_in_the_order_of_2_9_and_out_of_order_is_refused(ns: Make) -> None:
    t, me, boss, mob = await combat(ns)
    assert phase(t) == ("turn_end", "ターン終了フェイズ（継続系の効果の処理）")
    assert "resolve_effects" in gm_offers(t) and "wasshoi" not in gm_offers(t)
    (effects,) = find(offered(t, t.gm), "resolve_effects")
    assert effects.primary
    # before the continuing effects: no ability, no new character, no Wasshoi!
    use = mp.UseAbility(character_id=me, ability="◉ツヨイ・スリケン")
    for early in (use, mp.Place(character_id=mob, at=(4, 1)), c.Wasshoi()):
        assert await t.rejected(t.gm, early) == "rule/nstrpg/turn_end_order"
    err = await t.h.rejected(t.gm, use)
    assert err.code == "rule/nstrpg/turn_end_order" and "継続系の効果の処理" in str(err)
    (e,) = await t.gm_do(te.ResolveEffects())
    assert isinstance(e, te.EffectsResolved) and (e.turn, e.ended) == (1, ())
    assert (
        phase(t)[1] == "ターン終了フェイズ（このフェイズで使える能力の使用とアトモスフィアの宣言）"
    )
    assert await t.rejected(t.gm, te.ResolveEffects()) == "rule/nstrpg/turn_end_order"
    # new characters are placed last: not before the atmosphere is declared
    assert await t.rejected(t.gm, mp.Place(character_id=mob, at=(4, 1))) == (
        "rule/nstrpg/turn_end_order"
    )
    (place,) = find(offered(t, t.gm), "place")
    assert mob not in [ch.value for ch in place.choices["character_id"]]
    # the GM may still move a character already on the map (2-5 the GM's placement)
    await t.gm_do(mp.Place(character_id=boss, at=(6, 3), reason="演出"))
    (ended,) = await t.gm_do(c.EndTurn(atmosphere="hard"))  # effects already done: only the end
    assert isinstance(ended, TurnEnded) and ended.atmosphere == "hard"
    assert t.h.game.atmosphere == "hard"
    # abilities are over once the atmosphere is declared; now the reinforcement
    assert await t.rejected(t.gm, use) == "rule/nstrpg/turn_end_order"
    (placed,) = await t.gm_do(mp.Place(character_id=mob, at=(4, 1), reason="増援"))
    assert placed.at == (4, 1)  # type: ignore[attr-defined]
    await t.gm_do(c.StartTurn())
    assert phase(t)[0] == "turn_begin" and not t.h.game.effects_done


async def test_the_effects_step_is_only_in_the_turn_end_phase(ns: Make) -> None:
    t, me, boss, _ = await combat(ns)
    await t.gm_do(c.EndTurn())
    await t.gm_do(c.StartTurn())
    await t.gm_do(c.BeginTurnOf(character_id=me))  # a 手番 runs: not the ターン終了フェイズ
    assert await t.rejected(t.gm, te.ResolveEffects()) == "rule/nstrpg/turn_end_order"
    assert "resolve_effects" not in gm_offers(t)


async def test_end_turn_resolves_the_effects_first_when_the_gm_skipped_the_step(
    ns: Make,
) -> None:
    t, _, _, _ = await combat(ns)
    out = await t.gm_do(c.EndTurn())
    assert [type(e) for e in out] == [te.EffectsResolved, TurnEnded]


async def test_wasshoi_comes_at_the_very_end_when_3_dkk_were_gained(ns: Make) -> None:
    """2-15: 3 or more 【DKK】 in one turn; in a combat the check is at the end of the
    ターン終了フェイズ, after the new characters; the turn does not end before it."""
    t, me, _, mob = await combat(ns)
    await t.gm_do(c.GainDkk(character_id=me, amount=3))
    await t.gm_do(te.ResolveEffects())
    assert await t.rejected(t.gm, c.Wasshoi()) == "rule/nstrpg/turn_end_order"
    (ended,) = await t.gm_do(c.EndTurn())
    assert isinstance(ended, TurnEnded) and ended.wasshoi_due
    assert phase(t)[1] == "ターン終了フェイズ（Wasshoi!判定）"
    assert "start_turn" not in gm_offers(t) and "end_combat" not in gm_offers(t)
    (wasshoi,) = find(offered(t, t.gm), "wasshoi")
    assert wasshoi.primary
    for too_soon in (c.StartTurn(), c.EndCombat()):
        assert await t.rejected(t.gm, too_soon) == "rule/nstrpg/turn_end_order"
    t.roll(6, 6, 2)  # 2D6 = 12 ≤ 【DKK】12 (10 + 3, at most 12): he enters by row 2
    await t.gm_do(c.Wasshoi())
    assert "start_turn" in gm_offers(t)
    await t.gm_do(c.StartTurn())
    t.assert_dice_used()


async def test_the_entry_modifier_ends_at_the_effects_step_of_the_next_turn(ns: Make) -> None:
    """2-15 row 4: 連続側転判定 +1 for DKK 1+ ninjas "次のターンの終了時まで": entered at the
    end of turn 1, it holds through turn 2 and ends at turn 2's continuing effects."""
    t, me, boss, mob = await combat(ns)
    await t.gm_do(c.EndTurn())
    t.roll(1, 1, 4)  # 2D6 = 2 ≤ 【DKK】10: he enters by row 4
    await t.gm_do(c.Wasshoi())
    assert (t.h.game.entry_sokuten, t.h.game.entry_until) == (1, 2)
    await t.gm_do(c.StartTurn())
    await play_turn(t, me, boss)
    assert t.h.game.entry_sokuten == 1  # still turn 2
    (e,) = await t.gm_do(te.ResolveEffects())
    assert isinstance(e, te.EffectsResolved)
    assert e.ended == ("死神のエントリーによる連続側転判定の難易度+1",)
    assert t.h.game.entry_sokuten == 0
    line = render(e, t.h.table.state)
    assert (
        line
        == "ターン2 終了フェイズ: 継続系の効果を処理（終了: 死神のエントリーによる連続側転判定の難易度+1）"
    )


async def test_players_may_declare_an_ability_in_the_abilities_step(ns: Make) -> None:
    """2-9: "このフェイズで使用可能な能力を使用できる。(プレイヤーも宣言可)": a player's
    declaration is recorded with its cooldown (NS-71); attack abilities are not offered."""
    t = await ns()
    stats = {"karate": 4, "neuron": 5, "wazamae": 4, "tairyoku": 8, "seishin": 3}
    skills = ["◉ツヨイ・スリケン", "◉カトン・ジツ:2ターン連続使用不可"]
    me = await t.pc("ボブ", skills=skills, **stats)
    boss = await t.npc("ボス", kind="boss", karate=4, neuron=3, wazamae=3, tairyoku=8)
    await t.gm_do(mp.SetMap(text=ROOM))
    await t.gm_do(mp.Place(character_id=me, at=(2, 2)))
    await t.gm_do(mp.Place(character_id=boss, at=(6, 2)))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    await play_turn(t, me, boss)
    assert not find(offered(t, t.pl), "use_ability")  # continuing effects first
    await t.gm_do(te.ResolveEffects())
    (use,) = find(offered(t, t.pl), "use_ability", character_id=me)
    assert [ch.value for ch in use.choices["ability"]] == ["◉カトン・ジツ"]
    (used,) = await t.do(mp.UseAbility(character_id=me, ability="◉カトン・ジツ"))
    assert isinstance(used, mp.AbilityUsed) and used.turn == 1
    await t.gm_do(c.EndTurn())
    assert not find(offered(t, t.pl), "use_ability")
    late = mp.UseAbility(character_id=me, ability="◉カトン・ジツ")
    assert await t.rejected(t.pl, late) == "rule/nstrpg/turn_end_order"


async def test_a_reinforcement_created_at_turn_end_acts_from_the_next_turn(ns: Make) -> None:
    """2-2 / 2-9: 増援 are placed in the ターン終了フェイズ and act from the next turn: one
    created now does not reopen the turn (no 手番, the steps stay in order)."""
    t, me, boss, _ = await combat(ns)
    (new,) = await t.mobs("増援ヤクザ", 1, karate=1, neuron=9, wazamae=1, tairyoku=1)
    assert phase(t) == ("turn_end", "ターン終了フェイズ（継続系の効果の処理）")
    assert "begin_turn_of" not in {a.command.removeprefix("nstrpg.") for a in offered(t, t.gm)}
    assert await t.rejected(t.gm, c.BeginTurnOf(character_id=new)) == (
        "rule/nstrpg/joined_this_turn"
    )
    use = mp.UseAbility(character_id=me, ability="◉ツヨイ・スリケン")
    for early in (mp.Place(character_id=new, at=(4, 1)), c.Wasshoi(), use):
        assert await t.rejected(t.gm, early) == "rule/nstrpg/turn_end_order"
    await t.gm_do(c.EndTurn())
    await t.gm_do(mp.Place(character_id=new, at=(4, 1), reason="増援"))
    assert phase(t)[0] == "turn_end"  # placed: still the ターン終了フェイズ
    await t.gm_do(c.StartTurn())
    tr = turn(t.h.table.state, t.h.table.ruleset)
    assert tr is not None and tr.actor == new  # 【ニューロン】9 acts first in turn 2
    await t.gm_do(c.BeginTurnOf(character_id=new))


async def test_a_reinforcement_without_a_map_waits_for_the_next_turn_too(ns: Make) -> None:
    """2-2 without a map: a character created mid-turn has no 手番 in this turn."""
    t = await ns()
    me = await t.pc("ボブ", karate=4, neuron=5, wazamae=4, tairyoku=8)
    boss = await t.npc("ボス", kind="boss", karate=4, neuron=3, wazamae=3, tairyoku=8)
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    await play_turn(t, me)
    (new,) = await t.mobs("増援ヤクザ", 1, karate=1, neuron=9, wazamae=1, tairyoku=1)
    tr = turn(t.h.table.state, t.h.table.ruleset)
    assert tr is not None and tr.actor == boss
    assert [s.label for s in tr.order if s.id == new] == ["増援ヤクザ1（次のターンから）"]
    await play_turn(t, boss)
    assert phase(t)[0] == "turn_end"
    assert await t.rejected(t.gm, c.BeginTurnOf(character_id=new)) == (
        "rule/nstrpg/joined_this_turn"
    )
    await t.gm_do(c.EndTurn())
    await t.gm_do(c.StartTurn())
    await play_turn(t, new, me, boss)
