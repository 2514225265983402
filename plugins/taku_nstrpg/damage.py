"""Damage and what it does to a character (NSTRPG 2-12, 2-13).

:func:`resolve_damage` is the whole order of G-NS-06 in one pure function:
lose 【体力】, ニンジャ耐久力の発露, 爆発四散, the added effects of a サツバツ!
row only if 【体力】 went down, then 精神力マイナス. It returns the values to
store in the event; ``evolve`` copies them and never recomputes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import msgspec

__all__ = [
    "ABILITIES",
    "ACTIVE",
    "DEAD",
    "EXPLODED",
    "FAINTED",
    "KINDS",
    "REMOVED",
    "DamageOutcome",
    "effective",
    "final_damage",
    "resolve_damage",
]

ACTIVE: Final = "active"
FAINTED: Final = "fainted"
"""気絶状態: on the map, gets 手番, only 些細な行動 (NS-82)."""
EXPLODED: Final = "exploded"
"""爆発四散: a ninja below 体力 0 (NS-83)."""
REMOVED: Final = "removed"
"""Out of the fight and off the map: a mob at 体力 0 or 精神力 < 0, a non-ninja boss (NS-81, NS-84, G-NS-08)."""
DEAD: Final = "dead"
"""即死! (NS-94)."""

KINDS = ("pc", "boss", "mob")
ABILITIES = ("karate", "neuron", "wazamae", "kyakuryoku")
"""The attributes that take ability damage [能力値ダメージ] and floor at 1 (NS-19)."""


def effective(base: int, damage: int) -> int:
    """An attribute after ability damage: never below 1 within a scenario (NS-19)."""
    return max(1, base - damage) if damage > 0 else base


def final_damage(base: int, tsuda: int, reduction: int) -> int:
    """Base damage + the one 痛打, minus ダメージ軽減, never below 0 (NS-92, NS-95)."""
    return max(0, base + tsuda - max(reduction, 0))


class DamageOutcome(msgspec.Struct, frozen=True, kw_only=True):
    """The values after a damage: what the event records and ``evolve`` applies.

    Attributes:
        tairyoku: 【体力】 after.
        seishin: 【精神力】 after.
        seishin_spent: 精神力 spent by ニンジャ耐久力の発露.
        status: ``active``, ``fainted``, ``exploded``, ``removed`` or ``dead``.
        reduced: whether 【体力】 went down (the condition of added effects).
        ability_damage: the ability damage applied (empty unless ``reduced``).
        injury: the ●部位損傷 part applied, or ``""``.
    """

    tairyoku: int
    seishin: int
    seishin_spent: int = 0
    status: str = ACTIVE
    reduced: bool = False
    ability_damage: dict[str, int] = {}
    injury: str = ""


def resolve_damage(
    *,
    kind: str,
    ninja: bool,
    tairyoku: int,
    seishin: int,
    status: str,
    amount: int,
    ability_damage: Mapping[str, int] | None = None,
    injury: str = "",
    instant_death: bool = False,
) -> DamageOutcome:
    """The outcome of ``amount`` damage (after 痛打 and ダメージ軽減) on a character.

    Args:
        kind: ``pc``, ``boss`` or ``mob``.
        ninja: whether the character is a ninja (爆発四散, 耐久力の発露).
        tairyoku, seishin, status: the values before.
        amount: the final damage.
        ability_damage, injury: a サツバツ! row's added effects; they apply only if
            【体力】 went down (NS-90). ``seishin`` in ``ability_damage`` is 精神力ダメージ.
        instant_death: 即死! with no 即死耐性: dead whatever the values (NS-94).

    Returns:
        The values after, in the order of G-NS-06.
    """
    if instant_death:
        return DamageOutcome(tairyoku=tairyoku, seishin=seishin, status=DEAD, reduced=True)
    hp = tairyoku - max(amount, 0)
    sp = seishin
    reduced = amount > 0
    spent = 0
    new = status
    if kind == "mob":
        if hp <= 0:
            new = REMOVED
    else:
        if hp < 0 and ninja and sp > 0:
            # ニンジャ耐久力の発露: 精神力 1 stops 1 point of negative 体力 (NS-83, G-NS-07)
            spent = min(sp, -hp)
            hp += spent
            sp -= spent
        if hp < 0:
            new = EXPLODED if ninja else REMOVED  # G-NS-08 for a non-ninja boss
        elif hp == 0 and new == ACTIVE:
            new = FAINTED
    applied: dict[str, int] = {}
    part = ""
    if reduced and new not in (EXPLODED, DEAD):
        applied = {k: v for k, v in (ability_damage or {}).items() if v}
        part = injury
        sp -= applied.get("seishin", 0)
    if sp <= -1 and new in (ACTIVE, FAINTED):
        # 精神力マイナス (NS-84)
        if ninja and kind != "mob":
            hp, new = 0, FAINTED
        else:
            new = REMOVED
    return DamageOutcome(
        tairyoku=hp,
        seishin=sp,
        seishin_spent=spent,
        status=new,
        reduced=reduced,
        ability_damage=applied,
        injury=part,
    )
