"""House rules and the defaults for the gaps of the チャブＲＰＧ text (CHECKLIST part 2, G-CH-…).

Every field has a default, so a table created without options plays the
defaults documented in docs/rulesets/chabu.md. The GM sets them when creating
the table (``options`` of the create message).
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec

from taku.core.commands import field

__all__ = ["ChabuOptions", "Range", "RANGE_JA"]

Range = Literal["short", "long", "over"]
"""ショートレンジ / ロングレンジ / オーバーレンジ (チャブ ■射程, CH-18)."""

RANGE_JA: dict[str, str] = {
    "short": "ショートレンジ",
    "long": "ロングレンジ",
    "over": "オーバーレンジ",
}
"""The Japanese name of each :data:`Range` value."""

RANGE_VALUES = "short（ショートレンジ）/ long（ロングレンジ）/ over（オーバーレンジ）"
"""The values of a 射程 field, for its description."""


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

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="チャブＲＰＧの卓オプション",
        description="ハウスルールと、ルールブックに書かれていない部分の既定値",
    )

    opposed_both_fail: Annotated[
        Literal["reroll", "draw"],
        field("対抗判定で両者失敗", "reroll（振り直し。同値と同じ扱い）/ draw（決着つかず）"),
    ] = "reroll"
    max_opposed_rounds: Annotated[
        int,
        field(
            "対抗判定の振り直し上限",
            "この回数振り直しても決着しなければ引き分け（無限に続かないための上限。1未満は1回）",
        ),
    ] = 50
    effect_after_cost_death: Annotated[
        bool,
        field(
            "コストで死亡しても効果を解決",
            "特技のコストでインガオホー値が100以上になり死亡しても、その効果を解決する",
        ),
    ] = False
    default_range: Annotated[
        Range | None,
        field(
            "未設定の射程",
            f"GMが決めていないキャラクター間の射程。{RANGE_VALUES}。空なら射程未設定の攻撃は拒否",
        ),
    ] = "short"
    auto_evade: Annotated[
        bool, field("自動回避判定", "命中判定が成功したら対象全員が自動で回避判定を行う")
    ] = False
    always_hold: Annotated[
        bool,
        field("常に刹那を待つ", "すべての行動宣言・判定の宣言で刹那の割り込みを待ってから解決する"),
    ] = False
    wazamae_ingaoho: Annotated[
        int,
        field(
            "ワザマエカウンターのインガオホー値上昇",
            "ワザマエカウンター1つの使用で上がるインガオホー値",
        ),
    ] = 0
    victory_first: Annotated[
        bool, field("勝利条件を優先", "勝利条件と敗北条件が同時に満たされたとき勝利とする")
    ] = True
