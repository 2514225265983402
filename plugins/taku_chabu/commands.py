"""Commands of the ``chabu`` ruleset (tags ``chabu.<verb>``).

A character is named by its id (``c5``); equipment and 特技 by their names on
the sheet. Each command declares who may send it (``permit``; the core
enforces it). Every command either writes all its events or is rejected with
``rule/chabu/<reason>`` and writes nothing.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec

from taku.core.commands import GM, Command, field, owner_of
from taku_chabu.options import RANGE_VALUES, Range
from taku_chabu.state import Condition

__all__ = [
    "Adjust",
    "Attack",
    "Check",
    "COMMANDS",
    "Decline",
    "EndCombat",
    "Evade",
    "Move",
    "OpposedCheck",
    "OpposedSide",
    "PassAction",
    "Proceed",
    "SetOrder",
    "SetRange",
    "SpendCounter",
    "StartCombat",
    "UseTokugi",
    "Wait",
]

Actor = Annotated[str, field("キャラクター", "行動するキャラクターのID")]
Modifier = Annotated[int, field("修正", "【判定値】への修正（GMの判断、特技の効果）")]
Hold = Annotated[bool, field("刹那を待つ", "刹那の割り込みを待ち、「進行」で解決する")]
Counter = Literal["tatsujin", "wazamae"]
COUNTER_VALUES = "tatsujin（タツジンカウンター）/ wazamae（ワザマエカウンター）"
OUTCOME_VALUES = "victory（勝利）/ defeat（敗北）/ aborted（中断）"


class Check(Command, frozen=True, kw_only=True, tag="chabu.check"):
    """A 判定: 1d100 at or under the 【判定値】 (チャブ ■■基本判定ルール■■, CH-05…CH-08).

    The 【判定値】 is ``ability`` + ``skill`` from the character's sheet (the
    ability alone when the character lacks the skill), or ``value`` as the GM
    names it, plus ``modifier`` (GM's judgment or a 特技's effect).
    ``hold`` waits for 刹那 answers and ``chabu.proceed`` before rolling.
    """

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="判定",
        description="1D100で【判定値】（能力値＋技能）以下なら成功。1〜5はタツジン！、95〜100はウカツ！",
    )

    character_id: Actor
    ability: Annotated[str | None, field("能力値", "シートの能力値の名前")] = None
    skill: Annotated[str | None, field("技能", "シートの技能の名前（なければ能力値のみ）")] = None
    value: Annotated[
        int | None, field("【判定値】", "GMが決めた【判定値】（能力値の代わりに）")
    ] = None
    modifier: Modifier = 0
    label: Annotated[str, field("表示名", "何の判定か", max_length=200)] = ""
    hold: Hold = False


class OpposedSide(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One side of an opposed check: a character and its 【判定値】 (or a bare ``value``)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="対抗判定の一方", description="キャラクターと能力値・技能、または【判定値】"
    )

    character_id: Annotated[str | None, field("キャラクター", "判定するキャラクターのID")] = None
    ability: Annotated[str | None, field("能力値")] = None
    skill: Annotated[str | None, field("技能")] = None
    value: Annotated[int | None, field("【判定値】", "キャラクターの代わりに数値で")] = None


class OpposedCheck(Command, frozen=True, kw_only=True, tag="chabu.opposed_check"):
    """A 対抗判定 (チャブ ■対抗判定, CH-09): both sides roll with their own 【判定値】 (G-CH-05).

    Side ``a`` names the sender's character (a GM may name any, or a bare value).
    """

    permit = owner_of("a.character_id")
    meta = msgspec.Meta(
        title="対抗判定",
        description="両者が判定し、成功が失敗に勝つ。両者成功なら出目の低い方が勝つ",
    )

    a: Annotated[OpposedSide, field("自分の側", "判定を仕掛ける側（自分のキャラクター）")]
    b: Annotated[OpposedSide, field("相手の側")]
    label: Annotated[str, field("表示名", "何の対抗判定か", max_length=200)] = ""


class Attack(Command, frozen=True, kw_only=True, tag="chabu.attack"):
    """An attack without a 特技 (活劇): declare ``equipment`` and ``targets`` (チャブ ■命中判定, CH-19).

    The hit check uses the 【判定値】 written on the equipment. ``hold`` waits
    for 刹那 answers and ``chabu.proceed``.
    """

    permit = owner_of("character_id")
    meta = msgspec.Meta(title="攻撃", description="装備と対象を宣言して命中判定（活劇）")

    character_id: Actor
    equipment: Annotated[str, field("装備", "使う装備の名前")]
    targets: Annotated[list[str], field("対象", "攻撃する相手のキャラクターID")]
    modifier: Modifier = 0
    hold: Hold = False


class UseTokugi(Command, frozen=True, kw_only=True, tag="chabu.use_tokugi"):
    """Use a 特技 (チャブ ■■特技の使用■■, CH-26…CH-30).

    活劇 特技 are the character's action in a round; 刹那 特技 answer the
    pending declaration. An attacking 特技 rolls its own 【判定値】 and adds the
    威力 of ``equipment`` (or the one worn item) of the 分類 it names.

    A ワザマエカウンター in the コスト may be paid with a タツジンカウンター,
    which "「ワザマエカウンター」と同様に使用できる" (CH-07): ワザマエ first and
    the shortfall in タツジン, or タツジン first with ``prefer_tatsujin``.
    """

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="特技を使う",
        description="活劇特技（行動）か刹那特技（宣言への割り込み）。コストは先に支払う",
    )

    character_id: Actor
    tokugi: Annotated[str, field("特技", "使う特技の名前")]
    targets: Annotated[list[str], field("対象", "対象のキャラクターID")] = []
    equipment: Annotated[str | None, field("装備", "特技が指定する分類の装備（複数あるとき）")] = (
        None
    )
    modifier: Modifier = 0
    hold: Hold = False
    prefer_tatsujin: Annotated[
        bool,
        field(
            "タツジンカウンターを先に使う",
            "コストのワザマエカウンターをタツジンカウンターで先に払う",
        ),
    ] = False


class Proceed(Command, frozen=True, kw_only=True, tag="chabu.proceed"):
    """Resolve the held declaration once 刹那 answers are in (the declarer or the GM).

    ``modifier`` is added to its 【判定値】 (the effect of a 刹那 特技, GM's judgment).
    Who may send it depends on the pending declaration, so the decider checks it.
    """

    meta = msgspec.Meta(
        title="進行", description="刹那の割り込みを締め切り、宣言を解決する（宣言者かGM）"
    )

    modifier: Modifier = 0


class Evade(Command, frozen=True, kw_only=True, tag="chabu.evade"):
    """A 回避判定 against the pending hit: the 反応 ability (チャブ ■回避判定, CH-21)."""

    permit = owner_of("character_id")
    meta = msgspec.Meta(title="回避判定", description="命中した攻撃に能力値「反応」で回避判定する")

    character_id: Annotated[str, field("キャラクター", "回避する対象のキャラクターID")]
    modifier: Modifier = 0


class Decline(Command, frozen=True, kw_only=True, tag="chabu.decline"):
    """Take the pending hit without a 回避判定."""

    permit = owner_of("character_id")
    meta = msgspec.Meta(title="回避しない", description="回避判定をせずに攻撃を受ける")

    character_id: Annotated[str, field("キャラクター", "攻撃を受ける対象のキャラクターID")]


class Move(Command, frozen=True, kw_only=True, tag="chabu.move"):
    """移動, a 活劇 (CH-16). The GM then sets the new ranges (``chabu.set_range``)."""

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="移動", description="移動する（活劇。行動完了になる）。射程はGMが決め直す"
    )

    character_id: Actor
    note: Annotated[str, field("どこへ", "移動の内容", max_length=500)] = ""


class Wait(Command, frozen=True, kw_only=True, tag="chabu.wait"):
    """待機宣言 (CH-14): act after every character who did not wait."""

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="待機宣言",
        description="待機しなかったキャラクター全員の後に行動する（一ラウンドに一度）",
    )

    character_id: Actor


class PassAction(Command, frozen=True, kw_only=True, tag="chabu.pass"):
    """行動放棄 (CH-15): the character is 行動完了 at once."""

    permit = owner_of("character_id")
    meta = msgspec.Meta(title="行動放棄", description="行動せず、すぐに行動完了になる")

    character_id: Actor


class StartCombat(Command, frozen=True, kw_only=True, tag="chabu.start_combat"):
    """GM: start ラウンド進行 with the victory and defeat conditions (CH-10).

    ``participants`` (empty: every character not 死亡, in creation order);
    ``agreed_order`` is the players' agreed order for the last ties (CH-12).
    """

    permit = GM
    meta = msgspec.Meta(
        title="ラウンド進行を始める", description="勝利条件と敗北条件を宣言して戦闘を始める"
    )

    victory: Annotated[Condition, field("勝利条件")]
    defeat: Annotated[Condition, field("敗北条件")]
    participants: Annotated[
        list[str], field("参加キャラクター", "空なら死亡していない全員（作成順）")
    ] = []
    agreed_order: Annotated[
        list[str], field("相談した行動順", "同順位のときのPLの相談による順")
    ] = []


class SetOrder(Command, frozen=True, kw_only=True, tag="chabu.set_order"):
    """GM: the agreed order for initiative ties, used from the next イニシアティヴ決定フェイズ."""

    permit = GM
    meta = msgspec.Meta(
        title="同順位の行動順を決める",
        description="次のイニシアティヴ決定フェイズから使う、相談した行動順",
    )

    agreed_order: Annotated[list[str], field("相談した行動順", "キャラクターIDの順")]


class EndCombat(Command, frozen=True, kw_only=True, tag="chabu.end_combat"):
    """GM: a condition holds that the server cannot see (a ``manual`` condition)."""

    permit = GM
    meta = msgspec.Meta(
        title="ラウンド進行を終える", description="条件が満たされた（またはGMが中断する）"
    )

    outcome: Annotated[Literal["victory", "defeat", "aborted"], field("結果", OUTCOME_VALUES)]
    reason: Annotated[str, field("理由", max_length=500)] = ""


class SetRange(Command, frozen=True, kw_only=True, tag="chabu.set_range"):
    """GM: where ``b`` is from ``a`` (and, with ``both``, ``a`` from ``b``) (CH-18)."""

    permit = GM
    meta = msgspec.Meta(title="射程を決める", description="aから見てbがどの射程にいるか")

    a: Annotated[str, field("キャラクターa", "見る側のキャラクターID")]
    b: Annotated[str, field("キャラクターb", "見られる側のキャラクターID")]
    range: Annotated[Range, field("射程", RANGE_VALUES)]
    both: Annotated[bool, field("相互", "bから見たaも同じ射程にする")] = True


class Adjust(Command, frozen=True, kw_only=True, tag="chabu.adjust"):
    """GM: change a character's HP, インガオホー値 or counters by ``delta`` or to ``value``.

    Unlike a raw ``override``, the consequences follow: HP 0 is 戦闘不能,
    インガオホー値 100 is 死亡, and a combat condition may end the combat.
    """

    permit = GM
    meta = msgspec.Meta(
        title="値を変える",
        description="HP・インガオホー値・カウンターを変える（戦闘不能・死亡・条件も処理する）",
    )

    character_id: Annotated[str, field("キャラクター", "値を変えるキャラクターのID")]
    key: Annotated[
        Literal["hp", "ingaoho", "tatsujin", "wazamae"],
        field(
            "値",
            "hp（HP）/ ingaoho（インガオホー値）/ tatsujin（タツジンカウンター）/ wazamae（ワザマエカウンター）",
        ),
    ]
    delta: Annotated[int | None, field("増減", "今の値に足す量（値の指定とどちらか一方）")] = None
    value: Annotated[int | None, field("新しい値", "この値にする（増減とどちらか一方）")] = None
    reason: Annotated[str, field("理由", max_length=500)] = ""


class SpendCounter(Command, frozen=True, kw_only=True, tag="chabu.spend_counter"):
    """Spend a タツジン or ワザマエカウンター (CH-07); its effect is the GM's (G-CH-02).

    A ワザマエカウンター raises インガオホー値 by the option ``wazamae_ingaoho``;
    a タツジンカウンター never does. Spent by a 死亡 DL 0 character, either
    counter is ディセンション and lifts 死亡 (CH-25; a タツジンカウンター is used
    like a ワザマエカウンター, CH-07).
    """

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="カウンターを使う",
        description="タツジン／ワザマエカウンターを使う（DL0の死亡したキャラクターはディセンション）",
    )

    character_id: Actor
    counter: Annotated[Counter, field("カウンター", COUNTER_VALUES)]
    note: Annotated[str, field("用途", "何に使うか", max_length=500)] = ""


COMMANDS: tuple[type[Command], ...] = (
    Check,
    OpposedCheck,
    Attack,
    UseTokugi,
    Proceed,
    Evade,
    Decline,
    Move,
    Wait,
    PassAction,
    StartCombat,
    SetOrder,
    EndCombat,
    SetRange,
    Adjust,
    SpendCounter,
)
