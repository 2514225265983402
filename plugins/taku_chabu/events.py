"""Events of the ``chabu`` ruleset (tags ``chabu.<fact>``).

Every face rolled is a field (a :class:`~taku.core.dice.Roll`), so a fold or a
replay never rolls again; the fields record facts (the 【判定値】, the value
read, the HP before and after), never instructions.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec

from taku.core.commands import field
from taku.core.dice import Roll
from taku.core.events import Event
from taku_chabu.options import RANGE_VALUES, Range
from taku_chabu.state import Condition, Cost, Timing

_CHAR = "キャラクターのID"
_DECL = "宣言のID"
Character = Annotated[str, field("キャラクター", _CHAR)]
Declaration = Annotated[str, field("宣言", _DECL)]
Label = Annotated[str, field("表示名")]
Outcome = Literal[
    "", "hit", "missed", "evaded", "self_hit", "success", "failure", "resolved", "void"
]
OUTCOME_VALUES = (
    "hit（命中）/ missed（外れ）/ evaded（回避された）/ self_hit（ウカツ！自分に命中）/ success（成功）"
    "/ failure（失敗）/ resolved（解決）/ void（不発）"
)

__all__ = [
    "ActionPassed",
    "AttackDeclared",
    "CheckDeclared",
    "CheckRolled",
    "CombatEnded",
    "CombatStarted",
    "CounterSpent",
    "DamageRolled",
    "DeclarationClosed",
    "Died",
    "EVENTS",
    "EvasionDeclined",
    "Moved",
    "OpposedRolled",
    "OpposedRound",
    "OrderAgreed",
    "RangeSet",
    "RoundEnded",
    "RoundStarted",
    "TokugiUsed",
    "ValueAdjusted",
    "Waited",
]


class CheckRolled(Event, frozen=True, kw_only=True, tag="chabu.check_rolled"):
    """A 1d100 判定 (CH-01, CH-05…CH-08).

    Attributes:
        character_id: who rolled (``None`` for a bare chat check).
        purpose: ``check``, ``hit`` (命中判定) or ``evasion`` (回避判定).
        target: the 【判定値】 (modifiers included).
        roll: two d10, tens then units (a face 10 reads 0; 0 and 0 is 100).
        value: the 1d100 read from ``roll`` (1–100).
        success: ``value <= target``, or タツジン!, and never on ウカツ!.
        tatsujin: タツジン! (1–5): a タツジンカウンター for ``character_id``.
        ukatsu: ウカツ! (95–100).
        declaration: the declaration it resolves, if any.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="判定", description="1D100の判定（タツジン！・ウカツ！）"
    )

    character_id: Annotated[
        str | None, field("キャラクター", "判定したキャラクター（チャットの判定なら空）")
    ] = None
    purpose: Annotated[
        Literal["check", "hit", "evasion"],
        field("種類", "check（判定）/ hit（命中判定）/ evasion（回避判定）"),
    ] = "check"
    label: Label = ""
    target: Annotated[int, field("【判定値】", "修正込み")]
    roll: Annotated[Roll, field("出目", "十の位と一の位のD10（0の面は10と記録）")]
    value: Annotated[int, field("1D100の値", "1〜100")]
    success: Annotated[bool, field("成功")]
    tatsujin: Annotated[bool, field("タツジン！", "1〜5: 自動成功、タツジンカウンター+1")] = False
    ukatsu: Annotated[bool, field("ウカツ！", "95〜100: 自動失敗")] = False
    declaration: Annotated[str | None, field("宣言", "解決する宣言のID")] = None
    channel: Annotated[
        str,
        msgspec.Meta(
            title="チャンネル", description="チャットで振った行のチャンネル（空はメイン）"
        ),
    ] = ""
    """The chat channel the line was typed in (``""``: メイン, and for a form's roll)."""


class OpposedRound(msgspec.Struct, frozen=True, kw_only=True):
    """One roll of both sides of a 対抗判定."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(title="対抗判定の一回", description="両者の1D100")

    a_roll: Annotated[Roll, field("aの出目")]
    a_value: Annotated[int, field("aの1D100")]
    a_success: Annotated[bool, field("aの成功")]
    b_roll: Annotated[Roll, field("bの出目")]
    b_value: Annotated[int, field("bの1D100")]
    b_success: Annotated[bool, field("bの成功")]


class OpposedRolled(Event, frozen=True, kw_only=True, tag="chabu.opposed_rolled"):
    """A 対抗判定 (CH-09) with every reroll.

    Attributes:
        a, b: the characters (``None`` for a bare value); a_target, b_target their 【判定値】.
        rounds: every roll pair, the last one decides.
        winner: ``a``, ``b`` or ``draw`` (only with ``opposed_both_fail = draw`` or the reroll guard).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="対抗判定", description="両者の判定と振り直し、勝者"
    )

    label: Label = ""
    a: Annotated[str | None, field("キャラクターa", "空なら数値だけの判定")] = None
    b: Annotated[str | None, field("キャラクターb", "空なら数値だけの判定")] = None
    a_target: Annotated[int, field("aの【判定値】")]
    b_target: Annotated[int, field("bの【判定値】")]
    rounds: Annotated[tuple[OpposedRound, ...], field("振った回", "最後の回で決まる")]
    winner: Annotated[
        Literal["a", "b", "draw"], field("勝者", "a（aの勝利）/ b（bの勝利）/ draw（決着つかず）")
    ]
    channel: Annotated[
        str,
        msgspec.Meta(
            title="チャンネル", description="チャットで振った行のチャンネル（空はメイン）"
        ),
    ] = ""
    """The chat channel the line was typed in (``""``: メイン, and for a form's roll)."""


class DamageRolled(Event, frozen=True, kw_only=True, tag="chabu.damage_rolled"):
    """ダメージの算出 (CH-22): 威力 + DL d10, ×2 after an ウカツ! on the 回避判定 (CH-08).

    Attributes:
        attacker, target: characters (``target`` ``None`` for a chat roll).
        power: 威力 (equipment's, or the 特技's plus a named 分類's).
        dl: dice rolled (the attacker's DL).
        roll: the d10 faces.
        doubled: the 回避判定 was an ウカツ!.
        self_hit: the hit check was an ウカツ! and the attack hit the attacker.
        total: the final damage.
        hp_before, hp_after: the target's HP (floored at 0, G-CH-08).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="ダメージ", description="威力＋DL個のD10（回避判定のウカツ！なら2倍）"
    )

    declaration: Annotated[str | None, field("宣言", _DECL)] = None
    attacker: Annotated[str | None, field("攻撃者", _CHAR)] = None
    target: Annotated[
        str | None, field("対象", "ダメージを受けたキャラクター（チャットのダメージなら空）")
    ] = None
    power: Annotated[int, field("威力")]
    dl: Annotated[int, field("ＤＬ（ダイス数）", "振ったD10の数（攻撃者のDL）")]
    roll: Annotated[Roll, field("出目", "D10の出目")]
    doubled: Annotated[bool, field("2倍", "回避判定がウカツ！だった")] = False
    self_hit: Annotated[bool, field("自分に命中", "命中判定がウカツ！で攻撃者自身に当たった")] = (
        False
    )
    total: Annotated[int, field("ダメージ")]
    hp_before: Annotated[int, field("前のHP")] = 0
    hp_after: Annotated[int, field("後のHP", "0未満にはならない")] = 0
    channel: Annotated[
        str,
        msgspec.Meta(
            title="チャンネル", description="チャットで振った行のチャンネル（空はメイン）"
        ),
    ] = ""
    """The chat channel the line was typed in (``""``: メイン, and for a form's roll)."""


class AttackDeclared(Event, frozen=True, kw_only=True, tag="chabu.attack_declared"):
    """An attack is declared: equipment or 特技, targets, 【判定値】, 威力 (CH-19, CH-20, CH-23)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="攻撃の宣言", description="装備か特技、対象、【判定値】、威力"
    )

    declaration: Declaration
    attacker: Annotated[str, field("攻撃者", _CHAR)]
    equipment: Annotated[str | None, field("装備")] = None
    tokugi: Annotated[str | None, field("特技")] = None
    targets: Annotated[tuple[str, ...], field("対象")]
    check: Annotated[int, field("【判定値】")]
    power: Annotated[int | None, field("威力", "空ならダメージなし")] = None
    modifier: Annotated[int, field("修正")] = 0
    is_action: Annotated[bool, field("活劇", "キャラクターの行動")] = True
    held: Annotated[bool, field("刹那待ち", "刹那の割り込みを待つ")] = False


class CheckDeclared(Event, frozen=True, kw_only=True, tag="chabu.check_declared"):
    """A 判定 is declared and held for 刹那 answers (CH-27)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="判定の宣言", description="刹那の割り込みを待つ判定"
    )

    declaration: Declaration
    character_id: Character
    label: Label = ""
    check: Annotated[int, field("【判定値】")]
    modifier: Annotated[int, field("修正")] = 0


class TokugiUsed(Event, frozen=True, kw_only=True, tag="chabu.tokugi_used"):
    """A 特技 is used; its コスト is paid first (CH-30).

    Attributes:
        timing: the 特技's タイミング.
        cost: what was paid; ingaoho_before/after the インガオホー値 around it.
        died: the cost took インガオホー値 to 100 or more (死亡, CH-25).
        resolved: whether the effect resolves (not after a deadly cost, unless
            the option ``effect_after_cost_death``).
        answers: the declaration a 刹那 answers.
        declaration: the declaration an attacking or held 特技 opens.
        effect: the 効果 as written (the GM applies what the server cannot).
        until_end_phase: the effect lasts until the エンドフェイズ.
        is_action: this use is the character's 活劇 and completes it (行動完了).
        attack: the 特技 is an attack (an ``attack_declared`` follows).
        tatsujin_for_wazamae: how many of the コスト's ワザマエカウンター were paid
            with タツジンカウンター instead (CH-07: used the same way, no
            インガオホー値 rise).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="特技の使用", description="特技を使い、コストを先に支払う"
    )

    character_id: Character
    tokugi: Annotated[str, field("特技")]
    timing: Annotated[
        Timing, field("タイミング", "katsugeki（活劇）/ joji（常時）/ setsuna（刹那）")
    ]
    targets: Annotated[tuple[str, ...], field("対象")] = ()
    cost: Annotated[Cost, field("コスト")] = Cost()
    hp_before: Annotated[int, field("前のHP")] = 0
    hp_after: Annotated[int, field("後のHP")] = 0
    ingaoho_before: Annotated[int, field("前のインガオホー値")] = 0
    ingaoho_after: Annotated[int, field("後のインガオホー値")] = 0
    died: Annotated[bool, field("コストで死亡", "インガオホー値が100以上になった")] = False
    resolved: Annotated[bool, field("効果を解決", "死亡したなら解決しない（オプション次第）")] = (
        True
    )
    answers: Annotated[str | None, field("割り込む宣言", "刹那が割り込む宣言のID")] = None
    declaration: Annotated[str | None, field("宣言", "この特技が開く宣言のID")] = None
    effect: Annotated[
        str, field("効果", "書かれたとおり（サーバーが処理できない分はGMが適用）")
    ] = ""
    until_end_phase: Annotated[bool, field("エンドフェイズまで")] = False
    is_action: Annotated[bool, field("活劇", "この使用で行動完了になる")] = False
    attack: Annotated[bool, field("攻撃", "攻撃の宣言が続く")] = False
    tatsujin_for_wazamae: Annotated[
        int,
        field(
            "ワザマエの代わりのタツジン",
            "コストのワザマエカウンターのうちタツジンカウンターで払った数",
        ),
    ] = 0


class EvasionDeclined(Event, frozen=True, kw_only=True, tag="chabu.evasion_declined"):
    """A target takes the hit without a 回避判定."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="回避しない", description="対象が回避判定をせずに攻撃を受ける"
    )

    declaration: Declaration
    character_id: Character


class DeclarationClosed(Event, frozen=True, kw_only=True, tag="chabu.declaration_closed"):
    """The declaration is resolved; a 活劇 makes its character 行動完了 (CH-16).

    ``outcome``: ``hit``, ``missed``, ``evaded``, ``self_hit``, ``success``,
    ``failure``, ``resolved`` or ``void`` (the declarer died before it resolved).
    ``lasting``: a held 特技's effect now lasts until the エンドフェイズ.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="宣言の解決", description="宣言が解決した（活劇なら行動完了）"
    )

    declaration: Declaration
    character_id: Annotated[str, field("宣言者", _CHAR)]
    outcome: Annotated[Outcome, field("結果", OUTCOME_VALUES)] = ""
    is_action: Annotated[bool, field("活劇", "宣言者が行動完了になる")] = False
    lasting: Annotated[
        bool, field("エンドフェイズまで続く", "特技の効果がエンドフェイズまで続く")
    ] = False


class Died(Event, frozen=True, kw_only=True, tag="chabu.died"):
    """死亡 (CH-25): DL 0 and HP 0, or インガオホー値 100 or more."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="死亡", description="DL0でHP0、またはインガオホー値が100以上"
    )

    character_id: Character
    cause: Annotated[
        Literal["hp", "ingaoho"], field("原因", "hp（DL0でHP0）/ ingaoho（インガオホー値100以上）")
    ]


class ValueAdjusted(Event, frozen=True, kw_only=True, tag="chabu.value_adjusted"):
    """The GM changed a character's HP, インガオホー値 or counter."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="値の変更", description="GMがHP・インガオホー値・カウンターを変えた"
    )

    character_id: Character
    key: Annotated[
        Literal["hp", "ingaoho", "tatsujin", "wazamae"],
        field(
            "値",
            "hp（HP）/ ingaoho（インガオホー値）/ tatsujin（タツジンカウンター）/ wazamae（ワザマエカウンター）",
        ),
    ]
    before: Annotated[int, field("前の値")]
    after: Annotated[int, field("後の値")]
    reason: Annotated[str, field("理由")] = ""


class CounterSpent(Event, frozen=True, kw_only=True, tag="chabu.counter_spent"):
    """A タツジン / ワザマエカウンター is spent (CH-07); ワザマエ raises インガオホー値.

    ``descension``: a 死亡 DL 0 character spent a ワザマエカウンター on
    「ディセンション」 and is 死亡 no more (CH-25; the details are in the
    missing part of the text, so the GM then sets its new DL and HP).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="カウンターの使用", description="タツジン／ワザマエカウンターを使った"
    )

    character_id: Character
    counter: Annotated[
        Literal["tatsujin", "wazamae"],
        field("カウンター", "tatsujin（タツジンカウンター）/ wazamae（ワザマエカウンター）"),
    ]
    ingaoho_before: Annotated[int, field("前のインガオホー値")] = 0
    ingaoho_after: Annotated[int, field("後のインガオホー値")] = 0
    note: Annotated[str, field("用途")] = ""
    descension: Annotated[
        bool, field("ディセンション", "DL0の死亡したキャラクターが死亡を解除した")
    ] = False


class RangeSet(Event, frozen=True, kw_only=True, tag="chabu.range_set"):
    """The GM set where ``b`` is from ``a`` (CH-18)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="射程", description="GMがaから見たbの射程を決めた"
    )

    a: Annotated[str, field("キャラクターa", _CHAR)]
    b: Annotated[str, field("キャラクターb", _CHAR)]
    range: Annotated[Range, field("射程", RANGE_VALUES)]
    both: Annotated[bool, field("相互")] = True


class CombatStarted(Event, frozen=True, kw_only=True, tag="chabu.combat_started"):
    """ラウンド進行 starts with the GM's victory and defeat conditions (CH-10)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="ラウンド進行開始", description="勝利条件・敗北条件と参加キャラクター"
    )

    victory: Annotated[Condition, field("勝利条件")]
    defeat: Annotated[Condition, field("敗北条件")]
    participants: Annotated[tuple[str, ...], field("参加キャラクター")]
    agreed_order: Annotated[tuple[str, ...], field("相談した行動順")] = ()


class OrderAgreed(Event, frozen=True, kw_only=True, tag="chabu.order_agreed"):
    """The agreed order for the last initiative ties (CH-12)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="同順位の行動順", description="PLが相談した同順位の行動順"
    )

    agreed_order: Annotated[tuple[str, ...], field("相談した行動順")]


class RoundStarted(Event, frozen=True, kw_only=True, tag="chabu.round_started"):
    """イニシアティヴ決定フェイズ (CH-11, CH-12): who is 未行動, in acting order."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="ラウンド開始", description="イニシアティヴ決定フェイズ: 未行動のキャラクターと行動順"
    )

    number: Annotated[int, field("ラウンド数")]
    order: Annotated[tuple[str, ...], field("イニシアティヴ順")]


class Waited(Event, frozen=True, kw_only=True, tag="chabu.waited"):
    """待機宣言 (CH-14)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="待機宣言", description="待機しなかった全員の後に行動する"
    )

    character_id: Character


class Moved(Event, frozen=True, kw_only=True, tag="chabu.moved"):
    """移動, a 活劇 (CH-16): the character is 行動完了."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(title="移動", description="移動した（行動完了）")

    character_id: Character
    note: Annotated[str, field("どこへ")] = ""


class ActionPassed(Event, frozen=True, kw_only=True, tag="chabu.action_passed"):
    """行動放棄 (CH-15): the character is 行動完了 at once."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="行動放棄", description="行動せず行動完了になった"
    )

    character_id: Character


class RoundEnded(Event, frozen=True, kw_only=True, tag="chabu.round_ended"):
    """エンドフェイズ (CH-17): effects lasting to it end."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="エンドフェイズ", description="ラウンドが終わり、エンドフェイズまでの効果が切れた"
    )

    number: Annotated[int, field("ラウンド数")]
    cleared: Annotated[
        tuple[tuple[str, str], ...], field("切れた効果", "[キャラクター, 特技]")
    ] = ()


class CombatEnded(Event, frozen=True, kw_only=True, tag="chabu.combat_ended"):
    """ラウンド進行 ends: a condition holds (CH-10) or the GM stopped it."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="ラウンド進行終了", description="条件が満たされたか、GMが終えた"
    )

    outcome: Annotated[
        Literal["victory", "defeat", "aborted"],
        field("結果", "victory（勝利）/ defeat（敗北）/ aborted（中断）"),
    ]
    reason: Annotated[str, field("理由")] = ""


EVENTS: tuple[type[Event], ...] = (
    CheckRolled,
    OpposedRolled,
    DamageRolled,
    AttackDeclared,
    CheckDeclared,
    TokugiUsed,
    EvasionDeclined,
    DeclarationClosed,
    Died,
    ValueAdjusted,
    CounterSpent,
    RangeSet,
    CombatStarted,
    OrderAgreed,
    RoundStarted,
    Waited,
    Moved,
    ActionPassed,
    RoundEnded,
    CombatEnded,
)
