"""座布団 (五ノ五; HD-11, HD-12, G-HD-12) over the command path."""

from __future__ import annotations

import pytest

from taku.core.commands import Override, UpdateCharacter
from taku.errors import Forbidden
from taku_hiden.commands import (
    AwardZabuton,
    Check,
    CheckSpec,
    ConvertZabuton,
    OpposedCheck,
    Reroll,
    SeizureCheck,
)
from taku_hiden.events import (
    CheckRerolled,
    CheckRolled,
    OpposedRolled,
    ZabutonAwarded,
    ZabutonConverted,
)

from .conftest import MakeTable


async def test_gm_awards_with_a_reason(make_table: MakeTable) -> None:
    """HD-11: 「座布団一枚!」 — the event carries the reason and the new count; players cannot award."""
    t = await make_table()
    (ev,) = await t.h.send(t.h.gm, AwardZabuton(character_id=t.kou, reason="見事な啖呵"))
    assert (
        isinstance(ev, ZabutonAwarded)
        and ev.count == 1
        and ev.zabuton == 3
        and ev.reason == "見事な啖呵"
    )
    assert t.h.game.characters[t.kou].zabuton == 3
    assert isinstance(await t.h.rejected(t.pl, AwardZabuton(character_id=t.kou)), Forbidden)
    await t.h.assert_replay_matches()


async def test_a_worse_reroll_stands_and_each_costs_one(make_table: MakeTable) -> None:
    """HD-12: 13 against 8 succeeds; a 座布団 reroll to [1,2] (6) fails and stands; then [2,2]; then none left."""
    t = await make_table()  # 甲 holds 2 座布団
    t.h.roll(5, 5)
    (check,) = await t.h.send(t.pl, Check(character_id=t.kou, skill="姿隠し", target=8))
    assert isinstance(check, CheckRolled) and check.success is True
    t.h.roll(1, 2)
    (ev,) = await t.h.send(t.pl, Reroll())
    assert isinstance(ev, CheckRerolled)
    assert ev.check_id == check.check_id and ev.previous == (5, 5) and ev.side.roll.faces == (1, 2)
    assert (
        ev.side.value == 6 and ev.success is False and ev.zabuton_left == 1 and ev.side.rerolls == 1
    )
    assert t.h.game.characters[t.kou].zabuton == 1
    assert t.h.game.checks[check.check_id].success is False
    t.h.roll(2, 2)
    (ev,) = await t.h.send(t.pl, Reroll(check_id=check.check_id))
    assert (
        isinstance(ev, CheckRerolled)
        and ev.previous == (1, 2)
        and ev.side.value == 7
        and ev.zabuton_left == 0
    )
    assert ev.success is False and ev.side.rerolls == 2
    err = await t.h.rejected(t.pl, Reroll())
    assert err.code == "rule/hiden/no_zabuton"
    await t.h.assert_replay_matches()


async def test_reroll_to_six_zoro_rolls_the_bonus(make_table: MakeTable) -> None:
    """HD-08 with HD-12: a reroll is a new roll of both dice, so a new 6ゾロ adds 2D; a 1ゾロ now fails."""
    t = await make_table()
    t.h.roll(1, 1)
    (check,) = await t.h.send(t.pl, Check(character_id=t.kou, skill="姿隠し", target=30))
    assert isinstance(check, CheckRolled) and check.success is False
    t.h.roll(6, 6, 3, 4)
    (ev,) = await t.h.send(t.pl, Reroll())
    assert isinstance(ev, CheckRerolled) and ev.side.effect == "critical"
    assert (
        ev.side.bonus is not None
        and ev.side.bonus.faces == (3, 4)
        and ev.side.value == 22
        and ev.success is True
    )


async def test_npcs_spend_too_and_opposed_sides_reroll_their_own(make_table: MakeTable) -> None:
    """HD-12, G-HD-12: PCs and NPCs alike; each side of an opposed check spends its own 座布団."""
    t = await make_table()
    await t.h.send(t.h.gm, AwardZabuton(character_id=t.otsu, count=1))
    t.h.roll(4, 3, 4, 2)  # 甲 10, 乙 9: 甲 stays hidden
    (opp,) = await t.h.send(
        t.h.gm,
        OpposedCheck(
            first=CheckSpec(character_id=t.kou, skill="姿隠し"),
            second=CheckSpec(character_id=t.otsu, skill="探索"),
        ),
    )
    assert isinstance(opp, OpposedRolled) and opp.winner == 0
    t.h.roll(5, 5)  # the GM spends 乙's 座布団: 13 finds 甲
    (ev,) = await t.h.send(t.h.gm, Reroll(character_id=t.otsu))
    assert (
        isinstance(ev, CheckRerolled)
        and ev.side_index == 1
        and ev.winner == 1
        and ev.compared == (10, 13)
    )
    assert t.h.game.characters[t.otsu].zabuton == 0
    # the player may not spend the NPC's 座布団 …
    assert isinstance(await t.h.rejected(t.pl, Reroll(character_id=t.otsu)), Forbidden)
    t.h.roll(6, 5)  # … but rerolls 甲's own side: 14 against 13
    (ev,) = await t.h.send(t.pl, Reroll(check_id=opp.check_id))
    assert (
        isinstance(ev, CheckRerolled)
        and ev.side_index == 0
        and ev.compared == (14, 13)
        and ev.winner == 0
    )
    assert t.h.game.checks[opp.check_id].winner == 0
    err = await t.h.rejected(t.h.gm, Reroll(check_id=opp.check_id))
    assert err.code == "rule/hiden/which_side"
    await t.h.assert_replay_matches()


async def test_reroll_clears_incapacitation(make_table: MakeTable) -> None:
    """HD-21 with HD-12: rerolling a failed 発作 check to a success lifts 行動不能."""
    t = await make_table()
    t.h.roll(
        3, 3, 1, 2
    )  # 「発作」 絶対に失敗は許されない: target 5 + [3,3] = 11; 〈気合い〉2 + [1,2] = 5 fails
    await t.h.send(t.h.gm, SeizureCheck(character_id=t.kou, situation="失敗は許されない"))
    assert t.h.game.characters[t.kou].incapacitated is True
    t.h.roll(5, 4)  # 2 + 9 = 11 reaches 11
    (ev,) = await t.h.send(t.pl, Reroll())
    assert isinstance(ev, CheckRerolled) and ev.success is True and ev.incapacitated is False
    assert t.h.game.characters[t.kou].incapacitated is False


@pytest.mark.parametrize(
    ("reroll", "code"),
    [
        (Reroll(check_id="k999"), "rule/hiden/unknown_check"),
        (Reroll(), "rule/hiden/no_open_check"),
    ],
)
async def test_reroll_needs_an_open_check(make_table: MakeTable, reroll: Reroll, code: str) -> None:
    """HD-12: a reroll names a check still open; stable codes, nothing written."""
    t = await make_table()
    assert (await t.h.rejected(t.pl, reroll)).code == code


async def test_reroll_option_off_and_bare_checks(make_table: MakeTable) -> None:
    """五ノ五 is an optional rule; a check without a character has no 座布団 to spend."""
    t = await make_table(options={"zabuton_reroll": False})
    t.h.roll(2, 2)
    await t.h.send(t.pl, Check(character_id=t.kou, skill="姿隠し"))
    assert (await t.h.rejected(t.pl, Reroll())).code == "rule/hiden/zabuton_reroll_off"
    t = await make_table()
    t.h.roll(2, 2)
    (bare,) = await t.h.send(t.h.gm, Check(level=1, target=5))
    assert isinstance(bare, CheckRolled)
    assert (
        await t.h.rejected(t.h.gm, Reroll(check_id=bare.check_id))
    ).code == "rule/hiden/no_character"


async def test_convert_to_cp_at_the_end(make_table: MakeTable) -> None:
    """HD-11: the GM converts every character's 座布団 to CP (rate by option); the count goes to 0."""
    t = await make_table(options={"cp_per_zabuton": 2})
    await t.h.send(t.h.gm, AwardZabuton(character_id=t.otsu, count=3))
    evs = await t.h.send(t.h.gm, ConvertZabuton())
    assert [(e.character_id, e.zabuton, e.cp) for e in evs if isinstance(e, ZabutonConverted)] == [
        (t.kou, 2, 4),
        (t.otsu, 3, 6),
    ]
    assert (
        t.h.game.characters[t.kou].zabuton == 0 and t.h.game.characters[t.kou].cp_from_zabuton == 4
    )
    assert (await t.h.rejected(t.h.gm, ConvertZabuton())).code == "rule/hiden/nothing_to_convert"
    assert isinstance(await t.h.rejected(t.pl, ConvertZabuton()), Forbidden)
    off = await make_table(options={"zabuton_to_cp": False})
    assert (await off.h.rejected(off.h.gm, ConvertZabuton())).code == "rule/hiden/conversion_off"
    await t.h.assert_replay_matches()


async def test_only_the_gm_changes_the_count_in_play(make_table: MakeTable) -> None:
    """A player editing their sheet's 座布団 does not award themselves cushions (五ノ五: the
    GM awards them); the GM may override the count in play."""
    t = await make_table()
    before = t.h.game.characters[t.kou].zabuton
    await t.h.send(t.pl, UpdateCharacter(character_id=t.kou, sheet={"zabuton": 5}))
    assert t.h.game.characters[t.kou].zabuton == before
    await t.h.send(
        t.h.gm, Override(path=["game", "characters", t.kou, "zabuton"], value=1, reason="数え直し")
    )
    assert t.h.game.characters[t.kou].zabuton == 1
    err = await t.h.rejected(
        t.h.gm, Override(path=["game", "characters", t.kou, "zabuton"], value="many")
    )
    assert err.code == "command/invalid_value"
    await t.h.send(t.h.gm, UpdateCharacter(character_id=t.otsu, sheet={"abilities": {"知覚": 2}}))
    assert t.h.state.characters[t.otsu].sheet["abilities"] == {"知覚": 2}
    await t.h.assert_replay_matches()
