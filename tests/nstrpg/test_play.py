"""Rules beyond the worked examples: DKK and Wasshoi!, カイシャク, 即死, ニンジャ第六感,
resistance, counters, combat and scenario ends, GM overrides, rendering, invariants."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taku.core.commands import Override
from taku.core.dice import ScriptedDice
from taku.core.ruleset import Context, Role
from taku_nstrpg import events as ev
from taku_nstrpg.checks import EASY, HARD, NORMAL, UH
from taku_nstrpg.combat import initiative_order, placement_order
from taku_nstrpg.commands import (
    AdjustValue,
    Attack,
    BeginTurnOf,
    Check,
    CreateNinjaSlayer,
    EndCombat,
    EndScenario,
    EndTurn,
    EndTurnOf,
    Evade,
    GainDkk,
    Inflict,
    Kaishaku,
    OverrideHit,
    Reroll,
    RerollEntry,
    Split,
    StartCombat,
    StartTurn,
    Wasshoi,
)

Make = Callable[..., Awaitable[Any]]


def of(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def test_ex11_ex12_initiative_order() -> None:
    """NS-EX-11/12: ties between PCs by their agreed order, PCs before enemies; placement reversed."""
    pcs = [("bob", 1, True), ("kevin", 4, True), ("emily", 4, True)]
    assert initiative_order(pcs, pc_rank=["emily", "kevin"]) == ["emily", "kevin", "bob"]
    order = initiative_order(
        [*pcs, ("yabu", 2, False), ("clone", 1, False)], pc_rank=["emily", "kevin"]
    )
    assert order == ["emily", "kevin", "yabu", "bob", "clone"]
    five = [
        ("PC1", 9, True),
        ("BM", 8, False),
        ("PC2", 6, True),
        ("PC3", 0, True),
        ("clone", -2, False),
    ]
    assert initiative_order(five) == ["PC1", "BM", "PC2", "PC3", "clone"]  # ≤ 0 acts as 1 (NS-32)
    assert placement_order(five) == ["clone", "PC3", "PC2", "BM", "PC1"]


async def test_initiative_is_current_neuron(ns: Make) -> None:
    """NS-17, NS-20: イニシアチブ = current ニューロン + modifiers; the view shows it."""
    t = await ns()
    me = await t.pc("ニンジャ", neuron=4, initiative_bonus=2)
    await t.gm_do(
        AdjustValue(character_id=me, field="ability_damage", value={"neuron": 2}, reason="頭部痛打")
    )
    d = t.h.view(t.pl)["game"]["derived"][me]
    assert (d["initiative"], d["evasion_per_turn"]) == (4, 2)


async def test_dkk_gain_cap_and_wasshoi(ns: Make) -> None:
    """NS-25, NS-97 … NS-100: 2D3 DKK, capped at 12; 3+ in a turn calls Wasshoi!; 2D6 ≤ DKK; one entry reroll."""
    t = await ns()
    a = await t.pc("悪ニンジャ", karate=3, dkk=10)
    b = await t.pc("小悪党", karate=3, dkk=2)
    await t.gm_do(StartCombat())
    await t.gm_do(StartTurn())
    t.roll(5, 6)  # 2D3 = 3 + 3
    g = of(
        await t.gm_do(GainDkk(character_id=a, guide="vip_kill", reason="重要NPCを殺害")),
        ev.DkkGained,
    )[0]
    assert (g.amount, g.before, g.after, g.wasshoi_due) == (6, 10, 12, True)
    assert t.f(a).dkk == 12 and t.h.game.wasshoi_due
    t.roll(6, 6, 3)
    w = of(await t.gm_do(Wasshoi()), ev.WasshoiRolled)[0]
    assert (w.total, w.target, w.success, w.target_ninja, w.entry_row) == (12, 12, True, a, 3)
    assert (
        await t.rejected(t.gm, AdjustValue(character_id=b, field="dkk", value=13))
        == "rule/nstrpg/dkk_range"
    )


async def test_wasshoi_roll_and_entry(ns: Make) -> None:
    """NS-98 … NS-100: success at or below the highest DKK, entry d6; reroll once, then the GM chooses."""
    t = await ns()
    await t.pc("悪ニンジャ", karate=3, dkk=8)
    await t.pc("小悪党", karate=3, dkk=3)
    t.roll(4, 5)
    w = of(await t.gm_do(Wasshoi()), ev.WasshoiRolled)[0]
    assert (w.total, w.target, w.success, w.entry) == (9, 8, False, None)
    assert await t.rejected(t.gm, RerollEntry()) == "rule/nstrpg/no_entry"
    t.roll(3, 1, 2)
    w = of(await t.gm_do(Wasshoi()), ev.WasshoiRolled)[0]
    assert (w.success, w.entry_row) == (True, 2)
    assert await t.rejected(t.gm, RerollEntry(choose=5)) == "rule/nstrpg/reroll_first"
    t.roll(3)
    assert of(await t.gm_do(RerollEntry()), ev.EntryRerolled)[0].row == 3
    assert await t.rejected(t.gm, RerollEntry()) == "rule/nstrpg/reroll_once"
    assert of(await t.gm_do(RerollEntry(choose=1)), ev.EntryRerolled)[0].chosen


async def test_ninja_slayer_template(ns: Make) -> None:
    """NS-102: Ninja Slayer's block: 回避 14, 即死耐性, ●連続攻撃3 and ●時間差 from his values."""
    t = await ns()
    (c,) = await t.gm_do(CreateNinjaSlayer())
    d = t.h.view(t.gm)["game"]["derived"][c.character_id]
    assert (
        d["evasion_per_turn"] == 14
        and "●連続攻撃3" in d["auto_skills"]
        and "●時間差" in d["auto_skills"]
    )
    assert t.f(c.character_id).tairyoku == 13


async def test_instant_death_and_resistance(ns: Make) -> None:
    """NS-94: row 6 kills; with 即死耐性 it is 痛打+2D6, then ダメージ軽減."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=4)
    foe = await t.npc("敵", kind="boss", karate=2, tairyoku=9, seishin=3)
    t.roll(6, 6, 1, 1)
    a = of(await t.do(Attack(attacker=me, target=foe)), ev.AttackRolled)[0]
    t.roll(6)
    d = of(await t.gm_do(Evade(defender=foe, hits=[a.hits[0].id])), ev.DamageResolved)[0]
    assert (d.instant_death, d.status) == (True, "dead")
    tough = await t.npc(
        "タフ",
        kind="boss",
        karate=2,
        tairyoku=20,
        seishin=3,
        instant_death_resistance=True,
        damage_reduction=1,
    )
    t.roll(6, 6, 1, 1)
    a = of(await t.do(Attack(attacker=me, target=tough)), ev.AttackRolled)[0]
    t.roll(6, 5, 4)
    d = of(await t.gm_do(Evade(defender=tough, hits=[a.hits[0].id])), ev.DamageResolved)[0]
    assert (d.tsuda, d.amount, d.tairyoku, d.status) == (9, 9, 11, "active")


async def test_fainted_targets_and_kaishaku(ns: Make) -> None:
    """NS-86, NS-87: attacks on the 気絶 hit without a roll and cannot be evaded; カイシャク is row 6."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=4, seishin=2, tairyoku=5)
    foe = await t.npc("敵ニンジャ", kind="boss", karate=2, tairyoku=2, seishin=1)
    await t.gm_do(Inflict(target=foe, damage=2, evadable=False))
    assert t.f(foe).status == "fainted"
    out = await t.do(Attack(attacker=me, target=foe))
    a = of(out, ev.AttackRolled)[0]
    assert a.rolls[0].auto and a.rolls[0].roll is None
    d = of(out, ev.DamageResolved)[0]
    assert (d.seishin_spent, d.tairyoku, d.seishin, d.status) == (
        1,
        0,
        0,
        "fainted",
    )  # 耐久力 continues
    out = await t.do(Kaishaku(attacker=me, target=foe))
    assert of(out, ev.DamageResolved)[0].status == "dead"
    other = await t.npc("起きている敵", kind="boss", karate=2, tairyoku=3)
    assert await t.rejected(t.pl, Kaishaku(attacker=me, target=other)) == "rule/nstrpg/not_fainted"


async def test_fainted_cannot_act_but_resists(ns: Make) -> None:
    """NS-10, NS-82: a 気絶 character cannot attack or check, but makes 抵抗判定."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=3, neuron=2, tairyoku=1)
    (y,) = await t.mobs("ヤクザ", 1, ninja=False)
    await t.gm_do(Inflict(target=me, damage=1, evadable=False))
    assert await t.rejected(t.pl, Attack(attacker=me, target=y)) == "rule/nstrpg/cannot_act"
    assert await t.rejected(t.pl, Check(character_id=me)) == "rule/nstrpg/cannot_act"
    t.roll(4, 1)
    c = of(await t.do(Check(character_id=me, stat="neuron", purpose="resistance")), ev.CheckRolled)[
        0
    ]
    assert c.success


async def test_mobs_cannot_evade_and_counter_rules(ns: Make) -> None:
    """NS-72, NS-77: mobs take hits at once; no counter against shooting or a counter."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=3, wazamae=6, tairyoku=9)
    foe = await t.npc("敵ニンジャ", kind="boss", karate=3, wazamae=3, tairyoku=9)
    t.roll(4, 1, 1)
    a = of(await t.gm_do(Attack(attacker=foe, kind="shoot", target=me)), ev.AttackRolled)[0]
    t.roll(6, 6, 6, 6, 6, 6)
    out = await t.do(Evade(defender=me, hits=[a.hits[0].id], dice=6))
    assert of(out, ev.EvasionRolled)[0].success and of(out, ev.CounterKarate) == []
    assert (
        await t.rejected(t.pl, Evade(defender=me, hits=["nope"], dice=1))
        == "rule/nstrpg/no_such_hit"
    )
    # a counter can be evaded, never countered
    t.roll(4, 1, 1)
    a = of(await t.gm_do(Attack(attacker=foe, target=me)), ev.AttackRolled)[0]
    t.roll(6, 6, 1, 1, 1, 1)
    me_f = t.f(me)
    assert me_f.evasion_dice == 0
    await t.gm_do(AdjustValue(character_id=me, field="evasion_dice", value=6, reason="テスト"))
    ctr = of(await t.do(Evade(defender=me, hits=[a.hits[0].id], dice=6)), ev.CounterKarate)[0]
    t.roll(6, 6, 6)
    out = await t.gm_do(Evade(defender=foe, hits=[ctr.hit.id], dice=3))
    assert of(out, ev.EvasionRolled)[0].difficulty == NORMAL and of(out, ev.CounterKarate) == []


async def test_sixth_sense_reroll(ns: Make) -> None:
    """NS-70, NS-15: once per scenario, same dice and difficulty, the new result stands, no reroll
    of a reroll, one shot of a volley, not after the opponent evaded."""
    t = await ns()
    me = await t.pc("ニンジャ", neuron=13, karate=7, wazamae=2, tairyoku=9)
    plain = await t.pc("凡人", neuron=5)
    assert await t.rejected(t.pl, Reroll(character_id=plain)) == "rule/nstrpg/no_sixth_sense"
    t.roll(6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    c = of(await t.do(Check(character_id=me, stat="neuron", difficulty="HARD")), ev.CheckRolled)[0]
    assert c.success
    t.roll(*([1] * 13))
    r = of(await t.do(Reroll(character_id=me)), ev.CheckRolled)[0]
    assert (r.pool, r.difficulty, r.success, r.reroll_of) == (13, c.difficulty, False, c.check_id)
    assert await t.rejected(t.pl, Reroll(character_id=me)) == "rule/nstrpg/sixth_sense_used"
    await t.gm_do(EndScenario())
    # a missed shot of a split, rerolled into a hit
    foe = await t.npc("敵", kind="boss", karate=2, tairyoku=9)
    t.roll(4, 1, 1, 1)
    a = of(
        await t.do(
            Attack(attacker=me, splits=[Split(target=foe, dice=2), Split(target=foe, dice=2)])
        ),
        ev.AttackRolled,
    )[0]
    assert [r.success for r in a.rolls] == [True, False]
    t.roll(5, 1)
    rr = of(await t.do(Reroll(character_id=me, index=1)), ev.AttackRerolled)[0]
    assert rr.roll.success and rr.hit is not None and len(t.pending) == 2


async def test_sixth_sense_not_after_evasion(ns: Make) -> None:
    """NS-70: once the opponent rolled an evasion against the volley, no reroll."""
    t = await ns()
    me = await t.pc("ニンジャ", neuron=13, karate=7)
    foe = await t.npc("敵", kind="boss", karate=2, tairyoku=9)
    t.roll(4, 1, 4, 1)
    a = of(
        await t.do(
            Attack(attacker=me, splits=[Split(target=foe, dice=2), Split(target=foe, dice=2)])
        ),
        ev.AttackRolled,
    )[0]
    t.roll(1)
    await t.gm_do(Evade(defender=foe, hits=[a.hits[0].id], dice=1))
    assert await t.rejected(t.pl, Reroll(character_id=me, index=1)) == "rule/nstrpg/already_evaded"


async def test_combat_end_money_pool_and_scenario_split(ns: Make) -> None:
    """NS-26, NS-43, NS-111: fallen enemies' 万札 go to the pool; the scenario end splits it."""
    t = await ns()
    a = await t.pc("A", karate=3, manken=1)
    b = await t.pc("B", karate=3)
    ys = await t.mobs("ヤクザ", 2, ninja=False, manken=3)
    await t.gm_do(StartCombat())
    for y in ys:
        await t.gm_do(Inflict(target=y, damage=1, evadable=False))
    c = of(await t.gm_do(EndCombat()), ev.CombatEnded)[0]
    assert c.money == 6 and t.h.game.money_pool == 6
    # a combat ends once: outside combat there is none to end (and no 万札 twice)
    assert await t.rejected(t.gm, EndCombat()) == "rule/nstrpg/not_in_combat"
    assert t.h.game.money_pool == 6
    s = of(await t.gm_do(EndScenario()), ev.ScenarioEnded)[0]
    assert s.shares == {a: 3, b: 3}
    assert t.h.state.characters[a].sheet["manken"] == 4


async def test_gm_overrides(ns: Make) -> None:
    """GM overrides of any value: through the core override (with its reason) and nstrpg.adjust;
    players cannot."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=3, tairyoku=5)
    await t.gm_do(Override(path=["game", "fighters", me, "tairyoku"], value=2, reason="罠"))
    assert t.f(me).tairyoku == 2
    await t.gm_do(Override(path=["game", "atmosphere"], value="hard", reason="シナリオ指定"))
    assert t.h.game.atmosphere == "hard"
    assert (
        await t.rejected(t.pl, AdjustValue(character_id=me, field="tairyoku", value=9))
        == "command/forbidden"
    )
    t.roll(1)
    await t.gm_do(Inflict(target=me, damage=3))
    (hit,) = t.pending
    await t.gm_do(OverrideHit(hit=hit, damage=1, reason="手加減"))
    (hit2,) = t.pending
    assert t.pending[hit2].damage == 1
    await t.gm_do(OverrideHit(hit=hit2, cancel=True, reason="なかったことに"))
    assert t.pending == {}
    await t.h.assert_replay_matches()


async def test_every_event_renders_in_japanese(ns: Make) -> None:
    """Every nstrpg event of a short fight has a readable line."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=4, wazamae=4, tairyoku=6, seishin=2)
    foe = await t.npc("敵ニンジャ", kind="boss", karate=3, tairyoku=5)
    await t.gm_do(StartCombat())
    await t.gm_do(StartTurn())
    t.roll(6, 6, 1, 1)
    a = of(await t.do(Attack(attacker=me, target=foe)), ev.AttackRolled)[0]
    t.roll(1, 1, 1, 1)
    await t.gm_do(Evade(defender=foe, hits=[a.hits[0].id], dice=3, difficulty="NORMAL"))
    t.roll(1)
    await t.gm_do(Inflict(target=me, damage=1, reason="落下"))
    for e in await t.h.events():
        line = t.h.table.ruleset.render(e, t.h.state, t.h.state.rules)
        if type(e).__module__.startswith("taku_nstrpg"):
            assert line and any(
                "\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in line
            ), e


async def test_a_weapon_switch_at_te_ban_start_names_the_weapon_not_its_id(ns: Make) -> None:
    """手番開始's weapon switch (NS-39) reads 「武器:マシンガン」 in the log, never the id
    ``machinegun``; a sheet's own weapon by its own name."""
    t = await ns()
    own = {"id": "bo", "name": "ボー", "kind": "melee"}
    me = await t.pc("ニンジャ", karate=4, neuron=5, weapons=["machinegun", own])
    foe = await t.npc("敵ニンジャ", kind="boss", karate=3, neuron=1, weapons=[own])
    await t.gm_do(StartCombat())
    await t.gm_do(StartTurn())
    lines = []
    for cid, weapon in ((me, "machinegun"), (foe, "bo")):
        (began,) = await t.gm_do(BeginTurnOf(character_id=cid, equip=weapon))
        lines.append(t.h.table.ruleset.render(began, t.h.state, t.h.state.rules))
        await t.gm_do(EndTurnOf(character_id=cid))
    assert lines == ["ニンジャ の手番開始 武器:マシンガン", "敵ニンジャ の手番開始 武器:ボー"]


async def test_an_unevadable_hit_reads_as_such(ns: Make) -> None:
    """GM damage with ``evadable: false`` lands at once: its line says 回避不可, not a
    difficulty one could dodge at; an evadable one keeps its difficulty."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=4, wazamae=4, tairyoku=6, seishin=2)
    lines = []
    for evadable in (False, True):
        out = await t.gm_do(Inflict(target=me, damage=1, evadable=evadable, reason="ジツ"))
        (hit,) = [e for e in out if isinstance(e, ev.HitInflicted)]
        lines.append(t.h.table.ruleset.render(hit, t.h.state, t.h.state.rules))
    assert lines == [
        "ニンジャ に1ダメージが迫る(回避不可) ジツ",
        "ニンジャ に1ダメージが迫る(回避:NORMAL) ジツ",
    ]


# --------------------------------------------------------------------------- invariants (properties)


def _table(sheet_me: dict[str, Any], sheet_foe: dict[str, Any]) -> tuple[Any, Any]:
    """A table folded synchronously from core events (no store), for property tests."""
    import msgspec

    from taku.core.events import CharacterCreated, MemberJoined, TableCreated
    from taku.core.table import TableState, evolve
    from taku_nstrpg.plugin import RULESET

    state = TableState(table_id="t")
    for e in (
        TableCreated(name="t", ruleset="nstrpg", ruleset_version="1"),
        MemberJoined(member_id="gm", name="GM", role=Role.GM),
        CharacterCreated(
            character_id="me", name="me", sheet=msgspec.to_builtins(RULESET.check_sheet(sheet_me))
        ),
        CharacterCreated(
            character_id="foe",
            name="foe",
            sheet=msgspec.to_builtins(RULESET.check_sheet(sheet_foe)),
        ),
    ):
        state = evolve(state, e, RULESET)
    return state, RULESET


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    attack=st.lists(st.integers(1, 6), min_size=1, max_size=8),
    evasion=st.lists(st.integers(1, 6), min_size=1, max_size=8),
    table_face=st.integers(1, 6),
)
def test_successful_evasion_leaves_no_damage(
    attack: list[int], evasion: list[int], table_face: int
) -> None:
    """Property (NS-72): a successful evasion means no damage and no added effect at all."""
    from taku.core.table import decide, evolve

    state, rs = _table(
        {"karate": 8, "tairyoku": 9}, {"karate": 8, "wazamae": 8, "tairyoku": 9, "seishin": 3}
    )
    dice = ScriptedDice([*attack, table_face, table_face, table_face])
    ctx = Context(actor="gm", role=Role.GM, dice=dice, options=rs.make_options({}))
    out = decide(
        state, Attack(attacker="me", splits=[Split(target="foe", dice=len(attack))]), ctx, rs
    )
    for e in out:
        state = evolve(state, e, rs)
    hits = [h for h in state.game.pending]
    if not hits:
        return
    dice.extend(evasion)
    ctx = Context(actor="gm", role=Role.GM, dice=dice, options=rs.make_options({}))
    before = state.game.fighters["foe"]
    out = decide(state, Evade(defender="foe", hits=hits, dice=len(evasion)), ctx, rs)
    rolled = [e for e in out if isinstance(e, ev.EvasionRolled)][0]
    if rolled.success:
        assert not [e for e in out if isinstance(e, ev.DamageResolved) and e.target == "foe"]
        for e in out:
            state = evolve(state, e, rs)
        after = state.game.fighters["foe"]
        assert (after.tairyoku, after.seishin, after.ability_damage, after.injuries) == (
            before.tairyoku,
            before.seishin,
            before.ability_damage,
            before.injuries,
        )


@settings(max_examples=40, deadline=None)
@given(gains=st.lists(st.integers(-5, 9), min_size=1, max_size=6))
def test_dkk_never_exceeds_12_through_commands(gains: list[int]) -> None:
    """Property (NS-25): whatever the GM awards, 【DKK】 stays within 0..12."""
    from taku.core.table import decide, evolve

    state, rs = _table({"karate": 3, "dkk": 5}, {"karate": 3})
    for g in gains:
        ctx = Context(actor="gm", role=Role.GM, dice=ScriptedDice(), options=rs.make_options({}))
        for e in decide(state, GainDkk(character_id="me", amount=g), ctx, rs):
            state = evolve(state, e, rs)
        assert 0 <= state.game.fighters["me"].dkk <= 12


async def test_knockback_distance(ns: Make) -> None:
    """NS-93: row 1 knocks back by the attacker's カラテ after a カラテ check, else by the damage before reduction."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=5, wazamae=6, weapons=["katana"], equipped="katana")
    foe = await t.npc("敵", kind="boss", karate=1, tairyoku=20, damage_reduction=1)
    t.roll(6, 6, 1, 1, 1)
    a = one_of(await t.do(Attack(attacker=me, target=foe)), ev.AttackRolled)
    t.roll(1)
    d = one_of(await t.gm_do(Evade(defender=foe, hits=[a.hits[0].id])), ev.DamageResolved)
    assert (d.row, d.amount, d.knockback) == (1, 1, 5)
    t.roll(6, 6, 6, 1, 1, 1)
    a = one_of(await t.do(Attack(attacker=me, target=foe, style="seimitsu")), ev.AttackRolled)
    t.roll(1)
    d = one_of(await t.gm_do(Evade(defender=foe, hits=[a.hits[0].id])), ev.DamageResolved)
    assert (d.row, d.tsuda, d.amount, d.knockback) == (
        1,
        0,
        0,
        0,
    )  # 精密攻撃: no 痛打; 1 − 1 = 0, no 体力 lost


async def test_ultra_hard_shuriken_and_wasshoi_due(ns: Make) -> None:
    """NS-108: ultra-hard: shuriken +1, melee +2; NS-97: 3 DKK in a turn flags Wasshoi! at the turn's end."""
    t = await ns()
    me = await t.pc("ニンジャ", wazamae=4, tairyoku=9, dkk=1)
    boss = await t.npc("ボス", kind="boss", wazamae=4, karate=4)
    await t.gm_do(StartCombat())
    await t.gm_do(StartTurn())
    await t.gm_do(GainDkk(character_id=me, amount=2))
    await t.pass_turns()
    end = one_of(await t.gm_do(EndTurn(atmosphere="ultra_hard")), ev.TurnEnded)
    assert not end.wasshoi_due
    await t.gm_do(StartTurn())
    await t.gm_do(GainDkk(character_id=me, amount=3))
    await t.pass_turns()
    assert one_of(await t.gm_do(EndTurn()), ev.TurnEnded).wasshoi_due
    t.roll(4, 1, 1, 1)
    a = one_of(await t.gm_do(Attack(attacker=boss, kind="shoot", target=me)), ev.AttackRolled)
    t.roll(4, 1, 1, 1)
    b = one_of(await t.gm_do(Attack(attacker=boss, target=me)), ev.AttackRolled)
    t.roll(1)
    assert (
        one_of(
            await t.do(Evade(defender=me, hits=[a.hits[0].id], dice=1)), ev.EvasionRolled
        ).difficulty
        == HARD
    )
    t.roll(1)
    assert (
        one_of(
            await t.do(Evade(defender=me, hits=[b.hits[0].id], dice=1)), ev.EvasionRolled
        ).difficulty
        == UH
    )


async def test_adrenaline_evasion_lasts_the_phase(ns: Make) -> None:
    """NS-96: an off-turn boost lowers every evasion of that phase, and ends with it."""
    from taku_nstrpg.commands import BeginTurnOf

    t = await ns()
    me = await t.pc("ニンジャ", wazamae=6, tairyoku=9, seishin=2)
    boss = await t.npc("ボス", kind="boss", karate=8)
    t.roll(4, 1, 4, 1)
    a = one_of(
        await t.gm_do(
            Attack(attacker=boss, splits=[Split(target=me, dice=2), Split(target=me, dice=2)])
        ),
        ev.AttackRolled,
    )
    t.roll(1)
    assert (
        one_of(
            await t.do(Evade(defender=me, hits=[a.hits[0].id], dice=1, adrenaline=True)),
            ev.EvasionRolled,
        ).difficulty
        == EASY
    )
    t.roll(1)
    assert (
        one_of(
            await t.do(Evade(defender=me, hits=[a.hits[1].id], dice=1)), ev.EvasionRolled
        ).difficulty
        == EASY
    )
    await t.do(BeginTurnOf(character_id=me))
    t.roll(4, 1)
    a = one_of(
        await t.gm_do(Attack(attacker=boss, target=me, splits=[Split(target=me, dice=2)])),
        ev.AttackRolled,
    )
    t.roll(1)
    assert (
        one_of(
            await t.do(Evade(defender=me, hits=[a.hits[0].id], dice=1)), ev.EvasionRolled
        ).difficulty
        == NORMAL
    )


def one_of(events: list[Any], kind: type) -> Any:
    found = of(events, kind)
    assert len(found) == 1, found
    return found[0]


@settings(max_examples=40, deadline=None)
@given(row=st.integers(1, 5), sixes=st.integers(2, 4))
def test_tsuda_never_stacks_in_play(row: int, sixes: int) -> None:
    """Property (NS-92): 強攻撃's 痛打+1 and any row's 痛打+1 give base + 1, never + 2."""
    from taku.core.table import decide, evolve

    state, rs = _table(
        {"karate": 6, "tairyoku": 9, "weapons": ["katana"], "equipped": "katana"},
        {"kind": "boss", "karate": 1, "tairyoku": 30, "seishin": 9},
    )
    dice = ScriptedDice([6] * sixes + [1] * (6 - sixes) + [row])
    ctx = Context(actor="gm", role=Role.GM, dice=dice, options=rs.make_options({}))
    for e in decide(state, Attack(attacker="me", target="foe", style="kyougeki"), ctx, rs):
        state = evolve(state, e, rs)
    (hit,) = state.game.pending
    out = decide(state, Evade(defender="foe", hits=[hit]), ctx, rs)
    d = [e for e in out if isinstance(e, ev.DamageResolved)][0]
    assert (d.row, d.tsuda, d.amount) == (row, 1, 2)


async def test_group_evasion_within_one_phase(ns: Make) -> None:
    """NS-74: damage without 時間差 from one phase goes together; another phase's does not."""
    from taku_nstrpg.commands import BeginTurnOf

    t = await ns()
    me = await t.pc("ニンジャ", wazamae=6, tairyoku=9)
    b1 = await t.npc("ボス1", kind="boss", wazamae=3)
    b2 = await t.npc("ボス2", kind="boss", wazamae=3)
    await t.gm_do(BeginTurnOf(character_id=b1))
    t.roll(4, 1, 1)
    h1 = (
        one_of(await t.gm_do(Attack(attacker=b1, kind="shoot", target=me)), ev.AttackRolled)
        .hits[0]
        .id
    )
    await t.gm_do(BeginTurnOf(character_id=b2))
    t.roll(4, 1, 1)
    h2 = (
        one_of(await t.gm_do(Attack(attacker=b2, kind="shoot", target=me)), ev.AttackRolled)
        .hits[0]
        .id
    )
    assert (
        await t.rejected(t.pl, Evade(defender=me, hits=[h1, h2], dice=2))
        == "rule/nstrpg/other_phase"
    )
    t.roll(4, 4)
    e = one_of(await t.do(Evade(defender=me, hits=[h1], dice=2)), ev.EvasionRolled)
    assert e.success
