"""House rules and the defaults for the gaps of the チャブＲＰＧ text (CHECKLIST part 2, G-CH-…).

Every field has a default, so a table created without options plays the
defaults documented in docs/rulesets/chabu.md. The GM sets them when creating
the table (``options`` of the create message).
"""

from __future__ import annotations

from typing import Literal

import msgspec

__all__ = ["ChabuOptions", "Range"]

Range = Literal["short", "long", "over"]
"""ショートレンジ / ロングレンジ / オーバーレンジ (チャブ ■射程, CH-18)."""


class ChabuOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Table options of the ``chabu`` ruleset.

    Attributes:
        opposed_both_fail: what an opposed check does when both sides fail
            (G-CH-06): ``"reroll"`` (default, like a tie) or ``"draw"``.
        max_opposed_rounds: the most rerolls of one opposed check before it is
            called a draw (a guard against an endless contest; not in the text).
        effect_after_cost_death: whether a 特技 whose インガオホー cost kills its
            user still resolves (CH-EX-02 edge, UNDECIDED BY TEXT). Default
            ``False``: 死亡 happens before the effect, and a dead character is
            "二度とゲームに使用することは出来無い".
        default_range: the range between two characters the GM has not set
            (G-CH-01: the text has no movement rule). ``None`` rejects an attack
            or 特技 whose range is not set (``rule/chabu/range_unknown``).
        auto_evade: when ``True`` every target of a successful hit check rolls
            its 回避判定 at once (no separate ``chabu.evade`` command).
        always_hold: when ``True`` every declaration (attack, check, 活劇 特技)
            waits for 刹那 answers and ``chabu.proceed``; otherwise only those
            declared with ``hold``.
        wazamae_ingaoho: how far spending a ワザマエカウンター raises インガオホー値
            (CH-07 says a タツジンカウンター is used "without" that rise; the
            amount is in the missing part of the text, G-CH-02).
        victory_first: when the victory and the defeat condition hold at the
            same moment, which one ends the combat (not in the text).
    """

    opposed_both_fail: Literal["reroll", "draw"] = "reroll"
    max_opposed_rounds: int = msgspec.field(default=50)
    effect_after_cost_death: bool = False
    default_range: Range | None = "short"
    auto_evade: bool = False
    always_hold: bool = False
    wazamae_ingaoho: int = 0
    victory_first: bool = True
