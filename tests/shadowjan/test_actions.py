"""Turn actions (SJ-11 … SJ-19): each one's success and failure, 強化イカサマ's cap, the
forced declaration and the リーチ棒, over the server's command path."""

from __future__ import annotations

import pytest

from taku_nstrpg import checks as ck
from taku_shadowjan import commands as C
from taku_shadowjan import events as ev

from .conftest import make_game, moves, ninja


def _action(events: list) -> ev.ActionRolled:
    return next(e for e in events if isinstance(e, ev.ActionRolled))


async def test_karate_goumoupai_two_then_three_checks() -> None:
    """SJ-11, G-SJ-02/03: two NORMAL checks (+1 per success), three from the second カラテ of the hand."""
    g = await make_game(n=2, deal=[4, 4])
    john, steph = g.cids
    g.h.roll(4, 1, 2, 3)  # [4,1] succeeds, [2,3] fails
    a = _action(await g.send(john, C.Goumoupai(character_id=john)))
    assert a.successes == (1, 0) and a.gained == 1 and g.p(john).mentsu == 3
    g.h.roll(1, 1, 1, 1)
    await g.send(steph, C.Goumoupai(character_id=steph))  # fails: nothing happens (SJ-17)
    assert g.p(steph).mentsu == 2
    # the second カラテ: three checks; the split is the player's (連続攻撃-style)
    g.h.roll(1, 2, 3, 6)
    a = _action(await g.send(john, C.Goumoupai(character_id=john, split=[1, 1, 2])))
    assert (
        [len(r.faces) for r in a.rolls] == [1, 1, 2]
        and a.successes == (0, 0, 1)
        and g.p(john).mentsu == 4
    )
    assert g.waiting() == (john, "declare")  # SJ-18


async def test_karate_bad_split_is_rejected() -> None:
    """SJ-11: the split must be into the right number of checks within the pool."""
    g = await make_game(n=2, deal=[4, 4])
    john, _ = g.cids
    err = await g.rejected(john, C.Goumoupai(character_id=john, split=[2, 1, 1]))
    assert err.code == "rule/shadowjan/bad_split"
    err = await g.rejected(john, C.Goumoupai(character_id=john, split=[3, 2]))
    assert err.code == "rule/shadowjan/too_many_dice"


async def test_ikasama_success_escalates_per_use() -> None:
    """SJ-12: HARD, then +1 difficulty for each earlier イカサマ of the player this hand."""
    g = await make_game(n=2, deal=[5, 5])  # 1 メンツ each
    john, steph = g.cids
    g.h.roll(5, 1, 1, 1)
    a = _action(await g.send(john, C.Ikasama(character_id=john)))
    assert a.difficulties == (ck.HARD,) and a.gained == 1 and g.p(john).mentsu == 2
    g.h.roll(1, 1, 1, 1)
    await g.send(steph, C.Goumoupai(character_id=steph))
    g.h.roll(6, 1, 1, 1)
    a = _action(await g.send(john, C.Ikasama(character_id=john)))
    assert a.difficulties == (ck.UH,) and g.p(john).mentsu == 3


async def test_enhanced_ikasama_gains_more_and_is_capped_at_uh3() -> None:
    """SJ-13: each voluntary +1 difficulty gives +1 メンツ; HARD+3 = UH3 is the most, +4 is rejected."""
    g = await make_game(n=2, deal=[5, 5])
    john, _ = g.cids
    err = await g.rejected(john, C.Ikasama(character_id=john, enhance=4))
    assert err.code == "rule/shadowjan/ikasama_cap"
    enhance = {
        m["command"]["enhance"]: m["label"]
        for m in moves(g.h, g.by_cid[john])
        if m["command"]["type"] == "shadowjan.wazamae"
    }
    assert (
        sorted(enhance) == [0, 1, 2, 3]
        and "UH3" in enhance[3]
        and not any("UH4" in x for x in enhance.values())
    )
    g.h.roll(6, 6, 6, 1)
    a = _action(await g.send(john, C.Ikasama(character_id=john, enhance=3)))
    assert a.difficulties == (ck.UH3,) and a.gained == 4 and g.p(john).mentsu == 5
    assert g.waiting() == (john, "declare")  # SJ-18: 5 outside テンホー also declares


async def test_ikasama_cap_counts_earlier_uses() -> None:
    """SJ-13, G-SJ-04: after two イカサマ the base is UH, so only +2 more is allowed."""
    g = await make_game(n=2, deal=[6, 6])  # 0 メンツ each
    john, steph = g.cids
    for _ in range(2):
        g.h.roll(6, 1, 1, 1)
        await g.send(john, C.Ikasama(character_id=john))
        g.h.roll(1, 1, 1, 1)
        await g.send(steph, C.Goumoupai(character_id=steph))
    err = await g.rejected(john, C.Ikasama(character_id=john, enhance=3))
    assert err.code == "rule/shadowjan/ikasama_cap"


async def test_ikasama_failure_is_chombo_after_everyone_attacks() -> None:
    """SJ-12, SJ-14, SJ-32: a failed イカサマ is チョンボ; every other player attacks at once, then scoring."""
    g = await make_game(n=3, deal=[4, 4, 4])
    john, steph, ken = g.cids
    g.h.roll(4, 4, 1, 1)  # HARD fails
    events = await g.send(john, C.Ikasama(character_id=john))
    assert _action(events).chombo and g.waiting() == (steph, "attack")
    g.h.roll(1, 1, 1, 1)
    await g.send(steph, C.Attack(character_id=steph, kind="melee", target=john))
    g.h.roll(1, 1, 1, 1, 4, 4, 4)
    events = await g.send(ken, C.Attack(character_id=ken, kind="shuriken", target=john))
    scored = [e for e in events if isinstance(e, ev.Scored)]
    assert scored[0].reason == "chombo" and scored[0].deltas == {
        john: -12000,
        steph: 6000,
        ken: 6000,
    }


async def test_neuron_success_double_and_failure() -> None:
    """SJ-15: U-HARD, +1; two or more 6s, +1 more; a failure does nothing (SJ-17)."""
    g = await make_game(n=2, deal=[4, 4])
    john, steph = g.cids
    g.h.roll(6, 1, 1, 1)
    assert _action(await g.send(john, C.Neuron(character_id=john))).gained == 1
    g.h.roll(5, 5, 5, 5)
    assert _action(await g.send(steph, C.Neuron(character_id=steph))).gained == 0
    g.h.roll(6, 6, 1, 1)
    assert _action(await g.send(john, C.Neuron(character_id=john))).gained == 2
    assert g.p(john).mentsu == 5 and g.p(steph).mentsu == 2


async def test_betaori_and_its_furikomi_bonus() -> None:
    """SJ-16: メンツ −2, +2 dice on this turn's 振り込み判定; not below 0."""
    g = await make_game(n=2, deal=[3, 5])  # ジョン 3, スティファニー 1
    john, steph = g.cids
    g.h.roll(6, 1, 1, 1)
    await g.send(john, C.Neuron(character_id=john))
    await g.send(john, C.Declare(character_id=john, kind="dama"))
    err = await g.rejected(steph, C.Betaori(character_id=steph))
    assert err.code == "rule/shadowjan/betaori_below_zero"
    g.h.roll(6, 1, 1, 1, 5, 1, 1, 1)  # ニューロン succeeds; 振り込み判定 passes
    await g.send(steph, C.Neuron(character_id=steph))  # 2 メンツ
    g.h.roll(1, 1, 1, 1)
    await g.send(john, C.Tsumo(character_id=john, stat="neuron"))
    g.h.roll(1, 1, 1, 1, 1, 5)  # 6 dice: ニューロン 4 + 2
    events = await g.send(steph, C.Betaori(character_id=steph))
    furi = next(e for e in events if isinstance(e, ev.FurikomiRolled))
    assert g.p(steph).mentsu == 0 and furi.bonus == 2 and len(furi.roll.faces) == 6 and furi.success


async def test_reaching_four_forces_a_declaration() -> None:
    """SJ-18: nothing but リーチ or ダマテン is legal once メンツ reach 4."""
    g = await make_game(n=2, deal=[3, 4])  # ジョン 3
    john, steph = g.cids
    g.h.roll(6, 1, 1, 1)
    await g.send(john, C.Neuron(character_id=john))
    assert g.waiting() == (john, "declare")
    err = await g.rejected(steph, C.Neuron(character_id=steph))
    assert err.code == "rule/shadowjan/not_your_move"
    err = await g.rejected(john, C.Neuron(character_id=john))
    assert err.code == "rule/shadowjan/expected_declare"
    err = await g.rejected(john, C.Declare(character_id=john, kind="dama", stick_target=steph))
    assert err.code == "rule/shadowjan/stick_needs_riichi"
    await g.send(john, C.Declare(character_id=john, kind="riichi"))
    assert g.p(john).declaration == "riichi"
    # スティファニー's turn; her 振り込み判定 will be against ジョン's リーチ
    assert g.waiting() == (steph, "action")


@pytest.mark.parametrize(("faces", "dodged"), [((6, 1), True), ((5, 5), False)])
async def test_riichi_stick_hits_automatically_and_is_dodged_at_uh(
    faces: tuple[int, int], dodged: bool
) -> None:
    """SJ-19: the stick hits automatically for 1d6, dodged at U-HARD (a shuriken)."""
    g = await make_game(n=3, deal=[2, 4, 4])
    john, steph, ken = g.cids
    g.h.roll(3)  # 1d6 damage
    events = await g.send(john, C.Declare(character_id=john, kind="riichi", stick_target=ken))
    stick = next(e for e in events if isinstance(e, ev.StickThrown))
    assert stick.hit.damage == 3 and stick.hit.evasion == ck.UH
    assert g.waiting() == (ken, "evade")
    g.h.roll(*faces)
    events = await g.send(ken, C.Evade(character_id=ken, dice=2))
    evasion = next(e for e in events if isinstance(e, ev.EvasionRolled))
    assert evasion.difficulty == ck.UH and evasion.success is dodged
    assert g.p(ken).tairyoku == (10 if dodged else 7)
    # the deal goes on: 回避ダイス again, then the dealer's turn
    assert g.p(ken).evasion_dice == 4 and g.waiting() == (john, "tsumo")


async def test_yumido_stick_and_iaido_kiribarai() -> None:
    """SJ-36: ユミドー's stick is 2d3 at U-HARD2; イアイドー dodges 遠隔攻撃 one step easier."""
    sheets = [ninja(skills=["タツジン:ユミドー"]), ninja(), ninja(skills=["タツジン:イアイドー"])]
    g = await make_game(n=3, sheets=sheets, deal=[2, 4, 4])
    john, steph, ken = g.cids
    g.h.roll(3, 2)  # 2d3
    events = await g.send(john, C.Declare(character_id=john, kind="riichi", stick_target=ken))
    stick = next(e for e in events if isinstance(e, ev.StickThrown))
    assert stick.roll.sides == 3 and stick.hit.damage == 5 and stick.hit.evasion == ck.UH2
    g.h.roll(6, 1)
    events = await g.send(ken, C.Evade(character_id=ken, dice=2))
    evasion = next(e for e in events if isinstance(e, ev.EvasionRolled))
    assert evasion.difficulty == ck.UH and evasion.success  # UH2 − 1 (点棒切り払い)


async def test_stick_knocks_out_and_points_are_split() -> None:
    """SJ-34, G-SJ-12: a ninja blown up by the stick loses; 25000 split by 3 is 8000 each (the rest lost)."""
    sheets = [ninja(), ninja(), ninja(tairyoku=1, seishin=0), ninja()]
    g = await make_game(sheets=sheets, deal=[2, 4, 4, 4])
    john, steph, ken, yumi = g.cids
    g.h.roll(6)
    await g.send(john, C.Declare(character_id=john, kind="riichi", stick_target=ken))
    events = await g.send(ken, C.Evade(character_id=ken, dice=0))
    ko = next(e for e in events if isinstance(e, ev.KnockedOut))
    assert ko.shares == {john: 8000, steph: 8000, yumi: 8000}
    assert g.p(ken).out and g.p(ken).status == "exploded"
    assert g.scores()[john] == 33000
    assert g.waiting() == (john, "tsumo")


async def test_equipment_restrictions() -> None:
    """SJ-02: no melee weapons (bio-cyber allowed), no movement skills; guns may be carried."""
    g = await make_game(n=2, start=False)
    from taku.core.commands import CreateCharacter

    m = g.members[0]
    (bad,) = await g.h.send(m, CreateCharacter(name="カタナ使い", sheet=ninja(weapons=["katana"])))
    err = await g.h.rejected(m, C.Sit(character_id=bad.character_id))
    assert err.code == "rule/shadowjan/forbidden_equipment"
    (side,) = await g.h.send(m, CreateCharacter(name="側転", sheet=ninja(skills=["◉連続側転"])))
    err = await g.h.rejected(m, C.Sit(character_id=side.character_id))
    assert err.code == "rule/shadowjan/forbidden_equipment"
    bio = {"id": "bio_claw", "name": "バイオサイバネ爪", "kind": "melee"}
    (ok,) = await g.h.send(
        m, CreateCharacter(name="バイオ", sheet=ninja(weapons=[bio, "chakagun"]))
    )
    await g.h.send(m, C.Sit(character_id=ok.character_id))
    assert ok.character_id in g.g.players
