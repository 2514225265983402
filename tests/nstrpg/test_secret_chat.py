"""The core's secret prefix on every chat command of docs/rulesets/nstrpg.md: ``S<command>`` is
seen in full by the roller and the GM only (another player and the spectators get the redacted
stand-in); the plain command is public."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from taku.core.events import Redacted

Make = Callable[..., Awaitable[Any]]

REDACTED = Redacted.__struct_config__.tag

COMMANDS = [
    # pools (BCDice)
    "K5",
    "E5",
    "N5",
    "H5",
    "U5",
    "UH5",
    "E1,N2,H3",
    "N4,3",
    # counting appendices (BCDice)
    "N3[>=5]",
    "N3[>5]",
    "N3[<=2]",
    "N3[<2]",
    "N3[=6]",
    "N3[!=1]",
    "N3[S]",
    "N3[S5]",
    "N3[C]",
    "N3[C2]",
    # all-of forms (BCDice's newer source)
    "N3[>=665+]",
    "N3[S66+]",
    "N3[S65/665+]",
    "N3[C66+]",
    # tables and Wasshoi! (BCDice)
    "SB",
    "SB@3",
    "WS8",
    "WSE",
    "WSE@4",
    # taku only
    "UH2:6",
    "UH3:6",
    "N3[665+]",
    "N3[6,5+]",
    "N3[S666]",
    "N3[S666/6666]",
    "N3[C66]",
    "N3[<>1]",
    # a check of one's character
    "カラテ判定",
    "カラテ判定:HARD",
    "ワザマエ:UH2",
    "ニューロン+2:H",
    "ジツ判定",
    "精神力判定",
]


async def _table(ns: Make) -> tuple[Any, str, str]:
    t = await ns()
    other = await t.h.join("別のプレイヤー")
    watcher = await t.h.join("観戦者", role="spectator")
    await t.pc("ヤモト", karate=3, neuron=3, wazamae=3, jitsu=1, seishin=2)
    t.roll(*([6, 5, 4, 3, 2, 1] * 4))
    return t, other, watcher


def _last(frames: list[dict[str, Any]]) -> dict[str, Any]:
    (frame,) = frames
    return frame["event"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("command", COMMANDS)
async def test_secret_prefix_hides_the_command_from_all_but_roller_and_gm(
    ns: Make, command: str
) -> None:
    t, other, watcher = await _table(ns)
    before = t.h.state.seq
    (e,) = await t.h.chat(t.pl, "S" + command)
    tag = type(e).__struct_config__.tag
    assert tag != "chat_posted", f"S{command} was not read as a dice command"
    for member in (t.pl, t.gm):
        assert _last(await t.h.frames(member, after_seq=before))["type"] == tag
    for member in (other, watcher, None):
        seen = _last(await t.h.frames(member, after_seq=before))
        assert seen["type"] == REDACTED and seen["of"] == tag, (member, seen)


@pytest.mark.parametrize("command", COMMANDS)
async def test_plain_command_is_public(ns: Make, command: str) -> None:
    t, other, watcher = await _table(ns)
    before = t.h.state.seq
    (e,) = await t.h.chat(t.pl, command)
    tag = type(e).__struct_config__.tag
    assert tag != "chat_posted"
    for member in (t.pl, t.gm, other, watcher, None):
        assert _last(await t.h.frames(member, after_seq=before))["type"] == tag


async def test_a_secret_chat_check_is_hidden_in_the_state_too() -> None:
    """``Sカラテ判定`` is redacted in the stream, and its result (直前の判定) is left out of
    the state for everyone but the roller and the GM; a later public check shows again."""
    from taku.testing.harness import TableHarness

    h = await TableHarness.create("nstrpg", faces=[6, 6, 6, 6, 6, 1, 1, 1, 1, 1])
    a, b = await h.join("A"), await h.join("B")
    s = await h.join("観客", role="spectator")
    from taku.core.commands import CreateCharacter

    (made,) = await h.send(a, CreateCharacter(name="ヤモト", sheet={"karate": 5}))
    cid = made.character_id
    await h.chat(a, "Sカラテ判定:HARD", character_id=cid)
    assert cid in h.view(a)["game"]["last_roll"] and cid in h.view(h.gm)["game"]["last_roll"]
    for other in (b, s, None):
        assert cid not in h.view(other)["game"]["last_roll"], other
    await h.chat(a, "カラテ判定", character_id=cid)
    assert cid in h.view(b)["game"]["last_roll"]
    await h.assert_replay_matches()


@pytest.mark.parametrize(
    ("expression", "reason"),
    [("N0", "ダイスは1個以上振ってください"), ("2D6>=", "比較の右に目標値がありません")],
)
async def test_the_gm_s_dice_box_says_why_an_expression_is_bad(
    ns: Make, expression: str, reason: str
) -> None:
    """The GM's secret dice box on an nstrpg table: the error's Japanese message gives the
    reason, not only 「ダイス式が正しくありません」."""
    from taku import codes
    from taku.core.commands import RollDice

    t = await ns()
    err = await t.h.rejected(t.gm, RollDice(expression=expression, secret=True))
    assert err.code == "dice/invalid"
    text = codes.message(err.code, err.details)
    assert text.startswith("ダイス式が正しくありません: ") and reason in text, text
