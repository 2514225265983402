"""The commands of 澱み流れ (tags ``yodomi.<verb>``).

Check commands share these fields: ``modifier`` (declared modifiers),
``key_reroll`` (if a die shows the character's key number and the roll is not
already a double, reroll both dice once: YD-09, G-YD-03) and ``cards`` (流れ
played with the roll; more may be played afterwards with :class:`PlayCards`).
Cards are the codes ``"♦10"``, ``"♠A"``, ``"♣K"``, ``"JK1"`` (:data:`~taku_yodomi._cards.Card`).

Each command declares who may send it (``permit``): the GM, the owner of the
named character (or a GM), or any player; the core enforces it.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from taku.core.commands import GM, PLAYER, Command, field, owner_of
from taku_yodomi._cards import Card, Suit
from taku_yodomi.state import BadStatus

__all__ = [
    "ALL_COMMANDS",
    "AddStatus",
    "AdvanceContinuous",
    "AdvanceRound",
    "Attack",
    "Backstage",
    "BackstageSkill",
    "Block",
    "ChangeEmotion",
    "ChooseDeath",
    "ChooseSuit",
    "CloseSceneEnd",
    "Contest",
    "Cover",
    "CutHand",
    "DealCards",
    "Defend",
    "Disengage",
    "EndCombat",
    "EndScene",
    "EnterScene",
    "ForcedConversion",
    "FullConversion",
    "GainPath",
    "GiveCards",
    "GiveHandout",
    "Hide",
    "Intuition",
    "Introduce",
    "LeaveScene",
    "Minor",
    "PayCost",
    "Mount",
    "Move",
    "NoteTopic",
    "PassCards",
    "PlayCards",
    "Purchase",
    "ReadTrailer",
    "RemoveStatus",
    "RollCheck",
    "RollContinuous",
    "RollKeyNumber",
    "SetFlying",
    "StartCombat",
    "StartContinuous",
    "StartScene",
    "Wait",
]


# --------------------------------------------------------------------------- shared field types

Cid = Annotated[str, field("キャラクター", "行動するキャラクターのID")]
Modifier = Annotated[
    int, field("修正", "宣言した修正の合計（達成値または目標値に加える）", ge=-999, le=999)
]
KeyReroll = Annotated[
    bool,
    field(
        "キーナンバーの振り直し", "ダイスにキーナンバーが出たら（ゾロ目でなければ）一度だけ振り直す"
    ),
]
Cards = Annotated[list[Card], field("「流れ」", "判定と一緒に出す手札の「流れ」", max_length=54)]
Ability = Annotated[
    str,
    field(
        "能力値",
        "シートの能力値の名前（abilities の名前、または action・evasion・social）",
        max_length=50,
    ),
]


# --------------------------------------------------------------------------- pre-play


class ReadTrailer(Command, frozen=True, kw_only=True, tag="yodomi.read_trailer"):
    """GM: the trailer (YD-71)."""

    permit = GM
    meta = msgspec.Meta(
        title="トレーラーを読む", description="GMがセッションのトレーラーを読み上げる"
    )

    text: Annotated[str, field("トレーラー", max_length=2000)]


class GiveHandout(Command, frozen=True, kw_only=True, tag="yodomi.give_handout"):
    """GM: a handout for a PC."""

    permit = GM
    meta = msgspec.Meta(title="ハンドアウトを渡す", description="GMがPCにハンドアウトを渡す")

    character_id: Annotated[str, field("キャラクター", "ハンドアウトを受け取るPCのID")]
    text: Annotated[str, field("ハンドアウト", max_length=2000)]


class Introduce(Command, frozen=True, kw_only=True, tag="yodomi.introduce"):
    """A character's introduction."""

    permit = owner_of()
    meta = msgspec.Meta(title="キャラクター紹介", description="キャラクターを紹介する")

    character_id: Cid
    text: Annotated[str, field("紹介文", max_length=2000)]


class RollKeyNumber(Command, frozen=True, kw_only=True, tag="yodomi.roll_key_number"):
    """1D9 moved by the 変動値 (sheet ``variation``), rerolled until it is 1-9."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="キーナンバーを決める",
        description="1D9＋変動値でキーナンバーを決める（1〜9になるまで振り直す）",
    )

    character_id: Cid


class ChooseSuit(Command, frozen=True, kw_only=True, tag="yodomi.choose_suit"):
    """The character's 流れ suit (YD-71)."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="スートを選ぶ", description="「流れ」のスートを選ぶ（PCが5人未満なら重複不可）"
    )

    character_id: Cid
    suit: Suit


# --------------------------------------------------------------------------- the 流れ deck


class DealCards(Command, frozen=True, kw_only=True, tag="yodomi.deal_cards"):
    """GM: the top ``count`` cards of the deck to a character (YD-23)."""

    permit = GM
    meta = msgspec.Meta(title="「流れ」を配る", description="GMが山札の上から「流れ」を配る")

    character_id: Annotated[str, field("キャラクター", "「流れ」を受け取るキャラクターのID")]
    count: Annotated[int, field("枚数", "配る枚数（1〜54）", ge=1, le=54)] = 1


class GiveCards(Command, frozen=True, kw_only=True, tag="yodomi.give_cards"):
    """A player passes 流れ from their character's hand to another (YD-23)."""

    permit = owner_of("from_character")
    meta = msgspec.Meta(
        title="「流れ」を渡す", description="自分の手札の「流れ」を他のキャラクターに渡す"
    )

    from_character: Annotated[str, field("渡すキャラクター", "手札から渡すキャラクターのID")]
    to_character: Annotated[str, field("受け取るキャラクター", "受け取るキャラクターのID")]
    cards: Annotated[list[Card], field("「流れ」", "渡すカード（1枚以上）", max_length=54)]


class PlayCards(Command, frozen=True, kw_only=True, tag="yodomi.play_cards"):
    """Play 流れ on a check already rolled (the character's latest check, or an attack's hit check).
    The check's character must be the sender's (checked in decide)."""

    permit = PLAYER
    meta = msgspec.Meta(
        title="「流れ」を出す",
        description="振った判定に手札の「流れ」を足す（最新の判定か、防御前の命中判定）",
    )

    check_id: Annotated[str, field("判定", "「流れ」を足す判定のID")]
    cards: Annotated[list[Card], field("「流れ」", "出すカード（1枚以上）", max_length=54)]


class PassCards(Command, frozen=True, kw_only=True, tag="yodomi.pass_cards"):
    """パス: play no 流れ on a check already rolled; its result stands as rolled and no
    流れ can be added to it afterwards (G-YD-06: cards are played after the roll, before
    success is decided; passing decides it). The check's character must be the sender's.

    Rejected: ``rule/yodomi/unknown_check`` (no such check, or 流れ can no longer be added).
    """

    permit = PLAYER
    meta = msgspec.Meta(
        title="パス（「流れ」を出さない）",
        description="振った判定に「流れ」を出さず、出目のままの結果で確定する",
    )

    check_id: Annotated[str, field("判定", "パスする判定のID")]


class CutHand(Command, frozen=True, kw_only=True, tag="yodomi.cut_hand"):
    """At scene end, after the パス step: discard the chosen cards (YD-24)."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="「流れ」を調整する", description="シーン終了時、パスの数を超えた手札を選んで捨てる"
    )

    character_id: Cid
    cards: Annotated[
        list[Card], field("捨てる「流れ」", "パスの数を超えた枚数だけ選ぶ", max_length=54)
    ]


# --------------------------------------------------------------------------- checks


class RollCheck(Command, frozen=True, kw_only=True, tag="yodomi.roll_check"):
    """A 2D9 check (``kind="2d9"``: 達成値 = ``value`` + ability + dice + modifier, against
    ``difficulty``) or a D99 check (``kind="d99"``: success below ``value`` + ability
    (+ 【PP】 with ``add_pp``) + modifier). ``no_roll``: the side cannot roll (YD-15).
    Without ``character_id`` the check is anonymous (GM only, no 流れ)."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="行為判定", description="2D9判定（達成値）またはD99判定（目標値未満で成功）を振る"
    )

    character_id: Annotated[
        str | None, field("キャラクター", "判定するキャラクターのID（空ならGMの無記名判定）")
    ] = None
    kind: Annotated[
        Literal["2d9", "d99"], field("判定の種類", "2d9（2D9判定）/ d99（D99判定）")
    ] = "2d9"
    value: Annotated[
        int, field("判定値", "2D9の判定値、またはD99の目標値の基本", ge=-999, le=999)
    ] = 0
    ability: Annotated[
        Annotated[str, msgspec.Meta(max_length=50)] | None,
        field("能力値", "判定値に加えるシートの能力値の名前"),
    ] = None
    add_pp: Annotated[bool, field("【PP】を加える", "D99の目標値に現在の【PP】を加える")] = False
    add_sp: Annotated[bool, field("【SP】を加える", "D99の目標値に現在の【SP】を加える")] = False
    modifier: Modifier = 0
    difficulty: Annotated[
        Annotated[int, msgspec.Meta(ge=-999, le=999)] | None,
        field("難易度", "2D9判定の難易度（達成値がこれ以上で成功）"),
    ] = None
    label: Annotated[str, field("判定名", max_length=100)] = ""
    no_roll: Annotated[bool, field("振らない", "ダイスを振れない側（判定値＋修正が達成値）")] = (
        False
    )
    key_reroll: KeyReroll = False
    cards: Cards = []


class Contest(Command, frozen=True, kw_only=True, tag="yodomi.contest"):
    """Decide a 対決 between two rolled 2D9 checks (YD-14); a player must own the action side."""

    permit = PLAYER
    meta = msgspec.Meta(
        title="対決", description="二つの2D9判定の達成値を比べる（同値はリアクション側の勝ち）"
    )

    action_check: Annotated[str, field("アクション側の判定", "判定のID")]
    reaction_check: Annotated[str, field("リアクション側の判定", "判定のID")]


class StartContinuous(Command, frozen=True, kw_only=True, tag="yodomi.start_continuous"):
    """GM: a 継続判定 with its target points, ability, accident and round limit (YD-16)."""

    permit = GM
    meta = msgspec.Meta(
        title="継続判定を始める",
        description="目標ポイント・能力値・制限ラウンド・アクシデントを決めて継続判定を始める",
    )

    target_points: Annotated[int, field("目標ポイント", ge=1, le=999)]
    ability: Annotated[str, field("能力値", "判定に使う能力値（【PP】に加える）", max_length=50)]
    round_limit: Annotated[int, field("制限ラウンド", ge=1, le=99)]
    accident: Annotated[
        str, field("アクシデント", "ファンブル時に起こること（空なら1D9点減少）", max_length=200)
    ] = ""


class RollContinuous(Command, frozen=True, kw_only=True, tag="yodomi.roll_continuous"):
    """One D99 of a 継続判定: the first of a round against ability + 【PP】, then (``chain``)
    against the last number rolled."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="継続判定を振る",
        description="継続判定のD99を一回振る（成功すれば出目を目標に続けられる）",
    )

    continuous_id: Annotated[str, field("継続判定", "継続判定のID")]
    character_id: Cid
    modifier: Modifier = 0
    key_reroll: KeyReroll = False
    cards: Cards = []


class AdvanceContinuous(Command, frozen=True, kw_only=True, tag="yodomi.advance_continuous"):
    """GM: the next round of a 継続判定 (chains end; the round limit is checked)."""

    permit = GM
    meta = msgspec.Meta(
        title="継続判定の次のラウンド",
        description="継続判定を次のラウンドに進める（制限を超えれば失敗）",
    )

    continuous_id: Annotated[str, field("継続判定", "継続判定のID")]


class Intuition(Command, frozen=True, kw_only=True, tag="yodomi.intuition"):
    """直感把握: D99 against 【PP】 + an ability; 流れ allowed (YD-21)."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="直感把握", description="【PP】＋基本能力値を目標にD99判定（「流れ」を使える）"
    )

    character_id: Cid
    ability: Ability
    modifier: Modifier = 0
    key_reroll: KeyReroll = False
    cards: Cards = []


class Purchase(Command, frozen=True, kw_only=True, tag="yodomi.purchase"):
    """購入判定: a 2D9 【社会】 check, plus 財産点 spent (at most 【社会】); once a scene, once in 舞台裏."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="購入判定",
        description="【社会】で2D9判定し、財産点（【社会】まで）を足す。1シーン1回、舞台裏で1回",
    )

    character_id: Cid
    wealth: Annotated[
        int, field("使う財産点", "達成値に足す財産点（【社会】まで）", ge=0, le=999)
    ] = 0
    backstage: Annotated[bool, field("舞台裏で", "舞台裏での購入判定")] = False
    modifier: Modifier = 0
    key_reroll: KeyReroll = False
    cards: Cards = []


# --------------------------------------------------------------------------- scenes


class StartScene(Command, frozen=True, kw_only=True, tag="yodomi.start_scene"):
    """GM: a scene with its scene player (YD-72, YD-73); ``present`` appear without a check."""

    permit = GM
    meta = msgspec.Meta(
        title="シーンを始める",
        description="シーンの種類とシーンプレイヤー、最初から登場するキャラクターを決める",
    )

    kind: Annotated[
        Literal["opening", "middle", "climax", "ending"],
        field(
            "シーンの種類",
            "opening（オープニング）/ middle（ミドル）/ climax（クライマックス）/ ending（エンディング）",
        ),
    ]
    scene_player: Annotated[str, field("シーンプレイヤー", "シーンプレイヤーのキャラクターID")]
    present: Annotated[
        list[str], field("登場するキャラクター", "登場判定なしで登場するキャラクターのID")
    ] = []


class EnterScene(Command, frozen=True, kw_only=True, tag="yodomi.enter_scene"):
    """登場判定: D99 against current 【PP】 (no equipment), +20 with a パス target in the scene (YD-74)."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="登場判定", description="現在の【PP】を目標にD99判定（パスの対象がいれば+20）"
    )

    character_id: Cid
    modifier: Modifier = 0
    key_reroll: KeyReroll = False
    cards: Cards = []


class LeaveScene(Command, frozen=True, kw_only=True, tag="yodomi.leave_scene"):
    """Leave the scene; when the scene player leaves, the scene ends (YD-73)."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="退場する", description="シーンから退場する（シーンプレイヤーが退場するとシーン終了）"
    )

    character_id: Cid


class NoteTopic(Command, frozen=True, kw_only=True, tag="yodomi.note_topic"):
    """Note a thing or idea talked about in this scene (a later パス target)."""

    permit = PLAYER
    meta = msgspec.Meta(
        title="話題を記録する", description="シーン中に話題に出た物事を記録する（後でパスを結べる）"
    )

    text: Annotated[str, field("話題", max_length=200)]


class EndScene(Command, frozen=True, kw_only=True, tag="yodomi.end_scene"):
    """GM: end the scene; 舞台裏, パス and the 流れ adjustment follow (YD-76)."""

    permit = GM
    meta = msgspec.Meta(
        title="シーンを終える", description="シーンを終え、舞台裏・パス・「流れ」の調整に進む"
    )


class Backstage(Command, frozen=True, kw_only=True, tag="yodomi.backstage"):
    """舞台裏 for a PC that was not in the scene: 【PP】 +2D10 (YD-75)."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="舞台裏で回復する", description="シーンに登場しなかったPCが【PP】を2D10回復する"
    )

    character_id: Cid


class BackstageSkill(Command, frozen=True, kw_only=True, tag="yodomi.backstage_skill"):
    """舞台裏: the one 舞台裏-only 特技."""

    permit = owner_of()
    meta = msgspec.Meta(title="舞台裏で特技を使う", description="舞台裏でのみ使える特技を一回使う")

    character_id: Cid
    skill: Annotated[str, field("特技", max_length=200)]


class GainPath(Command, frozen=True, kw_only=True, tag="yodomi.gain_path"):
    """A new パス (at most 7; one per scene end; a thing or idea only if it was talked about)."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="パスを結ぶ", description="シーン終了時に新しいパスを一つ結ぶ（最大7つ）"
    )

    character_id: Cid
    target: Annotated[
        str, field("パスの対象", "キャラクター（名前かID）、またはシーン中の話題", max_length=200)
    ]
    emotion: Annotated[str, field("感情", max_length=100)]


class ChangeEmotion(Command, frozen=True, kw_only=True, tag="yodomi.change_emotion"):
    """Change the emotion of one パス at a scene end."""

    permit = owner_of()
    meta = msgspec.Meta(title="感情を変える", description="シーン終了時にパス一つの感情を変える")

    character_id: Cid
    target: Annotated[str, field("パスの対象", max_length=200)]
    emotion: Annotated[str, field("新しい感情", max_length=100)]


class CloseSceneEnd(Command, frozen=True, kw_only=True, tag="yodomi.close_scene_end"):
    """GM: finish the scene end (every hand within its パス); ``final`` ends the session."""

    permit = GM
    meta = msgspec.Meta(
        title="シーン終了処理を終える",
        description="次のシーンへ（全員の手札がパスの数以内であること）",
    )

    final: Annotated[bool, field("セッション終了", "これでセッションを終える")] = False


# --------------------------------------------------------------------------- states


class ForcedConversion(Command, frozen=True, kw_only=True, tag="yodomi.forced_conversion"):
    """強制転換: D99 against current 【SP】, no 流れ (YD-49)."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="強制転換", description="戦闘不能のとき、現在の【SP】を目標にD99判定（「流れ」不可）"
    )

    character_id: Cid
    key_reroll: KeyReroll = False


class FullConversion(Command, frozen=True, kw_only=True, tag="yodomi.full_conversion"):
    """After a 完全転換: move ``amount`` from 【SP】 to 【PP】."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="完全転換",
        description="【SP】を好きなだけ減らし、同じだけ【PP】を回復する（【SP】は1以上残る）",
    )

    character_id: Cid
    amount: Annotated[int, field("移す量", "【SP】から【PP】へ移す量", ge=0, le=9999)]


class PayCost(Command, frozen=True, kw_only=True, tag="yodomi.pay_cost"):
    """代償の消費 (YD-35): 【PP】 (and 【SP】) a skill or weapon costs, or 流れ ``cards``.
    澱みとしての生 pays no 【PP】 and pays 10 【SP】 per 流れ instead (YD-52)."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="代償を払う", description="特技や武器の代償（【PP】・【SP】・「流れ」）を支払う"
    )

    character_id: Cid
    pp: Annotated[int, field("支払う【PP】", ge=0, le=9999)] = 0
    sp: Annotated[int, field("支払う【SP】", ge=0, le=9999)] = 0
    cards: Annotated[list[Card], field("「流れ」", "代償として捨てるカード", max_length=54)] = []
    what: Annotated[str, field("何の代償か", max_length=100)] = ""


class ChooseDeath(Command, frozen=True, kw_only=True, tag="yodomi.choose_death"):
    """流れとしての死 (``flow``) or 澱みとしての生 (``yodomi``) (YD-50 … YD-52)."""

    permit = owner_of()
    meta = msgspec.Meta(title="死亡時の選択", description="流れとしての死か、澱みとしての生を選ぶ")

    character_id: Cid
    choice: Annotated[
        Literal["flow", "yodomi"], field("選択", "flow（流れとしての死）/ yodomi（澱みとしての生）")
    ]


class AddStatus(Command, frozen=True, kw_only=True, tag="yodomi.add_status"):
    """GM (or an effect): give a bad status; ``x`` for 毒X, ``item`` for 使用不能, ``by`` for 極技."""

    permit = GM
    meta = msgspec.Meta(
        title="バッドステータスを与える",
        description="GMがバッドステータスを与える（毒X・使用不能の武器・極技の相手）",
    )

    character_id: Annotated[str, field("キャラクター", "バッドステータスを受けるキャラクターのID")]
    status: BadStatus
    x: Annotated[int, field("毒Xの値", "毒XのX", ge=0, le=99)] = 0
    item: Annotated[
        Annotated[str, msgspec.Meta(max_length=100)] | None, field("武器", "使用不能になる武器")
    ] = None
    by: Annotated[str | None, field("極技の相手", "極技をかけたキャラクターのID")] = None


class RemoveStatus(Command, frozen=True, kw_only=True, tag="yodomi.remove_status"):
    """Remove a bad status with a minor action; 蝕み by discarding one 流れ (``card``)."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="バッドステータスを解除する",
        description="マイナーアクションで解除する（蝕みは「流れ」を一枚捨てる）",
    )

    character_id: Cid
    status: BadStatus
    item: Annotated[
        Annotated[str, msgspec.Meta(max_length=100)] | None, field("武器", "使用不能を解除する武器")
    ] = None
    card: Annotated[Card | None, field("捨てる「流れ」", "蝕みの解除に捨てるカード")] = None


# --------------------------------------------------------------------------- combat


class StartCombat(Command, frozen=True, kw_only=True, tag="yodomi.start_combat"):
    """GM: round progression with these engagements (lists of character ids)."""

    permit = GM
    meta = msgspec.Meta(
        title="戦闘を始める",
        description="エンゲージ（キャラクターIDのリスト）を決めてラウンド進行を始める",
    )

    engagements: Annotated[
        list[list[str]], field("エンゲージ", "エンゲージごとのキャラクターIDのリスト（1つ以上）")
    ]
    surprised: Annotated[
        list[str], field("不意打ちを受けた", "第1ラウンドは行動済みのままのキャラクター")
    ] = []


class AdvanceRound(Command, frozen=True, kw_only=True, tag="yodomi.advance"):
    """GM: run the next process step (setup, initiative, cleanup)."""

    permit = GM
    meta = msgspec.Meta(
        title="次のプロセスへ", description="セットアップ→イニシアチブ→メイン→クリンナップと進める"
    )


class Wait(Command, frozen=True, kw_only=True, tag="yodomi.wait"):
    """待機: act last (YD-32)."""

    permit = owner_of()
    meta = msgspec.Meta(title="待機", description="行動を後回しにする")

    character_id: Cid


class Minor(Command, frozen=True, kw_only=True, tag="yodomi.minor"):
    """A minor action not modelled otherwise (a skill, an equipment change)."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="その他のアクション",
        description="特技の使用や装備の変更など（major ならメジャーアクション）",
    )

    character_id: Cid
    what: Annotated[str, field("内容", max_length=100)] = ""
    major: Annotated[
        bool, field("メジャーアクション", "マイナーではなくメジャーアクションとして")
    ] = False


class Move(Command, frozen=True, kw_only=True, tag="yodomi.move"):
    """移動 into another engagement (minor, or major with ``major``)."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="移動", description="別のエンゲージへ移動する（敵とエンゲージ中は不可）"
    )

    character_id: Cid
    engagement: Annotated[str, field("エンゲージ", "移動先のエンゲージ（e1、e2 …）", max_length=20)]
    major: Annotated[bool, field("メジャーアクション", "メジャーアクションで移動する")] = False


class Disengage(Command, frozen=True, kw_only=True, tag="yodomi.disengage"):
    """離脱 (major, no roll); against 封鎖, a 行動値 対決 with every blocker."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="離脱", description="エンゲージから離脱する（封鎖されていれば【行動値】で対決）"
    )

    character_id: Cid
    key_reroll: KeyReroll = False
    cards: Cards = []


class Block(Command, frozen=True, kw_only=True, tag="yodomi.block"):
    """封鎖 one's engagement (major)."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="封鎖", description="自分のエンゲージを封鎖する（メジャーアクション）"
    )

    character_id: Cid


class Hide(Command, frozen=True, kw_only=True, tag="yodomi.hide"):
    """隠密: a major action while not engaged with an enemy (YD-66)."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="隠密",
        description="隠密状態になる（敵とエンゲージしていないとき、メジャーアクション）",
    )

    character_id: Cid


class SetFlying(Command, frozen=True, kw_only=True, tag="yodomi.set_flying"):
    """飛行状態 on or off (YD-65)."""

    permit = owner_of()
    meta = msgspec.Meta(title="飛行状態", description="飛行状態になる・やめる")

    character_id: Cid
    flying: Annotated[bool, field("飛行", "飛行状態にするか")] = True


class Mount(Command, frozen=True, kw_only=True, tag="yodomi.mount"):
    """同乗 with ``rider`` (minor), or get off with ``rider=None``."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="同乗", description="乗り手に同乗する（空なら降りる）。マイナーアクション"
    )

    character_id: Cid
    rider: Annotated[
        str | None, field("乗り手", "同乗する相手のキャラクターID（空なら降りる）")
    ] = None


class EndCombat(Command, frozen=True, kw_only=True, tag="yodomi.end_combat"):
    """GM: the fight is over."""

    permit = GM
    meta = msgspec.Meta(title="戦闘を終える", description="ラウンド進行を終える")


class Attack(Command, frozen=True, kw_only=True, tag="yodomi.attack"):
    """攻撃宣言 and 命中判定 (YD-42): a 2D9 with ``value`` + ``ability``; damage
    ``power`` + ``skill_bonus`` of ``attribute`` (default: the ``ability`` used, YD-45;
    ``yodomi``: attribute 澱み)."""

    permit = owner_of("attacker")
    meta = msgspec.Meta(title="攻撃", description="攻撃を宣言して命中判定（2D9）を振る")

    attacker: Annotated[str, field("攻撃するキャラクター", "攻撃するキャラクターのID")]
    target: Annotated[str, field("目標", "攻撃の目標のキャラクターID")]
    weapon: Annotated[Annotated[str, msgspec.Meta(max_length=100)] | None, field("武器")] = None
    value: Annotated[int, field("判定値", "命中判定の判定値", ge=-999, le=999)] = 0
    ability: Annotated[
        Annotated[str, msgspec.Meta(max_length=50)] | None,
        field("能力値", "判定値に加える能力値（攻撃属性にもなる）"),
    ] = None
    modifier: Modifier = 0
    power: Annotated[int, field("攻撃力", ge=0, le=9999)] = 0
    skill_bonus: Annotated[
        int, field("特技のダメージ", "特技によるダメージの上乗せ", ge=-999, le=9999)
    ] = 0
    attribute: Annotated[str, field("攻撃属性", "空なら使った能力値", max_length=50)] = ""
    yodomi: Annotated[bool, field("澱み", "攻撃属性を「澱み」にする")] = False
    called_shot: Annotated[
        Annotated[str, msgspec.Meta(max_length=100)] | None,
        field("武器狙い", "狙う目標のアイテム（-20）"),
    ] = None
    ambush: Annotated[bool, field("不意打ち", "リアクションに-3")] = False
    statuses: Annotated[
        dict[BadStatus, int], field("与えるバッドステータス", "命中したら与える（値は毒XのX）")
    ] = {}
    key_reroll: KeyReroll = False
    cards: Cards = []


class Cover(Command, frozen=True, kw_only=True, tag="yodomi.cover"):
    """かばう: take the attack instead (same engagement, 未行動; YD-69)."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="かばう", description="同じエンゲージの未行動のキャラクターが攻撃を代わりに受ける"
    )

    attack_id: Annotated[str, field("攻撃", "かばう攻撃のID")]
    character_id: Annotated[str, field("かばうキャラクター", "かばうキャラクターのID")]


class Defend(Command, frozen=True, kw_only=True, tag="yodomi.defend"):
    """防御判定: ``evasion`` (回避値), ``ability`` (a named stat), ``counter`` (突き返し with
    the named stat; on a win the defender deals ``counter_power``), or ``none`` (no roll).
    The defender (the target, or who covers) must be the sender's (checked in decide)."""

    permit = PLAYER
    meta = msgspec.Meta(
        title="防御判定", description="攻撃に対して防御判定を振る（同値は防御側の勝ち）"
    )

    attack_id: Annotated[str, field("攻撃", "防御する攻撃のID")]
    mode: Annotated[
        Literal["evasion", "ability", "counter", "none"],
        field(
            "防御の方法",
            "evasion（【回避値】で回避）/ ability（能力値で防御）/ counter（突き返し）/ none（振らない）",
        ),
    ] = "evasion"
    ability: Annotated[
        Annotated[str, msgspec.Meta(max_length=50)] | None,
        field("能力値", "防御や突き返しに使う能力値"),
    ] = None
    value: Annotated[int, field("判定値", "防御判定の判定値", ge=-999, le=999)] = 0
    modifier: Modifier = 0
    counter_power: Annotated[int, field("突き返しの攻撃力", ge=0, le=9999)] = 0
    counter_attribute: Annotated[str, field("突き返しの攻撃属性", max_length=50)] = ""
    key_reroll: KeyReroll = False
    cards: Cards = []


ALL_COMMANDS: tuple[type[Command], ...] = tuple(
    globals()[n] for n in __all__ if n != "ALL_COMMANDS"
)
