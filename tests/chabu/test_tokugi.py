"""特技: timings, 射程 and 対象, コスト before the effect, 特技 and 装備 (CH-20, CH-23, CH-26…CH-30; CH-EX-02)."""

from __future__ import annotations

from typing import Any

from taku_chabu.commands import Attack, Check, Decline, PassAction, Proceed, StartCombat, UseTokugi
from taku_chabu.events import (
    AttackDeclared,
    CheckDeclared,
    CheckRolled,
    DamageRolled,
    Died,
    RoundEnded,
    TokugiUsed,
)
from taku_chabu.state import Condition

MANUAL = Condition(text="GMが判断する")


def tokugi(name: str, **kw: Any) -> dict[str, Any]:
    return {"name": name, "effect": f"{name}の効果", **kw}


async def test_ch_ex_02_ingaoho_cost_is_paid_before_the_effect(t: Any) -> None:
    """CH-EX-02: インガオホー値20 and cost 「インガオホー値＋５」: 25 before the effect resolves."""
    c = await t.pc(t.pl1, "A", ingaoho=20, tokugi=[tokugi("ジツ", cost={"ingaoho": 5})])
    (ev,) = await t.h.send(t.pl1, UseTokugi(character_id=c, tokugi="ジツ"))
    assert isinstance(ev, TokugiUsed)
    assert (ev.ingaoho_before, ev.ingaoho_after, ev.resolved, ev.died) == (20, 25, True, False)
    assert t.char(c).ingaoho == 25
    await t.h.assert_replay_matches()


async def test_ingaoho_cost_reaching_100_kills_before_the_effect(t: Any) -> None:
    """CH-25, CH-30, CH-EX-02 edge: 96 + 5 = 101 → 死亡 first; by default the effect does not resolve."""
    c = await t.pc(
        t.pl1,
        "A",
        ingaoho=96,
        tokugi=[
            tokugi(
                "ヒサツ",
                cost={"ingaoho": 5},
                check={"ability": "肉体"},
                power=10,
                targets=1,
                range="short",
            )
        ],
    )
    b = await t.npc("B")
    events = await t.h.send(t.pl1, UseTokugi(character_id=c, tokugi="ヒサツ", targets=[b]))
    used, died = events
    assert (
        isinstance(used, TokugiUsed)
        and used.ingaoho_after == 101
        and used.died
        and not used.resolved
    )
    assert isinstance(died, Died) and died.cause == "ingaoho"
    assert not any(
        isinstance(e, (AttackDeclared, CheckRolled)) for e in events
    )  # the attack never happens
    assert t.char(c).dead and t.h.view(t.gm)["game"]["status"][c] == "shibou"
    err = await t.h.rejected(t.pl1, Check(character_id=c, ability="肉体"))
    assert err.code == "rule/chabu/dead"


async def test_effect_after_cost_death_option(kit: Any) -> None:
    """Option ``effect_after_cost_death``: the deadly cost is paid, the character dies, the effect still resolves."""
    t = await kit.make_table({"effect_after_cost_death": True})
    c = await t.pc(t.pl1, "A", ingaoho=99, tokugi=[tokugi("最後のジツ", cost={"ingaoho": 1})])
    used, died = await t.h.send(t.pl1, UseTokugi(character_id=c, tokugi="最後のジツ"))
    assert used.died and used.resolved and isinstance(died, Died)


async def test_cost_in_counters_and_hp_must_be_payable(t: Any) -> None:
    """CH-30: a cost that cannot be paid is rejected, nothing written."""
    c = await t.pc(
        t.pl1,
        "A",
        hp=3,
        tokugi=[tokugi("血のジツ", cost={"hp": 5}), tokugi("ワザ", cost={"wazamae": 1})],
    )
    assert (
        await t.h.rejected(t.pl1, UseTokugi(character_id=c, tokugi="血のジツ"))
    ).code == "rule/chabu/not_enough_hp"
    assert (
        await t.h.rejected(t.pl1, UseTokugi(character_id=c, tokugi="ワザ"))
    ).code == "rule/chabu/not_enough_counters"


async def test_joji_is_never_used(t: Any) -> None:
    """CH-27: a 常時 特技 is always on; it is not used."""
    c = await t.pc(t.pl1, "A", tokugi=[tokugi("頑健", timing="joji")])
    err = await t.h.rejected(t.pl1, UseTokugi(character_id=c, tokugi="頑健"))
    assert err.code == "rule/chabu/joji_always_on"


async def test_tokugi_range_and_target_count(t: Any) -> None:
    """CH-29: targets within the 特技's 射程, as many as its 対象."""
    c = await t.pc(
        t.pl1,
        "A",
        tokugi=[
            tokugi("遠当て", range="over", targets=1),
            tokugi("二連", range="short", targets=2),
        ],
    )
    b = await t.npc("B")
    d = await t.npc("D")
    e = await t.npc("E")
    assert (
        await t.h.rejected(t.pl1, UseTokugi(character_id=c, tokugi="遠当て", targets=[b]))
    ).code == "rule/chabu/out_of_range"
    err = await t.h.rejected(t.pl1, UseTokugi(character_id=c, tokugi="二連", targets=[b, d, e]))
    assert err.code == "rule/chabu/target_count"
    (ev,) = await t.h.send(t.pl1, UseTokugi(character_id=c, tokugi="二連", targets=[b, d]))
    assert ev.targets == (b, d)


async def test_tokugi_attack_uses_its_own_check_and_adds_named_category_power(
    t: Any, kit: Any
) -> None:
    """CH-20, CH-23: the 特技's 【判定値】, its 威力 plus the worn カタナ's only because its effect names カタナ."""
    cut = tokugi(
        "イアイ", check={"ability": "精神"}, power=4, category="カタナ", targets=1, range="short"
    )
    kick = tokugi("ケリ", check={"ability": "精神"}, power=4, targets=1, range="short")
    c = await t.pc(t.pl1, "A", dl=1, tokugi=[cut, kick])
    b = await t.npc("B", hp=40)
    t.roll(50)  # 精神50: not the katana's 肉体+カラテ 55
    t.d10(6)
    events = await t.h.send(t.pl1, UseTokugi(character_id=c, tokugi="イアイ", targets=[b]))
    decl = next(e for e in events if isinstance(e, AttackDeclared))
    assert decl.check == 50 and decl.power == 4 + 5 and decl.equipment == "カタナ"
    _, dmg, _ = await t.h.send(t.gm, Decline(character_id=b))
    assert dmg.total == 9 + 6
    # a 特技 whose effect names no 分類 uses no weapon data
    err = await t.h.rejected(
        t.pl1, UseTokugi(character_id=c, tokugi="ケリ", targets=[b], equipment="カタナ")
    )
    assert err.code == "rule/chabu/equipment_not_named"
    t.roll(51)
    events = await t.h.send(t.pl1, UseTokugi(character_id=c, tokugi="ケリ", targets=[b]))
    decl = next(e for e in events if isinstance(e, AttackDeclared))
    assert decl.power == 4 and decl.equipment is None and events[-1].outcome == "missed"


async def test_setsuna_resolves_before_the_declared_check(t: Any) -> None:
    """CH-27, G-CH-11: 刹那 answers a declaration and takes effect before it; several characters may answer."""
    guard = tokugi("見切り", timing="setsuna", cost={"ingaoho": 2})
    a = await t.pc(t.pl1, "A", tokugi=[guard])
    b = await t.pc(t.pl2, "B", tokugi=[guard])
    foe = await t.npc("敵", tokugi=[guard, tokugi("妨害", timing="setsuna")])
    (decl,) = await t.h.send(
        t.pl1, Attack(character_id=a, equipment="カタナ", targets=[foe], hold=True)
    )
    assert isinstance(decl, AttackDeclared) and decl.held
    # the foe answers with two different 刹那, player 2's character with the same-named one
    await t.h.send(t.gm, UseTokugi(character_id=foe, tokugi="見切り"))
    await t.h.send(t.gm, UseTokugi(character_id=foe, tokugi="妨害"))
    (used,) = await t.h.send(t.pl2, UseTokugi(character_id=b, tokugi="見切り"))
    assert used.answers == decl.declaration and t.char(b).ingaoho == 2
    err = await t.h.rejected(t.gm, UseTokugi(character_id=foe, tokugi="見切り"))
    assert err.code == "rule/chabu/setsuna_repeated"
    # then the declared attack resolves, the 刹那 effect given as a modifier
    t.roll(60)
    events = await t.h.send(t.pl1, Proceed(modifier=10))
    hit = next(e for e in events if isinstance(e, CheckRolled))
    assert hit.target == 55 + 10 and hit.success
    log = await t.h.events()
    kinds = [type(e).__name__ for e in log if type(e).__name__ in ("TokugiUsed", "CheckRolled")]
    assert kinds == ["TokugiUsed", "TokugiUsed", "TokugiUsed", "CheckRolled"]


async def test_setsuna_needs_a_declaration_and_may_answer_a_check(t: Any) -> None:
    """CH-27: 刹那 only right after someone declares an action or a check."""
    guard = tokugi("集中", timing="setsuna")
    a = await t.pc(t.pl1, "A", tokugi=[guard])
    err = await t.h.rejected(t.pl1, UseTokugi(character_id=a, tokugi="集中"))
    assert err.code == "rule/chabu/no_declaration"
    (decl,) = await t.h.send(t.pl1, Check(character_id=a, ability="精神", hold=True))
    assert isinstance(decl, CheckDeclared)
    await t.h.send(t.pl1, UseTokugi(character_id=a, tokugi="集中"))
    t.roll(51)
    events = await t.h.send(t.pl1, Proceed())
    assert events[0].value == 51 and not events[0].success and events[-1].outcome == "failure"
    assert t.h.game.pending is None


async def test_tokugi_outside_rounds_and_rounds_only(t: Any) -> None:
    """CH-28: a 特技 is usable outside ラウンド進行 unless it says otherwise."""
    a = await t.pc(
        t.pl1,
        "A",
        tokugi=[
            tokugi(
                "自由",
            ),
            tokugi("戦場のみ", in_rounds_only=True),
        ],
    )
    (ev,) = await t.h.send(t.pl1, UseTokugi(character_id=a, tokugi="自由"))
    assert ev.resolved
    err = await t.h.rejected(t.pl1, UseTokugi(character_id=a, tokugi="戦場のみ"))
    assert err.code == "rule/chabu/rounds_only"


async def test_katsugeki_tokugi_is_the_action_and_end_phase_clears_effects(t: Any) -> None:
    """CH-16, CH-17: a 活劇 特技 makes its user 行動完了; effects lasting to the エンドフェイズ end there."""
    a = await t.pc(t.pl1, "A", dl=2, tokugi=[tokugi("ブースト", until_end_phase=True)])
    b = await t.npc("B", dl=1)
    await t.h.send(t.gm, StartCombat(victory=MANUAL, defeat=MANUAL, participants=[a, b]))
    (ev,) = await t.h.send(t.pl1, UseTokugi(character_id=a, tokugi="ブースト"))
    assert ev.is_action and t.h.game.combat.effects == [(a, "ブースト")]
    assert t.h.view(t.pl1)["game"]["status"][a] == "koudoukanryou"
    err = await t.h.rejected(t.pl1, UseTokugi(character_id=a, tokugi="ブースト"))
    assert err.code == "rule/chabu/not_your_turn"
    events = await t.h.send(t.gm, PassAction(character_id=b))
    (ended,) = [e for e in events if isinstance(e, RoundEnded)]
    assert ended.cleared == ((a, "ブースト"),) and t.h.game.combat.effects == []
    await t.h.assert_replay_matches()


async def test_death_from_cost_in_a_round_skips_the_character(t: Any) -> None:
    """CH-25: a character killed by its own cost in a round acts no more; the round moves on."""
    a = await t.pc(t.pl1, "A", dl=2, ingaoho=95, tokugi=[tokugi("禁じ手", cost={"ingaoho": 5})])
    b = await t.npc("B", dl=1)
    await t.h.send(t.gm, StartCombat(victory=MANUAL, defeat=MANUAL, participants=[a, b]))
    events = await t.h.send(t.pl1, UseTokugi(character_id=a, tokugi="禁じ手"))
    assert any(isinstance(e, Died) for e in events)
    assert t.h.view(t.gm)["game"]["turn"] == b
    events = await t.h.send(t.gm, PassAction(character_id=b))
    assert t.h.game.combat.round.order == [b]
    assert not any(isinstance(e, DamageRolled) for e in events)


async def test_held_katsugeki_tokugi_resolves_on_proceed(t: Any) -> None:
    """CH-27: a held 活劇 特技 waits for 刹那 answers; on proceed it resolves and the user is 行動完了."""
    a = await t.pc(
        t.pl1, "A", dl=2, tokugi=[tokugi("結界", until_end_phase=True, cost={"ingaoho": 3})]
    )
    b = await t.npc("B", dl=1, tokugi=[tokugi("横槍", timing="setsuna")])
    await t.h.send(t.gm, StartCombat(victory=MANUAL, defeat=MANUAL, participants=[a, b]))
    (used,) = await t.h.send(t.pl1, UseTokugi(character_id=a, tokugi="結界", hold=True))
    assert (
        used.declaration is not None and t.char(a).ingaoho == 3
    )  # the cost is paid on declaration
    assert t.h.view(t.gm)["game"]["status"][a] == "mikoudou"
    await t.h.send(t.gm, UseTokugi(character_id=b, tokugi="横槍"))
    (closed,) = await t.h.send(t.pl1, Proceed())
    assert closed.outcome == "resolved" and closed.lasting
    assert t.h.game.combat.effects == [(a, "結界")]
    assert t.h.view(t.gm)["game"]["turn"] == b
    await t.h.assert_replay_matches()


async def test_wazamae_raises_ingaoho_by_the_option_and_can_kill(kit: Any) -> None:
    """CH-07, G-CH-02: a ワザマエカウンター raises インガオホー値 by ``wazamae_ingaoho``; a タツジンカウンター never does."""
    from taku_chabu.commands import SpendCounter

    t = await kit.make_table({"wazamae_ingaoho": 10})
    a = await t.pc(t.pl1, "A", ingaoho=90, wazamae=1, tatsujin=1)
    (ev,) = await t.h.send(t.pl1, SpendCounter(character_id=a, counter="tatsujin"))
    assert ev.ingaoho_after == 90 and t.char(a).tatsujin == 0
    ev, died = await t.h.send(t.pl1, SpendCounter(character_id=a, counter="wazamae"))
    assert ev.ingaoho_after == 100 and isinstance(died, Died) and t.char(a).wazamae == 0
    err = await t.h.rejected(t.pl1, SpendCounter(character_id=a, counter="wazamae"))
    assert err.code == "rule/chabu/dead"


async def test_dl0_descension_lifts_death_with_a_wazamae_counter(kit: Any) -> None:
    """CH-25 (■キャラクターの状態 "ＤＬ０のキャラクターはワザマエカウンターを使用することで
    「ディセンション」を行い、「死亡」を解除することも出来る"), CH-07.

    A DL 0 モータル with HP 6 dies at HP 0; spending a ワザマエカウンター lifts 死亡
    (it stays 戦闘不能 at HP 0 until the GM sets its new values), raising
    インガオホー値 by ``wazamae_ingaoho`` (4). A タツジンカウンター, used "like a
    ワザマエカウンター", does it too without the rise. A DL 1 character cannot.
    """
    from taku.core.render import render
    from taku_chabu.commands import Adjust, SpendCounter
    from taku_chabu.events import CounterSpent

    t = await kit.make_table({"wazamae_ingaoho": 4})
    mortal = await t.pc(t.pl1, "モータル", dl=0, hp=6, wazamae=1, tatsujin=1)
    ninja = await t.npc("ニンジャ", dl=1, hp=6, wazamae=1)
    await t.h.send(t.gm, Adjust(character_id=mortal, key="hp", delta=-6))
    assert t.char(mortal).dead
    (ev,) = await t.h.send(t.pl1, SpendCounter(character_id=mortal, counter="wazamae"))
    assert isinstance(ev, CounterSpent) and ev.descension and ev.ingaoho_after == 4
    assert not t.char(mortal).dead and t.char(mortal).wazamae == 0 and t.char(mortal).hp == 0
    assert t.h.view(t.gm)["game"]["status"][mortal] == "sentoufunou"
    assert "ディセンション" in render(ev, t.h.state, t.h.table.ruleset, t.gm)
    await t.h.send(
        t.gm, Adjust(character_id=mortal, key="ingaoho", delta=3)
    )  # HP untouched: still alive
    assert not t.char(mortal).dead
    await t.h.send(t.gm, Adjust(character_id=mortal, key="hp", value=4))
    await t.h.send(t.gm, Adjust(character_id=mortal, key="hp", value=0))  # HP 0 again: 死亡 again
    assert t.char(mortal).dead
    err = await t.h.rejected(t.pl1, SpendCounter(character_id=mortal, counter="wazamae"))
    assert err.code == "rule/chabu/no_counter"
    (ev,) = await t.h.send(t.pl1, SpendCounter(character_id=mortal, counter="tatsujin"))
    assert (
        ev.descension
        and ev.ingaoho_after == 7
        and not t.char(mortal).dead
        and t.char(mortal).tatsujin == 0
    )
    await t.h.send(t.gm, Adjust(character_id=ninja, key="ingaoho", value=100))
    assert t.char(ninja).dead
    err = await t.h.rejected(t.gm, SpendCounter(character_id=ninja, counter="wazamae"))
    assert err.code == "rule/chabu/dead"
    await t.h.assert_replay_matches()


async def test_tatsujin_counter_pays_a_wazamae_cost(kit: Any) -> None:
    """CH-07 ("「タツジンカウンター」は「ワザマエカウンター」と同様に使用できるが、使用しても
    インガオホー値が上昇することはない"): a コスト of ワザマエカウンター2 is paid with
    ワザマエ first and タツジン for the rest, or タツジン first on request; only
    ワザマエ raises インガオホー値 (``wazamae_ingaoho`` 3)."""
    t = await kit.make_table({"wazamae_ingaoho": 3})
    a = await t.pc(
        t.pl1,
        "A",
        wazamae=1,
        tatsujin=3,
        tokugi=[tokugi("ワザ", cost={"wazamae": 2, "ingaoho": 1})],
    )
    (ev,) = await t.h.send(t.pl1, UseTokugi(character_id=a, tokugi="ワザ"))
    assert ev.tatsujin_for_wazamae == 1 and ev.ingaoho_after == 1 + 3
    assert (t.char(a).wazamae, t.char(a).tatsujin, t.char(a).ingaoho) == (0, 2, 4)
    (ev,) = await t.h.send(t.pl1, UseTokugi(character_id=a, tokugi="ワザ"))
    assert ev.tatsujin_for_wazamae == 2 and ev.ingaoho_after == 5
    assert (t.char(a).wazamae, t.char(a).tatsujin) == (0, 0)
    err = await t.h.rejected(t.pl1, UseTokugi(character_id=a, tokugi="ワザ"))
    assert err.code == "rule/chabu/not_enough_counters"
    b = await t.pc(t.pl2, "B", wazamae=2, tatsujin=2, tokugi=[tokugi("ワザ", cost={"wazamae": 2})])
    (ev,) = await t.h.send(t.pl2, UseTokugi(character_id=b, tokugi="ワザ", prefer_tatsujin=True))
    assert ev.tatsujin_for_wazamae == 2 and ev.ingaoho_after == 0
    assert (t.char(b).wazamae, t.char(b).tatsujin) == (2, 0)
    await t.h.assert_replay_matches()


async def test_descension_refused_while_ingaoho_stays_at_100(t: Any) -> None:
    """CH-25: a DL 0 character dead of インガオホー値 100 would die again at once: refused, nothing written."""
    from taku_chabu.commands import Adjust, SpendCounter

    mortal = await t.pc(t.pl1, "モータル", dl=0, hp=6, wazamae=2)
    await t.h.send(t.gm, Adjust(character_id=mortal, key="ingaoho", value=100))
    assert t.char(mortal).dead
    before = len(await t.h.events())
    err = await t.h.rejected(t.pl1, SpendCounter(character_id=mortal, counter="wazamae"))
    assert err.code == "rule/chabu/descension_ingaoho" and len(await t.h.events()) == before
