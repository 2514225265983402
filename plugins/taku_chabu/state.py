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

from typing import Literal

import msgspec

from taku_chabu.options import Range

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
    "Tokugi",
    "can_target",
]

Timing = Literal["katsugeki", "joji", "setsuna"]
"""特技のタイミング: 活劇 / 常時 / 刹那 (チャブ ■■特技の使用■■ ▼タイミング, CH-27)."""


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

    ability: str
    skill: str | None = None


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

    name: str
    category: str = ""
    check: CheckSpec | None = None
    power: int = 0
    range: Range = "short"
    targets: int = 1
    effect: str = ""
    equipped: bool = True


class Cost(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A 特技's コスト (CH-30): paid before the effect resolves.

    Attributes:
        ingaoho: インガオホー値 raised by this much (``"インガオホー値＋５"`` is 5).
        hp: HP paid.
        wazamae: ワザマエカウンター spent.
        tatsujin: タツジンカウンター spent.
        text: any other cost, as written (the GM applies it).
    """

    ingaoho: int = 0
    hp: int = 0
    wazamae: int = 0
    tatsujin: int = 0
    text: str = ""


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

    name: str
    timing: Timing = "katsugeki"
    range: Range | None = None
    targets: int = 0
    cost: Cost = Cost()
    effect: str = ""
    check: CheckSpec | None = None
    power: int | None = None
    attack: bool = False
    category: str | None = None
    until_end_phase: bool = False
    in_rounds_only: bool = False

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

    abilities: dict[str, int] = {}
    skills: dict[str, int] = {}
    dl: int = msgspec.field(default=0)
    hp: int = 0
    ingaoho: int = 0
    tatsujin: int = 0
    wazamae: int = 0
    equipment: list[Equipment] = []
    tokugi: list[Tokugi] = []
    pc: bool | None = None
    notes: str = ""

    def __post_init__(self) -> None:
        if self.dl < 0 or self.hp < 0 or self.ingaoho < 0 or self.tatsujin < 0 or self.wazamae < 0:
            raise ValueError("DL, HP, インガオホー値 and counters are 0 or more")
        if len({e.name for e in self.equipment}) != len(self.equipment):
            raise ValueError("equipment names must be unique")
        if len({t.name for t in self.tokugi}) != len(self.tokugi):
            raise ValueError("特技 names must be unique")
        for t in self.tokugi:
            if t.targets < 0:
                raise ValueError(f"特技 {t.name}: 対象 is 0 or more")
            if t.is_attack and t.check is None:
                raise ValueError(f"特技 {t.name}: an attacking 特技 names its 【判定値】 (check)")

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

    hp: int = 0
    ingaoho: int = 0
    tatsujin: int = 0
    wazamae: int = 0
    dead: bool = False


class Condition(msgspec.Struct, frozen=True, kw_only=True):
    """A victory or defeat condition the GM states (チャブ ■勝利条件、敗北条件, CH-10).

    Attributes:
        text: the condition as the GM says it (「襲撃者の全滅」).
        kind: how the server checks it: ``all_down`` (every listed character is
            戦闘不能 or 死亡), ``any_down``, ``all_dead``, ``any_dead``, or
            ``manual`` (the GM ends the combat with ``chabu.end_combat``).
        characters: the characters the check looks at.
    """

    text: str
    kind: Literal["all_down", "any_down", "all_dead", "any_dead", "manual"] = "manual"
    characters: list[str] = []


class RoundState(msgspec.Struct, frozen=True, kw_only=True):
    """One round of ラウンド進行 (チャブ ■戦闘の流れ).

    Attributes:
        number: 1, 2, 3 …
        order: the イニシアティヴ order: every participant who became 未行動.
        done: who is 行動完了.
        waiting: who declared 待機 (in the order they did; acting order is by ``order``).
    """

    number: int
    order: list[str] = []
    done: list[str] = []
    waiting: list[str] = []


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

    victory: Condition
    defeat: Condition
    participants: list[str] = []
    agreed_order: list[str] = []
    round: RoundState | None = None
    effects: list[tuple[str, str]] = []


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

    id: str
    kind: Literal["attack", "check", "action"]
    actor: str
    stage: Literal["declared", "evasion"] = "declared"
    is_action: bool = False
    label: str = ""
    equipment: str | None = None
    tokugi: str | None = None
    targets: list[str] = []
    check: int = 0
    power: int | None = None
    modifier: int = 0
    awaiting: list[str] = []
    doubled: list[str] = []
    hit: list[str] = []
    setsuna: list[tuple[str, str]] = []


class ChabuState(msgspec.Struct, frozen=True, kw_only=True):
    """The ``chabu`` game: characters' current values, ranges, combat, pending declaration.

    Attributes:
        chars: current values per character id.
        ranges: ``ranges[a][b]`` is where ``b`` is from ``a`` (the GM sets it, CH-18).
        combat: ラウンド進行, when one runs.
        pending: the declaration waiting for 刹那 answers or 回避判定.
        outcome: how the last combat ended (``victory`` / ``defeat``) and why.
    """

    chars: dict[str, CharState] = {}
    ranges: dict[str, dict[str, Range]] = {}
    combat: Combat | None = None
    pending: Pending | None = None
    outcome: str | None = None
