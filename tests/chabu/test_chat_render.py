"""Chat dice commands and the Japanese rendering of every event (CH-01, CH-06…CH-09, CH-22)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from taku.core.events import DiceRolled
from taku.core.render import render
from taku_chabu.commands import Adjust, Attack, Evade, SetRange, SpendCounter, StartCombat, Wait
from taku_chabu.events import EVENTS, CheckRolled, DamageRolled, OpposedRolled
from taku_chabu.state import Condition


@pytest.mark.parametrize(
    ("text", "faces", "target", "value", "success", "mark"),
    [
        ("CH<=50", (5, 10), 50, 50, True, ""),
        ("ch51", (5, 2), 51, 52, False, ""),
        ("ＣＨ＜＝４０＋１０ 運転", (10, 3), 50, 3, True, "タツジン"),
        ("CH<=120", (9, 7), 120, 97, False, "ウカツ"),
    ],
)
async def test_chat_check(
    t: Any, text: str, faces: tuple[int, int], target: int, value: int, success: bool, mark: str
) -> None:
    """``CH<=N``: a 1d100 check with タツジン / ウカツ shown."""
    t.d10(*faces)
    (ev,) = await t.h.chat(t.pl1, text)
    assert isinstance(ev, CheckRolled)
    assert (ev.target, ev.value, ev.success) == (target, value, success)
    line = render(ev, t.h.state, t.h.table.ruleset, t.pl1)
    assert f"(1D100<={target})" in line and ("成功" if success else "失敗") in line
    if mark:
        assert mark in line


async def test_chat_opposed_and_damage(t: Any) -> None:
    """``CH<=50VS40`` is a 対抗判定; ``CHD3+5*2`` is 5 + 3d10, doubled."""
    t.roll(30, 20)
    (op,) = await t.h.chat(t.pl1, "CH<=50VS40 綱引き")
    assert isinstance(op, OpposedRolled) and op.winner == "b" and op.label == "綱引き"
    t.d10(1, 2, 10)
    (dmg,) = await t.h.chat(t.pl1, "CHD3+5*2")
    assert isinstance(dmg, DamageRolled) and dmg.total == (5 + 13) * 2
    assert "36" in render(dmg, t.h.state, t.h.table.ruleset, t.pl1)


async def test_plain_bcdice_and_chat_still_work(t: Any) -> None:
    """Text that is not a chabu command goes to the core's generic dice or chat."""
    t.d10(7, 3)
    (ev,) = await t.h.chat(t.pl1, "2D10")
    assert isinstance(ev, DiceRolled) and ev.total == 10
    (ev,) = await t.h.chat(t.pl1, "CHARGE!")
    assert type(ev).__name__ == "ChatPosted"


async def test_every_event_type_renders_a_japanese_line(t: Any, kit: Any) -> None:
    """Each event this ruleset writes has its own readable line (not the generic fallback)."""
    a = await t.pc(
        t.pl1,
        "ナンシー",
        dl=2,
        tatsujin=1,
        tokugi=[{"name": "ジツ", "cost": {"ingaoho": 5}, "until_end_phase": True}],
    )
    boss = await t.npc("ボス", dl=3)
    b = await t.npc("ヤクザ", dl=0, hp=3)
    await t.h.send(t.gm, SetRange(a=a, b=b, range="short"))
    victory = Condition(text="全滅", kind="all_down", characters=[b])
    await t.h.send(
        t.gm, StartCombat(victory=victory, defeat=Condition(text="なし"), participants=[a, boss])
    )
    await t.h.send(t.gm, Wait(character_id=boss))
    await t.h.send(t.pl1, SpendCounter(character_id=a, counter="tatsujin"))
    await t.h.send(t.gm, Adjust(character_id=a, key="hp", delta=-1, reason="テスト"))
    t.roll(10, 90)
    t.d10(1, 1)
    await t.h.send(t.pl1, Attack(character_id=a, equipment="カタナ", targets=[b]))
    await t.h.send(t.gm, Evade(character_id=b))
    t.roll(5, 50, 40, 30)
    await t.h.chat(t.pl1, "CH<=10")
    await t.h.chat(t.pl1, "CH<=60VS60")
    state = t.h.state
    lines = {}
    for ev in await t.h.events():
        if type(ev) in EVENTS:
            lines[type(ev).__name__] = render(ev, state, t.h.table.ruleset, t.gm)
    # the others, rendered from their own fields
    from taku_chabu import events as E

    extra = [
        E.CheckDeclared(declaration="d1", character_id=a, label="精神", check=50),
        E.TokugiUsed(
            character_id=a,
            tokugi="ジツ",
            timing="katsugeki",
            ingaoho_before=96,
            ingaoho_after=101,
            died=True,
            resolved=False,
        ),
        E.EvasionDeclined(declaration="d1", character_id=b),
        E.Moved(character_id=a),
        E.ActionPassed(character_id=a),
        E.OrderAgreed(agreed_order=(a, b)),
        E.RoundEnded(number=1, cleared=((a, "ジツ"),)),
        E.CounterSpent(character_id=a, counter="wazamae", ingaoho_before=1, ingaoho_after=3),
    ]
    for ev in extra:
        lines[type(ev).__name__] = render(ev, state, t.h.table.ruleset, t.gm)
    assert set(lines) == {t_.__name__ for t_ in EVENTS}
    for name, line in lines.items():
        assert line and "chabu." not in line, (name, line)
    assert "ヤクザは死亡した（DL0でHP0）" in lines["Died"]
    assert "勝利「全滅」" in lines["CombatEnded"]
    assert (
        "死亡したため効果は解決しない" in lines["TokugiUsed"]
        and "インガオホー値 96→101" in lines["TokugiUsed"]
    )


def test_every_event_round_trips() -> None:
    """Every event type survives JSON and back (the log is JSON)."""
    from taku.core.table import event_decoder
    from taku_chabu.plugin import RULESET

    dec = event_decoder(RULESET)
    from taku_chabu import events as E

    ev = E.RangeSet(a="c1", b="c2", range="long")
    assert dec.decode(msgspec.json.encode(ev)) == ev
