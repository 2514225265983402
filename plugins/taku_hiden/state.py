"""Character sheets and the game state of a 秘伝の声 table.

The core keeps each character's sheet (validated by :class:`HidenSheet`); the
ruleset keeps what changes in play in :class:`HidenState`: the 座布団 count,
CP converted from 座布団, the standing fatigue / drink conditions, 行動不能
after a failed 発作 check, and the checks still open to a 座布団 reroll.
Every Struct round-trips through ``msgspec.to_builtins`` / ``convert`` so the
GM's ``override`` command can set any value of it.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from taku_hiden.events import Side, Target

__all__ = [
    "MAX_OPEN_CHECKS",
    "CharState",
    "HidenSheet",
    "HidenState",
    "OpenCheck",
    "Tokugi",
    "Trait",
    "strip_brackets",
]

Level = Annotated[int, msgspec.Meta(ge=0, le=99)]
Score = Annotated[int, msgspec.Meta(ge=-99, le=99)]

MAX_OPEN_CHECKS = 16
"""How many recent checks stay open to a 座布団 reroll (the oldest closes first)."""


def strip_brackets(name: str) -> str:
    """``"〈器用〉"`` / ``"《探索》"`` / ``"「酒の耐性」"`` -> the bare name."""
    return name.strip().strip("〈〉《》「」<>").strip()


class Tokugi(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A 《特技》: a level and its fixed ability (五ノ一: "特技には対応能力値が決められています")."""

    level: Level
    ability: str


class Trait(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A 特徴 (trait) with the CP spent on it (五ノ四).

    Attributes:
        cp: CP spent; negative for a disadvantage. A check the trait bears on
            adds this (HD-10), and 酒の耐性 subtracts it from drink modifiers (HD-19).
        modifier: the trait's own stated modifier, used instead of ``cp`` (五ノ四).
        level: a level for level-rated traits such as 〈暗視〉 (G-HD-09).
        note: free text.
    """

    cp: Score = 0
    modifier: Score | None = None
    level: Level | None = None
    note: str = ""


class HidenSheet(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A 秘伝の声 character sheet (個人設定用紙), as far as chapter 5 uses it.

    Attributes:
        abilities: 〈能力値〉 by name: 器用, 知識, 知覚, 知恵, 気合い, the
            experience value 勘働き, and any others.
        skills: 《技能》 levels by name; a skill pairs with any fitting ability (HD-04).
        tokugi: 《特技》 by name, each with its level and fixed ability (HD-04).
        traits: 特徴 by name with CP: 容貌, 声, 内気, 酒の耐性, 発作, 不治の病 …
        zabuton: 座布団 held when the character is created; editing it later
            changes the sheet only (the count in play changes by the GM's
            awards, rerolls, conversion or an ``override``).
        extra: anything else the table keeps on the sheet.
    """

    abilities: dict[str, Score] = {}
    skills: dict[str, Level] = {}
    tokugi: dict[str, Tokugi] = {}
    traits: dict[str, Trait] = {}
    zabuton: Annotated[int, msgspec.Meta(ge=0, le=999)] = 0
    extra: dict[str, Any] = {}

    def __post_init__(self) -> None:
        for name in (*self.abilities, *self.skills, *self.tokugi, *self.traits):
            if not strip_brackets(name):
                raise ValueError("a name on the sheet is empty")


class CharState(msgspec.Struct, frozen=True, kw_only=True):
    """What changes in play for one character.

    Attributes:
        zabuton: 座布団 held now (五ノ五).
        cp_from_zabuton: CP gained by converting 座布団 at the end of sessions.
        conditions: standing fatigue / hunger / drink conditions (五ノ七), keys
            of :data:`taku_hiden.tables.FATIGUE` and ``DRINK``; added to the
            difficulty of every check of the character (HD-18).
        incapacitated: 行動不能 after a failed 発作 / 不治の病 check (HD-21).
    """

    zabuton: int = 0
    cp_from_zabuton: int = 0
    conditions: tuple[str, ...] = ()
    incapacitated: bool = False


class OpenCheck(msgspec.Struct, frozen=True, kw_only=True):
    """A recent check, open to a 座布団 reroll (五ノ五).

    Attributes:
        check_id: the check's id.
        kind: ``check``, ``kan`` (勘働き), ``seizure`` (発作) or ``opposed``.
        sides: one side, or two for an opposed check (first, second).
        target: the target of a single check (``None`` when opposed).
        success: the single check's outcome now.
        winner: the opposed check's winner now: 0 first, 1 second.
    """

    check_id: str
    kind: str
    sides: tuple[Side, ...]
    target: Target | None = None
    success: bool | None = None
    winner: int | None = None


class HidenState(msgspec.Struct, frozen=True, kw_only=True):
    """The ruleset's part of a table state (``TableState.game``)."""

    characters: dict[str, CharState] = {}
    checks: dict[str, OpenCheck] = {}
