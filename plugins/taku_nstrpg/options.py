"""Table options of nstrpg: house rules and the defaults for gaps in the text (CHECKLIST part 2)."""

from __future__ import annotations

import msgspec

from taku_nstrpg.checks import UH3

__all__ = ["NsOptions"]


class NsOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """House rules; every field is a gap default the GM may change at table creation.

    Attributes:
        mob_crit_autoremove: a mob hit by an undodged サツバツ! is removed (G-NS-29; 2-13 "構わない").
        injury_penalty_on_evasion: the next-scenario ●部位損傷 penalty hits evasion too (G-NS-22).
        barrage_cap: the highest base evasion difficulty 弾幕発生 can reach (NS-76: UH3).
        wasshoi_dkk_per_turn: 【DKK】 gained in one turn that calls for a Wasshoi! check (NS-97).
        quick_dice_base: 即応ダイス of a starting ninja without weapons (NS-13).
        counter_compare: how a group evasion's successes are compared for カウンターカラテ
            when it covers several hits: ``"sum"`` of their attack successes or ``"max"``.
    """

    mob_crit_autoremove: bool = True
    injury_penalty_on_evasion: bool = True
    barrage_cap: int = UH3
    wasshoi_dkk_per_turn: int = 3
    quick_dice_base: int = 5
    counter_compare: str = "sum"
