"""Character sheets and the game state of a 秘伝の声 table.

The core keeps each character's sheet (validated by :class:`HidenSheet`); the
ruleset keeps what changes in play in :class:`HidenState`: the 座布団 count,
CP converted from 座布団, the standing fatigue / drink conditions, 行動不能
after a failed 発作 check, and the checks still open to a 座布団 reroll.
Every Struct round-trips through ``msgspec.to_builtins`` / ``convert`` so the
GM's ``override`` command can set any value of it.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import msgspec

from taku.core.commands import field
from taku_hiden.events import Side, Target
from taku_hiden.tables import ConditionKey

__all__ = [
    "MAX_OPEN_CHECKS",
    "CharState",
    "HidenSheet",
    "HidenState",
    "OpenCheck",
    "Tokugi",
    "Trait",
    "strip_brackets",
]

Level = Annotated[int, msgspec.Meta(ge=0, le=99)]
Score = Annotated[int, msgspec.Meta(ge=-99, le=99)]

MAX_OPEN_CHECKS = 16
"""How many recent checks stay open to a 座布団 reroll (the oldest closes first)."""


def strip_brackets(name: str) -> str:
    """``"〈器用〉"`` / ``"《探索》"`` / ``"「酒の耐性」"`` -> the bare name."""
    return name.strip().strip("〈〉《》「」<>").strip()


class Tokugi(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A 《特技》: a level and its fixed ability (五ノ一: "特技には対応能力値が決められています")."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="特技", description="《特技》のレベルと、決められた対応能力値（五ノ一）"
    )

    level: Annotated[Level, field("レベル", "《特技》のレベル")]
    ability: Annotated[str, field("対応能力値", "この《特技》で使う〈能力値〉", max_length=64)]


class Trait(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A 特徴 (trait) with the CP spent on it (五ノ四).

    Attributes:
        cp: CP spent; negative for a disadvantage. A check the trait bears on
            adds this (HD-10), and 酒の耐性 subtracts it from drink modifiers (HD-19).
        modifier: the trait's own stated modifier, used instead of ``cp`` (五ノ四).
        level: a level for level-rated traits such as 〈暗視〉 (G-HD-09).
        note: free text.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="特徴", description="特徴と消費CP（短所は負）（五ノ四）"
    )

    cp: Annotated[
        Score, field("消費CP", "特徴に使ったCP（短所は負）。判定に関係すればこれを加える")
    ] = 0
    modifier: Annotated[Score | None, field("修正", "特徴に書かれた修正（CPの代わりに使う）")] = (
        None
    )
    level: Annotated[Level | None, field("レベル", "レベルのある特徴（〈暗視〉など）")] = None
    note: Annotated[str, field("メモ", "自由記述", max_length=500)] = ""


class HidenSheet(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A 秘伝の声 character sheet (個人設定用紙), as far as chapter 5 uses it.

    Attributes:
        abilities: 〈能力値〉 by name: 器用, 知識, 知覚, 知恵, 気合い, the
            experience value 勘働き, and any others.
        skills: 《技能》 levels by name; a skill pairs with any fitting ability (HD-04).
        tokugi: 《特技》 by name, each with its level and fixed ability (HD-04).
        traits: 特徴 by name with CP: 容貌, 声, 内気, 酒の耐性, 発作, 不治の病 …
        zabuton: 座布団 held when the character is created; editing it later
            changes the sheet only (the count in play changes by the GM's
            awards, rerolls, conversion or an ``override``).
        extra: anything else the table keeps on the sheet.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="個人設定用紙", description="秘伝の声のキャラクター: 能力値・技能・特技・特徴・座布団"
    )

    abilities: Annotated[
        dict[str, Score],
        field("能力値", "〈能力値〉: 器用・知識・知覚・知恵・気合い、経験値の勘働き、そのほか"),
    ] = {}
    skills: Annotated[
        dict[str, Level], field("技能", "《技能》のレベル。合う能力値と組み合わせる")
    ] = {}
    tokugi: Annotated[dict[str, Tokugi], field("特技", "《特技》: レベルと対応能力値")] = {}
    traits: Annotated[
        dict[str, Trait], field("特徴", "特徴と消費CP: 容貌・声・内気・酒の耐性・発作・不治の病…")
    ] = {}
    zabuton: Annotated[
        int,
        field(
            "座布団",
            "作ったときに持っている座布団（あとの増減はGMの授与・振り直し・変換）",
            ge=0,
            le=999,
        ),
    ] = 0
    extra: Annotated[dict[str, Any], field("その他", "卓が用紙に書いておく自由なデータ")] = {}

    def __post_init__(self) -> None:
        for name in (*self.abilities, *self.skills, *self.tokugi, *self.traits):
            if not strip_brackets(name):
                raise ValueError("a name on the sheet is empty")


class CharState(msgspec.Struct, frozen=True, kw_only=True):
    """What changes in play for one character.

    Attributes:
        zabuton: 座布団 held now (五ノ五).
        cp_from_zabuton: CP gained by converting 座布団 at the end of sessions.
        conditions: standing fatigue / hunger / drink conditions (五ノ七), keys
            of :data:`taku_hiden.tables.FATIGUE` and ``DRINK``; added to the
            difficulty of every check of the character (HD-18).
        incapacitated: 行動不能 after a failed 発作 / 不治の病 check (HD-21).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="キャラクターの状態", description="遊ぶうちに変わるもの: 座布団・CP・疲労・行動不能"
    )

    zabuton: Annotated[int, field("座布団", "今持っている座布団（五ノ五）", ge=0)] = 0
    cp_from_zabuton: Annotated[
        int, field("座布団からのCP", "座布団を変換して得たCPの合計", ge=0)
    ] = 0
    conditions: Annotated[
        tuple[ConditionKey, ...],
        field(
            "疲労・酒の状態",
            "すべての判定の難易度に加わる状態: 食事抜き・絶食・働きづめ・徹夜・晩酌程度・ゆっくり飲んだ・浴びるほど飲んだ",
        ),
    ] = ()
    incapacitated: Annotated[
        bool, field("行動不能", "発作・不治の病の判定に失敗した（五ノ七）")
    ] = False


class OpenCheck(msgspec.Struct, frozen=True, kw_only=True):
    """A recent check, open to a 座布団 reroll (五ノ五).

    Attributes:
        check_id: the check's id.
        kind: ``check``, ``kan`` (勘働き), ``seizure`` (発作) or ``opposed``.
        sides: one side, or two for an opposed check (first, second).
        target: the target of a single check (``None`` when opposed).
        success: the single check's outcome now.
        winner: the opposed check's winner now: 0 first, 1 second.
        secret_to: a secret check's roller: only they and the GM see it.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="振り直せる判定", description="座布団で振り直せる最近の判定（五ノ五）"
    )

    check_id: Annotated[str, field("判定", "判定のID")]
    kind: Annotated[
        Literal["check", "kan", "seizure", "opposed"],
        field(
            "判定の種類",
            "check（行動判定）/ kan（勘働き）/ seizure（発作の判定）/ opposed（対抗判定）",
        ),
    ]
    sides: Annotated[
        tuple[Side, ...], field("判定値", "単独の判定は一つ、対抗判定は二つ（先・後）")
    ]
    target: Annotated[Target | None, field("目標値", "単独の判定の目標値")] = None
    success: Annotated[bool | None, field("成功", "単独の判定の今の成否")] = None
    winner: Annotated[int | None, field("勝者", "対抗判定の今の勝者（0 先 / 1 後）")] = None
    secret_to: Annotated[
        str | None, field("シークレット", "シークレットダイスの判定: このメンバーとGMだけが見る")
    ] = None


class HidenState(msgspec.Struct, frozen=True, kw_only=True):
    """The ruleset's part of a table state (``TableState.game``)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="秘伝の声の卓", description="キャラクターの座布団と状態、振り直せる判定"
    )

    characters: Annotated[
        dict[str, CharState], field("キャラクター", "キャラクターIDごとの状態")
    ] = {}
    checks: Annotated[dict[str, OpenCheck], field("振り直せる判定", "最近の判定（最大16件）")] = {}
