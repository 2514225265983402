"""Table options of シャドー・ジャン2: every ◆オプション of the text, the two タツジン rules
(◆その他) and the defaults chosen for the gaps (CHECKLIST G-SJ-…).

All have defaults; a table sets them at creation (``options``), and the GM may
change any of them later through the core override.
"""

from __future__ import annotations

from typing import Annotated, ClassVar

import msgspec

from taku.core.commands import field

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
        turn_seconds: a time limit on every move the table waits for: each command that
            leaves the table waiting on someone sets a timer of this many seconds for them
            (and stops the last one); 0 = none. With ``timeout_pass``, a turn nobody
            plays is passed when it runs out; after a whole round of such passes with
            nobody moving, no more timers are set until someone moves again.
        timeout_pass: when a GM's timer (``set_timer``) runs out during a turn — the
            character's own turn, if the timer names one — the turn is passed: it ends
            with no action (no ツモ判定 for a declared player), then its 手番終了 as usual.
            Off: an expiry only logs 時間切れ. Not in the rulebook (online play).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="シャドー・ジャン2のオプション",
        description="◆オプション、タツジンのルール、ルールの隙間の既定値",
    )

    tsumo_sixes: Annotated[
        int,
        field(
            "ツモに要る6の数",
            "ツモ判定でアガるのに要る出目6の累計（3。上位帯向け: 4、5以上）",
            ge=1,
            le=12,
        ),
    ] = 3
    end_on_negative: Annotated[
        bool, field("点数マイナスで終了", "誰かの点数が0を下回ったら対局を終える")
    ] = False
    ninja_slayer: Annotated[bool, field("ニンジャ殺すべし", "ニンジャ殺すべしを使う")] = True
    ninja_slayer_fight: Annotated[
        bool,
        field("ニンジャスレイヤーとのイクサ", "省略せず、ニンジャスレイヤーのデータでイクサを行う"),
    ] = False
    satsubatsu: Annotated[
        bool, field("サツバツ!", "近接攻撃でサツバツ!が起こる（オフ: サツバツ無効）")
    ] = True
    bakuhatsu: Annotated[
        bool, field("爆発四散", "爆発四散が起こる（オフ: 爆発四散無効、代わりに気絶）")
    ] = True
    iaido: Annotated[
        bool, field("タツジン（イアイドー）点棒切り払い", "遠隔攻撃への回避難易度−1")
    ] = True
    yumido: Annotated[
        bool, field("タツジン（ユミドー）リーチ棒強化", "リーチ棒のダメージ2d3、回避難易度UH2")
    ] = True
    hands: Annotated[int, field("局数", "1回の対局の局数（4）", ge=1, le=16)] = 4
    start_score: Annotated[int, field("持ち点", "開始時の持ち点（25000）")] = 25000
    chombo_multiplied: Annotated[
        bool, field("チョンボにも流局の倍率", "チョンボの支払いにも流局の倍率をかける")
    ] = False
    max_draws: Annotated[
        int, field("流局の上限", "連続流局の上限。達したら局を進める（0: 上限なし）", ge=0)
    ] = 0
    tiebreak_ikusa: Annotated[
        bool, field("同着1位のイクサ", "同着1位はイクサで決着（オフ: 同着のまま）")
    ] = True
    turn_seconds: Annotated[
        int,
        field(
            "持ち時間（秒）",
            "待っている手ごとにこの秒数のタイマーを置く（0: なし）。時間切れの扱いは「時間切れで手番を飛ばす」",
            ge=0,
            le=86400,
        ),
    ] = 0
    timeout_pass: Annotated[
        bool,
        field(
            "時間切れで手番を飛ばす",
            "タイマーが切れたら、待っている手番を行動なしで終える（振り込み判定と流局はそのまま）",
        ),
    ] = False
