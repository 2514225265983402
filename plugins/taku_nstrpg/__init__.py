"""The `nstrpg` ruleset: ニンジャスレイヤーTRPG 2版 コアルール (sections 2-1 … 2-17).

The pure rule functions live in importable modules for other rulesets
(Shadow-Jan builds on them):

- :mod:`taku_nstrpg.checks`: difficulties, success counting, 【】 patterns, opposed checks.
- :mod:`taku_nstrpg.satsubatsu`: the サツバツ! table, 痛打, サツバツ!/ナムアミダブツ! detection.
- :mod:`taku_nstrpg.damage`: damage results (気絶, 爆発四散, ニンジャ耐久力, 精神力マイナス).
- :mod:`taku_nstrpg.combat`: weapons, styles, attack profiles, splits, evasion, counters, 弾幕, atmosphere, ● skills.
- :mod:`taku_nstrpg.dkk`: DKK, Wasshoi!, the entry table, Ninja Slayer's stat block.
"""

from taku_nstrpg.checks import (
    CheckResult,
    Pattern,
    count_successes,
    evaluate,
    opposed,
    parse_difficulty,
    roll_check,
    shift,
)
from taku_nstrpg.combat import (
    attack_profile,
    auto_skills,
    barrage,
    can_counter,
    evasion_difficulty,
    resolve_attack,
    resolve_evasion,
    roll_attack,
    roll_evasion,
)
from taku_nstrpg.damage import resolve_damage
from taku_nstrpg.satsubatsu import apply_row, critical_of, tsuda

__all__ = [
    "CheckResult",
    "Pattern",
    "apply_row",
    "attack_profile",
    "auto_skills",
    "barrage",
    "can_counter",
    "count_successes",
    "critical_of",
    "evaluate",
    "evasion_difficulty",
    "opposed",
    "parse_difficulty",
    "resolve_attack",
    "resolve_damage",
    "resolve_evasion",
    "roll_attack",
    "roll_check",
    "roll_evasion",
    "shift",
    "tsuda",
]
