"""nstrpg's affordances and turn in scripted situations: the expected actions are offered with
the right choices, the forbidden ones are not, and an offered action is accepted as sent."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from taku.core.commands import Chat
from taku.core.play import Affordance
from taku.core.table import affordances, command_decoder, turn
from taku_nstrpg import commands as c

Make = Callable[..., Awaitable[Any]]

PC = {"karate": 5, "neuron": 4, "wazamae": 3, "tairyoku": 10, "seishin": 3}
BOSS = {"kind": "boss", "karate": 4, "neuron": 6, "wazamae": 3, "tairyoku": 8, "seishin": 2}


def offered(t: Any, member: str | None) -> list[Affordance]:
    state = t.h.table.state
    return [
        a
        for a in affordances(state, state.viewer(member), t.h.table.ruleset)
        if a.command.startswith("nstrpg.")
    ]


def find(affs: list[Affordance], command: str, **args: Any) -> list[Affordance]:
    return [
        a
        for a in affs
        if a.command == f"nstrpg.{command}" and all(a.args.get(k) == v for k, v in args.items())
    ]


def values(a: Affordance, key: str) -> list[Any]:
    return [ch.value for ch in a.choices[key]]


def buttons(a: Affordance) -> list[str]:
    """The labels the web client's buttons give an affordance (clients/web/js/moves.js):
    「label（choice・choice）」, one a combination of its choices."""
    combos = [""]
    for cs in a.choices.values():
        combos = [f"{x}・{ch.label}" if x else ch.label for x in combos for ch in cs]
    return [f"{a.label}（{x}）" if x else a.label for x in combos]


def nested(labels: list[str]) -> list[str]:
    """The labels with parentheses inside parentheses (「…（…（…））」), hard to read."""
    return [x for x in labels if re.search(r"（[^）]*（", x)]


def _is_list(t: Any) -> bool:
    if isinstance(t, msgspec.inspect.Metadata):
        return _is_list(t.type)
    if isinstance(t, msgspec.inspect.UnionType):
        return any(_is_list(x) for x in t.types)
    return isinstance(t, msgspec.inspect.ListType)


async def send(t: Any, member: str, a: Affordance, **picked: Any) -> list[Any]:
    """Send the affordance as a client would: its args and one offered value per choice."""
    raw = {"type": a.command, **a.args}
    kind = {tp.__struct_config__.tag: tp for tp in c.COMMANDS}[a.command]
    fields = {f.name: f.type for f in msgspec.inspect.type_info(kind).fields}  # type: ignore[union-attr]
    for key, choices in a.choices.items():
        offered_values = [ch.value for ch in choices]
        if _is_list(fields[key]):  # a list argument takes several of its choices
            raw[key] = picked.get(key, offered_values)
            assert all(v in offered_values for v in raw[key]), (key, raw[key])
            continue
        value = picked.get(key, offered_values[0])
        assert value in offered_values, (key, value)
        raw[key] = value
    cmd = command_decoder(t.h.table.ruleset).decode(msgspec.json.encode(raw))
    return await t.h.send(member, cmd)  # type: ignore[no-any-return]


async def fight(ns: Make) -> tuple[Any, str, str, str]:
    t = await ns()
    other = await t.h.join("別のプレイヤー")
    me = await t.pc("ヤモト", **PC)
    boss = await t.npc("ソニックブーム", **BOSS)
    return t, other, me, boss


async def test_outside_combat_the_gm_starts_it_and_players_get_no_gm_actions(ns: Make) -> None:
    t, other, me, boss = await fight(ns)
    gm = offered(t, t.gm)
    (start,) = find(gm, "start_combat")
    assert start.primary
    assert turn(t.h.table.state, t.h.table.ruleset) is None
    mine = offered(t, t.pl)
    gm_tags = {tp.__struct_config__.tag for tp in c.COMMANDS if tp.permit.gm_only}
    assert not [a for a in mine if a.command in gm_tags]
    # the player acts for the PC only, never for the GM's ninja
    assert {a.args.get("character_id") or a.args.get("attacker") for a in mine} == {me}
    assert offered(t, other) == []  # owns no character
    (check,) = find(mine, "check", character_id=me)
    assert values(check, "stat")[:3] == ["karate", "neuron", "wazamae"] and "NORMAL" in values(
        check, "difficulty"
    )
    (melee,) = find(mine, "attack", attacker=me, kind="melee")
    assert values(melee, "target") == [boss] and values(melee, "weapon") == ["unarmed"]
    (shoot,) = find(mine, "attack", attacker=me, kind="shoot")
    assert values(shoot, "weapon") == ["shuriken"]
    # a spectator gets nothing
    watcher = await t.h.join("観戦者", role="spectator")
    state = t.h.table.state
    assert affordances(state, state.viewer(watcher), t.h.table.ruleset) == []


async def test_turn_follows_initiative_and_the_phases_of_a_turn(ns: Make) -> None:
    t, _, me, boss = await fight(ns)
    await send(t, t.gm, find(offered(t, t.gm), "start_combat")[0])
    tr = turn(t.h.table.state, t.h.table.ruleset)
    assert tr is not None and (tr.phase, tr.round, tr.actor) == ("combat_start", None, None)
    assert [(s.id, s.value) for s in tr.order] == [
        (boss, 6),
        (me, 4),
    ]  # イニシアチブ値: 【ニューロン】
    await send(t, t.gm, find(offered(t, t.gm), "start_turn")[0])
    tr = turn(t.h.table.state, t.h.table.ruleset)
    assert tr is not None and (tr.phase, tr.phase_label, tr.round, tr.round_label, tr.actor) == (
        "turn_begin",
        "手番開始",
        1,
        "ターン1",
        boss,
    )
    # the boss's 手番 is the GM's to begin; the player may not begin theirs before it
    assert not find(offered(t, t.pl), "begin_turn_of")
    (begin,) = find(offered(t, t.gm), "begin_turn_of", character_id=boss)
    assert begin.primary and values(begin, "shuchu") == [False, True]
    # the buttons read 「label（choice）」 (clients/web/js/moves.js): no parentheses nested
    buttons = [f"{begin.label}（{ch.label}）" for ch in begin.choices["shuchu"]]
    assert buttons == ["手番を始める（通常）", "手番を始める（集中・移動フェイズなし）"]
    await send(t, t.gm, begin)
    tr = turn(t.h.table.state, t.h.table.ruleset)
    assert tr is not None and (tr.phase, tr.actor) == ("move", boss)
    # only the acting character attacks in a combat
    assert not find(offered(t, t.pl), "attack")
    (melee,) = find(offered(t, t.gm), "attack", attacker=boss, kind="melee")
    assert melee.primary and values(melee, "target") == [me]
    t.roll(1, 1, 1, 1)  # a miss
    await send(t, t.gm, melee)
    tr = turn(t.h.table.state, t.h.table.ruleset)
    assert tr is not None and (tr.phase, tr.phase_label) == ("attack", "攻撃フェイズ")
    (end,) = find(offered(t, t.gm), "end_turn_of", character_id=boss)
    assert end.primary
    await send(t, t.gm, end)
    tr = turn(t.h.table.state, t.h.table.ruleset)
    assert tr is not None and (tr.actor, [s.done for s in tr.order]) == (me, [True, False])
    (mine,) = find(offered(t, t.pl), "begin_turn_of", character_id=me)
    await send(t, t.pl, mine, shuchu=True)  # 集中状態: no move phase
    tr = turn(t.h.table.state, t.h.table.ruleset)
    assert tr is not None and tr.phase == "attack"
    t.roll(1, 1, 1, 1, 1)
    await send(t, t.pl, find(offered(t, t.pl), "attack", attacker=me, kind="melee")[0])
    await send(t, t.pl, find(offered(t, t.pl), "end_turn_of", character_id=me)[0])
    tr = turn(t.h.table.state, t.h.table.ruleset)
    assert tr is not None and tr.phase == "turn_end" and tr.actor is None
    assert tr.phase_label == "ターン終了フェイズ（継続系の効果の処理）"  # its first step (NS-42)
    (effects,) = find(offered(t, t.gm), "resolve_effects")
    assert effects.primary and not find(offered(t, t.gm), "wasshoi")
    await send(t, t.gm, effects)
    assert not find(offered(t, t.gm), "resolve_effects")
    (end_turn,) = find(offered(t, t.gm), "end_turn")
    assert end_turn.primary and values(end_turn, "atmosphere") == ["normal", "hard", "ultra_hard"]
    assert not find(offered(t, t.pl), "end_turn")
    await send(t, t.gm, end_turn, atmosphere="hard")
    tr = turn(t.h.table.state, t.h.table.ruleset)
    assert (
        tr is not None
        and tr.phase_label == "ターン終了（次のターン開始待ち）"
        and all(s.done for s in tr.order)
    )
    (nxt,) = find(offered(t, t.gm), "start_turn")
    assert nxt.label == "ターン2を始める"
    (end_turn,) = find(offered(t, t.gm), "end_turn") or [None]  # not before the next turn starts
    assert end_turn is None
    await send(t, t.gm, nxt)
    assert not find(offered(t, t.gm), "end_turn")  # not while a 手番 is due (NS-30)
    await t.pass_turns()
    (end_turn,) = find(offered(t, t.gm), "end_turn")
    assert values(end_turn, "atmosphere") == ["hard", "ultra_hard"]  # never lowered (2-17)


async def test_a_pending_hit_offers_its_defender_the_evasion_dice(ns: Make) -> None:
    t, other, me, boss = await fight(ns)
    t.roll(6, 5, 1, 1, 1, 1)
    await t.gm_do(c.Attack(attacker=boss, target=me))
    (hid,) = t.pending
    (evade,) = find(offered(t, t.pl), "evade", defender=me)
    assert evade.primary and evade.args["hits"] == [hid]
    assert values(evade, "dice") == [
        5,
        4,
        3,
        2,
        1,
        0,
    ]  # 回避ダイス: max(カラテ5, ニューロン4, ワザマエ3)
    assert evade.choices["dice"][-1].label == "回避せずに受ける"
    assert nested([b for a in offered(t, t.pl) for b in buttons(a)]) == []
    assert not find(offered(t, other), "evade")  # not their character
    assert not [
        a for a in find(offered(t, t.pl), "evade") if "emergency_dice" in a.choices
    ]  # none left
    t.roll(6, 6, 1)
    events = await send(t, t.pl, evade, dice=3)
    assert type(events[0]).__name__ == "EvasionRolled" and not t.pending
    assert t.f(me).evasion_dice == 2


async def test_kaishaku_barrage_and_sixth_sense_when_the_state_allows_them(ns: Make) -> None:
    t = await ns()
    me = await t.pc("ヤモト", karate=5, neuron=13, wazamae=3, tairyoku=10, seishin=3)
    yakuza = await t.mobs("クローンヤクザ", 2, wazamae=3, weapons=["chakagun"], equipped="chakagun")
    boss = await t.npc("ソニックブーム", **BOSS)
    assert not find(offered(t, t.pl), "kaishaku")
    assert find(offered(t, t.pl), "reroll") == []  # nothing rolled yet
    t.roll(6, 1, 1)
    await t.gm_do(c.Attack(attacker=yakuza[0], kind="shoot", target=me))
    t.roll(6, 1, 1)
    await t.gm_do(c.Attack(attacker=yakuza[1], kind="shoot", target=me))
    assert len(t.pending) == 2
    barrages = find(offered(t, t.gm), "barrage")
    assert [sorted(b.args["hits"]) for b in barrages] == [
        sorted(t.pending)
    ]  # a ninja faces them as one 弾幕
    assert values(barrages[0], "divisor") == [3, 6, 12]
    assert not find(offered(t, t.pl), "barrage")
    (group,) = [a for a in find(offered(t, t.pl), "evade", defender=me) if len(a.args["hits"]) == 2]
    assert group.label == "まとめて全弾回避する（2発）"
    await t.gm_do(c.OverrideHit(hit=next(iter(t.pending)), cancel=True))
    await t.gm_do(c.OverrideHit(hit=next(iter(t.pending)), cancel=True))
    # the boss faints: カイシャク is offered against it, to ninjas only
    await t.gm_do(c.AdjustValue(character_id=boss, field="status", value="fainted"))
    (k,) = find(offered(t, t.pl), "kaishaku", attacker=me)
    assert values(k, "target") == [boss]
    assert buttons(k) == [
        "カイシャクする（気絶したソニックブーム）"
    ]  # not 「（ソニックブーム（気絶））」
    await send(t, t.pl, k)
    assert t.f(boss).status == "dead"
    # ●ニンジャ第六感 (【ニューロン】13): the latest check may be rerolled, once
    t.roll(1, 1, 1, 1, 1)
    await t.do(c.Check(character_id=me, stat="karate"))
    (rr,) = find(offered(t, t.pl), "reroll", character_id=me)
    t.roll(6, 6, 6, 6, 6)
    await send(t, t.pl, rr)
    assert find(offered(t, t.pl), "reroll") == []


async def test_gm_actions_are_well_formed_commands(ns: Make) -> None:
    """Every action the GM is offered, sent with its first choices, is accepted or refused by a rule
    (never as a malformed command)."""
    t, _, me, boss = await fight(ns)
    await t.gm_do(c.StartCombat())
    for a in offered(t, t.gm):
        if a.command in ("nstrpg.end_combat",):
            continue
        t.roll(*([4] * 30))
        try:
            await send(t, t.gm, a)
        except Exception as e:  # noqa: BLE001 (the code is what matters)
            code = getattr(e, "code", "")
            assert code.startswith("rule/nstrpg/"), (a, e)


async def test_owner_commands_and_gm_only_fields(ns: Make) -> None:
    """A player acts only for their own characters, also through a chat check; the GM-only
    difficulty fields of an owner's attack and evasion stay the GM's."""
    t, other, me, boss = await fight(ns)
    assert await t.rejected(other, c.Check(character_id=me)) == "command/forbidden"
    assert await t.rejected(t.pl, c.Attack(attacker=boss, target=me)) == "command/forbidden"
    err = await t.h.rejected(other, Chat(text="カラテ判定 ヤモト"))
    assert err.code == "command/forbidden"
    assert (
        await t.rejected(t.pl, c.Attack(attacker=me, target=boss, difficulty="KIDS"))
        == "command/forbidden"
    )
    t.roll(6, 5, 1, 1, 1, 1)
    await t.gm_do(c.Attack(attacker=boss, target=me))
    (hid,) = t.pending
    assert (
        await t.rejected(t.pl, c.Evade(defender=me, hits=[hid], dice=1, difficulty="KIDS"))
        == "command/forbidden"
    )


async def test_emergency_evasion_dice_are_offered_when_the_defender_has_them(ns: Make) -> None:
    t = await ns()
    me = await t.pc("ヤモト", **PC, emergency_dice=2)
    boss = await t.npc("ソニックブーム", **BOSS)
    t.roll(6, 5, 1, 1, 1, 1)
    await t.gm_do(c.Attack(attacker=boss, target=me))
    (em,) = [
        a for a in find(offered(t, t.pl), "evade", defender=me) if "emergency_dice" in a.choices
    ]
    assert values(em, "emergency_dice") == [1, 2]
    t.roll(6, 6, 6)
    await send(t, t.pl, em, dice=1, emergency_dice=2)
    assert (t.f(me).evasion_dice, t.f(me).emergency_dice) == (4, 0) and not t.pending


async def test_weapon_styles_are_offered_for_the_weapon_that_has_them(ns: Make) -> None:
    t = await ns()
    me = await t.pc("ヤモト", **PC, weapons=["katana", "chainsaw"], equipped="katana")
    boss = await t.npc("ソニックブーム", **BOSS)
    styled = [a for a in find(offered(t, t.pl), "attack", attacker=me) if "style" in a.choices]
    assert {a.args["weapon"]: values(a, "style") for a in styled} == {
        "katana": ["kyougeki", "seimitsu"]
    }  # 切断攻撃 needs 集中状態
    assert styled[0].label == "カタナでスタイルを使って近接攻撃する"
    t.roll(6, 6, 1, 1, 1)
    events = await send(t, t.pl, styled[0], target=boss, style="kyougeki")
    assert type(events[0]).__name__ == "AttackRolled" and events[0].style == "kyougeki"
