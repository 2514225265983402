"""Events of 秘伝の声 (tags ``hiden.<fact>``).

Every face rolled is a :class:`~taku.core.dice.Roll` field of an event: the
check's 2D, the 2D added after a 6ゾロ (成功効果), the GM's target 2D and a
座布団 reroll's new 2D, so a fold never rolls and ``taku verify`` can check
every face. Once shipped, an event only gains fields with defaults.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import msgspec

from taku.core.commands import field
from taku.core.dice import Roll
from taku.core.events import Event
from taku_hiden.tables import ConditionKey, SeizureTrait, SituationKey

__all__ = [
    "EVENTS",
    "CheckKind",
    "CheckRerolled",
    "CheckRolled",
    "ConditionsSet",
    "DifficultyComputed",
    "Effect",
    "Modifier",
    "OpposedResolved",
    "OpposedRolled",
    "Side",
    "Target",
    "TraitApplied",
    "ZabutonAwarded",
    "ZabutonConverted",
]

Effect = Literal["", "critical", "fumble"]
"""五ノ三 効果的行動: ``critical`` = 6ゾロ (成功効果), ``fumble`` = 1ゾロ (失敗効果)."""

CheckKind = Literal["check", "kan", "seizure"]
"""A single check's kind: 行動判定, 勘働き (五ノ七) or 発作 / 不治の病 (五ノ七)."""

Tie = Literal["second", "first"]
"""Who a tie of an 対抗判定 goes to (G-HD-03)."""

_EFFECT = field(
    "効果的行動", "critical（6ゾロ: 成功効果）/ fumble（1ゾロ: 失敗効果）/ 空（なし）（五ノ三）"
)
_TIE = field(
    "同値のとき", "second（後に行動する者の勝ち: 規則）/ first（先に行動する者の勝ち: 甲乙の例）"
)
_WINNER = field("勝者", "0（先に行動する者）/ 1（後に行動する者）", ge=0, le=1)
_COMPARED = field("比べた値", "先に行動する者と後に行動する者の値（両者1ゾロなら2Dを2として）")
_BOTH_FUMBLE = field("両者1ゾロ", "両方が1ゾロ: 2Dを2として比べる（五ノ六）")
_CHECK_ID = field("判定", "判定のID（座布団の振り直しで指す）")
_LABEL = field("何の判定か", "判定の説明（自由記述、チャットのコマンド）")
_SECRET = field("シークレット", "シークレットダイスで振った（このメンバーとGMだけが見る）")


class Modifier(msgspec.Struct, frozen=True, kw_only=True):
    """One named number that went into a sum (a difficulty modifier, a helper's part)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="修正", description="合計に加えた、名前のついた数"
    )

    label: Annotated[str, field("内容", "何の修正か")]
    value: Annotated[int, field("値", "加えた数")]


class TraitApplied(msgspec.Struct, frozen=True, kw_only=True):
    """A 特徴 the GM applied to a check (五ノ四; HD-10): its CP and the modifier used."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="使った特徴", description="判定に加えた特徴と、その修正（五ノ四）"
    )

    name: Annotated[str, field("特徴", "特徴の名前")]
    value: Annotated[int, field("修正値", "判定値に加えた数")]
    cp: Annotated[
        int | None, field("消費CP", "個人設定用紙の消費CP（キャラクターのいない判定では空）")
    ] = None


class Side(msgspec.Struct, frozen=True, kw_only=True):
    """One actor's 判定値 (五ノ一, 五ノ三).

    ``base`` = ``level`` + ``ability_used`` + the traits + ``modifier``;
    ``value`` = ``base`` + ``roll`` + ``bonus`` (the 2D added after a 6ゾロ).

    Attributes:
        character_id: the acting character (``None`` for a bare number check).
        name: who acts, for people.
        skill: the 《技能》 or 《特技》 used (``None``: an ability-only check, HD-05).
        skill_kind: ``skill`` (《技能》) or ``tokugi`` (《特技》).
        level: its level.
        ability: the 〈能力値〉 used.
        ability_value: its value on the sheet.
        ability_used: what counts (0 for a negative ability with a skill, HD-03).
        traits: the traits the GM applied (HD-10).
        modifier: any further modifier.
        base: the fixed part of the 判定値.
        roll: the check's 2D.
        bonus: the 2D added after a 6ゾロ (HD-08); its doubles mean nothing.
        value: the 判定値.
        effect: 6ゾロ ``critical`` / 1ゾロ ``fumble`` of ``roll``.
        rerolls: 座布団 spent on this side so far (五ノ五).
        missing_skill: the 《技能》 / 《特技》 asked for that the character lacks; the
            check fell back to the ability alone (五ノ一; HD-05).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="判定値", description="判定値 = 技能 + 能力値 + 特徴 + 修正 + 2D（五ノ一、五ノ三）"
    )

    character_id: Annotated[
        str | None, field("キャラクター", "判定したキャラクター（空ならキャラクターのいない判定）")
    ] = None
    name: Annotated[str, field("名前", "行動した者")] = ""
    skill: Annotated[
        str | None, field("技能・特技", "使った《技能》か《特技》（空なら能力値だけ）")
    ] = None
    skill_kind: Annotated[
        Literal["skill", "tokugi"] | None,
        field("技能の種類", "skill（《技能》）/ tokugi（《特技》）"),
    ] = None
    level: Annotated[int, field("技能レベル", "《技能》・《特技》のレベル")] = 0
    ability: Annotated[str | None, field("能力値", "使った〈能力値〉")] = None
    ability_value: Annotated[int, field("能力値の値", "個人設定用紙の値")] = 0
    ability_used: Annotated[
        int, field("数える能力値", "技能と使うとき0未満の能力値は0（五ノ一）")
    ] = 0
    traits: Annotated[
        tuple[TraitApplied, ...], field("特徴", "GMが判定に加えた特徴（五ノ四）")
    ] = ()
    modifier: Annotated[int, field("修正", "その他の修正")] = 0
    base: Annotated[int, field("固定値", "ダイス以外の合計")] = 0
    roll: Annotated[Roll, field("出目", "判定の2D")]
    bonus: Annotated[
        Roll | None, field("6ゾロの2D", "6ゾロで加えた2D（そのゾロ目は意味を持たない。五ノ三）")
    ] = None
    value: Annotated[int, field("判定値", "固定値 + 2D（+ 6ゾロの2D）")]
    effect: Annotated[Effect, _EFFECT] = ""
    rerolls: Annotated[int, field("振り直し", "この側で使った座布団の数（五ノ五）")] = 0
    missing_skill: Annotated[
        str | None,
        field("ない技能", "求められたが持っていない《技能》・《特技》（能力値だけで判定した）"),
    ] = None


class Target(msgspec.Struct, frozen=True, kw_only=True):
    """The 目標値 of a single check (五ノ一, 五ノ二).

    Attributes:
        mode: ``rolled`` (difficulty + 2D for the GM), ``simple`` (difficulty + 7)
            or ``fixed`` (a number the GM gave).
        difficulty: the 難易度 asked for (``None`` for a fixed target).
        modifiers: difficulty modifiers added (fatigue, drink … HD-18).
        roll: the GM's 2D (mode ``rolled``); 6ゾロ / 1ゾロ mean nothing here (G-HD-06).
        value: the 目標値.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="目標値",
        description="目標値 = 難易度 + 2D、簡易目標値（難易度 + 7）、または固定の値（五ノ一、五ノ二）",
    )

    mode: Annotated[
        Literal["rolled", "simple", "fixed"],
        field(
            "決め方",
            "rolled（難易度 + GMの2D）/ simple（簡易目標値: 難易度 + 7）/ fixed（GMが決めた値）",
        ),
    ]
    difficulty: Annotated[int | None, field("難易度", "求められた難易度（固定の目標値では空）")] = (
        None
    )
    modifiers: Annotated[
        tuple[Modifier, ...], field("難易度の修正", "疲労・飲酒などの修正（五ノ七）")
    ] = ()
    roll: Annotated[
        Roll | None, field("GMの2D", "目標値のためにGMが振った2D（ゾロ目は意味を持たない）")
    ] = None
    value: Annotated[int, field("目標値", "判定値がこれ以上なら成功")]


class CheckRolled(Event, frozen=True, kw_only=True, tag="hiden.check_rolled"):
    """A 行動判定 was rolled (五ノ一 … 五ノ三).

    Attributes:
        check_id: the check's id (a 座布団 reroll names it).
        kind: ``check``, ``kan`` (勘働き, 五ノ七) or ``seizure`` (発作 / 不治の病, 五ノ七).
        side: the 判定値.
        target: the 目標値; ``None`` when only the 判定値 was asked for.
        success: 判定値 >= 目標値, 1ゾロ always fails, 6ゾロ succeeds by default
            (``None`` without a target).
        label: what the check was for (free text or the chat command).
        situation: for ``seizure``: the situation of the difficulty table.
        trait: for ``seizure``: 発作 or 不治の病.
        turn: for ``seizure`` in combat: the turn (checked every turn).
        incapacitated: for ``seizure``: the character is now 行動不能.
        secret_to: a secret roll (chat ``S…``): the member who rolled it; only
            they and the GM see the check (the view hides it from the others).
    """

    meta = msgspec.Meta(
        title="行動判定を振った", description="判定値と目標値、成否（五ノ一〜五ノ三）"
    )

    check_id: Annotated[str, _CHECK_ID]
    kind: Annotated[
        CheckKind,
        field(
            "判定の種類",
            "check（行動判定）/ kan（勘働き）/ seizure（発作・不治の病の〈気合い〉判定）",
        ),
    ] = "check"
    side: Annotated[Side, field("判定値", "行動した者の判定値")]
    target: Annotated[Target | None, field("目標値", "目標値（判定値だけなら空）")] = None
    success: Annotated[
        bool | None, field("成功", "判定値 ≧ 目標値。1ゾロは失敗（目標値がなければ空）")
    ] = None
    label: Annotated[str, _LABEL] = ""
    situation: Annotated[SituationKey | None, field("状況", "発作の判定の状況")] = None
    trait: Annotated[SeizureTrait | None, field("特徴", "発作 / 不治の病")] = None
    turn: Annotated[int | None, field("ターン", "戦闘中の発作の判定のターン")] = None
    incapacitated: Annotated[
        bool | None, field("行動不能", "発作の判定に失敗して行動不能になった")
    ] = None
    secret_to: Annotated[str | None, _SECRET] = None
    channel: Annotated[
        str,
        msgspec.Meta(
            title="チャンネル", description="チャットで振った行のチャンネル（空はメイン）"
        ),
    ] = ""
    """The chat channel the line was typed in (``""``: メイン, and for a form's roll)."""


class OpposedRolled(Event, frozen=True, kw_only=True, tag="hiden.opposed_rolled"):
    """An 対抗判定 (五ノ六): the first actor's 判定値 is the second's 目標値.

    Attributes:
        check_id: the check's id.
        first: the first actor (rolled first).
        second: the second actor.
        compared: the two values compared (both 1ゾロ: each side's 2D counts as 2).
        both_fumble: both rolled 1ゾロ (HD-14).
        tie: who a tie goes to under the table's option (G-HD-03).
        winner: 0 the first actor, 1 the second.
        label: what the check was for.
        secret_to: as in :class:`CheckRolled`.
    """

    meta = msgspec.Meta(
        title="対抗判定を振った",
        description="先に行動する者の判定値を後の者の目標値として比べた（五ノ六）",
    )

    check_id: Annotated[str, _CHECK_ID]
    first: Annotated[Side, field("先に行動する者", "先に振った側の判定値")]
    second: Annotated[Side, field("後に行動する者", "後に振った側の判定値")]
    compared: Annotated[tuple[int, int], _COMPARED]
    both_fumble: Annotated[bool, _BOTH_FUMBLE] = False
    tie: Annotated[Tie, _TIE] = "second"
    winner: Annotated[int, _WINNER]
    label: Annotated[str, _LABEL] = ""
    secret_to: Annotated[str | None, _SECRET] = None
    channel: Annotated[
        str,
        msgspec.Meta(
            title="チャンネル", description="チャットで振った行のチャンネル（空はメイン）"
        ),
    ] = ""
    """The chat channel the line was typed in (``""``: メイン, and for a form's roll)."""


class OpposedResolved(Event, frozen=True, kw_only=True, tag="hiden.opposed_resolved"):
    """A two-step 対抗判定 (五ノ六): ``second`` checked against the 判定値 of the
    earlier check ``against`` (its dice are in that check's event, not here).

    The earlier check closes; the pair stays open to 座布団 rerolls as ``check_id``.

    Attributes:
        check_id: the opposed check's id.
        against: the first actor's check.
        first_name: the first actor, for people.
        first_value: the first actor's 判定値.
        first_effect: the first actor's 6ゾロ / 1ゾロ.
        second: the second actor.
        compared, both_fumble, tie, winner, label, secret_to: as in :class:`OpposedRolled`.
    """

    meta = msgspec.Meta(
        title="対抗した", description="先に振られた判定値に、後に行動する者が対抗した（五ノ六）"
    )

    check_id: Annotated[str, _CHECK_ID]
    against: Annotated[str, field("対抗した判定", "先に行動する者の判定のID")]
    first_name: Annotated[str, field("先に行動する者", "その名前")] = ""
    first_value: Annotated[int, field("先の判定値", "先に行動する者の判定値")]
    first_effect: Annotated[Effect, _EFFECT] = ""
    second: Annotated[Side, field("後に行動する者", "後に振った側の判定値")]
    compared: Annotated[tuple[int, int], _COMPARED]
    both_fumble: Annotated[bool, _BOTH_FUMBLE] = False
    tie: Annotated[Tie, _TIE] = "second"
    winner: Annotated[int, _WINNER]
    label: Annotated[str, _LABEL] = ""
    secret_to: Annotated[str | None, _SECRET] = None


class CheckRerolled(Event, frozen=True, kw_only=True, tag="hiden.check_rerolled"):
    """A 座布団 was spent to reroll both dice of a check (五ノ五); the new roll stands.

    Attributes:
        check_id: the check rerolled.
        side_index: 0, or 1 for the second actor of an opposed check.
        character_id: whose 座布団 was spent.
        previous: the faces replaced.
        side: the side with the new 2D (and a new 6ゾロ bonus, if any).
        success: a single check's outcome now.
        winner: an opposed check's winner now.
        compared: an opposed check's compared values now.
        zabuton_left: 座布団 the character holds after this one.
        incapacitated: for a 発作 check, 行動不能 now.
        secret_to: the check is (now) secret to this member and the GM.
    """

    meta = msgspec.Meta(
        title="座布団で振り直した",
        description="座布団を一枚使って判定の2Dを振り直した。新しい出目に従う（五ノ五）",
    )

    check_id: Annotated[str, field("判定", "振り直した判定のID")]
    side_index: Annotated[
        int, field("側", "0（先に行動する者、または単独の判定）/ 1（後に行動する者）", ge=0, le=1)
    ] = 0
    character_id: Annotated[str, field("キャラクター", "座布団を使ったキャラクター")]
    previous: Annotated[tuple[int, ...], field("前の出目", "振り直す前の2D")]
    side: Annotated[Side, field("新しい判定値", "新しい2Dによる判定値")]
    success: Annotated[bool | None, field("成功", "単独の判定の成否（振り直したあと）")] = None
    winner: Annotated[int | None, field("勝者", "対抗判定の勝者（0 先 / 1 後）")] = None
    compared: Annotated[
        tuple[int, int] | None, field("比べた値", "対抗判定で比べた値（振り直したあと）")
    ] = None
    zabuton_left: Annotated[int, field("残りの座布団", "使ったあとに持っている座布団")]
    incapacitated: Annotated[
        bool | None, field("行動不能", "発作の判定: 振り直したあと行動不能か")
    ] = None
    secret_to: Annotated[str | None, _SECRET] = None
    channel: Annotated[
        str,
        msgspec.Meta(
            title="チャンネル", description="チャットで振った行のチャンネル（空はメイン）"
        ),
    ] = ""
    """The chat channel the line was typed in (``""``: メイン, and for a form's roll)."""


class ZabutonAwarded(Event, frozen=True, kw_only=True, tag="hiden.zabuton_awarded"):
    """「座布団一枚!」: the GM gave ``count`` 座布団 (五ノ五); ``zabuton`` is the new count."""

    meta = msgspec.Meta(title="座布団一枚!", description="GMが座布団を与えた（五ノ五）")

    character_id: Annotated[str, field("キャラクター", "座布団を受け取ったキャラクター")]
    count: Annotated[int, field("枚数", "与えた座布団")]
    reason: Annotated[str, field("理由", "何に座布団か")] = ""
    zabuton: Annotated[int, field("座布団", "受け取ったあとの座布団の数")]


class ZabutonConverted(Event, frozen=True, kw_only=True, tag="hiden.zabuton_converted"):
    """At the session's end ``zabuton`` 座布団 became ``cp`` CP (五ノ五); the count is now 0."""

    meta = msgspec.Meta(
        title="座布団をCPに変換した", description="セッションの終わりに座布団がCPになった（五ノ五）"
    )

    character_id: Annotated[str, field("キャラクター", "変換したキャラクター")]
    zabuton: Annotated[int, field("座布団", "変換した座布団の数")]
    cp: Annotated[int, field("得たCP", "変換で得たCP")]
    cp_total: Annotated[int, field("CPの合計", "座布団から得たCPの合計")]


class ConditionsSet(Event, frozen=True, kw_only=True, tag="hiden.conditions_set"):
    """The GM set a character's fatigue / hunger / drink conditions (五ノ七; HD-18).

    ``modifier`` is what they add to the difficulty of every check of the
    character now (酒の耐性 applied).
    """

    meta = msgspec.Meta(
        title="疲労・酒の状態を決めた",
        description="GMがキャラクターの空腹・疲労・飲酒の状態を決めた（五ノ七）",
    )

    character_id: Annotated[str, field("キャラクター", "状態を決めたキャラクター")]
    conditions: Annotated[
        tuple[ConditionKey, ...],
        field("状態", "食事抜き・絶食・働きづめ・徹夜・晩酌程度・ゆっくり飲んだ・浴びるほど飲んだ"),
    ]
    modifier: Annotated[
        int, field("難易度の修正", "すべての判定の難易度に加わる数（酒の耐性を引いたあと）")
    ] = 0


class DifficultyComputed(Event, frozen=True, kw_only=True, tag="hiden.difficulty_computed"):
    """A helper of 五ノ七 computed a difficulty the GM may accept or change.

    Attributes:
        helper: ``jump``, ``lift``, ``visibility``, ``fatigue`` or ``seizure``.
        character_id: the character it was computed for, if any.
        parts: the numbers that make the difficulty, each named.
        difficulty: the result.
        simple_target: difficulty + 7.
        detail: the inputs (distance in 尺, weight in 貫 …) as JSON data.
        note: a remark (the book's own discrepancy, a rounding).
    """

    meta = msgspec.Meta(
        title="難易度を求めた",
        description="五ノ七の表から難易度を求めた。GMはこの数を使うか、別の数にする",
    )

    helper: Annotated[
        Literal["jump", "lift", "visibility", "fatigue", "seizure"],
        field(
            "表",
            "jump（《跳躍》）/ lift（《持ち上げ》）/ visibility（視界の修正）/ fatigue（疲労などによる修正）/ seizure（発作・不治の病）",
        ),
    ]
    character_id: Annotated[str | None, field("キャラクター", "このキャラクターのために求めた")] = (
        None
    )
    parts: Annotated[tuple[Modifier, ...], field("内訳", "難易度を作る数")] = ()
    difficulty: Annotated[int, field("難易度", "求めた難易度")]
    simple_target: Annotated[int, field("簡易目標値", "難易度 + 7")]
    detail: Annotated[dict[str, Any], field("入力", "距離（尺）・重さ（貫）などの入力")] = {}
    note: Annotated[str, field("注", "本文との食い違い・端数の扱いなど")] = ""


EVENTS: tuple[type[Event], ...] = (
    CheckRolled,
    OpposedRolled,
    OpposedResolved,
    CheckRerolled,
    ZabutonAwarded,
    ZabutonConverted,
    ConditionsSet,
    DifficultyComputed,
)
