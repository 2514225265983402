"""Table options of 秘伝の声: house rules and the defaults for gaps in the text.

Every default below is a choice where chapter 5 is silent or contradicts
itself (CHECKLIST part 2, G-HD-…); a GM changes it when creating the table.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec

from taku.core.commands import field

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

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="秘伝の声の卓の設定", description="ハウスルールと、本文が決めていないところの扱い"
    )

    simple_target: Annotated[
        bool, field("簡易目標値", "目標値を難易度 + 2D ではなく難易度 + 7 にする（五ノ二）")
    ] = False
    critical_auto_success: Annotated[
        bool,
        field(
            "6ゾロは無条件成功",
            "6ゾロは2Dを加えるうえ、目標値にかかわらず成功する（G-HD-01）。勘働きはいつも",
        ),
    ] = True
    clamp_ability_only: Annotated[
        bool,
        field(
            "能力値だけの判定も0未満を0に",
            "能力値だけの判定でも0未満の能力値を0として数える（G-HD-02）",
        ),
    ] = False
    opposed_tie: Annotated[
        Literal["second", "first"],
        field(
            "対抗判定の同値",
            "second（後に行動する者の勝ち: 規則）/ first（先に行動する者の勝ち: 甲乙の例）（G-HD-03）",
        ),
    ] = "second"
    jump_rounding: Annotated[
        Literal["up", "down"],
        field("《跳躍》の端数", "up（1単位に切り上げ）/ down（切り捨て）（G-HD-05）"),
    ] = "up"
    zabuton_reroll: Annotated[
        bool,
        field("座布団で振り直し", "座布団を一枚使って判定を振り直せる（五ノ五のオプションルール）"),
    ] = True
    zabuton_to_cp: Annotated[
        bool, field("座布団をCPに", "セッションの終わりに座布団をCPに変換できる（五ノ五）")
    ] = True
    cp_per_zabuton: Annotated[
        int,
        field("座布団一枚のCP", "変換で座布団一枚が何CPになるか（本文に定めなし）", ge=0, le=100),
    ] = 1
    sword_grip_modifier: Annotated[
        int,
        field(
            "剣のように握る修正",
            "《持ち上げ》で棒状のものを剣のように握るときの修正（「3程度」）",
            ge=-20,
            le=20,
        ),
    ] = 3


DEFAULT_OPTIONS = HidenOptions()
