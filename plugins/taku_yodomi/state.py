"""The 澱み流れ game state: characters' runtime values, the 流れ deck and hands, scenes, combat.

Everything here round-trips through ``msgspec.to_builtins``/``convert`` so the
GM's core ``override`` can set any value. The deck order and the hands are in
this state (the server folds the full log) but :mod:`taku_yodomi.view` never
shows them to anybody but a hand's owner (and the GM with ``gm_sees_hands``).
"""

from __future__ import annotations

import enum
from typing import Annotated, ClassVar, Literal

import msgspec

from taku.core.commands import field
from taku.core.dice import Roll
from taku_yodomi._cards import Card, Suit

__all__ = [
    "BAD_STATUSES",
    "BadStatus",
    "CheckKind",
    "CheckPurpose",
    "Acted",
    "Attack",
    "Check",
    "CharState",
    "Combat",
    "Condition",
    "Continuous",
    "Game",
    "Path",
    "Phase",
    "Process",
    "Scene",
    "SceneKind",
]


BAD_STATUSES = (
    "重圧",
    "転倒",
    "毒",
    "マヒ",
    "放心",
    "阻止",
    "使用不能",
    "極技",
    "水中",
    "地中",
    "蝕み",
)
"""The bad statuses of バッドステータス一覧 (YD-54 … YD-64)."""

BadStatus = Annotated[
    Literal[BAD_STATUSES],  # type: ignore[valid-type]
    msgspec.Meta(
        title="バッドステータス",
        description="重圧・転倒・毒（毒X）・マヒ・放心・阻止・使用不能・極技・水中・地中・蝕み",
    ),
]
Side = Literal["pc", "enemy"]
"""A character's side: a PC or an enemy."""
CheckKind = Annotated[
    Literal["2d9", "d99"],
    msgspec.Meta(title="判定の種類", description="2d9（2D9判定）/ d99（D99判定）"),
]
CheckPurpose = Annotated[
    Literal[
        "check",
        "hit",
        "defence",
        "entry",
        "intuition",
        "conversion",
        "continuous",
        "purchase",
        "contest",
        "block",
        "chat",
    ],
    msgspec.Meta(
        title="判定の目的",
        description="check（行為判定）、hit（命中判定）、defence（防御判定）、entry（登場判定）、intuition（直感把握）、"
        "conversion（強制転換）、continuous（継続判定）、purchase（購入判定）、contest（対決）、block（封鎖 対決）、chat（チャットのダイス）",
    ),
]


class Condition(enum.StrEnum):
    """A character's state (澱み流れ キャラクターの状態について, YD-47 … YD-53)."""

    ACTIVE = "active"
    INCAPACITATED = "incapacitated"  # 戦闘不能
    DEAD = "dead"  # 死亡
    FLOW_DEATH = "flow_death"  # 流れとしての死
    YODOMI_LIFE = "yodomi_life"  # 澱みとしての生
    VANISHED = "vanished"  # 完全消滅


class Acted(enum.StrEnum):
    """未行動 / 行動済み (YD-37); ``none`` outside combat."""

    NONE = "none"
    UNACTED = "unacted"
    ACTED = "acted"


class Phase(enum.StrEnum):
    PREPLAY = "preplay"
    SCENE = "scene"
    SCENE_END = "scene_end"
    BETWEEN = "between"
    FINISHED = "finished"


class SceneKind(enum.StrEnum):
    OPENING = "opening"
    MIDDLE = "middle"
    CLIMAX = "climax"
    ENDING = "ending"


class Process(enum.StrEnum):
    """The processes of a round (YD-29)."""

    SETUP = "setup"
    INITIATIVE = "initiative"
    MAIN = "main"
    CLEANUP = "cleanup"


class Check(msgspec.Struct, frozen=True, kw_only=True):
    """One resolved 2D9 or D99 check (YD-03, YD-11).

    Attributes:
        check_id: table-unique id.
        character_id: who rolled (``None`` for an anonymous chat roll).
        kind: ``"2d9"`` or ``"d99"``.
        purpose: what it was for (``check``, ``hit``, ``defence``, ``entry``, ``intuition``,
            ``conversion``, ``continuous``, ``purchase``, ``contest``, ``block``).
        base: the 判定値 (2D9) or the base target (D99).
        modifier: declared modifiers (sum).
        penalty: status penalties subtracted (転倒, 放心, 極技 -10 each; 武器狙い -20 …).
        rolls: every Roll made (a d10 per D9, face 10 read as 0); two when rerolled.
        faces: the D9 faces that count (0-9 each), after any reroll.
        rerolled: the key-number reroll was used.
        critical / key_critical / fumble: the outcome flags.
        no_roll: the side could not roll; 達成値 = 判定値 + modifiers (YD-15).
        card_bonus: what 流れ added (to the 達成値 or to the target).
        cards: the 流れ cards played on this check.
        value: 2D9: the 達成値; D99: the number rolled (00-99).
        target: D99 only: the final target (success when ``value < target``).
        difficulty: 2D9 only: the difficulty if one was named.
        success: ``None`` when a 2D9 check names no difficulty.
        cards_allowed: whether 流れ may still be added (not on a fumble, not on 強制転換).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="判定", description="解決した2D9またはD99の判定"
    )

    check_id: Annotated[str, field("判定", "判定のID")]
    character_id: Annotated[str | None, field("キャラクター", "キャラクターのID")] = None
    kind: Annotated[CheckKind, field("判定の種類", "2d9（2D9判定）/ d99（D99判定）")]
    purpose: Annotated[CheckPurpose, field("目的")] = "check"
    label: Annotated[str, field("判定名")] = ""
    base: Annotated[int, field("判定値", "2D9の判定値、またはD99の目標値の基本")] = 0
    modifier: Annotated[int, field("修正")] = 0
    penalty: Annotated[int, field("ペナルティ", "バッドステータスなどで引かれた値")] = 0
    rolls: Annotated[tuple[Roll, ...], field("ダイス", "振ったd10（10は0と読む）")] = ()
    faces: Annotated[tuple[int, ...], field("D9の出目", "数える出目（0〜9）")] = ()
    rerolled: Annotated[bool, field("キーナンバーで振り直した")] = False
    critical: Annotated[bool, field("クリティカル", "ゾロ目（自動成功）")] = False
    key_critical: Annotated[bool, field("キーナンバー・クリティカル", "ダイス目30")] = False
    fumble: Annotated[bool, field("ファンブル", "0-0 または 00（自動失敗）")] = False
    no_roll: Annotated[bool, field("振らない", "判定値＋修正が達成値")] = False
    card_bonus: Annotated[int, field("「流れ」の修正", "出した「流れ」の合計")] = 0
    cards: Annotated[tuple[Card, ...], field("出した「流れ」")] = ()
    value: Annotated[int, field("達成値・出目", "2D9: 達成値、D99: 出目（00〜99）")] = 0
    target: Annotated[int | None, field("目標値", "D99: 最終的な目標値（未満で成功）")] = None
    difficulty: Annotated[int | None, field("難易度")] = None
    success: Annotated[bool | None, field("成功", "空なら難易度なし")] = None
    cards_allowed: Annotated[
        bool, field("「流れ」を出せる", "ファンブルや強制転換では出せない")
    ] = True


class Path(msgspec.Struct, frozen=True, kw_only=True):
    """A パス to a target, with the emotion toward it (YD-22)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(title="パス", description="対象と感情")

    target: Annotated[str, field("パスの対象")]
    emotion: Annotated[str, field("感情")]
    character: Annotated[bool, field("キャラクターへのパス", "対象がキャラクター")] = False


class CharState(msgspec.Struct, frozen=True, kw_only=True):
    """A character's runtime values (the sheet stays in the core's Character)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="キャラクターの現在値",
        description="プレイ中に変わる値（シートはコアのキャラクターに）",
    )

    pp: Annotated[int, field("現在の【PP】")]
    sp: Annotated[int, field("現在の【SP】")]
    max_pp: Annotated[int, field("【PP】の上限", "シートの【PP】")]
    side: Annotated[Side, field("陣営", "pc（PC）/ enemy（エネミー）")] = "pc"
    condition: Annotated[
        Condition,
        field(
            "状態",
            "active（通常）/ incapacitated（戦闘不能）/ dead（死亡）/ flow_death（流れとしての死）/ yodomi_life（澱みとしての生）/ vanished（完全消滅）",
        ),
    ] = Condition.ACTIVE
    acted: Annotated[
        Acted, field("行動済み", "unacted（未行動）/ acted（行動済み）/ none（戦闘外）")
    ] = Acted.NONE
    statuses: Annotated[dict[BadStatus, int], field("バッドステータス", "名前→X（毒X）")] = {}
    """Bad statuses by name (重圧 転倒 毒 マヒ 放心 阻止 極技 水中 地中 蝕み); the value is X for 毒X."""
    disabled_items: Annotated[list[str], field("使用不能の武器")] = []
    """Weapons that are 使用不能."""
    item_pp: Annotated[dict[str, int], field("アイテムの【PP】")] = {}
    kiwaza_by: Annotated[str | None, field("極技の相手")] = None
    key_number: Annotated[int | None, field("キーナンバー", "1〜9")] = None
    suit: Annotated[Suit | None, field("スート")] = None
    paths: Annotated[list[Path], field("パス")] = []
    wealth: Annotated[int, field("財産点")] = 0
    flying: Annotated[bool, field("飛行状態")] = False
    stealth: Annotated[bool, field("隠密状態")] = False
    passenger_of: Annotated[str | None, field("同乗", "同乗している乗り手")] = None
    """同乗: the rider this character rides with."""
    in_scene: Annotated[bool, field("シーンに登場中")] = False
    appeared: Annotated[bool, field("登場した", "このシーンに登場した（退場していても）")] = False
    """Appeared in the current (or just ended) scene, even if it left since: no 舞台裏 (YD-75)."""
    last_purchase_scene: Annotated[int, field("最後に購入したシーン")] = -1
    backstage_done: Annotated[bool, field("舞台裏を行った")] = False
    backstage_recovered: Annotated[bool, field("舞台裏で回復した")] = False
    backstage_purchase_done: Annotated[bool, field("舞台裏で購入した")] = False
    backstage_skill_done: Annotated[bool, field("舞台裏で特技を使った")] = False
    path_done: Annotated[bool, field("パスを結んだ")] = False
    emotion_done: Annotated[bool, field("感情を変えた")] = False
    cut_done: Annotated[bool, field("「流れ」を調整した")] = False
    full_conversion_pending: Annotated[bool, field("完全転換の処理待ち")] = False
    receives_flow: Annotated[bool, field("「流れ」を受け取れる")] = True
    destroyed_sp: Annotated[int, field("破壊した【SP】")] = 0
    recover_next_scene: Annotated[bool, field("次のシーンで復帰", "【PP】1で")] = False
    intuition_due: Annotated[bool, field("直感把握が必要", "代償で【PP】が0になった")] = False
    """【PP】 reached 0 paying a cost: 直感把握 is due (YD-35)."""
    may_convert: Annotated[bool, field("強制転換できる")] = False
    """May try 強制転換 now: just fell to 【PP】0, or in the setup process (YD-47, YD-49)."""


class Scene(msgspec.Struct, frozen=True, kw_only=True):
    meta: ClassVar[msgspec.Meta] = msgspec.Meta(title="シーン", description="")

    number: Annotated[int, field("シーン番号")]
    kind: Annotated[
        SceneKind,
        field(
            "シーンの種類",
            "opening（オープニング）/ middle（ミドル）/ climax（クライマックス）/ ending（エンディング）",
        ),
    ]
    scene_player: Annotated[str, field("シーンプレイヤー")]
    present: Annotated[list[str], field("登場しているキャラクター")] = []
    topics: Annotated[list[str], field("話題", "シーン中に話題に出た物事")] = []
    """Things and ideas talked about in the scene (a パス to them is allowed, YD-22)."""


class Continuous(msgspec.Struct, frozen=True, kw_only=True):
    """A 継続判定 in progress (YD-16 … YD-20)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(title="継続判定", description="進行中の継続判定")

    continuous_id: Annotated[str, field("継続判定", "継続判定のID")]
    target_points: Annotated[int, field("目標ポイント")]
    ability: Annotated[str, field("能力値", "判定に使う能力値")]
    round_limit: Annotated[int, field("制限ラウンド")]
    accident: Annotated[str, field("アクシデント", "GMが宣言したアクシデント")] = ""
    round: Annotated[int, field("ラウンド")] = 1
    points: Annotated[int, field("ポイント", "集めたポイント")] = 0
    chain_target: Annotated[
        dict[str, int], field("連続判定の目標値", "キャラクターごとの次の目標値")
    ] = {}
    """Per character: the target of the next roll of its running chain."""
    done_this_round: Annotated[list[str], field("このラウンドの判定を終えた")] = []
    finished: Annotated[bool, field("終了")] = False
    success: Annotated[bool | None, field("成功", "空なら難易度なし")] = None


class Attack(msgspec.Struct, frozen=True, kw_only=True):
    """A declared attack waiting for the defence step (YD-42)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(title="攻撃", description="防御を待つ攻撃")

    attack_id: Annotated[str, field("攻撃", "攻撃のID")]
    attacker: Annotated[str, field("攻撃者", "攻撃したキャラクターのID")]
    target: Annotated[str, field("目標", "攻撃の目標のキャラクターID")]
    hit: Annotated[Check, field("命中判定")]
    power: Annotated[int, field("攻撃力")] = 0
    skill_bonus: Annotated[int, field("特技のダメージ")] = 0
    attribute: Annotated[str, field("攻撃属性")] = ""
    called_shot: Annotated[str | None, field("武器狙い", "狙ったアイテム")] = None
    ambush: Annotated[bool, field("不意打ち")] = False
    statuses: Annotated[dict[BadStatus, int], field("バッドステータス", "名前→X（毒X）")] = {}
    covered_by: Annotated[str | None, field("かばったキャラクター")] = None


class Combat(msgspec.Struct, frozen=True, kw_only=True):
    """Round progression (ラウンド進行, YD-29 … YD-41)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(title="戦闘", description="ラウンド進行")

    round: Annotated[int, field("ラウンド")] = 1
    process: Annotated[
        Process,
        field(
            "プロセス",
            "setup（セットアップ）/ initiative（イニシアチブ）/ main（メイン）/ cleanup（クリンナップ）",
        ),
    ] = Process.SETUP
    participants: Annotated[list[str], field("参加者")] = []
    engagements: Annotated[
        dict[str, list[str]], field("エンゲージ", "エンゲージごとのキャラクター")
    ] = {}
    blockers: Annotated[
        dict[str, list[str]], field("封鎖", "エンゲージごとの封鎖したキャラクター")
    ] = {}
    actor: Annotated[str | None, field("手番", "メインプロセスのキャラクターID")] = None
    waiting: Annotated[list[str], field("待機中")] = []
    minor_done: Annotated[bool, field("マイナーアクション済み")] = False
    major_done: Annotated[bool, field("メジャーアクション済み")] = False
    surprised: Annotated[list[str], field("不意打ちを受けた")] = []
    next_engagement: Annotated[int, field("次のエンゲージ番号")] = 1


class Game(msgspec.Struct, frozen=True, kw_only=True):
    """The whole 澱み流れ state of a table."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="澱み流れの卓の状態", description="キャラクター・「流れ」・シーン・戦闘"
    )

    phase: Annotated[
        Phase,
        field(
            "段階",
            "preplay（プリプレイ）/ scene（シーン）/ scene_end（シーン終了時）/ between（シーンの間）/ finished（終了）",
        ),
    ] = Phase.PREPLAY
    trailer: Annotated[str, field("トレーラー")] = ""
    handouts: Annotated[dict[str, str], field("ハンドアウト", "PCごと")] = {}
    introductions: Annotated[dict[str, str], field("キャラクター紹介")] = {}
    chars: Annotated[dict[str, CharState], field("キャラクター", "キャラクターごとの現在値")] = {}
    deck: Annotated[list[Card], field("山札", "上から順のカード（サーバーだけが知る）")] = []
    """The draw pile, top first. Only the server sees it (view: a count)."""
    hands: Annotated[dict[str, list[Card]], field("手札", "キャラクターごとの「流れ」")] = {}
    discards: Annotated[list[Card], field("捨て札", "裏向き")] = []
    shuffled: Annotated[bool, field("山札を切った")] = False
    last_check: Annotated[dict[str, Check], field("最新の判定", "キャラクターごと")] = {}
    scene: Annotated[Scene | None, field("シーン")] = None
    scene_count: Annotated[int, field("シーン数", "これまでのシーンの数")] = 0
    continuous: Annotated[dict[str, Continuous], field("継続判定")] = {}
    combat: Annotated[Combat | None, field("戦闘")] = None
    attacks: Annotated[dict[str, Attack], field("防御待ちの攻撃", "攻撃IDごと")] = {}
