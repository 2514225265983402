"""Table options of 秘伝の声: house rules and the defaults for gaps in the text.

Every default below is a choice where chapter 5 is silent or contradicts
itself (CHECKLIST part 2, G-HD-…); a GM changes it when creating the table.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

__all__ = ["DEFAULT_OPTIONS", "HidenOptions"]


class HidenOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """House rules of a 秘伝の声 table.

    Attributes:
        simple_target: use the 簡易目標値 (difficulty + 7) instead of difficulty +
            2D rolled for the GM (五ノ二; HD-02).
        critical_auto_success: a 6ゾロ on a check succeeds whatever the target,
            besides adding 2D (G-HD-01; 五ノ七 勘働き speaks of 無条件成功). In
            opposed checks the compared values decide (HD-14). A 勘働き check
            succeeds on 6ゾロ even with this off: the text says so of it (HD-22).
        clamp_ability_only: count a negative ability as 0 in an ability-only
            check too (G-HD-02: the text states the clamp only for skill checks).
        opposed_tie: who wins a tie in an opposed check (五ノ六; G-HD-03):
            ``"second"`` follows the rule (reaching the target succeeds),
            ``"first"`` follows the 甲/乙 example (a tie goes to the hider).
        jump_rounding: a partial unit of a 《跳躍》 distance (G-HD-05): ``"up"``
            counts it as a whole unit, ``"down"`` drops it.
        zabuton_reroll: the optional rule of 五ノ五 (spend one 座布団 to reroll
            both dice of a check).
        zabuton_to_cp: 座布団 may be converted to CP at the end of a session (五ノ五).
        cp_per_zabuton: CP gained per 座布団 converted (the text gives no rate).
        sword_grip_modifier: the 《持ち上げ》 modifier for holding a pole like a
            sword (五ノ七: "難易度は3程度の修正").
    """

    simple_target: bool = False
    critical_auto_success: bool = True
    clamp_ability_only: bool = False
    opposed_tie: Literal["second", "first"] = "second"
    jump_rounding: Literal["up", "down"] = "up"
    zabuton_reroll: bool = True
    zabuton_to_cp: bool = True
    cp_per_zabuton: Annotated[int, msgspec.Meta(ge=0, le=100)] = 1
    sword_grip_modifier: Annotated[int, msgspec.Meta(ge=-20, le=20)] = 3


DEFAULT_OPTIONS = HidenOptions()
