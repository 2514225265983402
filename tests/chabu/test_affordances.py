"""``affordances`` and ``turn`` of ``chabu``: what each member is offered, and sending it works.

Scripted situations (CH-10…CH-30): outside a combat, a round of ラウンド進行
(イニシアティヴ, 待機), a declaration held for 刹那 and a hit waiting for
回避判定. An affordance's args plus one choice per open argument is sent as a
command, as a client would, and the server accepts it.
"""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core.play import Affordance, Turn
from taku.testing.peer import Raw, new_table
from taku_chabu.commands import SetRange, StartCombat
from taku_chabu.events import (
    AttackDeclared,
    CheckRolled,
    CounterSpent,
    DeclarationClosed,
    TokugiUsed,
    Waited,
)
from taku_chabu.state import Condition

GM_ONLY = {
    "chabu.start_combat",
    "chabu.end_combat",
    "chabu.set_order",
    "chabu.set_range",
    "chabu.adjust",
}
SETSUNA = {"name": "ブリッジ回避", "timing": "setsuna", "cost": {"ingaoho": 3}}


async def offered(t: Any, member: str) -> list[Affordance]:
    """The ruleset's affordances in ``member``'s state message."""
    sv = await t.h.table.view_at(t.h.state.viewer(member))
    return [a for a in sv.affordances if a.command.startswith("chabu.")]


async def turn_of(t: Any, member: str | None = None) -> Turn | None:
    return (await t.h.table.view_at(t.h.state.viewer(member))).turn


def find(affs: list[Affordance], command: str, **args: Any) -> list[Affordance]:
    return [
        a for a in affs if a.command == command and all(a.args.get(k) == v for k, v in args.items())
    ]


def values(aff: Affordance, arg: str) -> list[Any]:
    return [c.value for c in aff.choices[arg]]


async def send(t: Any, member: str, aff: Affordance, **choice: Any) -> list[Any]:
    """Send ``aff`` with ``choice`` (each value one of its choices) as ``member``."""
    for k, v in choice.items():
        chosen = v if isinstance(v, list) else [v]
        assert all(x in values(aff, k) for x in chosen), (k, v, values(aff, k))
    raw = msgspec.json.encode({"type": aff.command, **aff.args, **choice})
    return await t.h.send(member, t.h.table.command_decoder.decode(raw))


async def test_outside_a_combat_each_member_is_offered_their_own_characters(t: Any) -> None:
    a = await t.pc(t.pl1, "ナンシー")
    b = await t.pc(t.pl2, "ヤモト")
    y = await t.npc("ヤクザ", dl=0)
    mine = await offered(t, t.pl1)
    # every ruleset affordance of a player names only that player's character
    assert {x.args.get("character_id") for x in mine if "character_id" in x.args} == {a}
    assert not GM_ONLY & {x.command for x in mine}
    (check,) = find(mine, "chabu.check", character_id=a)
    assert values(check, "ability") == ["肉体", "反応", "精神"] and values(check, "skill") == [
        None,
        "カラテ",
        "射撃",
    ]
    (katana,) = [
        x for x in find(mine, "chabu.attack", character_id=a) if x.args["equipment"] == "カタナ"
    ]
    assert values(katana, "targets") == [b, y]  # not herself
    assert (
        find(mine, "chabu.move", character_id=a)
        and not find(mine, "chabu.wait")
        and not find(mine, "chabu.pass")
    )
    (opposed,) = find(mine, "chabu.opposed_check")
    assert {v["character_id"] for v in values(opposed, "a")} == {a}
    assert {v["character_id"] for v in values(opposed, "b")} == {a, b, y}
    spectator = await t.h.join("観戦者", role="spectator")
    assert (await t.h.table.view_at(t.h.state.viewer(spectator))).affordances == []
    assert await turn_of(t, t.pl1) is None  # no ラウンド進行, no turn
    # the GM runs the combat, the ranges and the values
    gm = {x.command for x in await offered(t, t.gm)}
    assert {
        "chabu.start_combat",
        "chabu.set_range",
        "chabu.adjust",
    } <= gm and "chabu.end_combat" not in gm
    # sending what is offered: a check and an attack
    t.roll(32)
    (ev,) = await send(t, t.pl1, check, ability="反応", skill=None)
    assert isinstance(ev, CheckRolled) and (ev.target, ev.value, ev.success) == (30, 32, False)
    t.roll(90)
    events = await send(t, t.pl1, katana, targets=[y])
    assert isinstance(events[0], AttackDeclared) and events[0].targets == (y,)


async def test_targets_follow_the_ranges(t: Any) -> None:
    """CH-18: ショート reaches ショート only; ロング also ショート; nothing reaches オーバー but オーバー."""
    a = await t.pc(t.pl1, "ナンシー")
    far = await t.npc("狙撃手")
    await t.h.send(t.gm, SetRange(a=a, b=far, range="long"))
    by_weapon = {
        x.args["equipment"]: values(x, "targets")
        for x in find(await offered(t, t.pl1), "chabu.attack")
    }
    assert by_weapon == {
        "スリケン": [far]
    }  # the katana reaches nobody: no katana attack is offered
    await t.h.send(t.gm, SetRange(a=a, b=far, range="over"))
    assert not find(await offered(t, t.pl1), "chabu.attack")


async def test_a_round_offers_the_acting_character_its_katsugeki_and_shows_the_turn(t: Any) -> None:
    a = await t.pc(t.pl1, "ニンジャスレイヤー", dl=3)
    b = await t.pc(t.pl2, "ヤモト", dl=2)
    y = await t.npc("クローンヤクザ", dl=0, ingaoho=5)
    (start,) = find(await offered(t, t.gm), "chabu.start_combat")
    victory = next(v for v in values(start, "victory") if v["kind"] == "all_down")
    defeat = next(v for v in values(start, "defeat") if v["kind"] == "all_down")
    assert victory["characters"] == [y] and defeat["characters"] == [a, b]
    await send(t, t.gm, start, victory=victory, defeat=defeat, participants=[a, b, y])

    turn = await turn_of(t, t.pl2)
    assert turn is not None and (turn.actor, turn.actor_label, turn.phase, turn.phase_label) == (
        a,
        "ニンジャスレイヤー",
        "main",
        "メインフェイズ",
    )
    assert (turn.round, turn.round_label) == (1, "第1ラウンド")
    assert [(s.id, s.value, s.done) for s in turn.order] == [
        (a, "DL3／インガオホー値0／PC", False),
        (b, "DL2／インガオホー値0／PC", False),
        (y, "DL0／インガオホー値5／NPC", False),
    ]
    mine = await offered(t, t.pl1)
    primary = [x for x in mine if x.primary]
    assert primary and primary[0].command == "chabu.attack" and primary[0].args["character_id"] == a
    assert find(mine, "chabu.wait", character_id=a) and find(mine, "chabu.pass", character_id=a)
    theirs = await offered(t, t.pl2)
    assert not [
        x for x in theirs if x.command in ("chabu.attack", "chabu.move", "chabu.wait", "chabu.pass")
    ]
    assert not [x for x in theirs if x.primary]
    assert find(theirs, "chabu.check", character_id=b)  # a 判定 needs no turn
    # ニンジャスレイヤー waits (CH-14): ヤモト acts, and the order shows him last
    (wait,) = find(mine, "chabu.wait", character_id=a)
    (ev,) = await send(t, t.pl1, wait)
    assert isinstance(ev, Waited)
    turn = await turn_of(t)
    assert turn is not None and turn.actor == b and [s.id for s in turn.order] == [b, y, a]
    assert [x for x in await offered(t, t.pl2) if x.primary][0].args["character_id"] == b
    assert not find(await offered(t, t.pl1), "chabu.wait")
    (pass_,) = find(await offered(t, t.pl2), "chabu.pass", character_id=b)
    await send(t, t.pl2, pass_)
    # the NPC's turn: the GM's next step
    turn = await turn_of(t)
    assert (
        turn is not None
        and turn.actor == y
        and [s.done for s in turn.order] == [True, False, False]
    )
    gm_primary = [x for x in await offered(t, t.gm) if x.primary]
    assert gm_primary and gm_primary[0].args["character_id"] == y
    assert "chabu.end_combat" in {x.command for x in await offered(t, t.gm)}


async def test_a_held_attack_offers_setsuna_then_evasion(kit: Any) -> None:
    t = await kit.make_table({"always_hold": True})
    a = await t.pc(t.pl1, "ニンジャスレイヤー", dl=3)
    b = await t.pc(t.pl2, "ヤモト", tokugi=[SETSUNA])
    manual = Condition(text="GMが判断する")
    await t.h.send(t.gm, StartCombat(victory=manual, defeat=manual, participants=[a, b]))
    (katana,) = [
        x for x in find(await offered(t, t.pl1), "chabu.attack") if x.args["equipment"] == "カタナ"
    ]
    await send(t, t.pl1, katana, targets=[b])
    turn = await turn_of(t)
    assert turn is not None and (turn.actor, turn.phase, turn.phase_label) == (
        a,
        "setsuna",
        "メインフェイズ（刹那の割り込み待ち）",
    )
    # the declarer may resolve it; ヤモト may answer with her 刹那 (CH-27)
    mine = await offered(t, t.pl1)
    assert [x.command for x in mine if x.primary] == ["chabu.proceed"]
    assert not find(mine, "chabu.attack") and not find(
        mine, "chabu.check"
    )  # every check is held: one at a time
    theirs = await offered(t, t.pl2)
    assert not find(theirs, "chabu.proceed")
    (setsuna,) = find(theirs, "chabu.use_tokugi", character_id=b)
    assert setsuna.args["tokugi"] == "ブリッジ回避" and setsuna.label == "刹那特技「ブリッジ回避」"
    events = await send(t, t.pl2, setsuna)
    assert isinstance(events[0], TokugiUsed) and events[0].answers is not None
    assert not find(
        await offered(t, t.pl2), "chabu.use_tokugi"
    )  # never the same 刹那 twice on one declaration
    # 進行: the hit succeeds; now ヤモト chooses to evade or take it
    (proceed,) = find(await offered(t, t.pl1), "chabu.proceed")
    t.roll(10)
    await send(t, t.pl1, proceed)
    turn = await turn_of(t)
    assert turn is not None and (turn.phase, turn.phase_label) == (
        "evasion",
        "メインフェイズ（回避判定）",
    )
    assert not find(await offered(t, t.pl1), "chabu.evade")
    theirs = await offered(t, t.pl2)
    (evade,) = find(theirs, "chabu.evade", character_id=b)
    assert evade.primary and find(theirs, "chabu.decline", character_id=b)
    t.roll(20)
    events = await send(t, t.pl2, evade)
    assert isinstance(events[-1], DeclarationClosed) and events[-1].outcome == "evaded"
    assert t.h.game.pending is None
    turn = await turn_of(t)
    assert turn is not None and (turn.actor, turn.phase) == (b, "main")  # the attack was his 活劇


async def test_counters_and_descension_are_offered_when_they_can_be_spent(t: Any) -> None:
    a = await t.pc(t.pl1, "ナンシー", tatsujin=1)
    dead = await t.pc(t.pl1, "ヤクザ", dl=0, hp=0, wazamae=1)  # DL 0 at HP 0
    assert t.char(dead).dead is False  # a sheet starting at HP 0 is only 戦闘不能…
    from taku_chabu.commands import Adjust

    await t.h.send(t.gm, Adjust(character_id=dead, key="hp", value=0, reason="とどめ"))
    assert t.char(dead).dead
    mine = await offered(t, t.pl1)
    assert [x.label for x in find(mine, "chabu.spend_counter", character_id=a)] == [
        "タツジンカウンターを使う（残り1）"
    ]
    (desc,) = find(mine, "chabu.spend_counter", character_id=dead)
    assert desc.label == "ワザマエカウンターでディセンション"
    assert not find(mine, "chabu.check", character_id=dead) and not find(
        mine, "chabu.attack", character_id=dead
    )
    (ev,) = await send(t, t.pl1, desc)
    assert isinstance(ev, CounterSpent) and ev.descension and not t.char(dead).dead


async def _join(peer: Raw, created: dict[str, Any], name: str) -> str:
    joined = await peer.request(
        {
            "type": "join",
            "table_id": created["table_id"],
            "token": created["player_token"],
            "name": name,
        }
    )
    assert joined["type"] == "joined", joined
    return str(joined["member_id"])


async def test_a_combat_round_over_websocket_by_following_affordances_alone(
    connect: Any, kit: Any
) -> None:
    """Over WebSocket, every step is a state message's primary affordance sent with its first
    choices: the round is played to its end (seeded dice, so whatever the outcome)."""
    gm, pl = await connect(), await connect()
    created = await new_table(gm, "chabu")
    tid = created["table_id"]
    await _join(pl, created, "プレイヤー")
    sent = 0

    async def command(peer: Raw, cmd: dict[str, Any]) -> None:
        nonlocal sent
        sent += 1
        reply = await peer.request(
            {"type": "command", "table_id": tid, "command_id": f"w{sent}", "command": cmd}
        )
        assert reply["type"] == "ack", (cmd, reply)

    async def state(peer: Raw) -> dict[str, Any]:
        msg = await peer.request({"type": "get_state", "table_id": tid})
        assert msg["type"] == "state" and "affordances" in msg, msg
        return msg

    await command(
        pl, {"type": "create_character", "name": "ニンジャスレイヤー", "sheet": kit.sheet(dl=3)}
    )
    await command(
        gm, {"type": "create_character", "name": "クローンヤクザ", "sheet": kit.sheet(dl=0, hp=10)}
    )
    assert (await state(pl)).get("turn") is None
    start = next(
        a for a in (await state(gm))["affordances"] if a["command"] == "chabu.start_combat"
    )
    everyone = [c["value"] for c in start["choices"]["participants"]]
    await command(gm, {"type": start["command"], **_first_choices(start), "participants": everyone})
    first = (await state(pl))["turn"]
    assert (first["round"], first["phase"], first["actor_label"]) == (
        1,
        "main",
        "ニンジャスレイヤー",
    )
    steps = 0
    while steps < 40:
        msgs = {"gm": await state(gm), "pl": await state(pl)}
        turn = msgs["pl"].get("turn")
        if turn is None or turn["round"] > 1:
            break  # the combat ended (a condition held) or round 2 began
        moves = [(who, a) for who, m in msgs.items() for a in m["affordances"] if a.get("primary")]
        assert moves, f"nobody has a next step in {turn}"
        who, aff = moves[0]
        await command(
            gm if who == "gm" else pl,
            {"type": aff["command"], **aff.get("args", {}), **_first_choices(aff)},
        )
        steps += 1
    assert 2 <= steps < 40
    log = await pl.request({"type": "get_log", "table_id": tid})
    kinds = {e["event"]["type"] for e in log["events"]}
    assert {"chabu.attack_declared", "chabu.check_rolled", "chabu.declaration_closed"} <= kinds
    assert "chabu.round_ended" in kinds or "chabu.combat_ended" in kinds


def _first_choices(aff: dict[str, Any]) -> dict[str, Any]:
    """The first choice of each open argument (a list argument takes a list of one)."""
    lists = {"targets", "participants", "agreed_order"}
    return {
        k: [v[0]["value"]] if k in lists else v[0]["value"]
        for k, v in aff.get("choices", {}).items()
    }
