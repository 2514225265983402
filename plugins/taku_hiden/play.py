"""What a member may do now at a 秘伝の声 table (``Ruleset.affordances``).

Chapter 5 has no order of play (the GM calls for checks as the story needs
them), so the ruleset has no ``turn``. Every affordance names a command whose
permit the viewer passes, and its choices come from the state: the viewer's
own characters (a GM: every character), their 《技能》 / 《特技》 / 〈能力値〉,
the difficulty table (五ノ二), the open checks the viewer may see, and the
tables of 五ノ七. A spectator gets none.
"""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core.play import Affordance, Choice
from taku.core.ruleset import Role, Viewer
from taku.core.table import Character, TableState
from taku_hiden import tables as T
from taku_hiden._common import _find
from taku_hiden.options import HidenOptions
from taku_hiden.state import HidenSheet, HidenState, OpenCheck, strip_brackets
from taku_hiden.view import sees

__all__ = ["affordances"]

_DIFFICULTIES = [
    *(
        Choice(value=d, label=f"難易度{d:+d}（簡易目標値{T.simple_target(d)}）{text}")
        for d, text in T.DIFFICULTY_TABLE
    ),
    Choice(value=None, label="なし: 判定値だけ（対抗判定の先に行動する者）"),
]
"""五ノ二 難易度の程度, and none (the 判定値 alone, the first half of an 対抗判定)."""

_CONDITIONS = [
    Choice(value=k, label=f"{v[0]} +{v[1]}") for k, v in (*T.FATIGUE.items(), *T.DRINK.items())
]
_VISIBILITY = [Choice(value=k, label=f"{v[0]} +{v[1]}") for k, v in T.VISIBILITY.items()]
_SITUATIONS = [
    Choice(value=k, label=f"{v[0]}（発作{v[1]:+d}、不治の病{v[2]:+d}）")
    for k, v in T.SEIZURE.items()
]
_SEIZURE_TRAITS = [Choice(value=t, label=t) for t in T.SEIZURE_TRAITS]
_JUMP_KINDS = [Choice(value="high", label="高跳び"), Choice(value="long", label="幅跳び")]


def _sheet(ch: Character) -> HidenSheet | None:
    try:
        return msgspec.convert(ch.sheet, HidenSheet)
    except (
        msgspec.ValidationError
    ):  # a sheet the GM overrode into something odd: offer nothing for it
        return None


def _abilities(sheet: HidenSheet) -> list[Choice]:
    return [
        Choice(value=strip_brackets(a), label=f"〈{strip_brackets(a)}〉{v}")
        for a, v in sheet.abilities.items()
    ]


def _specs(ch: Character, sheet: HidenSheet) -> list[Choice]:
    """One side of an 対抗判定 for ``ch``: each 《特技》 (its fixed ability), each 《技能》
    with each 〈能力値〉, each 〈能力値〉 alone; values are ``CheckSpec`` objects."""
    out: list[Choice] = []
    for t, tokugi in sheet.tokugi.items():
        name = strip_brackets(t)
        out.append(
            Choice(
                value={"character_id": ch.id, "skill": name},
                label=f"{ch.name}《{name}》{tokugi.level}",
            )
        )
    for s, level in sheet.skills.items():
        name = strip_brackets(s)
        for a in _abilities(sheet):
            out.append(
                Choice(
                    value={"character_id": ch.id, "skill": name, "ability": a.value},
                    label=f"{ch.name}《{name}》{level}{a.label}",
                )
            )
    out += [
        Choice(value={"character_id": ch.id, "ability": a.value}, label=f"{ch.name}{a.label}")
        for a in _abilities(sheet)
    ]
    return out


def _checks(ch: Character, sheet: HidenSheet, gm: bool) -> list[Affordance]:
    """The 行動判定 of one character: by 《特技》, by 《技能》, by 〈能力値〉 alone."""
    group = ch.name
    base: dict[str, Any] = {"character_id": ch.id}
    traits: dict[str, list[Choice]] = {}
    if gm and sheet.traits:  # 五ノ四: only the GM chooses the traits that bear on a check
        traits["traits"] = [
            Choice(
                value={"name": strip_brackets(n)},
                label=f"「{strip_brackets(n)}」{t.modifier if t.modifier is not None else t.cp:+d}",
            )
            for n, t in sheet.traits.items()
        ]
    out = []
    for t, tokugi in sheet.tokugi.items():
        name = strip_brackets(t)
        out.append(
            Affordance(
                command="hiden.check",
                label=f"《{name}》{tokugi.level}（〈{strip_brackets(tokugi.ability)}〉）で判定する",
                args={**base, "skill": name},
                choices={"difficulty": _DIFFICULTIES, **traits},
                group=group,
            )
        )
    abilities = _abilities(sheet)
    if not abilities:
        return out
    for s, level in sheet.skills.items():
        name = strip_brackets(s)
        out.append(
            Affordance(
                command="hiden.check",
                label=f"《{name}》{level}で判定する",
                args={**base, "skill": name},
                choices={"ability": abilities, "difficulty": _DIFFICULTIES, **traits},
                group=group,
            )
        )
    out.append(
        Affordance(
            command="hiden.check",
            label="能力値だけで判定する",
            args=base,
            choices={"ability": abilities, "difficulty": _DIFFICULTIES, **traits},
            group=group,
        )
    )
    return out


def _character_checks(ch: Character, sheet: HidenSheet) -> list[Affordance]:
    """勘働き and 発作 checks, for a character whose sheet has what they need (五ノ七)."""
    out = []
    if _find(sheet.abilities, "勘働き"):
        out.append(
            Affordance(
                command="hiden.kan_check",
                label="勘働き判定",
                args={"character_id": ch.id},
                choices={"difficulty": _DIFFICULTIES[:-1]},
                group=ch.name,
            )
        )
    if _find(sheet.abilities, "気合い") and any(_find(sheet.traits, t) for t in T.SEIZURE_TRAITS):
        out.append(
            Affordance(
                command="hiden.seizure_check",
                label="発作の〈気合い〉判定",
                args={"character_id": ch.id},
                choices={"situation": _SITUATIONS},
                group=ch.name,
            )
        )
    return out


def _open_checks(game: HidenState, viewer: Viewer) -> list[OpenCheck]:
    """The open checks the viewer may see, newest first."""
    return [c for c in reversed(game.checks.values()) if sees(viewer, c)]


def _rerolls(game: HidenState, viewer: Viewer, mine: dict[str, Character]) -> list[Affordance]:
    """五ノ五: one reroll per side of a visible open check whose character the viewer
    controls and that still holds a 座布団; a failed or lost side first."""
    out = []
    for oc in _open_checks(game, viewer):
        for i, side in enumerate(oc.sides):
            cid = side.character_id
            if cid is None or cid not in mine:
                continue
            if sum(s.character_id == cid for s in oc.sides) > 1:
                continue  # a character on both sides: ``hiden.reroll`` cannot say which (which_side)
            held = game.characters.get(cid)
            if held is None or held.zabuton < 1:
                continue
            failed = (
                oc.success is False
                if oc.kind != "opposed"
                else oc.winner is not None and oc.winner != i
            )
            out.append(
                Affordance(
                    command="hiden.reroll",
                    label=f"座布団で振り直す: {mine[cid].name}の判定値{side.value}（{oc.check_id}、残り{held.zabuton}枚）",
                    args={"check_id": oc.check_id, "character_id": cid},
                    group=mine[cid].name,
                    primary=failed,
                )
            )
    return out


def _opposes(game: HidenState, viewer: Viewer, specs: dict[str, list[Choice]]) -> list[Affordance]:
    """五ノ六 in two steps: answer each visible 判定値 rolled without a target, with a
    character of the viewer's other than the first actor's (the expected next step)."""
    out = []
    for oc in _open_checks(game, viewer):
        if oc.kind == "opposed" or oc.target is not None:
            continue
        first = oc.sides[0]
        second = [c for cid, cs in specs.items() if cid != first.character_id for c in cs]
        if not second:
            continue
        out.append(
            Affordance(
                command="hiden.oppose",
                label=f"{first.name}の判定値{first.value}に対抗する（{oc.check_id}）",
                args={"against": oc.check_id},
                choices={"second": second},
                primary=True,
            )
        )
    return out


def _gm_tools(table: TableState, game: HidenState, options: HidenOptions) -> list[Affordance]:
    everyone = [Choice(value=c.id, label=c.name) for c in table.characters.values()]
    if not everyone:
        return []
    out = [
        Affordance(
            command="hiden.award_zabuton",
            label="座布団一枚!（座布団を与える）",
            choices={"character_id": everyone},
        ),
        Affordance(
            command="hiden.set_conditions",
            label="疲労・酒の状態を決める",
            choices={"character_id": everyone, "conditions": _CONDITIONS},
        ),
    ]
    holding = [
        Choice(value=c.id, label=f"{c.name}（座布団{game.characters[c.id].zabuton}枚）")
        for c in table.characters.values()
        if c.id in game.characters and game.characters[c.id].zabuton > 0
    ]
    for c in table.characters.values():
        if c.id in game.characters and game.characters[c.id].incapacitated:
            # 五ノ七: 行動不能 is the GM's to lift (the next turn's 発作 check may also clear it)
            out.append(
                Affordance(
                    command="override",
                    label=f"{c.name}の行動不能を解く",
                    args={
                        "path": ["game", "characters", c.id, "incapacitated"],
                        "value": False,
                        "reason": "行動不能を解く",
                    },
                    group=c.name,
                )
            )
    if options.zabuton_to_cp and holding:
        out.append(
            Affordance(command="hiden.convert_zabuton", label="座布団をCPに変換する（全員）")
        )
        out.append(
            Affordance(
                command="hiden.convert_zabuton",
                label="座布団をCPに変換する（一人）",
                choices={"character_id": holding},
            )
        )
    return out


_HELPERS = [
    # the distance and the weight are the person's to give (五ノ七): fields, not defaults
    Affordance(
        command="hiden.jump",
        label="《跳躍》の難易度を求める",
        choices={"kind": _JUMP_KINDS},
        fields=["ken", "jo", "shaku", "run_up", "risky"],
    ),
    Affordance(
        command="hiden.lift",
        label="《持ち上げ》の難易度を求める",
        fields=["kan", "kg", "sword_grip"],
    ),
    Affordance(
        command="hiden.visibility", label="視界の修正を求める", choices={"conditions": _VISIBILITY}
    ),
    Affordance(
        command="hiden.fatigue",
        label="疲労などによる修正を求める",
        choices={"conditions": _CONDITIONS},
    ),
    Affordance(
        command="hiden.seizure",
        label="発作の難易度を求める",
        choices={"situation": _SITUATIONS, "trait": _SEIZURE_TRAITS},
    ),
    Affordance(command="chat", label="難易度表を出す（HDT）", args={"text": "HDT"}),
]
"""五ノ七's helpers and the difficulty table (五ノ二), for every player and the GM."""


def affordances(table: TableState, viewer: Viewer, options: HidenOptions) -> list[Affordance]:
    """What ``viewer`` may do now: checks of their characters, 対抗判定, 座布団 rerolls,
    the helpers of 五ノ七, and (GM) 座布団 awards, conversion and conditions.

    Returns an empty list for a spectator or the public. Labels name only what
    the viewer may see (a secret check of another member is never offered).
    """
    if (
        viewer.member_id is None
        or viewer.role == Role.SPECTATOR
        or viewer.member_id not in table.members
    ):
        return []
    game = table.game if isinstance(table.game, HidenState) else HidenState()
    gm = viewer.is_gm
    mine = {
        c.id: c
        for c in table.characters.values()
        if gm or (c.owner is not None and c.owner == viewer.member_id)
    }
    sheets = {cid: s for cid, c in mine.items() if (s := _sheet(c)) is not None}
    specs = {cid: _specs(mine[cid], s) for cid, s in sheets.items()}
    out: list[Affordance] = []
    out += _opposes(game, viewer, specs)
    if options.zabuton_reroll:
        out += _rerolls(game, viewer, mine)
    for cid, sheet in sheets.items():
        out += _checks(mine[cid], sheet, gm)
        out += _character_checks(mine[cid], sheet)
    out.append(
        Affordance(
            command="hiden.check",
            label="キャラクターのいない判定（数値で）",
            choices={"difficulty": _DIFFICULTIES},
        )
    )
    both = [c for cs in specs.values() for c in cs]
    if len(specs) >= 2:  # 五ノ六: the GM, or a member who controls both characters
        out.append(
            Affordance(
                command="hiden.opposed_check",
                label="対抗判定",
                choices={"first": both, "second": both},
            )
        )
    if gm:
        out += _gm_tools(table, game, options)
    out += _HELPERS
    return out
