"""Table options of nstrpg: house rules and the defaults for gaps in the text (CHECKLIST part 2)."""

from __future__ import annotations

from typing import Annotated, ClassVar

import msgspec

from taku.core.commands import field
from taku_nstrpg._labels import open_set
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
        ikkiuchi: オプションルール 一騎打ち (NS-34): when exactly two ninjas of opposite sides
            are left able to act, each has two 手番 a turn, the second at half initiative.
        counter_compare: how a group evasion's successes are compared for カウンターカラテ
            when it covers several hits: ``"sum"`` of their attack successes or ``"max"``.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="ニンジャスレイヤーTRPGのハウスルール",
        description="ルールブックに書かれていない点の既定値（卓を作るときにGMが変えられる）",
    )

    mob_crit_autoremove: Annotated[
        bool,
        field(
            "サツバツ!でモブを除去", "回避されなかったサツバツ!を受けたモブ敵を取り除く（G-NS-29）"
        ),
    ] = True
    injury_penalty_on_evasion: Annotated[
        bool,
        field(
            "部位損傷の修正を回避にも",
            "次のシナリオの●部位損傷の修正を回避判定にも適用する（G-NS-22）",
        ),
    ] = True
    barrage_cap: Annotated[
        int, field("弾幕発生の上限", "弾幕発生で上がる回避難易度の上限の段階（8=UH3、NS-76）")
    ] = UH3
    wasshoi_dkk_per_turn: Annotated[
        int, field("Wasshoi!判定の【DKK】", "1ターンにこれだけ【DKK】を得るとWasshoi!判定（NS-97）")
    ] = 3
    quick_dice_base: Annotated[
        int, field("即応ダイスの基本値", "武器スロットを引く前の即応ダイス（NS-13）")
    ] = 5
    # open in stored table options: earlier versions did not check it
    counter_compare: Annotated[
        str,
        open_set(
            "カウンターの比較",
            "まとめて全弾回避でカウンターカラテを判定するとき: sum（攻撃の成功数の合計）/ max（最大）と比べる",
            ("sum", "max"),
        ),
    ] = "sum"
    ikkiuchi: Annotated[
        bool,
        field(
            "一騎打ち",
            "ニンジャ同士の1対1では各ニンジャが1ターンに2回手番を行う（2回目はイニシアチブ値の半分、オプションルール NS-34）",
        ),
    ] = False
