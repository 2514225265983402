"""The play surface of シャドー・ジャン2: each viewer is offered exactly the moves the table
waits for and they may send (their own characters; all for a GM; nothing for a
spectator), with choices drawn from the state; ``turn`` says whose move, the step, the
hand (東1局 …) and the seat order. An offered move, sent with one of its choices, is
accepted by the server."""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core.commands import CreateCharacter
from taku.core.play import Affordance
from taku.core.table import affordances
from taku_shadowjan import commands as C
from taku_shadowjan.commands import COMMANDS
from taku_shadowjan.play import hand_label

from .conftest import Game, make_game, ninja

_CMD = {t.__struct_config__.tag: t for t in COMMANDS}


def offered(g: Game, member: str) -> list[Affordance]:
    """The ruleset's affordances for ``member`` (the core's own chat/roll/… left out)."""
    return [
        a
        for a in affordances(g.h.state, g.h.state.viewer(member), g.h.table.ruleset)
        if a.command.startswith("shadowjan.")
    ]


def by_command(affs: list[Affordance]) -> dict[str, list[Affordance]]:
    out: dict[str, list[Affordance]] = {}
    for a in affs:
        out.setdefault(a.command, []).append(a)
    return out


def values(a: Affordance, key: str) -> list[Any]:
    return [c.value for c in a.choices[key]]


def turn(g: Game) -> Any:
    return g.h.table.ruleset.turn(g.h.state, g.h.state.rules)


async def send(g: Game, member: str, a: Affordance, **choice: Any) -> list[Any]:
    """Send ``a`` as a client would: its args plus one value per choice key."""
    for key, value in choice.items():
        assert value in values(a, key), (key, value)
    command = msgspec.convert({"type": a.command, **a.args, **choice}, _CMD[a.command])
    return await g.h.send(member, command)


async def test_lobby_offers_each_player_a_seat_for_their_own_characters_only() -> None:
    """ゲームの流れ: each player may seat only their own character; 対局開始 appears for a seated
    player once two sit; a spectator is offered nothing; the GM may seat anyone."""
    g = await make_game(n=2, start=False)
    ma, mb = g.members
    (extra,) = await g.h.send(ma, CreateCharacter(name="三人目", sheet=ninja()))
    mc = await g.h.join("ナナシ")  # a player with no character
    watcher = await g.h.join("見物", role="spectator")
    a = by_command(offered(g, ma))
    assert [x.args for x in a["shadowjan.sit"]] == [{"character_id": extra.character_id}]
    assert a["shadowjan.sit"][0].label == "三人目で着席" and a["shadowjan.sit"][0].primary
    assert "shadowjan.start" in a
    assert "shadowjan.sit" not in by_command(offered(g, mb))  # B's one character sits already
    c = by_command(offered(g, mc))
    assert "shadowjan.start" not in c and "shadowjan.sit" not in c  # nobody of theirs is seated
    assert (
        offered(g, watcher) == []
        and affordances(g.h.state, g.h.state.viewer(watcher), g.h.table.ruleset) == []
    )
    assert [x.args["character_id"] for x in by_command(offered(g, g.h.gm))["shadowjan.sit"]] == [
        extra.character_id
    ]
    t = turn(g)
    assert (t.actor, t.phase, t.phase_label, t.round) == (None, "sit", "着席", None)
    assert [s.id for s in t.order] == g.cids
    # sending the offered seat is accepted
    await send(g, ma, a["shadowjan.sit"][0])
    assert extra.character_id in g.g.players


async def test_the_movers_actions_are_offered_to_its_owner_and_the_gm_only() -> None:
    """◆手番の処理: the dealer with 5 メンツ may テンホー, カラテ, ワザマエ (強化 up to UH3),
    ニューロン or ベタオリ; the other players get nothing; ``turn`` names the dealer, 東1局."""
    g = await make_game(n=3, deal=[1, 4, 4])
    john, steph, ken = g.cids
    mj, ms, mk = g.members
    mine = by_command(offered(g, mj))
    assert set(mine) == {
        "shadowjan.tenho",
        "shadowjan.karate",
        "shadowjan.wazamae",
        "shadowjan.neuron",
        "shadowjan.betaori",
    }
    assert all(
        a.args["character_id"] == john and a.group == "ジョン" and a.primary for a in offered(g, mj)
    )
    (waza,) = mine["shadowjan.wazamae"]
    assert values(waza, "enhance") == [0, 1, 2, 3]
    assert [c.label for c in waza.choices["enhance"]][::3] == [
        "HARD（メンツ+1）",
        "強化+3（UH3、メンツ+4）",
    ]
    assert offered(g, ms) == [] and offered(g, mk) == []
    assert [a.command for a in offered(g, g.h.gm)] == [a.command for a in offered(g, mj)]
    t = turn(g)
    assert (t.actor, t.actor_label, t.phase, t.phase_label, t.round, t.round_label) == (
        john,
        "ジョン",
        "action",
        "手番の行動",
        1,
        "東1局",
    )
    assert [(s.id, s.value) for s in t.order] == [(john, 90), (steph, 80), (ken, 70)]
    assert t.order[0].label == "ジョン（親）"
    # an offered choice is accepted: 強化イカサマ+1 at U-HARD
    g.h.roll(6, 6, 1, 1)
    await send(g, mj, waza, enhance=1)
    assert g.p(john).mentsu == 2 + 2


async def test_a_declaration_offers_the_stick_at_each_other_player_or_none() -> None:
    """SJ-18, SJ-19: リーチ with the stick at any other seated player (or not thrown), or ダマテン."""
    g = await make_game(n=3, deal=[2, 4, 4])
    john, steph, ken = g.cids
    aff = by_command(offered(g, g.members[0]))
    assert set(aff) == {"shadowjan.declare"}
    riichi, dama = aff["shadowjan.declare"]
    assert (riichi.label, riichi.args["kind"], dama.label, dama.args["kind"]) == (
        "リーチ",
        "riichi",
        "ダマテン",
        "dama",
    )
    assert values(riichi, "stick_target") == [None, steph, ken]
    assert [c.label for c in riichi.choices["stick_target"]] == [
        "リーチ棒を投げない",
        "リーチ棒をスティファニーへ",
        "リーチ棒をケンへ",
    ]
    assert turn(g).phase_label == "リーチ/ダマテン宣言"
    g.h.roll(3)
    await send(g, g.members[0], riichi, stick_target=ken)
    assert turn(g).actor == ken and turn(g).phase == "evade"


async def test_evasion_offers_every_count_of_the_dice_left() -> None:
    """NSTRPG 2-11: 回避判定 with 0 (take it) up to the 回避ダイス left, for the target only."""
    g = await make_game(n=3, deal=[2, 4, 4])
    john, steph, ken = g.cids
    g.h.roll(3)
    await g.send(john, C.Declare(character_id=john, kind="riichi", stick_target=ken))
    (evade,) = offered(g, g.members[2])
    assert evade.command == "shadowjan.evade" and evade.args == {"character_id": ken}
    assert (
        values(evade, "dice") == list(range(0, g.p(ken).evasion_dice + 1))
        and g.p(ken).evasion_dice == 4
    )
    assert (
        evade.choices["dice"][0].label == "回避しない"
        and evade.choices["dice"][2].label == "2ダイス"
    )
    assert offered(g, g.members[0]) == [] and offered(g, g.members[1]) == []
    g.h.roll(6, 1)
    await send(g, g.members[2], evade, dice=2)
    assert g.p(ken).tairyoku == 10 and turn(g).actor == john  # dodged; the deal goes on


async def test_ron_attacks_offer_only_the_declarers_and_the_kinds_the_sheet_has() -> None:
    """SJ-22, SJ-24: after a failed 振り込み判定 the ron'd player must attack the declarer:
    targets are the declarers only, kinds 近接/スリケン, ジツ only with 【ジツ】, a gun only if carried."""
    sheets = [ninja(), ninja(jitsu=1, weapons=["chakagun"]), ninja(), ninja()]
    g = await make_game(sheets=sheets, deal=[2, 4, 4, 4])
    x, y, ken, yumi = g.cids
    await g.send(x, C.Declare(character_id=x, kind="riichi"))
    g.h.roll(1, 2, 3, 4)
    await g.send(x, C.Tsumo(character_id=x, stat="karate"))
    g.h.roll(1, 1, 1, 1)  # ニューロン fails
    g.h.roll(1, 2, 3, 4)  # 振り込み判定 fails: ロン
    await g.send(y, C.Neuron(character_id=y))
    (attack,) = offered(g, g.by_cid[y])
    assert attack.command == "shadowjan.attack" and attack.label == "攻撃"
    assert values(attack, "target") == [x] and [c.label for c in attack.choices["target"]] == [
        "ジョン"
    ]
    assert values(attack, "kind") == ["melee", "shuriken", "jitsu", "gun"]
    assert [c.label for c in attack.choices["kind"]] == [
        "近接攻撃",
        "スリケン（遠隔攻撃）",
        "ジツ",
        "銃撃",
    ]
    t = turn(g)
    assert (t.actor, t.phase, t.phase_label) == (y, "attack", "攻撃")
    g.h.roll(1, 1, 1, 1)  # the スリケン misses: ロン stands
    g.h.roll(4, 4, 4, 4)  # the next hand's deal
    await send(g, g.by_cid[y], attack, kind="shuriken", target=x)
    assert [line.reason for line in g.g.scoreboard] == ["ron_riichi"]


async def test_a_declarers_turn_offers_the_tsumo_check_with_each_attribute() -> None:
    """SJ-21: a declarer's turn is the ツモ判定 with 【カラテ】, 【ワザマエ】 or 【ニューロン】."""
    g = await make_game(n=2, deal=[2, 4])
    john, _ = g.cids
    await g.send(john, C.Declare(character_id=john, kind="dama"))
    (tsumo,) = offered(g, g.members[0])
    assert tsumo.command == "shadowjan.tsumo" and values(tsumo, "stat") == [
        "karate",
        "wazamae",
        "neuron",
    ]
    assert [c.label for c in tsumo.choices["stat"]] == [
        "【カラテ】",
        "【ワザマエ】",
        "【ニューロン】",
    ]
    assert turn(g).phase_label == "ツモ判定"
    g.h.roll(6, 6, 6, 1)
    g.h.roll(4, 4)  # the next hand's deal
    await send(g, g.members[0], tsumo, stat="wazamae")
    assert turn(g).round_label == "東2局" and turn(g).order[1].label.endswith("（親）")


async def test_the_end_offers_nothing() -> None:
    """◆ゲームの終了: once ended, no move is offered and ``turn`` says 終局."""
    g = await make_game(n=2, deal=[2, 4], options={"hands": 1})
    john, _ = g.cids
    await g.send(john, C.Declare(character_id=john, kind="dama"))
    g.h.roll(6, 6, 6, 1)
    await g.send(john, C.Tsumo(character_id=john, stat="karate"))
    assert g.g.phase == "ended"
    assert offered(g, g.members[0]) == [] and offered(g, g.h.gm) == []
    t = turn(g)
    assert (t.actor, t.phase, t.phase_label, t.round_label) == (None, "ended", "終局", "東1局")


def test_hand_labels_follow_the_winds() -> None:
    """SJ-06: four hands a wind (東1局 … 東4局, then 南); a replay after 流局 says how many."""
    assert [hand_label(h) for h in (0, 1, 4, 5, 9)] == ["", "東1局", "東4局", "南1局", "西1局"]
    assert hand_label(2, draws=1) == "東2局（流局1回）"
