"""Chat commands (docs/rulesets/shadowjan.md) and the Japanese line of every event."""

from __future__ import annotations

import asyncio

from taku.core.commands import Chat, CreateCharacter
from taku.core.events import ChatPosted
from taku_shadowjan import events as ev
from taku_shadowjan.events import EVENTS

from .conftest import make_game, ninja
from .test_properties import _play_and_return


async def test_chat_moves_for_the_speakers_character() -> None:
    """Chat lines are the same moves as the commands, for the speaker's character to move."""
    g = await make_game(n=3, deal=[3, 4, 4])
    john, steph, ken = g.cids
    mj, ms, mk = g.members
    g.h.roll(6, 1, 1, 1)
    events = await g.h.chat(mj, "ニューロン")
    assert any(isinstance(e, ev.ActionRolled) and e.gained == 1 for e in events)
    g.h.roll(3)
    events = await g.h.chat(mj, "リーチ ケン")  # by name: the stick at ケン
    assert any(isinstance(e, ev.StickThrown) and e.target == ken for e in events)
    g.h.roll(6, 1)
    events = await g.h.chat(mk, "回避 2", character_id=ken)  # spoken as ケン
    assert any(isinstance(e, ev.EvasionRolled) and e.success for e in events)
    # not your move: the rule's reason
    err = await g.h.rejected(mk, Chat(text="ニューロン"))
    assert err.code == "rule/shadowjan/not_your_move"
    g.h.roll(1, 1, 1, 1, 5, 1, 1, 1)
    await g.h.chat(ms, "ゴーモーパイ [2,2]")
    g.h.roll(1, 1, 1, 1, 5, 1, 1, 1)
    await g.h.chat(mk, "ニューロン")
    g.h.roll(6, 6, 6, 1, 4, 4, 4)
    events = await g.h.chat(mj, "ツモ ワザマエ")
    assert [e.reason for e in events if isinstance(e, ev.Scored)] == ["tsumo_riichi"]


async def test_plain_chat_is_not_a_move() -> None:
    """Lines that are not exactly a move stay chat (or generic dice)."""
    g = await make_game(n=2, deal=[4, 4])
    mj = g.members[0]
    for line in ("こんにちは", "カラテ 強い", "リーチ 誰か", "ツモ ジツ", "ワザマエ すごい"):
        events = await g.h.chat(mj, line)
        assert len(events) == 1 and isinstance(events[0], ChatPosted), line


async def test_chat_sit_and_start() -> None:
    """``着席`` seats the speaker's character, ``開始`` starts the game."""
    g = await make_game(n=2, start=False)
    m = g.members[0]
    (cc,) = await g.h.send(m, CreateCharacter(name="三人目", sheet=ninja()))
    await g.h.chat(m, "着席")
    assert cc.character_id in g.g.players
    g.h.roll(30, 20, 10, 4, 4, 4)
    events = await g.h.chat(m, "開始")
    assert any(isinstance(e, ev.GameStarted) for e in events)


def test_every_event_renders_a_japanese_line() -> None:
    """Random games produce nearly every event type, and each renders to one readable line."""
    import random

    from taku.plugins import load_registry

    rs = load_registry().get("shadowjan")
    seen: set[type] = set()
    for seed in range(12):
        r = random.Random(seed)
        sheets = [ninja(tairyoku=r.randint(1, 4), seishin=0, jitsu=1) for _ in range(4)]
        lines = asyncio.run(_render_game(seed, sheets))
        for e, line in lines:
            assert isinstance(line, str) and line.strip(), e
            seen.add(type(e))
    assert rs.render is not None
    assert len(seen) >= len(EVENTS) - 5, sorted(t.__name__ for t in set(EVENTS) - seen)


async def _render_game(seed: int, sheets: list) -> list:
    h = await _play_and_return(seed, 4, sheets, {"ninja_slayer_fight": seed % 2 == 0}, 150)
    rs = h.table.ruleset
    out = []
    for e in await h.events():
        if type(e).__struct_config__.tag.startswith("shadowjan."):
            out.append((e, rs.render(e, h.state, h.state.rules)))
    return out


async def test_ninjaslayer_dice_commands_roll_at_a_shadowjan_table() -> None:
    """The game is played on NSTRPG checks, so the NinjaSlayer2 dice commands of
    nstrpg roll here too, with BCDice's text; ``S`` in front keeps one secret."""
    from taku.core.events import DiceRolled

    g = await make_game(n=2, deal=[4, 4])
    mj, ms = g.members
    g.h.roll(6, 4, 2, 1)
    (rolled,) = await g.h.chat(mj, "N4 カラテ")
    assert isinstance(rolled, DiceRolled)
    assert [r.faces for r in rolled.rolls] == [(6, 4, 2, 1)]
    assert rolled.successes == 2 and rolled.success is True and rolled.comment == "カラテ"
    g.h.roll(5, 5)
    (rolled,) = await g.h.chat(mj, "H2[S]")
    assert rolled.result == "(2B6>=5) ＞ 5,5 ＞ 成功数:2, サツバツ！:0 \n"
    g.h.roll(3)
    (rolled,) = await g.h.chat(mj, "SB")
    assert isinstance(rolled, DiceRolled) and rolled.rolls[0].faces == (3,)
    g.h.roll(1, 1, 6)
    (secret,) = await g.h.chat(mj, "SN3 こっそり")
    assert isinstance(secret, DiceRolled) and secret.secret is True
    seen = (await g.h.frames(ms))[-1]
    assert seen["redacted"] is True and seen["event"]["type"] == "redacted"
