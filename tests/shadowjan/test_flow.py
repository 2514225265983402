"""The hand's special cases over the command path: ロン by several declarers (SJ-23),
流局 and its multiplier (SJ-27), ニンジャ殺すべし (SJ-28, SJ-29), the end (SJ-33)."""

from __future__ import annotations

import pytest

from taku.core.commands import Override
from taku_shadowjan import commands as C
from taku_shadowjan import events as ev

from .conftest import Game, make_game, moves, ninja

MISS = (1, 1, 1, 1)
PASS = (5, 1, 1, 1)  # a HARD 振り込み判定 that succeeds


def _of(events: list, t: type) -> list:
    return [e for e in events if isinstance(e, t)]


async def _quiet_turn(g: Game, cid: str) -> list:
    """A failed ニューロン and, when someone has declared, a passed 振り込み判定."""
    declared = any(p.declaration for c, p in g.g.players.items() if c != cid)
    g.h.roll(*MISS, *((6, 1, 1, 1) if declared else ()))
    return await g.send(cid, C.Neuron(character_id=cid))


async def test_ron_answered_by_two_declarers_with_a_split() -> None:
    """SJ-22, SJ-23: ケン is ron'd by ジョン (リーチ) and スティファニー (ダマ) and answers both with
    one 連続攻撃2; ジョン is hit (チョンボ), スティファニー is not (ロン マンガン from ケン)."""
    sheets = [ninja(), ninja(), ninja(karate=7), ninja()]
    g = await make_game(sheets=sheets, deal=[2, 2, 4, 4])
    john, steph, ken, yumi = g.cids
    assert g.waiting() == (john, "declare")
    await g.send(john, C.Declare(character_id=john, kind="riichi"))
    await g.send(steph, C.Declare(character_id=steph, kind="dama"))
    g.h.roll(*MISS, 6, 1, 1, 1)  # ジョン: ツモ fails; 振り込み判定 (U-HARD: he is in リーチ) passes
    events = await g.send(john, C.Tsumo(character_id=john, stat="karate"))
    assert _of(events, ev.FurikomiRolled)[0].difficulty == 6
    g.h.roll(*MISS, *PASS)
    await g.send(steph, C.Tsumo(character_id=steph, stat="karate"))
    g.h.roll(*MISS, *MISS)  # ケン: ニューロン fails, 振り込み判定 fails
    events = await g.send(ken, C.Neuron(character_id=ken))
    assert _of(events, ev.FurikomiRolled)[0].ron_by == (john, steph)
    g.h.roll(5, 5, 1, 1, 1, 1, 1)  # 4 dice at ジョン (2 successes), 3 at スティファニー (none)
    await g.send(
        ken,
        C.Attack(
            character_id=ken,
            kind="melee",
            splits=[C.Split(target=john, dice=4), C.Split(target=steph, dice=3)],
        ),
    )
    assert g.waiting() == (john, "evade")
    g.h.roll(*MISS, *([4] * 4))
    events = await g.send(john, C.Evade(character_id=john, dice=4))
    scored = {s.who: s for s in _of(events, ev.Scored)}
    assert scored[steph].reason == "ron_dama" and scored[steph].deltas == {
        steph: 12000,
        ken: -12000,
    }
    assert scored[john].reason == "chombo" and scored[john].deltas == {
        john: -12000,
        steph: 4000,
        ken: 4000,
        yumi: 4000,
    }
    assert g.scores() == {john: 13000, steph: 41000, ken: 17000, yumi: 29000}
    await g.h.assert_replay_matches()
    # a replay may stop at any seq, also between two events of one command
    from taku.core.ruleset import Viewer

    for seq in range(1, g.h.state.seq + 1):
        for viewer in (Viewer(None), g.h.state.viewer(g.members[0]), g.h.state.viewer(g.h.gm)):
            state = await g.h.table.state_at(viewer, seq)
            assert state["seq"] == seq and "players" in state["game"]


async def test_ron_by_two_without_renzoku_needs_an_attack_on_each() -> None:
    """SJ-23: every declarer must be answered; without ●連続攻撃 that takes two attacks."""
    g = await make_game(deal=[2, 2, 4, 4])
    john, steph, ken, _ = g.cids
    await g.send(john, C.Declare(character_id=john, kind="riichi"))
    await g.send(steph, C.Declare(character_id=steph, kind="riichi"))
    g.h.roll(*MISS, 6, 1, 1, 1)
    await g.send(john, C.Tsumo(character_id=john, stat="karate"))
    g.h.roll(*MISS, 6, 1, 1, 1)
    await g.send(steph, C.Tsumo(character_id=steph, stat="karate"))
    g.h.roll(*MISS, *MISS)
    await g.send(ken, C.Neuron(character_id=ken))
    err = await g.rejected(
        ken,
        C.Attack(
            character_id=ken,
            kind="melee",
            splits=[C.Split(target=john, dice=2), C.Split(target=steph, dice=2)],
        ),
    )
    assert err.code == "rule/shadowjan/too_many_attacks"
    g.h.roll(*MISS)
    await g.send(ken, C.Attack(character_id=ken, kind="melee", target=john))
    assert g.waiting() == (ken, "attack")
    targets = {m["command"]["target"] for m in moves(g.h, g.by_cid[ken])}
    assert targets == {steph}
    g.h.roll(*MISS, *([4] * 4))
    events = await g.send(ken, C.Attack(character_id=ken, kind="shuriken", target=steph))
    assert sorted(s.reason for s in _of(events, ev.Scored)) == ["ron_riichi", "ron_riichi"]
    assert g.scores()[ken] == 25000 - 36000


async def test_guns_only_in_the_ron_response() -> None:
    """SJ-22: a carried gun may shoot in the ロン回避判定 only."""
    sheets = [ninja(), ninja(weapons=["chakagun"]), ninja(), ninja()]
    g = await make_game(sheets=sheets, deal=[1, 4, 4, 4])
    john, steph, *_ = g.cids
    await g.send(john, C.Tenho(character_id=john))
    err = await g.rejected(steph, C.Attack(character_id=steph, kind="gun", target=john))
    assert err.code == "rule/shadowjan/no_guns"


async def test_ryukyoku_twice_then_a_win_scores_four_times() -> None:
    """SJ-27, G-SJ-09/10/11: the first declarer ends two turns without winning: 流局, the hand is
    replayed by the same dealer; after two the next win scores ×4, then back to ×1."""
    g = await make_game(deal=[2, 4, 4, 4])
    john, steph, ken, yumi = g.cids
    for draw in (1, 2):
        await g.send(john, C.Declare(character_id=john, kind="riichi"))
        for turn in range(2):
            g.h.roll(*MISS)
            if turn == 1:
                g.h.roll(2, 4, 4, 4)  # the replayed deal
            events = await g.send(john, C.Tsumo(character_id=john, stat="karate"))
            if turn == 0:
                for o in (steph, ken, yumi):
                    await _quiet_turn(g, o)
        (r,) = _of(events, ev.Ryukyoku)
        assert r.draws == draw and g.g.hand == 1 and g.g.dealer == john
        assert g.scores() == {c: 25000 for c in g.cids}
    await g.send(john, C.Declare(character_id=john, kind="riichi"))
    g.h.roll(6, 6, 6, 1, 4, 4, 4, 4)
    events = await g.send(john, C.Tsumo(character_id=john, stat="karate"))
    (s,) = _of(events, ev.Scored)
    assert s.multiplier == 4 and s.deltas == {john: 72000, steph: -24000, ken: -24000, yumi: -24000}
    assert g.g.draws == 0 and g.g.hand == 2 and g.g.dealer == steph


async def test_ryukyoku_does_not_count_the_declaring_turn() -> None:
    """G-SJ-09: a リーチ made during a turn: that turn does not count towards 流局."""
    g = await make_game(n=2, deal=[3, 4])
    john, steph = g.cids
    g.h.roll(6, 1, 1, 1)
    await g.send(john, C.Neuron(character_id=john))
    await g.send(john, C.Declare(character_id=john, kind="dama"))
    await _quiet_turn(g, steph)
    g.h.roll(*MISS)
    await g.send(john, C.Tsumo(character_id=john, stat="karate"))
    assert g.g.hand == 1 and g.p(john).declared_turns == 1 and not g.g.draws
    await _quiet_turn(g, steph)
    g.h.roll(*MISS, 4, 4)
    events = await g.send(john, C.Tsumo(character_id=john, stat="karate"))
    assert _of(events, ev.Ryukyoku)


async def _slayer_table(last_score: int, gap: int, **options: object) -> Game:
    g = await make_game(deal=[2, 4, 4, 4], options=dict(options) or None)
    john, steph, ken, yumi = g.cids
    gm = g.h.gm
    for cid, score in (
        (john, last_score + gap),
        (steph, last_score + 10000),
        (ken, last_score),
        (yumi, last_score + 20000),
    ):
        await g.h.send(
            gm, Override(path=["game", "players", cid, "score"], value=score, reason="test")
        )
    await g.send(john, C.Declare(character_id=john, kind="riichi"))
    return g


@pytest.mark.parametrize(
    ("last_score", "face", "triggered"),
    [(5000, 6, True), (5000, 5, False), (2500, 3, True), (2500, 2, False)],
)
async def test_ninja_slayer_at_the_boundary(last_score: int, face: int, triggered: bool) -> None:
    """SJ-28, G-SJ-14: the last player, 50000 behind a declarer who failed ツモ, rolls 1d6; it
    triggers only when the face is ABOVE score / 1000 (5000: 6 yes, 5 no; 2500: 3 yes, 2 no)."""
    g = await _slayer_table(last_score, 50000)
    john, steph, ken, yumi = g.cids
    g.h.roll(*MISS, face)
    if triggered:
        g.h.roll(2, 5, 6)  # 1d3 DKK for each other PC (read from a d6, G-NS-16): 1, 3, 3
    events = await g.send(john, C.Tsumo(character_id=john, stat="karate"))
    (chk,) = _of(events, ev.NinjaSlayerChecked)
    assert chk.character_id == ken and chk.triggered is triggered and chk.roll is not None
    if triggered:
        assert g.g.phase == "ended" and g.p(john).status == "exploded"
        assert [d.gained for d in _of(events, ev.DkkGained)] == [1, 3, 3]
        assert g.g.ranking[-1] == john
    else:
        assert g.waiting() == (steph, "action")


async def test_ninja_slayer_needs_a_50000_gap() -> None:
    """SJ-28: 49000 behind is not enough: no roll at all."""
    g = await _slayer_table(1000, 49000)
    john = g.cids[0]
    g.h.roll(*MISS)
    events = await g.send(john, C.Tsumo(character_id=john, stat="karate"))
    assert not _of(events, ev.NinjaSlayerChecked)


async def test_ninja_slayer_automatic_below_zero_and_switched_off() -> None:
    """SJ-28: a negative score triggers without a roll; the option turns it off (SJ-37)."""
    g = await _slayer_table(-1000, 60000)
    john = g.cids[0]
    g.h.roll(*MISS, 1, 1, 1)
    events = await g.send(john, C.Tsumo(character_id=john, stat="karate"))
    (chk,) = _of(events, ev.NinjaSlayerChecked)
    assert chk.triggered and chk.roll is None
    g = await _slayer_table(-1000, 60000, ninja_slayer=False)
    g.h.roll(*MISS)
    events = await g.send(g.cids[0], C.Tsumo(character_id=g.cids[0], stat="karate"))
    assert not _of(events, ev.NinjaSlayerChecked)


async def test_ninja_slayer_fight() -> None:
    """SJ-29, G-SJ-17: with the fight option the last player becomes Ninja Slayer (NSTRPG stat
    block: 体力 13, 回避 14) and fights the target until one falls."""
    g = await _slayer_table(-1000, 60000, ninja_slayer_fight=True)
    john, steph, ken, yumi = g.cids
    g.h.roll(*MISS)
    await g.send(john, C.Tsumo(character_id=john, stat="karate"))
    assert g.p(ken).slayer and g.p(ken).tairyoku == 13 and g.p(ken).evasion_dice == 14
    assert g.waiting() == (ken, "attack")
    g.h.roll(*([5] * 13))  # カラテ 13 at ジョン
    await g.send(ken, C.Attack(character_id=ken, kind="melee", target=john))
    await g.send(john, C.Evade(character_id=john, dice=0))
    assert g.p(john).tairyoku == 9
    await g.h.assert_replay_matches()


async def test_game_ends_after_four_hands_with_a_ranking() -> None:
    """SJ-06, SJ-33: four hands (each a ツモ here), then the ranking by score."""
    g = await make_game(n=2, deal=[2, 4])
    a, b = g.cids
    winners = [a, b, a, b]
    for hand, w in enumerate(winners, start=1):
        assert g.g.hand == hand and g.waiting() == (w, "declare")
        await g.send(w, C.Declare(character_id=w, kind="dama" if hand < 4 else "riichi"))
        g.h.roll(6, 6, 6, 1)
        if hand < 4:
            g.h.roll(2, 4)  # next dealer first
        events = await g.send(w, C.Tsumo(character_id=w, stat="karate"))
    (end,) = _of(events, ev.GameEnded)
    assert end.reason == "hands" and end.ranking == (b, a)
    # マンガン 12000 ×3 (a, b, a), then b's ハネマン 18000 (two players: from the one opponent)
    assert end.scores == {
        a: 25000 + 12000 - 12000 + 12000 - 18000,
        b: 25000 - 12000 + 12000 - 12000 + 18000,
    }
    assert g.g.phase == "ended" and moves(g.h, g.members[0]) == []


async def test_tie_for_first_is_fought_out() -> None:
    """SJ-33: a tie for first after the last hand is settled by an イクサ."""
    g = await make_game(n=2, deal=[2, 4], options={"hands": 2})
    a, b = g.cids
    await g.send(a, C.Declare(character_id=a, kind="dama"))
    g.h.roll(6, 6, 6, 1, 2, 4)
    await g.send(a, C.Tsumo(character_id=a, stat="karate"))
    await g.send(b, C.Declare(character_id=b, kind="dama"))
    g.h.roll(6, 6, 6, 1)
    events = await g.send(b, C.Tsumo(character_id=b, stat="karate"))
    assert _of(events, ev.BattleStarted)[0].battle.kind == "ikusa" and g.g.phase == "battle"
    assert g.waiting() == (a, "attack")
    # a wears b down (one hit a round, b takes it); b always misses
    while g.g.phase != "ended":
        who, step = g.waiting()
        if step == "attack":
            g.h.roll(*((5, 1, 1, 1) if who == a else MISS))
            await g.send(who, C.Attack(character_id=who, kind="melee", target=b if who == a else a))
        else:
            assert who == b
            await g.send(b, C.Evade(character_id=b, dice=0))
    assert g.g.ranking == (a, b) and g.g.end_reason == "tiebreak"
    assert g.p(b).out and g.p(b).tairyoku == 0
    await g.h.assert_replay_matches()


async def test_end_on_negative_option_and_tsumo_sixes_option() -> None:
    """SJ-37: 上位帯向け: 4 sixes for a ツモ; 点数マイナスで終了 ends the game at once."""
    g = await make_game(
        n=2, deal=[2, 4], options={"tsumo_sixes": 4, "end_on_negative": True, "start_score": 10000}
    )
    a, b = g.cids
    await g.send(a, C.Declare(character_id=a, kind="riichi"))
    g.h.roll(6, 6, 6, 1)
    events = await g.send(a, C.Tsumo(character_id=a, stat="karate"))
    t = _of(events, ev.TsumoRolled)[0]
    assert not t.win and t.total == 3 and t.needed == 4
    await _quiet_turn(g, b)
    g.h.roll(6, 1, 1, 1)
    events = await g.send(a, C.Tsumo(character_id=a, stat="karate"))
    assert _of(events, ev.TsumoRolled)[0].win
    (end,) = _of(events, ev.GameEnded)
    assert end.reason == "negative" and end.scores == {a: 28000, b: -8000} and end.ranking == (a, b)


async def test_dealer_turn_refreshes_evasion_dice() -> None:
    """SJ-25: 回避ダイス come back at the start of the dealer's turn."""
    g = await make_game(n=2, deal=[2, 4])
    a, b = g.cids
    g.h.roll(4)
    await g.send(a, C.Declare(character_id=a, kind="riichi", stick_target=b))
    g.h.roll(1, 1)
    await g.send(b, C.Evade(character_id=b, dice=2))
    assert g.p(b).evasion_dice == 4  # the deal's second taking
    g.h.roll(*MISS)
    await g.send(a, C.Tsumo(character_id=a, stat="karate"))
    g.h.roll(*MISS, 6, 1, 1, 1)
    await g.send(b, C.Neuron(character_id=b))
    assert g.p(b).evasion_dice == 4


async def test_game_ends_with_one_player_left() -> None:
    """SJ-33, SJ-34: the other player blown up by the stick: the game ends at once, the survivor
    first with the loser's points (25000 → 25000 for one survivor)."""
    g = await make_game(n=2, sheets=[ninja(), ninja(tairyoku=1, seishin=0)], deal=[2, 4])
    a, b = g.cids
    g.h.roll(6)
    await g.send(a, C.Declare(character_id=a, kind="riichi", stick_target=b))
    events = await g.send(b, C.Evade(character_id=b, dice=0))
    (end,) = _of(events, ev.GameEnded)
    assert end.reason == "one_left" and end.ranking == (a, b) and end.scores == {a: 50000, b: 0}
    err = await g.rejected(a, C.Tsumo(character_id=a, stat="karate"))
    assert err.code == "rule/shadowjan/game_over"


async def test_double_ron_after_a_ryukyoku_doubles_both_wins() -> None:
    """SJ-27, SJ-23: after a 流局 every アガリ of the replayed hand scores ×2; a double ロン is two
    wins of that hand, so the second winner is not paid at ×1 (the reset is for the next hand)."""
    g = await make_game(deal=[2, 2, 4, 4])
    john, steph, ken, _ = g.cids
    await g.h.send(g.h.gm, Override(path=["game", "draws"], value=1, reason="test"))
    await g.send(john, C.Declare(character_id=john, kind="riichi"))
    await g.send(steph, C.Declare(character_id=steph, kind="dama"))
    g.h.roll(*MISS, 6, 1, 1, 1)
    await g.send(john, C.Tsumo(character_id=john, stat="karate"))
    g.h.roll(*MISS, *PASS)
    await g.send(steph, C.Tsumo(character_id=steph, stat="karate"))
    g.h.roll(*MISS, *MISS)  # ケン: ニューロン fails, 振り込み判定 fails: ロン by both
    await g.send(ken, C.Neuron(character_id=ken))
    g.h.roll(*MISS)
    await g.send(ken, C.Attack(character_id=ken, kind="melee", target=john))
    g.h.roll(*MISS, 4, 4, 4, 4)  # misses スティファニー too; then the next deal
    events = await g.send(ken, C.Attack(character_id=ken, kind="melee", target=steph))
    scored = {s.who: s for s in _of(events, ev.Scored)}
    assert scored[john].multiplier == 2 and scored[john].deltas == {john: 36000, ken: -36000}
    assert scored[steph].multiplier == 2 and scored[steph].deltas == {steph: 24000, ken: -24000}
    assert g.g.draws == 0 and g.g.hand == 2
    await g.h.assert_replay_matches()


async def test_attack_without_a_target_is_a_rule_rejection() -> None:
    """SJ-22: an attack names whom it hits; without target or splits the move is refused as
    ``rule/shadowjan/no_target`` and nothing is written."""
    g = await make_game(deal=[4, 4, 4, 2])  # ユミ is dealt 4 メンツ and declares at once
    john, steph, ken, yumi = g.cids
    await g.send(yumi, C.Declare(character_id=yumi, kind="dama"))
    g.h.roll(*MISS, *MISS)  # ジョン: ニューロン fails, 振り込み判定 fails: ロン
    await g.send(john, C.Neuron(character_id=john))
    assert g.waiting() == (john, "attack")
    err = await g.rejected(john, C.Attack(character_id=john, kind="melee"))
    assert err.code == "rule/shadowjan/no_target"
