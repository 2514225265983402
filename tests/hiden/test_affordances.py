"""What each member is offered at a 秘伝の声 table (``affordances``), and that sending an
offered action (its args and a choice) is accepted; ``turn`` is None (no order of play)."""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core.commands import CreateCharacter
from taku.core.play import Affordance
from taku.core.table import affordances, command_decoder, turn
from taku_hiden.events import CheckRolled

from .conftest import KOU, MakeTable, Table


def offered(t: Table, member: str | None) -> list[Affordance]:
    state = t.h.state
    return affordances(state, state.viewer(member), t.h.table.ruleset)


def ours(t: Table, member: str | None) -> list[Affordance]:
    return [a for a in offered(t, member) if a.command.startswith("hiden.")]


def find(afs: list[Affordance], command: str, **args: Any) -> list[Affordance]:
    return [
        a for a in afs if a.command == command and all(a.args.get(k) == v for k, v in args.items())
    ]


def values(a: Affordance, key: str) -> list[Any]:
    return [c.value for c in a.choices[key]]


async def send(t: Table, member: str, a: Affordance, **picks: Any) -> list[Any]:
    """Send ``a`` with its args and, for each open key, the picked value (default: the first choice)."""
    body: dict[str, Any] = {"type": a.command, **a.args}
    for key, choices in a.choices.items():
        value = picks.get(key, choices[0].value)
        body[key] = [value] if key in ("conditions", "traits") else value
    cmd = command_decoder(t.h.table.ruleset).decode(msgspec.json.encode(body))
    return await t.h.send(member, cmd)


async def test_a_player_is_offered_checks_of_their_own_character_only(
    make_table: MakeTable,
) -> None:
    t = await make_table()
    afs = ours(t, t.pl)
    (tokugi,) = find(afs, "hiden.check", character_id=t.kou, skill="姿隠し")
    assert (
        tokugi.group == "甲" and "traits" not in tokugi.choices
    )  # 五ノ四: only the GM chooses traits
    assert values(tokugi, "difficulty") == [*range(-3, 11), None]
    (skill,) = find(afs, "hiden.check", character_id=t.kou, skill="料理")
    assert values(skill, "ability") == ["器用", "知識", "知覚", "知恵", "気合い", "勘働き"]
    assert find(afs, "hiden.kan_check", character_id=t.kou)  # 甲 has 〈勘働き〉
    (seizure,) = find(
        afs, "hiden.seizure_check", character_id=t.kou
    )  # 甲 has 「発作」 and 〈気合い〉
    assert "雑魚戦闘" in values(seizure, "situation")
    assert not [a for a in afs if a.args.get("character_id") == t.otsu]  # the GM's 乙
    for gm_only in ("hiden.award_zabuton", "hiden.convert_zabuton", "hiden.set_conditions"):
        assert not find(afs, gm_only)
    assert not find(
        afs, "hiden.opposed_check"
    )  # a player with one character cannot oppose themself
    assert find(afs, "hiden.jump") and find(afs, "hiden.visibility") and find(afs, "hiden.seizure")
    assert [a for a in offered(t, t.pl) if a.command == "chat" and a.args == {"text": "HDT"}]


async def test_the_gm_gets_every_character_traits_and_the_gm_tools(make_table: MakeTable) -> None:
    t = await make_table()
    afs = ours(t, t.h.gm)
    (tokugi,) = find(afs, "hiden.check", character_id=t.kou, skill="姿隠し")
    assert [c.value for c in tokugi.choices["traits"]] == [
        {"name": "容貌"},
        {"name": "酒の耐性"},
        {"name": "発作"},
    ]
    assert find(afs, "hiden.check", character_id=t.otsu, skill="探索")
    assert not find(afs, "hiden.kan_check", character_id=t.otsu)  # 乙 has no 〈勘働き〉
    (award,) = find(afs, "hiden.award_zabuton")
    assert values(award, "character_id") == [t.kou, t.otsu]
    (conditions,) = find(afs, "hiden.set_conditions")
    assert "徹夜" in values(conditions, "conditions")
    (opposed,) = find(afs, "hiden.opposed_check")
    assert {"character_id": t.kou, "skill": "姿隠し"} in values(opposed, "first")
    assert {"character_id": t.otsu, "skill": "探索"} in values(opposed, "second")
    assert len(find(afs, "hiden.convert_zabuton")) == 2  # 甲 holds 2 座布団: everyone, or one


async def test_spectators_are_offered_nothing(make_table: MakeTable) -> None:
    t = await make_table()
    spectator = await t.h.join("みる", "spectator")
    assert offered(t, spectator) == [] and offered(t, None) == []
    assert turn(t.h.state, t.h.table.ruleset) is None  # chapter 5 has no order of play


async def test_the_zabuton_reroll_is_offered_only_to_who_may_use_it(make_table: MakeTable) -> None:
    """五ノ五: after 甲's failed check its owner (and the GM) may spend a 座布団; nobody else,
    and nobody once 甲 has none, or when the table does not use the rule."""
    t = await make_table()
    other = await t.h.join("はなこ")
    t.h.roll(1, 2)
    (ev,) = await t.h.chat(t.pl, "HD:甲:姿隠し>=9")
    assert isinstance(ev, CheckRolled) and ev.success is False
    (reroll,) = find(ours(t, t.pl), "hiden.reroll")
    assert reroll.args == {"check_id": ev.check_id, "character_id": t.kou} and reroll.primary
    assert "残り2枚" in reroll.label
    assert find(ours(t, t.h.gm), "hiden.reroll", check_id=ev.check_id)
    assert not find(ours(t, other), "hiden.reroll")
    t.h.roll(1, 2, 1, 3)
    await send(t, t.pl, reroll)
    (again,) = find(ours(t, t.pl), "hiden.reroll")
    assert "残り1枚" in again.label
    await send(t, t.pl, again)
    assert t.h.game.characters[t.kou].zabuton == 0
    assert not find(ours(t, t.pl), "hiden.reroll") and not find(ours(t, t.h.gm), "hiden.reroll")

    off = await make_table(options={"zabuton_reroll": False})
    off.h.roll(1, 2)
    await off.h.chat(off.pl, "HD:甲:姿隠し>=9")
    assert not find(ours(off, off.pl), "hiden.reroll")


async def test_a_secret_check_is_offered_to_nobody_else(make_table: MakeTable) -> None:
    """A player's secret 判定値 is neither opposable nor named in another member's labels."""
    t = await make_table()
    other = await t.h.join("はなこ")
    await t.h.send(other, CreateCharacter(name="丙", sheet=KOU))
    t.h.roll(2, 3)
    (ev,) = await t.h.chat(t.pl, "SHD:甲:姿隠し")
    assert isinstance(ev, CheckRolled)
    assert not find(ours(t, other), "hiden.oppose")
    assert not [a for a in offered(t, other) if ev.check_id in a.label]
    assert find(ours(t, t.h.gm), "hiden.oppose", against=ev.check_id)


async def test_the_second_actor_is_offered_to_oppose_a_lone_value(make_table: MakeTable) -> None:
    """五ノ六 in two steps: 甲 rolls a 判定値 alone; the GM is offered to answer with 乙
    (not with 甲 itself), as the expected next step, and sending it resolves the pair."""
    t = await make_table()
    t.h.roll(4, 3)
    (ev,) = await t.h.chat(t.pl, "HD:甲:姿隠し")
    assert isinstance(ev, CheckRolled) and ev.side.value == 10
    assert not find(ours(t, t.pl), "hiden.oppose")  # 甲's owner has no other character
    (oppose,) = find(ours(t, t.h.gm), "hiden.oppose", against=ev.check_id)
    assert oppose.primary and "判定値10" in oppose.label
    assert all(v["character_id"] == t.otsu for v in values(oppose, "second"))
    t.h.roll(4, 4)
    (resolved,) = await send(t, t.h.gm, oppose, second={"character_id": t.otsu, "skill": "探索"})
    assert resolved.winner == 1 and resolved.compared == (10, 11)  # 《探索》3 + 〈知覚〉0 + 8
    assert not find(ours(t, t.h.gm), "hiden.oppose")  # the pair is resolved


async def test_every_offered_action_is_accepted_with_its_first_choices(
    make_table: MakeTable,
) -> None:
    """Each of the player's and the GM's hiden affordances, sent with its args and the first
    value of each choice, goes through the server (jump and lift need a distance or a weight,
    which the rules leave open: they are sent with one)."""
    t = await make_table()
    for member in (t.pl, t.h.gm):
        for a in ours(t, member):
            if a not in ours(t, member):
                continue  # no longer offered (座布団 converted a step before)
            extra: dict[str, Any] = {}
            if a.command == "hiden.jump":
                extra = {"shaku": 6}
            elif a.command == "hiden.lift":
                extra = {"kan": 17}
            elif a.command == "hiden.check" and "character_id" not in a.args:
                extra = {"level": 2, "ability_value": 1, "name": "番人"}
            if extra:
                a = msgspec.structs.replace(a, args={**a.args, **extra})
            t.h.roll(*([3, 4] * 4))
            events = await send(t, member, a)
            assert events, a.label
    await t.h.assert_replay_matches()


async def test_the_gm_is_offered_to_lift_incapacitation(make_table: MakeTable) -> None:
    """五ノ七: a failed 発作 check leaves 甲 行動不能; the GM (only) is offered to lift it."""
    t = await make_table()
    (seizure,) = find(ours(t, t.pl), "hiden.seizure_check", character_id=t.kou)
    t.h.roll(6, 6, 1, 1)  # the GM's 2D, then 甲's 1ゾロ: failure whatever the sum
    await send(t, t.pl, seizure, situation="親玉戦闘")
    assert t.h.game.characters[t.kou].incapacitated
    assert not [a for a in offered(t, t.pl) if a.command == "override"]
    (lift,) = [a for a in offered(t, t.h.gm) if a.command == "override"]
    assert lift.label == "甲の行動不能を解く"
    await send(t, t.h.gm, lift)
    assert not t.h.game.characters[t.kou].incapacitated
    assert not [a for a in offered(t, t.h.gm) if a.command == "override"]
