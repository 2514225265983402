"""The events of 澱み流れ (tags ``yodomi.<fact>``).

Events record facts with their results (the faces rolled, the values after
damage), so :func:`taku_yodomi.decider.evolve` only copies them into the state.
Hidden facts come in pairs: the full event (``Private``, seen by its audience)
and a ``…Notice`` event that everyone else receives at the same seq, naming
counts only (``CardsDealt`` / ``CardsDealtNotice``). ``DeckShuffled`` has an
empty audience: nobody but the server ever sees a deck order.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from taku.core.commands import field
from taku.core.dice import Roll, Shuffle
from taku.core.events import Event
from taku_yodomi._cards import Card, Suit
from taku_yodomi.state import Attack, BadStatus, Check, Combat, Continuous, Path, Scene

__all__ = [
    "ALL_EVENTS",
    "ActionUsed",
    "ActorChosen",
    "AttackDeclared",
    "AttackResolved",
    "BackstageRecovered",
    "BackstageSkillUsed",
    "Blocked",
    "CardsDealt",
    "CardsDealtNotice",
    "CardsDiscarded",
    "CardsDiscardedNotice",
    "CardsGiven",
    "CardsGivenNotice",
    "CardsPassed",
    "CardsPlayed",
    "CharacterIntroduced",
    "CheckBoosted",
    "CheckRolled",
    "CleanupDone",
    "CombatEnded",
    "CombatStarted",
    "ConditionChanged",
    "ContestResolved",
    "ContinuousRolled",
    "ContinuousRoundAdvanced",
    "ContinuousStarted",
    "ConversionResolved",
    "CostPaid",
    "Covered",
    "Damaged",
    "DeathChosen",
    "DeckShuffled",
    "DeckShuffledNotice",
    "DisengageFailed",
    "EmotionChanged",
    "FlagChanged",
    "FullConversionDone",
    "HandoutGiven",
    "KeyNumberRolled",
    "Moved",
    "PathGained",
    "PurchaseRolled",
    "SceneEndClosed",
    "SceneEnded",
    "SceneEntered",
    "SceneLeft",
    "SceneStarted",
    "SetupDone",
    "StatusAdded",
    "StatusRemoved",
    "SuitChosen",
    "TopicNoted",
    "TrailerRead",
    "Waited",
]


# --------------------------------------------------------------------------- pre-play (YD-71)


class TrailerRead(Event, frozen=True, kw_only=True, tag="yodomi.trailer_read"):
    meta = msgspec.Meta(title="トレーラー", description="GMがトレーラーを読んだ")

    text: Annotated[str, field("トレーラー")]


class HandoutGiven(Event, frozen=True, kw_only=True, tag="yodomi.handout_given"):
    meta = msgspec.Meta(title="ハンドアウト", description="PCにハンドアウトが渡された")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    text: Annotated[str, field("ハンドアウト")]


class CharacterIntroduced(Event, frozen=True, kw_only=True, tag="yodomi.character_introduced"):
    meta = msgspec.Meta(title="キャラクター紹介", description="キャラクターが紹介された")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    text: Annotated[str, field("紹介文")]


class KeyNumberRolled(Event, frozen=True, kw_only=True, tag="yodomi.key_number_rolled"):
    """1D9 moved by the 変動値, rerolled until it is 1-9 (YD-71, G-YD-05). ``rolls`` are d10s, 10 read as 0."""

    meta = msgspec.Meta(title="キーナンバー決定", description="1D9＋変動値でキーナンバーが決まった")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    rolls: Annotated[tuple[Roll, ...], field("ダイス", "振ったd10（10は0と読む）")]
    variation: Annotated[int, field("変動値")] = 0
    key_number: Annotated[int, field("キーナンバー", "1〜9")]


class SuitChosen(Event, frozen=True, kw_only=True, tag="yodomi.suit_chosen"):
    meta = msgspec.Meta(title="スート決定", description="「流れ」のスートが決まった")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    suit: Annotated[Suit, field("スート")]


# --------------------------------------------------------------------------- the 流れ deck


class DeckShuffled(Event, frozen=True, kw_only=True, tag="yodomi.deck_shuffled"):
    """The draw pile's new order (audience: nobody). ``reshuffle``: the discards were shuffled."""

    meta = msgspec.Meta(title="山札を切った", description="山札の新しい並び（誰にも見えない）")

    shuffle: Annotated[Shuffle, field("シャッフル", "山札の並び（誰にも見えない）")]
    deck: Annotated[tuple[Card, ...], field("山札", "切った後の並び（誰にも見えない）")]
    reshuffle: Annotated[bool, field("切り直し", "捨て札を切り直した")] = False
    new_seed: Annotated[
        bool, field("新しいシードで切り直し", "シード公開後、残りの山札を新しいシードで切った")
    ] = False


class DeckShuffledNotice(Event, frozen=True, kw_only=True, tag="yodomi.deck_shuffled_notice"):
    """What everyone sees of a shuffle: how many cards, never their order."""

    meta = msgspec.Meta(
        title="山札を切った（通知）", description="山札を切った枚数だけ（並びは見えない）"
    )

    count: Annotated[int, field("枚数")]
    reshuffle: Annotated[bool, field("切り直し", "捨て札を切り直した")] = False
    new_seed: Annotated[
        bool, field("新しいシードで切り直し", "シード公開後、残りの山札を新しいシードで切った")
    ] = False


class CardsDealt(Event, frozen=True, kw_only=True, tag="yodomi.cards_dealt"):
    """The top ``cards`` of the deck went to ``character_id``'s hand (audience: its player)."""

    meta = msgspec.Meta(
        title="「流れ」が配られた", description="山札の上から手札へ（手札の持ち主だけが見る）"
    )

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    cards: Annotated[tuple[Card, ...], field("配られた「流れ」")]
    reason: Annotated[str, field("理由")] = ""


class CardsDealtNotice(Event, frozen=True, kw_only=True, tag="yodomi.cards_dealt_notice"):
    meta = msgspec.Meta(title="「流れ」が配られた（通知）", description="配られた枚数だけ")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    count: Annotated[int, field("枚数")]
    reason: Annotated[str, field("理由")] = ""


class CardsGiven(Event, frozen=True, kw_only=True, tag="yodomi.cards_given"):
    """Cards passed from one hand to another (audience: the two players)."""

    meta = msgspec.Meta(
        title="「流れ」を渡した", description="手札から手札へ（二人の持ち主だけが見る）"
    )

    from_character: Annotated[str, field("渡したキャラクター")]
    to_character: Annotated[str, field("受け取ったキャラクター")]
    cards: Annotated[tuple[Card, ...], field("渡した「流れ」")]


class CardsGivenNotice(Event, frozen=True, kw_only=True, tag="yodomi.cards_given_notice"):
    meta = msgspec.Meta(title="「流れ」を渡した（通知）", description="渡した枚数だけ")

    from_character: Annotated[str, field("渡したキャラクター")]
    to_character: Annotated[str, field("受け取ったキャラクター")]
    count: Annotated[int, field("枚数")]


class CardsDiscarded(Event, frozen=True, kw_only=True, tag="yodomi.cards_discarded"):
    """Cards put face down on the discards (cut-down, 蝕み, 澱みとしての生 …; audience: the player)."""

    meta = msgspec.Meta(
        title="「流れ」を捨てた", description="裏向きで捨て札へ（手札の持ち主だけが見る）"
    )

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    cards: Annotated[tuple[Card, ...], field("捨てた「流れ」")]
    reason: Annotated[str, field("理由")] = ""


class CardsDiscardedNotice(Event, frozen=True, kw_only=True, tag="yodomi.cards_discarded_notice"):
    meta = msgspec.Meta(title="「流れ」を捨てた（通知）", description="捨てた枚数だけ")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    count: Annotated[int, field("枚数")]
    reason: Annotated[str, field("理由")] = ""


class CardsPlayed(Event, frozen=True, kw_only=True, tag="yodomi.cards_played"):
    """Cards played face up on a check (public): ``bonus`` raises its 達成値 or target (YD-25, YD-26)."""

    meta = msgspec.Meta(title="「流れ」を出した", description="判定に表向きで出した（全員が見る）")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    check_id: Annotated[str, field("判定", "判定のID")]
    cards: Annotated[tuple[Card, ...], field("出した「流れ」")]
    bonus: Annotated[int, field("「流れ」の修正", "達成値または目標値に加わった値")]
    counted: Annotated[
        Card | None, field("値で数えたカード", "自分のスートとして値で数えた一枚")
    ] = None


class CardsPassed(Event, frozen=True, kw_only=True, tag="yodomi.cards_passed"):
    """パス: no 流れ on the check; its result stands and 流れ can no longer be added (G-YD-06)."""

    meta = msgspec.Meta(
        title="パス（「流れ」を出さなかった）", description="判定の結果が出目のまま確定した"
    )

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    check_id: Annotated[str, field("判定", "判定のID")]


# --------------------------------------------------------------------------- checks


class CheckRolled(Event, frozen=True, kw_only=True, tag="yodomi.check_rolled"):
    """A 2D9 or D99 check (YD-03, YD-11), with every face rolled."""

    meta = msgspec.Meta(title="判定", description="2D9またはD99の判定（出目つき）")

    check: Annotated[Check, field("判定")]
    channel: Annotated[
        str,
        msgspec.Meta(
            title="チャンネル", description="チャットで振った行のチャンネル（空はメイン）"
        ),
    ] = ""
    """The chat channel the line was typed in (``""``: メイン, and for a form's roll)."""


class CheckBoosted(Event, frozen=True, kw_only=True, tag="yodomi.check_boosted"):
    """The check after 流れ were played on it (G-YD-06: after the roll)."""

    meta = msgspec.Meta(title="「流れ」を足した判定", description="「流れ」を足した後の判定")

    check: Annotated[Check, field("判定")]


class ContestResolved(Event, frozen=True, kw_only=True, tag="yodomi.contest_resolved"):
    """A 対決: the higher 達成値 wins, ties to the reaction side (YD-14)."""

    meta = msgspec.Meta(title="対決", description="達成値の高い方が勝ち、同値はリアクション側")

    action_check: Annotated[str, field("アクション側の判定", "判定のID")]
    reaction_check: Annotated[str, field("リアクション側の判定", "判定のID")]
    action_value: Annotated[int, field("アクション側の達成値")]
    reaction_value: Annotated[int, field("リアクション側の達成値")]
    winner: Annotated[
        Literal["action", "reaction"],
        field("勝者", "action（アクション側）/ reaction（リアクション側）"),
    ]


class ContinuousStarted(Event, frozen=True, kw_only=True, tag="yodomi.continuous_started"):
    meta = msgspec.Meta(title="継続判定開始", description="")

    continuous: Annotated[Continuous, field("継続判定")]


class ContinuousRolled(Event, frozen=True, kw_only=True, tag="yodomi.continuous_rolled"):
    """One D99 of a 継続判定 chain and what it earned (YD-16 … YD-18)."""

    meta = msgspec.Meta(title="継続判定のロール", description="継続判定のD99一回と得たポイント")

    continuous_id: Annotated[str, field("継続判定", "継続判定のID")]
    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    check_id: Annotated[str, field("判定", "判定のID")]
    gained: Annotated[int, field("得たポイント")]
    points: Annotated[int, field("ポイント", "集めたポイント")]
    next_target: Annotated[
        int | None, field("次の目標値", "続けるときの目標値（なしなら終了）")
    ] = None
    accident_roll: Annotated[
        Roll | None, field("アクシデントのダイス", "1D9の出目（d10、10は0）")
    ] = None
    accident_points: Annotated[int, field("アクシデントで失ったポイント")] = 0
    finished: Annotated[bool, field("終了")] = False
    success: Annotated[bool | None, field("成功", "空なら難易度なし")] = None
    accident: Annotated[str, field("アクシデント", "GMが宣言したアクシデント")] = ""
    """A fumble set off the accident the GM declared (YD-18); then no points are lost by dice."""


class ContinuousRoundAdvanced(
    Event, frozen=True, kw_only=True, tag="yodomi.continuous_round_advanced"
):
    meta = msgspec.Meta(title="継続判定の次のラウンド", description="")

    continuous_id: Annotated[str, field("継続判定", "継続判定のID")]
    round: Annotated[int, field("ラウンド")]
    finished: Annotated[bool, field("終了")] = False
    success: Annotated[bool | None, field("成功", "空なら難易度なし")] = None


# --------------------------------------------------------------------------- scenes (YD-71 … YD-77)


class SceneStarted(Event, frozen=True, kw_only=True, tag="yodomi.scene_started"):
    meta = msgspec.Meta(title="シーン開始", description="")

    scene: Annotated[Scene, field("シーン")]
    recovered: Annotated[tuple[str, ...], field("復帰したキャラクター", "【PP】1で復帰")] = ()
    """戦闘不能 characters back at 【PP】1 (YD-48)."""


class SceneEntered(Event, frozen=True, kw_only=True, tag="yodomi.scene_entered"):
    meta = msgspec.Meta(title="シーンに登場", description="")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    check_id: Annotated[str | None, field("判定", "判定のID")] = None


class SceneLeft(Event, frozen=True, kw_only=True, tag="yodomi.scene_left"):
    meta = msgspec.Meta(title="シーンから退場", description="")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]


class TopicNoted(Event, frozen=True, kw_only=True, tag="yodomi.topic_noted"):
    """A thing or idea talked about in the scene (a パス to it becomes possible)."""

    meta = msgspec.Meta(title="話題", description="シーン中に話題に出た物事")

    text: Annotated[str, field("話題")]


class SceneEnded(Event, frozen=True, kw_only=True, tag="yodomi.scene_ended"):
    meta = msgspec.Meta(title="シーン終了", description="毒が消え、死亡は完全消滅")

    number: Annotated[int, field("シーン番号")]
    vanished: Annotated[tuple[str, ...], field("完全消滅")] = ()
    poison_cleared: Annotated[tuple[str, ...], field("毒が消えた")] = ()


class BackstageRecovered(Event, frozen=True, kw_only=True, tag="yodomi.backstage_recovered"):
    """舞台裏: 【PP】 +2D10 (G-YD-02: faces 1-10)."""

    meta = msgspec.Meta(title="舞台裏で回復", description="【PP】+2D10")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    roll: Annotated[Roll, field("回復のダイス", "2D10")]
    pp: Annotated[int, field("回復後の【PP】")]


class BackstageSkillUsed(Event, frozen=True, kw_only=True, tag="yodomi.backstage_skill_used"):
    meta = msgspec.Meta(title="舞台裏で特技", description="")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    skill: Annotated[str, field("特技")]


class PathGained(Event, frozen=True, kw_only=True, tag="yodomi.path_gained"):
    meta = msgspec.Meta(title="パスを結んだ", description="")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    path: Annotated[Path, field("パス")]


class EmotionChanged(Event, frozen=True, kw_only=True, tag="yodomi.emotion_changed"):
    meta = msgspec.Meta(title="感情を変えた", description="")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    target: Annotated[str, field("パスの対象")]
    emotion: Annotated[str, field("感情")]


class SceneEndClosed(Event, frozen=True, kw_only=True, tag="yodomi.scene_end_closed"):
    meta = msgspec.Meta(title="シーン終了処理の完了", description="")

    number: Annotated[int, field("シーン番号")]
    final: Annotated[bool, field("セッション終了")] = False


class PurchaseRolled(Event, frozen=True, kw_only=True, tag="yodomi.purchase_rolled"):
    """A 購入判定: the 【社会】 check plus 財産点 spent (at most 【社会】, YD-77)."""

    meta = msgspec.Meta(title="購入判定", description="【社会】の判定と使った財産点")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    check_id: Annotated[str, field("判定", "判定のID")]
    wealth_spent: Annotated[int, field("使った財産点")]
    wealth: Annotated[int, field("財産点", "残りの財産点")]
    total: Annotated[int, field("購入値", "達成値＋財産点")]
    backstage: Annotated[bool, field("舞台裏で")] = False


# --------------------------------------------------------------------------- damage and states


class Damaged(Event, frozen=True, kw_only=True, tag="yodomi.damaged"):
    """Damage after defence and 防御属性 (YD-44 … YD-46); the values after it."""

    meta = msgspec.Meta(title="ダメージ", description="防御修正と防御属性の後のダメージと残りの値")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    amount: Annotated[int, field("ダメージ")]
    attribute: Annotated[str, field("攻撃属性")] = ""
    halved: Annotated[bool, field("半減", "防御属性で半減")] = False
    to: Annotated[
        Literal["pp", "sp", "item"],
        field("ダメージ先", "pp（【PP】）/ sp（【SP】）/ item（アイテム）"),
    ] = "pp"
    item: Annotated[str | None, field("アイテム")] = None
    pp: Annotated[int, field("ダメージ後の【PP】")]
    sp: Annotated[int, field("ダメージ後の【SP】")]
    item_pp: Annotated[int | None, field("アイテムの残り【PP】")] = None
    source: Annotated[str, field("ダメージの元")] = ""
    roll: Annotated[Roll | None, field("ダイス", "振ったダメージ（毒X、極技+転倒の4D6）")] = None
    """The dice of damage that is rolled (毒X, 極技 and 転倒 4D6)."""


class ConditionChanged(Event, frozen=True, kw_only=True, tag="yodomi.condition_changed"):
    meta = msgspec.Meta(title="状態の変化", description="")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    condition: Annotated[
        Literal["active", "incapacitated", "dead", "flow_death", "yodomi_life", "vanished"],
        field(
            "状態",
            "active（通常）/ incapacitated（戦闘不能）/ dead（死亡）/ flow_death（流れとしての死）/ yodomi_life（澱みとしての生）/ vanished（完全消滅）",
        ),
    ]
    reason: Annotated[str, field("理由")] = ""


class StatusAdded(Event, frozen=True, kw_only=True, tag="yodomi.status_added"):
    meta = msgspec.Meta(title="バッドステータスを受けた", description="")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    status: Annotated[BadStatus, field("バッドステータス")]
    x: Annotated[int, field("毒Xの値", "毒XのX")] = 0
    by: Annotated[str | None, field("極技の相手", "極技をかけたキャラクターのID")] = None
    item: Annotated[str | None, field("アイテム")] = None


class StatusRemoved(Event, frozen=True, kw_only=True, tag="yodomi.status_removed"):
    meta = msgspec.Meta(title="バッドステータスの解除", description="")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    status: Annotated[BadStatus, field("バッドステータス")]
    reason: Annotated[str, field("理由")] = ""
    item: Annotated[str | None, field("アイテム")] = None


class CostPaid(Event, frozen=True, kw_only=True, tag="yodomi.cost_paid"):
    """A cost paid (YD-35); ``pp``/``sp`` are the values after it. ``intuition_due``: 【PP】
    reached 0, so the character must make 直感把握."""

    meta = msgspec.Meta(title="代償を支払った", description="")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    pp_paid: Annotated[int, field("支払った【PP】")] = 0
    sp_paid: Annotated[int, field("支払った【SP】")] = 0
    pp: Annotated[int, field("支払い後の【PP】")]
    sp: Annotated[int, field("支払い後の【SP】")]
    flow_cards: Annotated[int, field("「流れ」の枚数", "代償に捨てた枚数")] = 0
    what: Annotated[str, field("内容")] = ""
    intuition_due: Annotated[bool, field("直感把握が必要", "代償で【PP】が0になった")] = False


class ConversionResolved(Event, frozen=True, kw_only=True, tag="yodomi.conversion_resolved"):
    """強制転換 (YD-49): ``success``, ``full`` (完全転換), ``failure`` or ``complete_failure`` (death)."""

    meta = msgspec.Meta(title="強制転換", description="成功・完全転換・失敗・完全失敗")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    check_id: Annotated[str, field("判定", "判定のID")]
    outcome: Annotated[
        Literal["success", "full", "failure", "complete_failure"],
        field(
            "結果",
            "success（成功）/ full（完全転換）/ failure（失敗）/ complete_failure（完全失敗・死亡）",
        ),
    ]
    pp: Annotated[int, field("強制転換後の【PP】")]
    sp: Annotated[int, field("強制転換後の【SP】")]


class FullConversionDone(Event, frozen=True, kw_only=True, tag="yodomi.full_conversion_done"):
    meta = msgspec.Meta(title="完全転換", description="【SP】を【PP】に移した")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    amount: Annotated[int, field("移した量", "【SP】から【PP】へ")]
    pp: Annotated[int, field("完全転換後の【PP】")]
    sp: Annotated[int, field("完全転換後の【SP】")]


class DeathChosen(Event, frozen=True, kw_only=True, tag="yodomi.death_chosen"):
    """流れとしての死 or 澱みとしての生 (YD-51, YD-52)."""

    meta = msgspec.Meta(title="死亡時の選択", description="流れとしての死か澱みとしての生")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    choice: Annotated[
        Literal["flow", "yodomi"], field("選択", "flow（流れとしての死）/ yodomi（澱みとしての生）")
    ]
    sp: Annotated[int, field("選択後の【SP】")]


class FlagChanged(Event, frozen=True, kw_only=True, tag="yodomi.flag_changed"):
    """A spot-rule state: ``flying``, ``stealth`` or ``passenger_of`` (value: the rider or None)."""

    meta = msgspec.Meta(title="スポットルールの状態", description="飛行・隠密・同乗")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    flag: Annotated[
        Literal["flying", "stealth", "passenger_of"],
        field("状態の種類", "flying（飛行状態）/ stealth（隠密状態）/ passenger_of（同乗）"),
    ]
    value: Annotated[bool | str | None, field("値", "飛行・隠密: 真偽、同乗: 乗り手のID")] = None


# --------------------------------------------------------------------------- combat


class CombatStarted(Event, frozen=True, kw_only=True, tag="yodomi.combat_started"):
    meta = msgspec.Meta(title="戦闘開始", description="")

    combat: Annotated[Combat, field("戦闘")]


class SetupDone(Event, frozen=True, kw_only=True, tag="yodomi.setup_done"):
    """Setup process: who is 未行動 this round and who stays 行動済み (不意打ち)."""

    meta = msgspec.Meta(title="セットアッププロセス", description="未行動と行動済み")

    round: Annotated[int, field("ラウンド")]
    unacted: Annotated[tuple[str, ...], field("未行動")]
    acted: Annotated[
        tuple[str, ...], field("行動済み", "unacted（未行動）/ acted（行動済み）/ none（戦闘外）")
    ] = ()


class ActorChosen(Event, frozen=True, kw_only=True, tag="yodomi.actor_chosen"):
    """Initiative process: who acts next (``None``: everyone acted, on to cleanup)."""

    meta = msgspec.Meta(title="イニシアチブプロセス", description="次に行動するキャラクター")

    character_id: Annotated[str | None, field("次の手番", "空ならクリンナップへ")] = None


class Waited(Event, frozen=True, kw_only=True, tag="yodomi.waited"):
    meta = msgspec.Meta(title="待機", description="")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]


class ActionUsed(Event, frozen=True, kw_only=True, tag="yodomi.action_used"):
    meta = msgspec.Meta(title="アクション", description="マイナーまたはメジャーアクション")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    action: Annotated[
        Literal["minor", "major"], field("アクション", "minor（マイナー）/ major（メジャー）")
    ]
    what: Annotated[str, field("内容")] = ""


class CleanupDone(Event, frozen=True, kw_only=True, tag="yodomi.cleanup_done"):
    meta = msgspec.Meta(title="クリンナッププロセス", description="ラウンドの終わり")

    round: Annotated[int, field("ラウンド")]
    poison_rolls: Annotated[tuple[Roll, ...], field("毒のダイス")] = ()


class CombatEnded(Event, frozen=True, kw_only=True, tag="yodomi.combat_ended"):
    meta = msgspec.Meta(title="戦闘終了", description="")

    rounds: Annotated[int, field("ラウンド数")]


class Moved(Event, frozen=True, kw_only=True, tag="yodomi.moved"):
    """移動 into ``engagement`` (or 離脱 into a new one: ``disengage``); passengers move along."""

    meta = msgspec.Meta(title="移動", description="エンゲージの移動または離脱")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    engagement: Annotated[str, field("移動先のエンゲージ")]
    passengers: Annotated[tuple[str, ...], field("同乗者", "一緒に移動した同乗者")] = ()
    disengage: Annotated[bool, field("離脱", "離脱による移動")] = False


class DisengageFailed(Event, frozen=True, kw_only=True, tag="yodomi.disengage_failed"):
    """A 離脱 from a 封鎖 engagement lost the 行動値 対決 against ``blocker``."""

    meta = msgspec.Meta(title="離脱失敗", description="封鎖を抜けられなかった")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    blocker: Annotated[str, field("封鎖したキャラクター")]


class Blocked(Event, frozen=True, kw_only=True, tag="yodomi.blocked"):
    meta = msgspec.Meta(title="封鎖", description="")

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    engagement: Annotated[str, field("エンゲージ", "エンゲージ名（e1、e2 …）")]


class AttackDeclared(Event, frozen=True, kw_only=True, tag="yodomi.attack_declared"):
    meta = msgspec.Meta(title="攻撃宣言", description="命中判定と、防御を待つ攻撃")

    attack: Annotated[Attack, field("攻撃")]


class Covered(Event, frozen=True, kw_only=True, tag="yodomi.covered"):
    meta = msgspec.Meta(title="かばう", description="")

    attack_id: Annotated[str, field("攻撃", "攻撃のID")]
    character_id: Annotated[str, field("かばったキャラクター")]


class AttackResolved(Event, frozen=True, kw_only=True, tag="yodomi.attack_resolved"):
    """命中決定 (YD-42): ``winner`` is ``attacker`` or ``defender``; ``countered`` for 突き返し."""

    meta = msgspec.Meta(title="命中決定", description="")

    attack_id: Annotated[str, field("攻撃", "攻撃のID")]
    winner: Annotated[
        Literal["attacker", "defender"], field("勝者", "attacker（攻撃側）/ defender（防御側）")
    ]
    defence_check: Annotated[str | None, field("防御判定", "防御判定のID")] = None
    countered: Annotated[bool, field("突き返した")] = False
    fumble: Annotated[bool, field("ファンブル", "0-0 または 00（自動失敗）")] = False


ALL_EVENTS: tuple[type[Event], ...] = tuple(globals()[n] for n in __all__ if n != "ALL_EVENTS")
