"""The character sheet and the game state of the ``chabu`` ruleset.

The sheet (:class:`ChabuSheet`) is what a player enters: 能力値, 技能, DL,
HP, the starting インガオホー値 and counters, 装備 and 特技 (the text lists no
特技, G-CH-01, so they are data). The core keeps it in
``characters[id].sheet``; the GM edits it like any sheet (``override``).

The game state (:class:`ChabuState`) keeps what changes in play: current HP,
インガオホー値, タツジン / ワザマエカウンター, 死亡, the ranges between
characters, the combat (ラウンド進行) and the declaration waiting for 刹那
answers or 回避判定. It round-trips through ``msgspec.to_builtins`` /
``convert`` so the GM can override any value (``["game", ...]``).
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec

from taku.core.commands import field
from taku_chabu.options import RANGE_VALUES, Range

__all__ = [
    "CharState",
    "ChabuSheet",
    "ChabuState",
    "CheckSpec",
    "Combat",
    "Condition",
    "Cost",
    "Equipment",
    "Pending",
    "RoundState",
    "Timing",
    "TIMING_JA",
    "Tokugi",
    "can_target",
]

Timing = Literal["katsugeki", "joji", "setsuna"]
"""特技のタイミング: 活劇 / 常時 / 刹那 (チャブ ■■特技の使用■■ ▼タイミング, CH-27)."""

TIMING_JA: dict[str, str] = {"katsugeki": "活劇", "joji": "常時", "setsuna": "刹那"}
"""The Japanese name of each :data:`Timing` value."""

_TIMING_VALUES = "katsugeki（活劇）/ joji（常時）/ setsuna（刹那）"
_CHAR = "キャラクターのID"


ConditionKind = Literal["all_down", "any_down", "all_dead", "any_dead", "manual"]
"""How the server checks a 勝利条件 / 敗北条件 (CH-10)."""

PendingKind = Literal["attack", "check", "action"]
PendingStage = Literal["declared", "evasion"]


def can_target(reach: Range, distance: Range) -> bool:
    """Whether a weapon or 特技 of射程 ``reach`` may target a character at ``distance``.

    チャブ ■射程 (CH-18): ロング may also target ショート; オーバー may target
    neither ショート nor ロング; ショート reaches ショート only.
    """
    if reach == "long":
        return distance in ("short", "long")
    return reach == distance


# --------------------------------------------------------------------------- the sheet


class CheckSpec(msgspec.Struct, frozen=True, kw_only=True):
    """A 【判定値】: 能力値 + 技能, or the 能力値 alone (チャブ ■■基本判定ルール■■, CH-05).

    Attributes:
        ability: the 能力値's name as on the sheet (``"肉体"``, ``"反応"``).
        skill: the 技能's name; a character without it uses the ability alone.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="【判定値】の種類", description="能力値＋技能（技能がなければ能力値のみ）"
    )

    ability: Annotated[str, field("能力値", "シートの能力値の名前（肉体、反応 など）")]
    skill: Annotated[str | None, field("技能", "シートの技能の名前。なければ能力値のみで判定")] = (
        None
    )


class Equipment(msgspec.Struct, frozen=True, kw_only=True):
    """An item of 装備 (チャブ ■命中判定, ■特技と装備; CH-19, CH-23).

    Attributes:
        name: unique on the sheet; commands name equipment by it.
        category: 分類 (``"カタナ"``, ``"銃"``); a 特技 naming it adds its 威力.
        check: the 【判定値】 type written on the equipment (used for its hit check).
        power: 威力.
        range: 射程 (ショート for fists and katana, ロング for shuriken and guns …).
        targets: how many targets one attack takes.
        effect: the equipment's own written effects (text; they apply to 特技 too).
        equipped: whether it is worn (only worn equipment adds 威力 to a 特技).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="装備", description="武器などの装備（分類・【判定値】・威力・射程）"
    )

    name: Annotated[str, field("名前", "シートの中で一意。コマンドは装備を名前で指定する")]
    category: Annotated[
        str, field("分類", "カタナ、銃 など。特技が分類を指定すると威力が加わる")
    ] = ""
    check: Annotated[
        CheckSpec | None, field("【判定値】", "装備に書かれた命中判定の【判定値】の種類")
    ] = None
    power: Annotated[int, field("威力")] = 0
    range: Annotated[Range, field("射程", RANGE_VALUES)] = "short"
    targets: Annotated[int, field("対象数", "一度の攻撃で狙える対象の数")] = 1
    effect: Annotated[str, field("効果", "装備に書かれた効果（文章。GMが適用する）")] = ""
    equipped: Annotated[bool, field("装備中", "身につけている装備だけが特技に威力を加える")] = True


class Cost(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A 特技's コスト (CH-30): paid before the effect resolves.

    Attributes:
        ingaoho: インガオホー値 raised by this much (``"インガオホー値＋５"`` is 5).
        hp: HP paid.
        wazamae: ワザマエカウンター spent.
        tatsujin: タツジンカウンター spent.
        text: any other cost, as written (the GM applies it).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="コスト", description="特技のコスト。効果の解決より先に支払う"
    )

    ingaoho: Annotated[
        int, field("インガオホー値", "上がるインガオホー値（「インガオホー値＋５」なら5）")
    ] = 0
    hp: Annotated[int, field("消費ＨＰ", "支払うHP")] = 0
    wazamae: Annotated[int, field("ワザマエカウンター", "使うワザマエカウンターの数")] = 0
    tatsujin: Annotated[int, field("タツジンカウンター", "使うタツジンカウンターの数")] = 0
    text: Annotated[
        str, field("その他のコスト", "書かれたとおりのその他のコスト（GMが適用する）")
    ] = ""


class Tokugi(msgspec.Struct, frozen=True, kw_only=True):
    """A 特技 as the player enters it (チャブ ■■特技の使用■■, CH-26…CH-30).

    Attributes:
        name: unique on the sheet.
        timing: ``katsugeki`` (活劇), ``joji`` (常時) or ``setsuna`` (刹那).
        range: 射程; ``None`` for a 特技 on oneself or with no target.
        targets: 対象 count ("１体" = 1; 0 = no other target).
        cost: コスト.
        effect: 効果, as written.
        check: the 【判定値】 the 特技 names; with ``power`` (or ``attack``) the
            特技 is an attack and this is its hit check (CH-20).
        power: 威力 of an attacking 特技.
        attack: whether the 特技 is an attack (hit check, 回避判定); implied by ``power``.
        category: the equipment 分類 its effect names; the 威力 of worn equipment
            of that 分類 is added (CH-23).
        until_end_phase: the effect lasts until the エンドフェイズ (CH-17).
        in_rounds_only: the effect says it is used only in ラウンド進行 (CH-28).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="特技", description="タイミング・射程・対象・コスト・効果"
    )

    name: Annotated[str, field("名前", "シートの中で一意")]
    timing: Annotated[Timing, field("タイミング", _TIMING_VALUES)] = "katsugeki"
    range: Annotated[Range | None, field("射程", f"{RANGE_VALUES}。空なら自分のみ・対象なし")] = (
        None
    )
    targets: Annotated[
        int, field("対象", "対象の数（「１体」なら1、0なら対象を取らない）", ge=0)
    ] = 0
    cost: Annotated[Cost, field("コスト")] = Cost()
    effect: Annotated[str, field("効果", "書かれたとおりの効果")] = ""
    check: Annotated[
        CheckSpec | None,
        field("【判定値】", "特技が指定する【判定値】の種類（攻撃特技なら命中判定）"),
    ] = None
    power: Annotated[int | None, field("威力", "攻撃特技の威力（あれば攻撃になる）")] = None
    attack: Annotated[bool, field("攻撃", "命中判定と回避判定のある攻撃特技（威力がなくても）")] = (
        False
    )
    category: Annotated[
        str | None, field("装備の分類", "効果が指定する装備の分類。装備中のその分類の威力を加える")
    ] = None
    until_end_phase: Annotated[
        bool, field("エンドフェイズまで", "効果がエンドフェイズまで続く")
    ] = False
    in_rounds_only: Annotated[
        bool, field("ラウンド進行中のみ", "ラウンド進行中にのみ使用できる")
    ] = False

    @property
    def is_attack(self) -> bool:
        return self.attack or self.power is not None


class ChabuSheet(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A チャブＲＰＧ character sheet (validates ``create_character.sheet``).

    The text stops before it defines the sheet (G-CH-01, G-CH-02); these are
    the values its rules use. ``hp``, ``ingaoho``, ``tatsujin`` and ``wazamae``
    are the starting values; the current ones live in the game state.

    Attributes:
        abilities: 能力値 by name; the 回避判定 uses ``"反応"`` (CH-21).
        skills: 技能 by name.
        dl: DL (an integer ≥ 0; initiative, damage dice count, 死亡 at DL 0).
        hp: HP (maximum and starting value).
        ingaoho: starting インガオホー値.
        tatsujin: starting タツジンカウンター.
        wazamae: starting ワザマエカウンター.
        equipment: 装備.
        tokugi: 特技.
        pc: whether the character is a PC (initiative ties); ``None`` = a PC
            exactly when a player owns it.
        notes: free text.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="チャブＲＰＧのキャラクターシート",
        description="能力値・技能・DL・HP・インガオホー値・カウンター・装備・特技",
    )

    abilities: Annotated[
        dict[str, int], field("能力値", "名前ごとの能力値（回避判定は「反応」）")
    ] = {}
    skills: Annotated[dict[str, int], field("技能", "名前ごとの技能")] = {}
    dl: Annotated[
        int, field("ＤＬ", "イニシアティヴ、ダメージのダイス数。DL0でHP0なら死亡", ge=0)
    ] = 0
    hp: Annotated[int, field("ＨＰ", "最大かつ開始時のHP", ge=0)] = 0
    ingaoho: Annotated[
        int, field("インガオホー値", "開始時のインガオホー値（100以上で死亡）", ge=0)
    ] = 0
    tatsujin: Annotated[int, field("タツジンカウンター", "開始時のタツジンカウンター", ge=0)] = 0
    wazamae: Annotated[int, field("ワザマエカウンター", "開始時のワザマエカウンター", ge=0)] = 0
    equipment: Annotated[list[Equipment], field("装備")] = []
    tokugi: Annotated[list[Tokugi], field("特技")] = []
    pc: Annotated[
        bool | None,
        field(
            "PC（プレイヤーキャラクター）",
            "イニシアティヴの同順位でPCを優先する。空ならプレイヤーが持つキャラクターがPC",
        ),
    ] = None
    notes: Annotated[str, field("メモ")] = ""

    def __post_init__(self) -> None:
        if len({e.name for e in self.equipment}) != len(self.equipment):
            raise ValueError("装備の名前が重複しています")
        if len({t.name for t in self.tokugi}) != len(self.tokugi):
            raise ValueError("特技の名前が重複しています")
        for t in self.tokugi:
            if t.is_attack and t.check is None:
                raise ValueError(f"特技「{t.name}」: 攻撃特技には【判定値】（check）が必要です")

    def equipment_named(self, name: str) -> Equipment | None:
        return next((e for e in self.equipment if e.name == name), None)

    def tokugi_named(self, name: str) -> Tokugi | None:
        return next((t for t in self.tokugi if t.name == name), None)


# --------------------------------------------------------------------------- game state


class CharState(msgspec.Struct, frozen=True, kw_only=True):
    """What changes in play for one character (CH-31).

    Attributes:
        hp: current HP (never below 0, G-CH-08); 0 is 戦闘不能 (CH-24).
        ingaoho: current インガオホー値; 100 or more is 死亡 (CH-25, G-CH-09).
        tatsujin: タツジンカウンター held.
        wazamae: ワザマエカウンター held.
        dead: 死亡 (CH-25); it stays until the GM lifts it (ディセンション, ゴウランガ).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="キャラクターの現在値", description="HP・インガオホー値・カウンター・死亡"
    )

    hp: Annotated[int, field("現在のＨＰ", "0で戦闘不能")] = 0
    ingaoho: Annotated[int, field("インガオホー値", "現在のインガオホー値（100以上で死亡）")] = 0
    tatsujin: Annotated[int, field("タツジンカウンター")] = 0
    wazamae: Annotated[int, field("ワザマエカウンター")] = 0
    dead: Annotated[bool, field("死亡")] = False


class Condition(msgspec.Struct, frozen=True, kw_only=True):
    """A victory or defeat condition the GM states (チャブ ■勝利条件、敗北条件, CH-10).

    Attributes:
        text: the condition as the GM says it (「襲撃者の全滅」).
        kind: how the server checks it: ``all_down`` (every listed character is
            戦闘不能 or 死亡), ``any_down``, ``all_dead``, ``any_dead``, or
            ``manual`` (the GM ends the combat with ``chabu.end_combat``).
        characters: the characters the check looks at.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="勝利条件・敗北条件", description="GMが宣言する条件と、サーバーが確かめる方法"
    )

    text: Annotated[str, field("条件", "GMが宣言する条件（「襲撃者の全滅」など）")]
    kind: Annotated[
        ConditionKind,
        field(
            "判定方法",
            "all_down（全員が戦闘不能か死亡）/ any_down（誰かが戦闘不能か死亡）/ all_dead（全員死亡）"
            "/ any_dead（誰かが死亡）/ manual（GMが終了を宣言）",
        ),
    ] = "manual"
    characters: Annotated[list[str], field("対象キャラクター", "条件が見るキャラクターのID")] = []


class RoundState(msgspec.Struct, frozen=True, kw_only=True):
    """One round of ラウンド進行 (チャブ ■戦闘の流れ).

    Attributes:
        number: 1, 2, 3 …
        order: the イニシアティヴ order: every participant who became 未行動.
        done: who is 行動完了.
        waiting: who declared 待機 (in the order they did; acting order is by ``order``).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="ラウンド", description="ラウンド進行の一ラウンド"
    )

    number: Annotated[int, field("ラウンド数", "1から")]
    order: Annotated[
        list[str], field("イニシアティヴ順", "未行動になったキャラクターの行動順")
    ] = []
    done: Annotated[list[str], field("行動完了", "行動完了のキャラクター")] = []
    waiting: Annotated[list[str], field("待機", "待機宣言したキャラクター（宣言順）")] = []


class Combat(msgspec.Struct, frozen=True, kw_only=True):
    """ラウンド進行 in progress.

    Attributes:
        victory: 勝利条件; defeat: 敗北条件.
        participants: the characters in the combat.
        agreed_order: the order the players agreed for ties after DL,
            インガオホー値 and PC-first (CH-12, G-CH-07); participants not in it
            follow in participant order.
        round: the current round.
        effects: 特技 effects that last until the エンドフェイズ: ``[character, 特技]``.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(title="ラウンド進行", description="進行中の戦闘")

    victory: Annotated[Condition, field("勝利条件")]
    defeat: Annotated[Condition, field("敗北条件")]
    participants: Annotated[list[str], field("参加キャラクター")] = []
    agreed_order: Annotated[
        list[str], field("相談した行動順", "DL・インガオホー値・PC優先でも同順位のときの順")
    ] = []
    round: Annotated[RoundState | None, field("現在のラウンド")] = None
    effects: Annotated[
        list[tuple[str, str]], field("エンドフェイズまでの効果", "[キャラクター, 特技]")
    ] = []


class Pending(msgspec.Struct, frozen=True, kw_only=True):
    """A declaration not yet resolved: 刹那 may answer it, targets may evade.

    Attributes:
        id: the declaration id (``d<seq>``).
        kind: ``attack``, ``check`` or ``action`` (a 活劇 特技 that is no attack).
        actor: the declaring character.
        stage: ``declared`` (刹那 may answer; ``chabu.proceed`` resolves) or
            ``evasion`` (the hit succeeded; targets evade or take it).
        is_action: whether it is the character's 活劇 (makes it 行動完了).
        label: what is declared, for people.
        equipment: the equipment used (attacks).
        tokugi: the 特技 used.
        targets: the targets.
        check: the 【判定値】 of the hit check or the check.
        power: the 威力 of the damage (``None``: no damage).
        modifier: added to the 【判定値】 when it is rolled.
        awaiting: targets that have not evaded or taken the hit yet.
        doubled: targets whose 回避判定 was an ウカツ! (damage ×2, CH-08).
        hit: targets the attack hits.
        setsuna: 刹那 特技 used on it, as ``[character, 特技]`` (CH-27: never the same twice).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="解決待ちの宣言", description="刹那の割り込み、または回避判定を待つ宣言"
    )

    id: Annotated[str, field("宣言ID")]
    kind: Annotated[
        PendingKind, field("種類", "attack（攻撃）/ check（判定）/ action（攻撃でない活劇特技）")
    ]
    actor: Annotated[str, field("宣言者", _CHAR)]
    stage: Annotated[
        PendingStage,
        field(
            "段階",
            "declared（刹那待ち。進行で解決）/ evasion（命中。対象が回避判定か受けるかを選ぶ）",
        ),
    ] = "declared"
    is_action: Annotated[bool, field("活劇", "キャラクターの行動（解決で行動完了）")] = False
    label: Annotated[str, field("表示名")] = ""
    equipment: Annotated[str | None, field("装備")] = None
    tokugi: Annotated[str | None, field("特技")] = None
    targets: Annotated[list[str], field("対象")] = []
    check: Annotated[int, field("【判定値】")] = 0
    power: Annotated[int | None, field("威力", "空ならダメージなし")] = None
    modifier: Annotated[int, field("修正", "【判定値】への修正")] = 0
    awaiting: Annotated[list[str], field("回避判定待ち", "まだ回避も被弾も選んでいない対象")] = []
    doubled: Annotated[list[str], field("ダメージ2倍", "回避判定がウカツ！だった対象")] = []
    hit: Annotated[list[str], field("命中した対象")] = []
    setsuna: Annotated[list[tuple[str, str]], field("使われた刹那", "[キャラクター, 特技]")] = []


class ChabuState(msgspec.Struct, frozen=True, kw_only=True):
    """The ``chabu`` game: characters' current values, ranges, combat, pending declaration.

    Attributes:
        chars: current values per character id.
        ranges: ``ranges[a][b]`` is where ``b`` is from ``a`` (the GM sets it, CH-18).
        combat: ラウンド進行, when one runs.
        pending: the declaration waiting for 刹那 answers or 回避判定.
        outcome: how the last combat ended (``victory`` / ``defeat``) and why.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="チャブＲＰＧの卓の状態",
        description="キャラクターの現在値・射程・ラウンド進行・解決待ちの宣言",
    )

    chars: Annotated[dict[str, CharState], field("キャラクターの現在値", "キャラクターIDごと")] = {}
    ranges: Annotated[
        dict[str, dict[str, Range]],
        field("射程", f"ranges[a][b]: aから見たbの射程。{RANGE_VALUES}"),
    ] = {}
    combat: Annotated[Combat | None, field("ラウンド進行", "戦闘中のみ")] = None
    pending: Annotated[Pending | None, field("解決待ちの宣言")] = None
    outcome: Annotated[
        str | None,
        field("前回の戦闘の結果", "victory（勝利）/ defeat（敗北）/ aborted（中断）と理由"),
    ] = None
