"""The worked examples of シャドー・ジャン2 over the server's command path (CHECKLIST SJ-EX-…)."""

from __future__ import annotations

from taku.errors import Rejected
from taku_shadowjan import commands as C
from taku_shadowjan import events as ev

from .conftest import make_game, moves, ninja


async def test_sj_ex_01_tenho_battle_hit_is_chombo() -> None:
    """SJ-EX-01 (SJ-08, SJ-09, SJ-32): ジョン declares テンホー・チーホー, スティファニー (コッポ) hits
    and ジョン fails to dodge: チョンボ, ジョン −12000, every other player +4000."""
    sheets = [ninja(), ninja(skills=["タツジン:コッポドー"]), ninja(), ninja()]
    # seat order ジョン, スティファニー, ケン, ユミ; the deal: ジョン 6−1 = 5, the others 6−4 = 2
    g = await make_game(sheets=sheets, deal=[1, 4, 4, 4])
    john, steph, ken, yumi = g.cids
    assert g.p(john).mentsu == 5 and g.p(john).tenho_ok
    assert g.waiting() == (john, "action")
    labels = [m["label"] for m in moves(g.h, g.members[0])]
    assert "テンホー・チーホー" in labels
    await g.send(john, C.Tenho(character_id=john))
    # every other player attacks, in seat order from the declarer
    assert g.waiting() == (steph, "attack")
    g.h.roll(5, 3, 2, 1)  # スティファニー's tile: one success at NORMAL
    await g.send(steph, C.Attack(character_id=steph, kind="melee", target=john))
    assert g.waiting() == (john, "evade")
    g.h.roll(1, 2)  # ジョン dodges with 2 dice and fails
    events = await g.send(john, C.Evade(character_id=john, dice=2))
    dmg = [e for e in events if isinstance(e, ev.DamageResolved)]
    assert dmg[0].amount == 1 and g.p(john).tairyoku == 9
    assert g.waiting() == (ken, "attack")
    g.h.roll(1, 1, 1, 1)
    await g.send(ken, C.Attack(character_id=ken, kind="shuriken", target=john))
    g.h.roll(1, 1, 1, 1)
    g.h.roll(4, 4, 4, 4)  # the next deal (スティファニー deals): 2 メンツ each
    events = await g.send(yumi, C.Attack(character_id=yumi, kind="melee", target=john))
    scored = [e for e in events if isinstance(e, ev.Scored)]
    assert [s.reason for s in scored] == ["chombo"]
    assert scored[0].deltas == {john: -12000, steph: 4000, ken: 4000, yumi: 4000}
    assert g.scores() == {john: 13000, steph: 29000, ken: 29000, yumi: 29000}
    assert g.g.hand == 2 and g.g.dealer == steph
    await g.h.assert_replay_matches()


async def test_sj_ex_01_tenho_battle_survived_is_yakuman() -> None:
    """SJ-09, SJ-30: nobody's attack lands, so the テンホー・チーホー wins as ヤクマン (16000 from each)."""
    g = await make_game(deal=[1, 4, 4, 4])
    john, steph, ken, yumi = g.cids
    await g.send(john, C.Tenho(character_id=john))
    g.h.roll(5, 1, 1, 1)
    await g.send(steph, C.Attack(character_id=steph, kind="melee", target=john))
    g.h.roll(5, 1)  # dodged; one success is not more than the attack's one: no counter
    events = await g.send(john, C.Evade(character_id=john, dice=2))
    assert not any(isinstance(e, ev.CounterKarate) for e in events)
    g.h.roll(1, 1, 1, 1)
    await g.send(ken, C.Attack(character_id=ken, kind="melee", target=john))
    g.h.roll(1, 1, 1, 1, 4, 4, 4, 4)
    await g.send(yumi, C.Attack(character_id=yumi, kind="melee", target=john))
    assert g.scores() == {john: 73000, steph: 9000, ken: 9000, yumi: 9000}


async def test_tenho_battle_counter_karate_hits_the_attacker() -> None:
    """SJ-09 (カウンターカラテは発生する, NS-77): more evasion successes than the attack's give
    a 1-damage counter the attacker must dodge; the declarer stays undamaged."""
    g = await make_game(deal=[1, 4, 4, 4])
    john, steph, ken, yumi = g.cids
    await g.send(john, C.Tenho(character_id=john))
    g.h.roll(5, 1, 1, 1)
    await g.send(steph, C.Attack(character_id=steph, kind="melee", target=john))
    g.h.roll(5, 5, 1)
    events = await g.send(john, C.Evade(character_id=john, dice=3))
    assert any(isinstance(e, ev.CounterKarate) for e in events)
    assert g.waiting() == (steph, "evade")
    await g.send(steph, C.Evade(character_id=steph, dice=0))
    assert g.p(steph).tairyoku == 9 and g.g.battle is not None and john not in g.g.battle.damaged


async def test_sj_ex_02_ron_cannot_be_declined() -> None:
    """SJ-EX-02 (SJ-20, SJ-22, SJ-24): X (ジョン) is in リーチ; Y (スティファニー) fails the
    振り込み判定: ロン is forced, no decline is offered, and Y must attack X next."""
    # the deal: ジョン 6−2 = 4 メンツ (must declare at once, G-SJ-05), the others 2
    g = await make_game(deal=[2, 4, 4, 4])
    x, y, ken, yumi = g.cids
    assert g.waiting() == (x, "declare")
    await g.send(x, C.Declare(character_id=x, kind="riichi"))
    assert g.waiting() == (x, "tsumo")
    g.h.roll(1, 2, 3, 4)  # no 6
    await g.send(x, C.Tsumo(character_id=x, stat="karate"))
    assert g.waiting() == (y, "action")
    g.h.roll(1, 1, 1, 1)  # ニューロン U-HARD fails: nothing happens (SJ-17)
    g.h.roll(1, 2, 3, 4)  # 振り込み判定 HARD fails
    events = await g.send(y, C.Neuron(character_id=y))
    furi = [e for e in events if isinstance(e, ev.FurikomiRolled)][0]
    assert not furi.success and furi.ron_by == (x,) and furi.difficulty == 5
    # the only moves now: Y's attacks on X; nothing else, no decline
    turn = g.h.table.ruleset.turn(g.h.state, g.h.state.rules)
    assert (turn.actor, turn.phase) == (y, "attack")
    legal = moves(g.h, g.by_cid[y])
    assert legal and all(m["command"]["type"] == "shadowjan.attack" for m in legal)
    assert all(m["command"]["target"] == x for m in legal)
    err = await g.rejected(y, C.Betaori(character_id=y))
    assert isinstance(err, Rejected) and err.code == "rule/shadowjan/expected_attack"
    err = await g.rejected(ken, C.Neuron(character_id=ken))
    assert err.code == "rule/shadowjan/not_your_move"
