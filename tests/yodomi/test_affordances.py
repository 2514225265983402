"""Affordances and turn of 澱み流れ: what each viewer is offered, and sending it back.

Cards are offered only from the viewer's own hand (never another's, and not a
PC's to the GM); check, attack and continuous ids come decided; the GM's
commands are the GM's alone; the turn names the fight's actor, process, round
and initiative order, or the scene and its scene player.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from taku.core.play import Affordance
from taku.core.table import affordances, turn
from taku_yodomi import commands as C
from taku_yodomi._cards import full_deck

GM_ONLY = {
    "yodomi.deal_cards",
    "yodomi.start_scene",
    "yodomi.end_scene",
    "yodomi.start_combat",
    "yodomi.advance",
    "yodomi.read_trailer",
    "yodomi.give_handout",
    "yodomi.add_status",
    "yodomi.close_scene_end",
    "yodomi.end_combat",
    "yodomi.start_continuous",
    "yodomi.advance_continuous",
}


def offers(yd: Any, member: str) -> list[Affordance]:
    state = yd.h.table.state
    return [
        a
        for a in affordances(state, state.viewer(member), yd.h.table.ruleset)
        if a.command.startswith("yodomi.")
    ]


def find(yd: Any, member: str, command: str, **args: Any) -> Affordance:
    found = [
        a
        for a in offers(yd, member)
        if a.command == command and all(a.args.get(k) == v for k, v in args.items())
    ]
    assert found, (
        f"{command} {args} not offered to {member}: {[a.command for a in offers(yd, member)]}"
    )
    return found[0]


def values(aff: Affordance, arg: str) -> list[Any]:
    return [c.value for c in aff.choices.get(arg, [])]


async def send(yd: Any, member: str, aff: Affordance, **picked: Any) -> list[Any]:
    """Send ``aff`` as a client would: its args plus the picked choices, through the JSON decoder."""
    for k, v in picked.items():
        if k not in aff.choices:
            continue  # an open argument (free text, a number)
        allowed = values(aff, k)
        for one in v if isinstance(v, list) else [v]:
            assert one in allowed, f"{one!r} is not among the choices of {k}: {allowed}"
    raw = json.dumps({"type": aff.command, **aff.args, **picked}, ensure_ascii=False).encode()
    return await yd.h.send(member, yd.h.table.command_decoder.decode(raw))


def faces(items: list[Affordance]) -> set[str]:
    """Every card code named in any label or choice of ``items``."""
    deck = set(full_deck())
    text = json.dumps(msgspec.to_builtins(items), ensure_ascii=False)
    return {c for c in deck if c in text}


async def _deal(yd: Any, cid: str, n: int) -> None:
    await yd.h.send(yd.h.gm, C.DealCards(character_id=cid, count=n))


async def test_cards_are_offered_from_the_viewers_own_hand_only(new_table: Any, order: Any) -> None:
    """A player is offered the cards of their own hand; another player, the GM and the
    spectator are offered none of them (no label or choice names them)."""
    yd = await new_table(shuffles=[order("♦10", "♠9", "♥2", "♣K", "JK1")])
    await _deal(yd, yd.a, 2)  # ♦10 ♠9
    await _deal(yd, yd.b, 2)  # ♥2 ♣K
    await _deal(yd, yd.e, 1)  # JK1: the NPC's hand is the GM's
    roll_a = find(yd, yd.pa, "yodomi.roll_check", character_id=yd.a)
    assert values(roll_a, "cards") == ["♦10", "♠9"]
    assert faces(offers(yd, yd.pa)) == {"♦10", "♠9"}
    assert faces(offers(yd, yd.pb)) == {"♥2", "♣K"}
    assert faces(offers(yd, yd.h.gm)) == {"JK1"}  # gm_sees_hands is off: no PC's card
    assert offers(yd, yd.spec) == []
    # nobody is offered to act for a character that is not theirs
    assert all(a.args.get("character_id") in (None, yd.a) for a in offers(yd, yd.pa))
    give = find(yd, yd.pa, "yodomi.give_cards", from_character=yd.a)
    assert set(values(give, "to_character")) == {yd.b, yd.e}
    await send(yd, yd.pa, give, to_character=yd.b, cards=["♠9"])
    assert yd.game.hands[yd.b] == ["♥2", "♣K", "♠9"]


async def test_gm_commands_are_offered_to_the_gm_only(yd: Any) -> None:
    """Players are never offered a GM command; the GM is offered the scene, the deal and the rest."""
    for member in (yd.pa, yd.pb):
        assert not {a.command for a in offers(yd, member)} & GM_ONLY
    gm = {a.command for a in offers(yd, yd.h.gm)}
    assert {
        "yodomi.deal_cards",
        "yodomi.start_scene",
        "yodomi.read_trailer",
        "yodomi.give_handout",
    } <= gm
    start = find(yd, yd.h.gm, "yodomi.start_scene")
    assert values(start, "kind") == ["opening", "middle", "climax", "ending"]
    assert [c.label for c in start.choices["kind"]] == [
        "オープニング",
        "ミドル",
        "クライマックス",
        "エンディング",
    ]
    await send(yd, yd.h.gm, start, kind="middle", scene_player=yd.a)
    assert turn(yd.h.table.state, yd.h.table.ruleset).actor == yd.a


async def test_preplay_key_number_and_suits(yd: Any) -> None:
    """Pre-play: キーナンバー and the suit come first; a suit another PC took is not offered (YD-71)."""
    key = find(yd, yd.pa, "yodomi.roll_key_number", character_id=yd.a)
    assert key.primary
    yd.h.roll(7)
    await send(yd, yd.pa, key)
    assert yd.game.chars[yd.a].key_number == 7
    assert not [a for a in offers(yd, yd.pa) if a.command == "yodomi.roll_key_number"]
    suit = find(yd, yd.pa, "yodomi.choose_suit", character_id=yd.a)
    assert (
        values(suit, "suit") == ["♠", "♥", "♦", "♣"]
        and suit.choices["suit"][2].label == "♦（ダイヤ）"
    )
    await send(yd, yd.pa, suit, suit="♦")
    assert "♦" not in values(find(yd, yd.pb, "yodomi.choose_suit", character_id=yd.b), "suit")


async def test_play_cards_on_the_latest_check_with_its_id_decided(
    new_table: Any, order: Any
) -> None:
    """After a plain check its owner is offered 流れ on it, the check id decided (G-YD-06)."""
    yd = await new_table(shuffles=[order("♦10", "♠9")])
    await yd.h.send(yd.pa, C.ChooseSuit(character_id=yd.a, suit="♦"))
    await _deal(yd, yd.a, 2)
    yd.h.roll(2, 3)
    (rolled,) = await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=5, difficulty=20))
    play = find(yd, yd.pa, "yodomi.play_cards")
    assert play.args == {"check_id": rolled.check.check_id} and values(play, "cards") == [
        "♦10",
        "♠9",
    ]
    assert not [a for a in offers(yd, yd.pb) if a.command == "yodomi.play_cards"]
    boosted, played = await send(yd, yd.pa, play, cards=["♦10", "♠9"])
    assert played.bonus == 11 and boosted.check.value == 21 and boosted.check.success is True


async def test_scene_entry_and_scene_end_paths(yd: Any) -> None:
    """In a scene an absent PC is offered 登場判定; at the scene end 舞台裏, then パス with
    targets drawn from the characters and the topics talked about (YD-22, YD-74, YD-75)."""
    await yd.h.send(yd.h.gm, C.StartScene(kind="middle", scene_player=yd.a))
    entry = find(yd, yd.pb, "yodomi.enter_scene", character_id=yd.b)
    assert entry.primary
    await yd.h.send(yd.pa, C.NoteTopic(text="古い鏡"))
    await yd.h.send(yd.h.gm, C.EndScene())
    back = find(yd, yd.pb, "yodomi.backstage", character_id=yd.b)
    assert back.primary
    assert not [a for a in offers(yd, yd.pa) if a.command == "yodomi.backstage"]  # アキラ appeared
    yd.h.roll(4, 5)
    await send(yd, yd.pb, back)
    path = find(yd, yd.pb, "yodomi.gain_path", character_id=yd.b)
    assert set(values(path, "target")) == {"アキラ", "澱みの獣", "古い鏡"}
    await send(yd, yd.pb, path, target="古い鏡", emotion="不安")
    assert [p.target for p in yd.game.chars[yd.b].paths] == ["古い鏡"]
    assert not [
        a for a in offers(yd, yd.pb) if a.command in ("yodomi.backstage", "yodomi.gain_path")
    ]
    close = find(yd, yd.h.gm, "yodomi.close_scene_end")
    await send(yd, yd.h.gm, close)
    assert turn(yd.h.table.state, yd.h.table.ruleset).phase == "between"


async def test_cut_hand_offers_own_cards_at_the_scene_end(new_table: Any, order: Any) -> None:
    """A hand over the number of パス is cut from the owner's own cards (YD-24)."""
    yd = await new_table(shuffles=[order("♦10", "♠9")])
    await _deal(yd, yd.b, 2)
    await yd.h.send(yd.h.gm, C.StartScene(kind="middle", scene_player=yd.a))
    await yd.h.send(yd.h.gm, C.EndScene())
    await yd.h.send(yd.pb, C.GainPath(character_id=yd.b, target="アキラ", emotion="信頼"))
    cut = find(yd, yd.pb, "yodomi.cut_hand", character_id=yd.b)
    assert cut.primary and values(cut, "cards") == ["♦10", "♠9"] and "1枚" in cut.label
    assert not find(yd, yd.h.gm, "yodomi.close_scene_end").primary  # a hand is over its limit
    await send(yd, yd.pb, cut, cards=["♠9"])
    assert yd.game.hands[yd.b] == ["♦10"]
    assert find(yd, yd.h.gm, "yodomi.close_scene_end").primary


async def test_combat_turn_attack_and_defence(yd: Any) -> None:
    """In a fight the turn names the round, the process, the actor and the initiative order
    (【行動値】 A 6, E 4, B 3; G-YD-09); the actor's player is offered the attack on an enemy,
    the target's controller the defence with the attack id decided."""
    await yd.h.send(yd.h.gm, C.StartScene(kind="climax", scene_player=yd.a, present=[yd.b, yd.e]))
    start = find(yd, yd.h.gm, "yodomi.start_combat")
    assert start.args == {"engagements": [[yd.a, yd.b, yd.e]]}
    await send(yd, yd.h.gm, start)
    t = turn(yd.h.table.state, yd.h.table.ruleset)
    assert (
        t.phase == "setup"
        and t.phase_label == "セットアッププロセス"
        and t.round == 1
        and t.round_label == "ラウンド1"
    )
    assert [(s.id, s.value) for s in t.order] == [(yd.a, 6), (yd.e, 4), (yd.b, 3)]
    await send(yd, yd.h.gm, find(yd, yd.h.gm, "yodomi.advance"))  # setup
    await send(yd, yd.h.gm, find(yd, yd.h.gm, "yodomi.advance"))  # initiative
    t = turn(yd.h.table.state, yd.h.table.ruleset)
    assert t.actor == yd.a and t.actor_label == "アキラ" and t.phase == "main"
    assert not [a for a in offers(yd, yd.pb) if a.command == "yodomi.attack"]  # not ミナ's turn
    attack = find(yd, yd.pa, "yodomi.attack", attacker=yd.a)
    assert (
        attack.primary
        and values(attack, "target") == [yd.e]
        and set(values(attack, "ability")) == {"体", "知"}
    )
    yd.h.roll(5, 6)
    await send(yd, yd.pa, attack, target=yd.e, ability="体")
    (aid,) = yd.game.attacks
    defend = find(yd, yd.h.gm, "yodomi.defend", attack_id=aid)
    assert defend.primary and "evasion" in values(defend, "mode")
    assert not [a for a in offers(yd, yd.pb) if a.command == "yodomi.defend"]
    yd.h.roll(1, 2)
    await send(yd, yd.h.gm, defend, mode="evasion")
    assert not yd.game.attacks
    t = turn(yd.h.table.state, yd.h.table.ruleset)
    assert t.actor == yd.e and [s.done for s in t.order] == [True, False, False]


async def test_death_choices(yd: Any) -> None:
    """A dead character's player is offered only the choice at death, with its Japanese names."""
    await yd.h.send(yd.h.gm, C.StartScene(kind="middle", scene_player=yd.a))
    from taku.core.commands import Override

    await yd.h.send(
        yd.h.gm, Override(path=["game", "chars", yd.a, "condition"], value="dead", reason="試験")
    )
    mine = [a for a in offers(yd, yd.pa) if a.args.get("character_id") == yd.a]
    assert [a.command for a in mine if a.primary] == ["yodomi.choose_death"]
    death = find(yd, yd.pa, "yodomi.choose_death", character_id=yd.a)
    assert [c.label for c in death.choices["choice"]] == ["流れとしての死", "澱みとしての生"]
    await send(yd, yd.pa, death, choice="yodomi")
    assert yd.game.chars[yd.a].condition == "yodomi_life"


async def test_turn_outside_combat(yd: Any) -> None:
    """Outside a fight the turn is the phase: pre-play, then the scene with its scene player."""
    t = turn(yd.h.table.state, yd.h.table.ruleset)
    assert t.phase == "preplay" and t.phase_label == "プリプレイ" and t.actor is None
    await yd.h.send(yd.h.gm, C.StartScene(kind="opening", scene_player=yd.a))
    t = turn(yd.h.table.state, yd.h.table.ruleset)
    assert (t.actor, t.actor_label, t.phase, t.phase_label, t.round, t.round_label) == (
        yd.a,
        "アキラ",
        "scene",
        "オープニングシーン",
        1,
        "シーン1",
    )
    assert [s.id for s in t.order] == [yd.a]


async def test_only_legal_plays_are_offered(new_table: Any, order: Any) -> None:
    """One own-suit card counts per check (YD-25): once it is played, no other own-suit card is
    offered on that check; under 蝕み no own-suit card is offered at all (YD-64)."""
    yd = await new_table(shuffles=[order("♦10", "♦3", "♠9")])
    await yd.h.send(yd.pa, C.ChooseSuit(character_id=yd.a, suit="♦"))
    await _deal(yd, yd.a, 3)
    assert values(find(yd, yd.pa, "yodomi.roll_check", character_id=yd.a), "cards") == [
        "♦10",
        "♦3",
        "♠9",
    ]
    yd.h.roll(2, 3)
    (rolled,) = await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=5))
    await send(yd, yd.pa, find(yd, yd.pa, "yodomi.play_cards"), cards=["♦10"])
    assert values(
        find(yd, yd.pa, "yodomi.play_cards", check_id=rolled.check.check_id), "cards"
    ) == ["♠9"]
    await yd.h.send(yd.h.gm, C.AddStatus(character_id=yd.a, status="蝕み"))
    assert values(find(yd, yd.pa, "yodomi.roll_check", character_id=yd.a), "cards") == ["♠9"]
    erosion = find(yd, yd.pa, "yodomi.remove_status", status="蝕み")
    assert values(erosion, "card") == ["♦3", "♠9"]  # any card may be discarded to end 蝕み
