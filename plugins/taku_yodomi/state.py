"""The 澱み流れ game state: characters' runtime values, the 流れ deck and hands, scenes, combat.

Everything here round-trips through ``msgspec.to_builtins``/``convert`` so the
GM's core ``override`` can set any value. The deck order and the hands are in
this state (the server folds the full log) but :mod:`taku_yodomi.view` never
shows them to anybody but a hand's owner (and the GM with ``gm_sees_hands``).
"""

from __future__ import annotations

import enum

import msgspec

from taku.core.dice import Roll

__all__ = [
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

    check_id: str
    character_id: str | None = None
    kind: str
    purpose: str = "check"
    label: str = ""
    base: int = 0
    modifier: int = 0
    penalty: int = 0
    rolls: tuple[Roll, ...] = ()
    faces: tuple[int, ...] = ()
    rerolled: bool = False
    critical: bool = False
    key_critical: bool = False
    fumble: bool = False
    no_roll: bool = False
    card_bonus: int = 0
    cards: tuple[str, ...] = ()
    value: int = 0
    target: int | None = None
    difficulty: int | None = None
    success: bool | None = None
    cards_allowed: bool = True


class Path(msgspec.Struct, frozen=True, kw_only=True):
    """A パス to a target, with the emotion toward it (YD-22)."""

    target: str
    emotion: str
    character: bool = False


class CharState(msgspec.Struct, frozen=True, kw_only=True):
    """A character's runtime values (the sheet stays in the core's Character)."""

    pp: int
    sp: int
    max_pp: int
    side: str = "pc"
    condition: Condition = Condition.ACTIVE
    acted: Acted = Acted.NONE
    statuses: dict[str, int] = {}
    """Bad statuses by name (重圧 転倒 毒 マヒ 放心 阻止 極技 水中 地中 蝕み); the value is X for 毒X."""
    disabled_items: list[str] = []
    """Weapons that are 使用不能."""
    item_pp: dict[str, int] = {}
    kiwaza_by: str | None = None
    key_number: int | None = None
    suit: str | None = None
    paths: list[Path] = []
    wealth: int = 0
    flying: bool = False
    stealth: bool = False
    passenger_of: str | None = None
    """同乗: the rider this character rides with."""
    in_scene: bool = False
    appeared: bool = False
    """Appeared in the current (or just ended) scene, even if it left since: no 舞台裏 (YD-75)."""
    last_purchase_scene: int = -1
    backstage_done: bool = False
    backstage_recovered: bool = False
    backstage_purchase_done: bool = False
    backstage_skill_done: bool = False
    path_done: bool = False
    emotion_done: bool = False
    cut_done: bool = False
    full_conversion_pending: bool = False
    receives_flow: bool = True
    destroyed_sp: int = 0
    recover_next_scene: bool = False
    intuition_due: bool = False
    """【PP】 reached 0 paying a cost: 直感把握 is due (YD-35)."""
    may_convert: bool = False
    """May try 強制転換 now: just fell to 【PP】0, or in the setup process (YD-47, YD-49)."""


class Scene(msgspec.Struct, frozen=True, kw_only=True):
    number: int
    kind: SceneKind
    scene_player: str
    present: list[str] = []
    topics: list[str] = []
    """Things and ideas talked about in the scene (a パス to them is allowed, YD-22)."""


class Continuous(msgspec.Struct, frozen=True, kw_only=True):
    """A 継続判定 in progress (YD-16 … YD-20)."""

    continuous_id: str
    target_points: int
    ability: str
    round_limit: int
    accident: str = ""
    round: int = 1
    points: int = 0
    chain_target: dict[str, int] = {}
    """Per character: the target of the next roll of its running chain."""
    done_this_round: list[str] = []
    finished: bool = False
    success: bool | None = None


class Attack(msgspec.Struct, frozen=True, kw_only=True):
    """A declared attack waiting for the defence step (YD-42)."""

    attack_id: str
    attacker: str
    target: str
    hit: Check
    power: int = 0
    skill_bonus: int = 0
    attribute: str = ""
    called_shot: str | None = None
    ambush: bool = False
    statuses: dict[str, int] = {}
    covered_by: str | None = None


class Combat(msgspec.Struct, frozen=True, kw_only=True):
    """Round progression (ラウンド進行, YD-29 … YD-41)."""

    round: int = 1
    process: Process = Process.SETUP
    participants: list[str] = []
    engagements: dict[str, list[str]] = {}
    blockers: dict[str, list[str]] = {}
    actor: str | None = None
    waiting: list[str] = []
    minor_done: bool = False
    major_done: bool = False
    surprised: list[str] = []
    next_engagement: int = 1


class Game(msgspec.Struct, frozen=True, kw_only=True):
    """The whole 澱み流れ state of a table."""

    phase: Phase = Phase.PREPLAY
    trailer: str = ""
    handouts: dict[str, str] = {}
    introductions: dict[str, str] = {}
    chars: dict[str, CharState] = {}
    deck: list[str] = []
    """The draw pile, top first. Only the server sees it (view: a count)."""
    hands: dict[str, list[str]] = {}
    discards: list[str] = []
    shuffled: bool = False
    last_check: dict[str, Check] = {}
    scene: Scene | None = None
    scene_count: int = 0
    continuous: dict[str, Continuous] = {}
    combat: Combat | None = None
    attacks: dict[str, Attack] = {}
