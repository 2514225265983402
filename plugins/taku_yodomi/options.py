"""Table options of 澱み流れ: house rules and the defaults for gaps in the text (CHECKLIST 2.YD).

Every field has a default; the GM sets others when creating the table
(``create_table.options``). docs/rulesets/yodomi.md lists them.
"""

from __future__ import annotations

from typing import Literal

import msgspec

__all__ = ["YodomiOptions", "YodomiSheet"]


class YodomiOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """House rules and gap defaults."""

    gm_sees_hands: bool = False
    """Whether GMs see the faces of players' 流れ hands. Default: no, the GM sees counts only."""
    key_critical: Literal["key_double", "rerolled"] = "key_double"
    """G-YD-04: which doubles count as a roll of 30. ``key_double``: a double of the
    key number itself (key 7, 7-7); ``rerolled``: any double made by the key-number reroll."""
    key_critical_bonus: bool = False
    """G-YD-04: whether the critical +10 is added on top of the 30 (default: no)."""
    accident_dice: int = 1
    """YD-18: the default accident of a 継続判定 loses ``accident_dice``D9 points (G-YD-19: floor 0)."""
    backstage_cap: bool = True
    """YD-75: 舞台裏 recovery stops at the sheet's 【PP】 (the character's maximum)."""
    max_paths: int = 7
    """YD-22: at most 7 パス."""
    shared_suits_from: int = 5
    """YD-71: suits may be shared once this many PCs play."""
    flow_death_cards: int = 5
    """YD-51: 流れとしての死 gives this many 流れ."""
    yodomi_life_sp: int = 200
    """YD-52, G-YD-21: 澱みとしての生 gains this much 【SP】."""
    entry_path_bonus: int = 20
    """YD-74: +20 to 登場判定 when a パス target is in the scene."""
    called_shot_penalty: int = 10 * 2
    """YD-70: 武器狙い -20."""
    ambush_reaction_penalty: int = 3
    """YD-67: reactions to a 不意打ち take -3."""


class YodomiSheet(msgspec.Struct, kw_only=True):
    """A character sheet as 澱み流れ reads it (G-YD-15: integers on the sheet).

    Attributes:
        pp: 【PP】 at the start and the 舞台裏 recovery cap.
        sp: 【SP】 at the start.
        action: 【行動値】 (initiative order, 封鎖 対決).
        evasion: 【回避値】 (the default defence 判定値).
        social: 【社会】 (purchase checks; the 財産点 cap).
        wealth: 財産点.
        abilities: 基本能力値 and 戦闘値 by name (``{"体": 5, "知": 3}``).
        defense: 防御修正 by attack attribute (``{"体": 3, "澱み": 2}``).
        defense_attributes: 防御属性 (damage of these attributes is halved).
        variation: 変動値 for the key number (G-YD-05, default 0).
        armor_requirement: the armour's 必要能力値 (水中).
        items: equipment and its 【PP】 (武器狙い).
        side: ``"pc"`` or ``"enemy"``; default: ``pc`` when the character has an owner.
    """

    pp: int = 30
    sp: int = 60
    action: int = 0
    evasion: int = 0
    social: int = 0
    wealth: int = 0
    abilities: dict[str, int] = {}
    defense: dict[str, int] = {}
    defense_attributes: list[str] = []
    variation: int = 0
    armor_requirement: int = 0
    items: dict[str, int] = {}
    side: Literal["pc", "enemy"] | None = None
