"""The `nstrpg` ruleset: ニンジャスレイヤーTRPG 2版 コアルール (sections 2-1 … 2-17).

The pure rule functions live in importable modules for other rulesets
(Shadow-Jan builds on them):

- :mod:`taku_nstrpg.checks`: difficulties, success counting, 【】 patterns, opposed checks.
- :mod:`taku_nstrpg.satsubatsu`: the サツバツ! table, 痛打, サツバツ!/ナムアミダブツ! detection.
- :mod:`taku_nstrpg.damage`: damage results (気絶, 爆発四散, ニンジャ耐久力, 精神力マイナス).
- :mod:`taku_nstrpg.combat`: weapons, styles, attack profiles, splits, evasion, counters, 弾幕, atmosphere, ● skills.
- :mod:`taku_nstrpg.dkk`: DKK, Wasshoi!, the entry table, Ninja Slayer's stat block.
"""

from taku_nstrpg.checks import CheckResult, Pattern, count_successes, evaluate, opposed, parse_difficulty, roll_check, shift
from taku_nstrpg.combat import attack_profile, auto_skills, barrage, can_counter, evasion_difficulty
from taku_nstrpg.damage import resolve_damage
from taku_nstrpg.satsubatsu import critical_of, tsuda

__all__ = [
    "CheckResult",
    "Pattern",
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
    "resolve_damage",
    "roll_check",
    "shift",
    "tsuda",
]
