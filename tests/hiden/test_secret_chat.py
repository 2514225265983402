"""The core's S prefix on every chat command of docs/rulesets/hiden.md.

``S<command>`` is seen in full only by the roller and the GM (another player,
a spectator and the public get the redacted stand-in, and the view hides the
secret check from them); the plain command stays public.
"""

from __future__ import annotations

from typing import Any

import pytest

from taku_hiden.events import CheckRolled

from .conftest import MakeTable, Table

# (the chat line, the faces it rolls, the event type it gives)
COMMANDS: list[tuple[str, tuple[int, ...], str]] = [
    ("HD5", (3, 4), "hiden.check_rolled"),
    ("HD2+1>=10", (3, 4), "hiden.check_rolled"),
    ("HD3@2", (2, 2, 5, 5), "hiden.check_rolled"),
    ("HD3VS2", (3, 4, 4, 4), "hiden.opposed_rolled"),
    ("HD:甲:姿隠し@2", (2, 2, 5, 5), "hiden.check_rolled"),
    ("HD:甲:料理/知識+1>=9", (3, 4), "hiden.check_rolled"),
    ("HD:甲:/器用", (3, 4), "hiden.check_rolled"),
    ("ZR", (5, 6), "hiden.check_rerolled"),
    ("座布団 {check}", (5, 6), "hiden.check_rerolled"),
    ("HDT", (), "chat_posted"),
    ("難易度表", (), "chat_posted"),
]


async def _setup(t: Table, line: str) -> str:
    """A table with a second player; for a reroll, 甲's public check to reroll first."""
    if "ZR" in line or "座布団" in line:
        t.h.roll(2, 3)
        (ev,) = await t.h.chat(t.pl, "HD:甲:姿隠し>=9")
        assert isinstance(ev, CheckRolled)
        return line.format(check=ev.check_id)
    return line


async def _last(t: Table, member: str | None) -> dict[str, Any]:
    frame = (await t.h.frames(member))[-1]
    assert frame["seq"] == t.h.state.seq
    return frame["event"]


@pytest.mark.parametrize(("line", "faces", "kind"), COMMANDS, ids=[c[0] for c in COMMANDS])
async def test_secret_chat_command_is_seen_only_by_the_roller_and_the_gm(
    make_table: MakeTable, line: str, faces: tuple[int, ...], kind: str
) -> None:
    t = await make_table()
    other = await t.h.join("はなこ")
    spectator = await t.h.join("みる", "spectator")
    line = await _setup(t, line)
    t.h.roll(*faces)
    await t.h.chat(t.pl, "S" + line)
    for member in (t.pl, t.h.gm):
        assert (await _last(t, member))["type"] == kind, member
    for member in (other, spectator, None):
        seen = await _last(t, member)
        assert seen["type"] == "redacted" and seen["of"] == kind, member
    if kind != "chat_posted":  # the secret check is not in the others' view either
        check_id = next(iter(reversed(t.h.game.checks)))
        assert check_id in t.h.view(t.pl)["game"]["checks"]
        assert check_id in t.h.view(t.h.gm)["game"]["checks"]
        for member in (other, spectator, None):
            assert check_id not in t.h.view(member)["game"]["checks"], member
    await t.h.assert_replay_matches()


@pytest.mark.parametrize(("line", "faces", "kind"), COMMANDS, ids=[c[0] for c in COMMANDS])
async def test_plain_chat_command_is_public(
    make_table: MakeTable, line: str, faces: tuple[int, ...], kind: str
) -> None:
    t = await make_table()
    other = await t.h.join("はなこ")
    spectator = await t.h.join("みる", "spectator")
    line = await _setup(t, line)
    t.h.roll(*faces)
    await t.h.chat(t.pl, line)
    for member in (t.pl, t.h.gm, other, spectator, None):
        assert (await _last(t, member))["type"] == kind, member


async def test_a_public_reroll_of_a_secret_check_stays_secret(make_table: MakeTable) -> None:
    """``SHD:甲:…`` then a plain ``ZR``: the reroll shows the secret check's dice, so only
    the roller and the GM see it."""
    t = await make_table()
    other = await t.h.join("はなこ")
    t.h.roll(2, 3)
    await t.h.chat(t.pl, "SHD:甲:姿隠し>=9")
    t.h.roll(5, 6)
    await t.h.chat(t.pl, "ZR")
    assert (await _last(t, t.pl))["type"] == "hiden.check_rerolled"
    assert (await _last(t, t.h.gm))["type"] == "hiden.check_rerolled"
    assert (await _last(t, other))["type"] == "redacted"


async def test_a_secret_check_cannot_be_opposed_or_rerolled_by_who_cannot_see_it(
    make_table: MakeTable,
) -> None:
    """Another player's secret 判定値 is not there for them: ``rule/hiden/unknown_check``."""
    from taku.core.commands import CreateCharacter
    from taku_hiden.commands import CheckSpec, Oppose, Reroll

    t = await make_table()
    other = await t.h.join("はなこ")
    (created,) = await t.h.send(
        other, CreateCharacter(name="丙", sheet={"abilities": {"知覚": 1}, "zabuton": 1})
    )
    t.h.roll(2, 3)
    (ev,) = await t.h.chat(t.pl, "SHD:甲:姿隠し")
    assert isinstance(ev, CheckRolled) and ev.target is None
    spec = CheckSpec(character_id=created.character_id, ability="知覚")  # type: ignore[attr-defined]
    err = await t.h.rejected(other, Oppose(against=ev.check_id, second=spec))
    assert err.code == "rule/hiden/unknown_check"
    err = await t.h.rejected(other, Reroll(check_id=ev.check_id))
    assert err.code == "rule/hiden/unknown_check"
