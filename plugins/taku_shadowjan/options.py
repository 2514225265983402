"""Table options of シャドー・ジャン2: every ◆オプション of the text, the two タツジン rules
(◆その他) and the defaults chosen for the gaps (CHECKLIST G-SJ-…).

All have defaults; a table sets them at creation (``options``), and the GM may
change any of them later through the core override.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

__all__ = ["SjOptions"]


class SjOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """House rules and gap defaults.

    Attributes:
        tsumo_sixes: 6s accumulated for a ツモ (SJ-21: 3; ◆オプション 上位帯向け: 4, 5 or more; SJ-37).
        end_on_negative: ◆オプション 点数マイナスで終了: the game ends once a score is below 0 (SJ-37).
        ninja_slayer: ニンジャ殺すべし is in play (SJ-28; the option switches it off, SJ-37).
        ninja_slayer_fight: play the イクサ against Ninja Slayer (NSTRPG stat block, G-SJ-17)
            instead of the shortcut (the target 爆発四散, the others gain 1d3 DKK, SJ-29).
        satsubatsu: サツバツ! happens on melee attacks (off: サツバツ無効, SJ-37).
        bakuhatsu: 爆発四散 happens (off: 爆発四散無効; a ninja below 0 体力 faints instead, SJ-37).
        iaido: タツジン(イアイドー) 点棒切り払い: −1 evasion difficulty against 遠隔攻撃 (SJ-36).
        yumido: タツジン(ユミドー) リーチ棒強化: the stick deals 2d3, evasion U-HARD2 (SJ-36).
        hands: hands [局] in a game (SJ-06: 4).
        start_score: points each at the start (SJ-05: 25000).
        chombo_multiplied: チョンボ payments also take the 流局 factor (G-SJ-11: no).
        max_draws: the most consecutive 流局 before the hand counts anyway (G-SJ-10; 0 = no cap).
        tiebreak_ikusa: a tie for first is fought out (SJ-33); off: the tied players share first place.
    """

    tsumo_sixes: Annotated[int, msgspec.Meta(ge=1, le=12)] = 3
    end_on_negative: bool = False
    ninja_slayer: bool = True
    ninja_slayer_fight: bool = False
    satsubatsu: bool = True
    bakuhatsu: bool = True
    iaido: bool = True
    yumido: bool = True
    hands: Annotated[int, msgspec.Meta(ge=1, le=16)] = 4
    start_score: int = 25000
    chombo_multiplied: bool = False
    max_draws: Annotated[int, msgspec.Meta(ge=0)] = 0
    tiebreak_ikusa: bool = True
