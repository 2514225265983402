"""Commands of 秘伝の声 (tags ``hiden.<verb>``).

Clients send these; unknown fields are errors. Checks name a character and
the 《技能》 / 《特技》 and 〈能力値〉 on its sheet, or give bare numbers (an NPC
the GM runs without a sheet).
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec

from taku.core.commands import GM, PLAYER, Command, field, owner_of
from taku_hiden.tables import ConditionName, SeizureTrait, SituationName, VisibilityName

__all__ = [
    "COMMANDS",
    "AwardZabuton",
    "Check",
    "CheckSpec",
    "ConvertZabuton",
    "Fatigue",
    "Jump",
    "KanCheck",
    "Lift",
    "Oppose",
    "OpposedCheck",
    "Reroll",
    "Seizure",
    "SeizureCheck",
    "SetConditions",
    "TraitUse",
    "Visibility",
]

Small = Annotated[int, msgspec.Meta(ge=-999, le=999)]
Distance = Annotated[float, msgspec.Meta(ge=0, le=100000)]
Level = Annotated[int, msgspec.Meta(ge=0, le=99)]

_CHARACTER = field("キャラクター", "判定するキャラクターのID（個人設定用紙の値を使う）")
_SKILL = field("技能・特技", "個人設定用紙の《技能》か《特技》の名前。なければ能力値だけで判定する")
_ABILITY = field(
    "能力値",
    "判定に使う〈能力値〉（器用・知識・知覚・知恵・気合い…）。《技能》と使うとき、能力値だけの判定のときに必要",
)
_LEVEL = field("技能レベル", "キャラクターのいない判定の《技能》のレベル")
_ABILITY_VALUE = field("能力値の値", "キャラクターのいない判定の〈能力値〉")
_TRAITS = field("特徴", "判定に関係する特徴（五ノ四）。GMだけが選ぶ")
_MODIFIER = field("修正", "判定値に加えるその他の修正")
_NAME = field("名前", "キャラクターのいない判定で行動する者の名前", max_length=64)
_DIFFICULTY = field("難易度", "目標値 = 難易度 + 2D（簡易目標値なら + 7）。−3〜10（五ノ二）")
_TARGET = field("目標値", "GMが決めた固定の目標値（難易度の代わり）")
_SIMPLE = field("簡易目標値", "目標値を難易度 + 7 にする。空なら卓の設定に従う")
_LABEL = field("何の判定か", "判定の説明（自由記述）", max_length=200)
_HELPER_CHARACTER = field(
    "キャラクター", "このキャラクターの個人設定用紙の値（〈暗視〉・酒の耐性・発作）を使う"
)


class TraitUse(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A 特徴 the GM applies to a check (五ノ四).

    ``value`` overrides the modifier; otherwise the trait's own stated
    modifier, else its CP, is added (HD-10). A check without a character must
    give ``value``.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="特徴による修正", description="判定に関係する特徴と、その修正値（五ノ四）"
    )

    name: Annotated[
        str, field("特徴", "個人設定用紙の特徴の名前（容貌・声・内気…）", max_length=64)
    ]
    value: Annotated[Small | None, field("修正値", "空なら特徴に書かれた修正、なければ消費CP")] = (
        None
    )


class CheckSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One actor's part of a check (五ノ一).

    Attributes:
        character_id: the acting character; its sheet gives the numbers.
        skill: a 《技能》 or 《特技》 on the sheet (a 《特技》 brings its fixed ability);
            none for an ability-only check (HD-05).
        ability: the 〈能力値〉 (needed with a 《技能》 or without any skill).
        level: without a character: the skill's level.
        ability_value: without a character: the ability's value.
        traits: traits that bear on the check; only the GM chooses them (五ノ四).
        modifier: any further modifier to the 判定値.
        name: who acts, for a check without a character.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="判定する者", description="対抗判定の一方: キャラクターと技能・能力値（五ノ一）"
    )

    character_id: Annotated[str | None, _CHARACTER] = None
    skill: Annotated[str | None, _SKILL] = None
    ability: Annotated[str | None, _ABILITY] = None
    level: Annotated[Small | None, _LEVEL] = None
    ability_value: Annotated[Small | None, _ABILITY_VALUE] = None
    traits: Annotated[list[TraitUse], _TRAITS] = []
    modifier: Annotated[Small, _MODIFIER] = 0
    name: Annotated[str, _NAME] = ""


class Check(Command, frozen=True, kw_only=True, tag="hiden.check"):
    """Roll a 行動判定 (五ノ一 … 五ノ三).

    Give ``difficulty`` (目標値 = difficulty + 2D, or + 7 when ``simple`` or the
    table's ``simple_target`` option), or a fixed ``target``, or neither to get
    the 判定値 alone. The character's standing conditions add to the difficulty.
    """

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="行動判定",
        description="判定値 = 技能 + 能力値 + 2D を目標値（難易度 + 2D）と比べる。難易度も目標値もなければ判定値だけ（五ノ一〜五ノ三）",
    )

    character_id: Annotated[str | None, _CHARACTER] = None
    skill: Annotated[str | None, _SKILL] = None
    ability: Annotated[str | None, _ABILITY] = None
    level: Annotated[Small | None, _LEVEL] = None
    ability_value: Annotated[Small | None, _ABILITY_VALUE] = None
    traits: Annotated[list[TraitUse], _TRAITS] = []
    modifier: Annotated[Small, _MODIFIER] = 0
    name: Annotated[str, _NAME] = ""
    difficulty: Annotated[Small | None, _DIFFICULTY] = None
    target: Annotated[Small | None, _TARGET] = None
    simple: Annotated[bool | None, _SIMPLE] = None
    label: Annotated[str, _LABEL] = ""

    def spec(self) -> CheckSpec:
        return CheckSpec(
            character_id=self.character_id,
            skill=self.skill,
            ability=self.ability,
            level=self.level,
            ability_value=self.ability_value,
            traits=self.traits,
            modifier=self.modifier,
            name=self.name,
        )


class OpposedCheck(Command, frozen=True, kw_only=True, tag="hiden.opposed_check"):
    """Roll an 対抗判定 (五ノ六): ``first`` acts first, ``second`` checks against its 判定値.

    The GM, or a member who controls both characters, sends it.
    """

    permit = owner_of("first.character_id", "second.character_id")
    meta = msgspec.Meta(
        title="対抗判定",
        description="先に行動する者の判定値を、後の者の目標値にする。GMか、両方のキャラクターの持ち主が振る（五ノ六）",
    )

    first: Annotated[CheckSpec, field("先に行動する者", "判定値が相手の目標値になる側")]
    second: Annotated[CheckSpec, field("後に行動する者", "相手の判定値に達すれば勝つ側")]
    label: Annotated[str, _LABEL] = ""


class Oppose(Command, frozen=True, kw_only=True, tag="hiden.oppose"):
    """The second half of a two-step 対抗判定 (五ノ六): ``second`` checks against the
    判定値 of ``against``, an open ``hiden.check`` rolled without a target.

    The controller of the second character (or the GM) sends it (checked in ``decide``).
    """

    permit = PLAYER
    meta = msgspec.Meta(
        title="対抗する",
        description="目標値なしで振られた判定値に、後に行動する者として対抗判定する（五ノ六）",
    )

    against: Annotated[
        str, field("対抗する判定", "目標値なしで振られた判定のID（k7 など）", max_length=32)
    ]
    second: Annotated[CheckSpec, field("後に行動する者", "相手の判定値に達すれば勝つ側")]
    label: Annotated[str, _LABEL] = ""


class Reroll(Command, frozen=True, kw_only=True, tag="hiden.reroll"):
    """Spend one 座布団 to reroll both dice of a check (五ノ五).

    ``check_id`` defaults to the latest open check of a character the sender
    controls; ``character_id`` picks the side of an opposed check.
    """

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="座布団で振り直す",
        description="座布団を一枚使って判定のダイスを二つとも振り直す。新しい出目が悪くてもそれに従う（五ノ五）",
    )

    check_id: Annotated[
        Annotated[str, msgspec.Meta(max_length=32)] | None,
        field("判定", "振り直す判定のID（空なら自分のキャラクターの最新の判定）"),
    ] = None
    character_id: Annotated[
        str | None, field("キャラクター", "座布団を使うキャラクター（対抗判定のどちらの側か）")
    ] = None


class AwardZabuton(Command, frozen=True, kw_only=True, tag="hiden.award_zabuton"):
    """GM: 「座布団一枚!」 (五ノ五)."""

    permit = GM
    meta = msgspec.Meta(
        title="座布団を与える",
        description="「座布団一枚!」面白いことを言ったり、うまいことをしたプレイヤーに（五ノ五）",
    )

    character_id: Annotated[str, field("キャラクター", "座布団を受け取るキャラクター")]
    count: Annotated[int, field("枚数", "与える座布団の枚数", ge=1, le=99)] = 1
    reason: Annotated[str, field("理由", "何に座布団か", max_length=200)] = ""


class ConvertZabuton(Command, frozen=True, kw_only=True, tag="hiden.convert_zabuton"):
    """GM, at the session's end: turn 座布団 into CP (五ノ五); every character, or one."""

    permit = GM
    meta = msgspec.Meta(
        title="座布団をCPに変換する",
        description="セッションの終わりに、座布団をCPに換える（五ノ五）",
    )

    character_id: Annotated[
        str | None, field("キャラクター", "このキャラクターだけ（空なら全員）")
    ] = None


class KanCheck(Command, frozen=True, kw_only=True, tag="hiden.kan_check"):
    """The GM calls for a 勘働き check: 〈勘働き〉 + 2D (五ノ七; HD-22)."""

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="勘働き判定",
        description="〈勘働き〉 + 2D の判定。6ゾロは無条件成功、1ゾロは失敗（五ノ七）",
    )

    character_id: Annotated[str, field("キャラクター", "判定するキャラクター")]
    difficulty: Annotated[Small | None, _DIFFICULTY] = None
    target: Annotated[Small | None, _TARGET] = None
    simple: Annotated[bool | None, _SIMPLE] = None
    modifier: Annotated[Small, _MODIFIER] = 0
    label: Annotated[str, _LABEL] = ""


_SITUATION = field(
    "状況",
    "発作・不治の病の難易度表の状況: 雑魚戦闘、親玉戦闘（親玉戦闘の対峙）、軽い緊張、普通の緊張、強い緊張、"
    "失敗は許されない（絶対に失敗は許されない）",
)
_SEIZURE_TRAIT = field("特徴", "発作 / 不治の病。空ならキャラクターの特徴（両方あれば難しいほう）")


class SeizureCheck(Command, frozen=True, kw_only=True, tag="hiden.seizure_check"):
    """A 〈気合い〉 check for 発作 / 不治の病 under tension (五ノ七; HD-21).

    The difficulty comes from the situation table (``trait`` defaults to the
    one on the sheet; with both, the harder) unless the GM gives ``difficulty``.
    Failure: 行動不能. In combat it is made every turn (``turn``).
    """

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="発作の判定",
        description="発作・不治の病を持つ者が緊張の場面でする〈気合い〉判定。失敗すると行動不能（五ノ七）",
    )

    character_id: Annotated[str, field("キャラクター", "判定するキャラクター")]
    situation: Annotated[SituationName, _SITUATION]
    trait: Annotated[SeizureTrait | None, _SEIZURE_TRAIT] = None
    turn: Annotated[
        Annotated[int, msgspec.Meta(ge=1, le=999)] | None,
        field("ターン", "戦闘中は毎ターン判定する: そのターン"),
    ] = None
    difficulty: Annotated[Small | None, field("難易度", "表の代わりにGMが決めた難易度")] = None
    simple: Annotated[bool | None, _SIMPLE] = None


class Seizure(Command, frozen=True, kw_only=True, tag="hiden.seizure"):
    """The 発作 / 不治の病 difficulty of a situation (五ノ七; HD-21), without rolling.

    ``trait`` defaults to the character's (with both, the harder).
    """

    meta = msgspec.Meta(
        title="発作の難易度",
        description="発作・不治の病の〈気合い〉判定の難易度を表から求める（振らない。五ノ七）",
    )

    situation: Annotated[SituationName, _SITUATION]
    trait: Annotated[SeizureTrait | None, _SEIZURE_TRAIT] = None
    character_id: Annotated[str | None, _HELPER_CHARACTER] = None


_CONDITIONS = field(
    "疲労などによる修正",
    "食事抜き（前のご飯をぬいた）2、絶食（丸一日なにも食べていない）5、働きづめ 3、徹夜 6、"
    "晩酌程度 1、ゆっくり飲んだ 5、浴びるほど飲んだ 10（五ノ七）",
)


class SetConditions(Command, frozen=True, kw_only=True, tag="hiden.set_conditions"):
    """GM: a character's standing fatigue / hunger / drink conditions (五ノ七; HD-18).

    They add to the difficulty of every check of the character until the GM
    clears them (hunger and fatigue: until recovered; drink: until asleep).
    """

    permit = GM
    meta = msgspec.Meta(
        title="疲労・酒の状態",
        description="キャラクターの空腹・疲労・飲酒の状態。GMが消すまで、すべての判定の難易度に加わる（五ノ七）",
    )

    character_id: Annotated[str, field("キャラクター", "状態を決めるキャラクター")]
    conditions: Annotated[list[ConditionName], _CONDITIONS] = []


class Jump(Command, frozen=True, kw_only=True, tag="hiden.jump"):
    """《跳躍》 difficulty (五ノ七): a ``high`` or ``long`` jump, with or without a run-up.

    The distance is ``ken`` 間 + ``jo`` 丈 + ``shaku`` 尺 (1 間 = 6 尺, 1 丈 = 10 尺).
    ``risky`` adds to it when failure is not an option.
    """

    meta = msgspec.Meta(
        title="《跳躍》の難易度", description="高跳び・幅跳びの難易度を距離から求める（五ノ七）"
    )

    kind: Annotated[Literal["high", "long"], field("跳び方", "high（高跳び）/ long（幅跳び）")]
    run_up: Annotated[bool, field("助走", "助走をつける")] = False
    ken: Annotated[Distance, field("間", "距離の間（1間 = 6尺）")] = 0
    jo: Annotated[Distance, field("丈", "距離の丈（1丈 = 10尺）")] = 0
    shaku: Annotated[Distance, field("尺", "距離の尺")] = 0
    risky: Annotated[Small, field("失敗できない修正", "失敗が許されないときに加える難易度")] = 0
    character_id: Annotated[str | None, field("キャラクター", "跳ぶキャラクター")] = None


class Lift(Command, frozen=True, kw_only=True, tag="hiden.lift"):
    """《持ち上げ》 difficulty (五ノ七): ``kan`` 貫 or ``kg`` kilograms (1 貫 = 3.75 kg)."""

    meta = msgspec.Meta(
        title="《持ち上げ》の難易度",
        description="持ち上げる物の重さから難易度を求める。15貫が難易度0（五ノ七）",
    )

    kan: Annotated[Distance | None, field("貫", "重さ（貫）。貫かキロのどちらか一方")] = None
    kg: Annotated[
        Distance | None, field("キロ", "重さ（キロ、1貫 = 3.75キロ）。貫かキロのどちらか一方")
    ] = None
    sword_grip: Annotated[
        bool, field("剣のように握る", "棒状のものを剣のように握って持つ（難易度 +3 程度）")
    ] = False
    character_id: Annotated[str | None, field("キャラクター", "持ち上げるキャラクター")] = None


class Visibility(Command, frozen=True, kw_only=True, tag="hiden.visibility"):
    """視界の修正 (五ノ七): a base difficulty for distance and size, plus weather / night.

    ``anshi_level`` (〈暗視〉) defaults to the character's; it cancels at most
    its level and never more than the modifiers.
    """

    meta = msgspec.Meta(
        title="視界の修正",
        description="霧・雨・夜による難易度の修正。〈暗視〉がそのレベルまで打ち消す（五ノ七）",
    )

    conditions: Annotated[
        list[VisibilityName],
        field(
            "視界",
            "淡い霧 4、濃い霧 6、霧雨 3、どしゃ降り 7、満月（月夜）2、半月（月夜）4、星夜（星が出ている夜）6、"
            "闇夜 8、雨夜（雨が降っている夜）10",
        ),
    ]
    base: Annotated[Small, field("元の難易度", "距離・大きさによる難易度")] = 0
    anshi_level: Annotated[
        Level | None, field("〈暗視〉", "〈暗視〉のレベル（空ならキャラクターの）")
    ] = None
    character_id: Annotated[str | None, _HELPER_CHARACTER] = None


class Fatigue(Command, frozen=True, kw_only=True, tag="hiden.fatigue"):
    """疲労などによる修正 (五ノ七): hunger, fatigue and drink add to a difficulty.

    ``sake_tolerance`` (the CP of 酒の耐性) defaults to the character's trait.
    """

    meta = msgspec.Meta(
        title="疲労などによる修正",
        description="空腹・疲労・飲酒による難易度の修正。酒の耐性が飲酒の修正を減らす（五ノ七）",
    )

    conditions: Annotated[list[ConditionName], _CONDITIONS]
    base: Annotated[Small, field("元の難易度", "修正を加える難易度")] = 0
    sake_tolerance: Annotated[
        Level | None, field("酒の耐性", "酒の耐性の消費CP（空ならキャラクターの）")
    ] = None
    character_id: Annotated[str | None, _HELPER_CHARACTER] = None


COMMANDS: tuple[type[Command], ...] = (
    Check,
    OpposedCheck,
    Oppose,
    Reroll,
    AwardZabuton,
    ConvertZabuton,
    KanCheck,
    SeizureCheck,
    Seizure,
    SetConditions,
    Jump,
    Lift,
    Visibility,
    Fatigue,
)
