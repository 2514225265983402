"""Every row of ◆得点の獲得 (SJ-30 … SJ-32) for four, three and two players, played
through the server's command path."""

from __future__ import annotations

import pytest

from taku_shadowjan import commands as C
from taku_shadowjan import events as ev

from .conftest import make_game

MISS = (1, 1, 1, 1)


def _scored(events: list) -> list[ev.Scored]:
    return [e for e in events if isinstance(e, ev.Scored)]


@pytest.mark.parametrize(("n", "each"), [(4, 16000), (3, 24000), (2, 48000)])
async def test_tsumo_yakuman_tenho(n: int, each: int) -> None:
    """SJ-30 ヤクマン (テンホー・チーホー survived), G-SJ-16: by the players remaining."""
    g = await make_game(n=n, deal=[1] + [4] * (n - 1))
    d, *others = g.cids
    await g.send(d, C.Tenho(character_id=d))
    events: list = []
    for i, o in enumerate(others):
        g.h.roll(*MISS)
        if i == len(others) - 1:
            g.h.roll(*([4] * n))  # the next deal
        events = await g.send(o, C.Attack(character_id=o, kind="melee", target=d))
    (s,) = _scored(events)
    assert s.reason == "tenho" and s.remaining == n
    assert s.deltas == {d: each * (n - 1), **{o: -each for o in others}}


@pytest.mark.parametrize("kind", ["riichi", "dama"])
@pytest.mark.parametrize("n", [4, 3, 2])
async def test_tsumo_haneman_and_mangan(n: int, kind: str) -> None:
    """SJ-30 ハネマン (リーチ) 6000/9000/18000 and マンガン (ダマテン) 4000/6000/12000 from each."""
    each = {"riichi": {4: 6000, 3: 9000, 2: 18000}, "dama": {4: 4000, 3: 6000, 2: 12000}}[kind][n]
    g = await make_game(n=n, deal=[2] + [4] * (n - 1))
    d, *others = g.cids
    await g.send(d, C.Declare(character_id=d, kind=kind))
    g.h.roll(6, 6, 6, 1)  # three 6s at once: ツモ
    g.h.roll(*([4] * n))
    (s,) = _scored(await g.send(d, C.Tsumo(character_id=d, stat="wazamae")))
    assert s.reason == f"tsumo_{kind}" and s.deltas == {
        d: each * (n - 1),
        **{o: -each for o in others},
    }
    assert sum(g.scores().values()) == 25000 * n


@pytest.mark.parametrize(("kind", "amount"), [("riichi", 18000), ("dama", 12000)])
@pytest.mark.parametrize("n", [4, 3, 2])
async def test_ron_haneman_and_mangan(n: int, kind: str, amount: int) -> None:
    """SJ-31: the ron'd player alone pays 18000 (リーチ) or 12000 (ダマテン), whatever the count."""
    g = await make_game(n=n, deal=[2] + [4] * (n - 1))
    d, victim, *_ = g.cids
    await g.send(d, C.Declare(character_id=d, kind=kind))
    g.h.roll(*MISS)
    await g.send(d, C.Tsumo(character_id=d, stat="karate"))
    g.h.roll(*MISS, *MISS)  # ニューロン fails, 振り込み判定 fails: ロン
    await g.send(victim, C.Neuron(character_id=victim))
    g.h.roll(*MISS, *([4] * n))  # the ロン回避判定 misses: the ロン stands
    (s,) = _scored(await g.send(victim, C.Attack(character_id=victim, kind="melee", target=d)))
    assert s.reason == f"ron_{kind}" and s.deltas == {d: amount, victim: -amount}


@pytest.mark.parametrize(("n", "each"), [(4, 4000), (3, 6000), (2, 12000)])
async def test_chombo(n: int, each: int) -> None:
    """SJ-32: the offender pays 4000 / 6000 / 12000 to each other player."""
    g = await make_game(n=n, deal=[4] * n)
    d, *others = g.cids
    g.h.roll(*MISS)  # a failed イカサマ
    events = await g.send(d, C.Ikasama(character_id=d))
    for i, o in enumerate(others):
        g.h.roll(*MISS)
        if i == len(others) - 1:
            g.h.roll(*([4] * n))
        events = await g.send(o, C.Attack(character_id=o, kind="shuriken", target=d))
    (s,) = _scored(events)
    assert s.reason == "chombo" and s.deltas == {d: -each * (n - 1), **{o: each for o in others}}
