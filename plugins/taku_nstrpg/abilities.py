"""Abilities as data: the ◉ abilities of Ninja Slayer with map effects (NSTRPG 2-15) and
the 『2ターン連続使用不可』 cooldown of any ability (NS-71).

An ability of a sheet is 『2ターン連続使用不可』 when it is one of :data:`ABILITIES` with
``cooldown``, or when a skill of the sheet names it and says 「2ターン連続使用不可」
(``"◉カトン・ジツ:2ターン連続使用不可"``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import msgspec

from taku_nstrpg import board as bd
from taku_nstrpg.checks import HARD, NORMAL, UH

__all__ = [
    "ABILITIES",
    "Ability",
    "ability_info",
    "area_targets",
    "has_ability",
    "is_known_ability",
]


class Ability(msgspec.Struct, frozen=True, kw_only=True):
    """One ability's rules as data.

    Attributes:
        name: its name as printed (``◉ヘルタツマキ``).
        cooldown: 『2ターン連続使用不可』 (NS-71; per 手番 in 一騎打ち, NS-34).
        needs_still: 非移動時のみ使用可能: only in a 手番 without a move.
        area: the side of the square area centred on the user (5: 5×5), 0 = one target.
        difficulty: the 射撃判定's difficulty; ``seishin``: 【精神力】 spent.
        damage, evasion: on a success; ``damage_66`` / ``evasion_66`` on a 【6,6】 success.
        damage_d6: the damage is D6 (ツヨイ・スリケン).
        needs_sight, not_adjacent: the target is in line of sight / not adjacent (射撃).
    """

    name: str
    cooldown: bool = False
    needs_still: bool = False
    area: int = 0
    difficulty: int = NORMAL
    seishin: int = 0
    damage: int = 1
    evasion: int = NORMAL
    damage_66: int = 0
    evasion_66: int = 0
    damage_d6: bool = False
    needs_sight: bool = False
    not_adjacent: bool = False


ABILITIES: dict[str, Ability] = {
    "◉ヘルタツマキ": Ability(
        name="◉ヘルタツマキ",
        cooldown=True,
        area=5,
        difficulty=HARD,
        seishin=1,
        damage=1,
        evasion=NORMAL,
        damage_66=2,
        evasion_66=HARD,
    ),
    "◉ツヨイ・スリケン": Ability(
        name="◉ツヨイ・スリケン",
        cooldown=True,
        needs_still=True,
        difficulty=UH,
        seishin=1,
        damage_d6=True,
        evasion=UH,
        needs_sight=True,
        not_adjacent=True,
    ),
}
"""Ninja Slayer's ◉ abilities with map effects (2-15 ニンジャスレイヤーの特殊スキル)."""


def ability_info(sheet: object, name: str) -> Ability:
    """The rules of ``name`` for a sheet (see the module docstring)."""
    known = ABILITIES.get(name) or ABILITIES.get("◉" + name.lstrip("◉"))
    if known is not None:
        return known
    skills: Iterable[str] = getattr(sheet, "skills", ()) or ()
    bare = name.lstrip("◉●")
    for s in skills:
        if s.lstrip("◉●『").startswith(bare) and "2ターン連続使用不可" in s:
            return Ability(name=name, cooldown=True)
    return Ability(name=name)


def is_known_ability(name: str) -> bool:
    """Whether ``name`` is one of :data:`ABILITIES` (an ability whose rules are data here)."""
    return name in ABILITIES or "◉" + name.lstrip("◉") in ABILITIES


def has_ability(sheet: object, name: str) -> bool:
    """Whether ``name`` (with or without its ◉/●) is among the sheet's ``skills``."""
    bare = name.lstrip("◉●『")
    skills: Iterable[str] = getattr(sheet, "skills", ()) or ()
    return bool(bare) and any(s.lstrip("◉●『").startswith(bare) for s in skills)


def area_targets(positions: Mapping[str, bd.Pos], user: str, side: int = 5) -> list[str]:
    """Everyone within the ``side`` × ``side`` squares centred on ``user`` (friend and foe
    alike, not the user: ◉ヘルタツマキ's 5×5), in position order."""
    centre = positions.get(user)
    if centre is None:
        return []
    r = side // 2
    inside = [
        (p[1], p[0], k) for k, p in positions.items() if k != user and bd.distance(centre, p) <= r
    ]
    return [k for _, _, k in sorted(inside)]
