"""The events of 澱み流れ (tags ``yodomi.<fact>``).

Events record facts with their results (the faces rolled, the values after
damage), so :func:`taku_yodomi.decider.evolve` only copies them into the state.
Hidden facts come in pairs: the full event (``Private``, seen by its audience)
and a ``…Notice`` event that everyone else receives at the same seq, naming
counts only (``CardsDealt`` / ``CardsDealtNotice``). ``DeckShuffled`` has an
empty audience: nobody but the server ever sees a deck order.
"""

from __future__ import annotations

from taku.core.dice import Roll, Shuffle
from taku.core.events import Event

from taku_yodomi.state import Attack, Check, Combat, Continuous, Path, Scene

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
    text: str


class HandoutGiven(Event, frozen=True, kw_only=True, tag="yodomi.handout_given"):
    character_id: str
    text: str


class CharacterIntroduced(Event, frozen=True, kw_only=True, tag="yodomi.character_introduced"):
    character_id: str
    text: str


class KeyNumberRolled(Event, frozen=True, kw_only=True, tag="yodomi.key_number_rolled"):
    """1D9 moved by the 変動値, rerolled until it is 1-9 (YD-71, G-YD-05). ``rolls`` are d10s, 10 read as 0."""

    character_id: str
    rolls: tuple[Roll, ...]
    variation: int = 0
    key_number: int


class SuitChosen(Event, frozen=True, kw_only=True, tag="yodomi.suit_chosen"):
    character_id: str
    suit: str


# --------------------------------------------------------------------------- the 流れ deck


class DeckShuffled(Event, frozen=True, kw_only=True, tag="yodomi.deck_shuffled"):
    """The draw pile's new order (audience: nobody). ``reshuffle``: the discards were shuffled."""

    shuffle: Shuffle
    deck: tuple[str, ...]
    reshuffle: bool = False


class DeckShuffledNotice(Event, frozen=True, kw_only=True, tag="yodomi.deck_shuffled_notice"):
    """What everyone sees of a shuffle: how many cards, never their order."""

    count: int
    reshuffle: bool = False


class CardsDealt(Event, frozen=True, kw_only=True, tag="yodomi.cards_dealt"):
    """The top ``cards`` of the deck went to ``character_id``'s hand (audience: its player)."""

    character_id: str
    cards: tuple[str, ...]
    reason: str = ""


class CardsDealtNotice(Event, frozen=True, kw_only=True, tag="yodomi.cards_dealt_notice"):
    character_id: str
    count: int
    reason: str = ""


class CardsGiven(Event, frozen=True, kw_only=True, tag="yodomi.cards_given"):
    """Cards passed from one hand to another (audience: the two players)."""

    from_character: str
    to_character: str
    cards: tuple[str, ...]


class CardsGivenNotice(Event, frozen=True, kw_only=True, tag="yodomi.cards_given_notice"):
    from_character: str
    to_character: str
    count: int


class CardsDiscarded(Event, frozen=True, kw_only=True, tag="yodomi.cards_discarded"):
    """Cards put face down on the discards (cut-down, 蝕み, 澱みとしての生 …; audience: the player)."""

    character_id: str
    cards: tuple[str, ...]
    reason: str = ""


class CardsDiscardedNotice(Event, frozen=True, kw_only=True, tag="yodomi.cards_discarded_notice"):
    character_id: str
    count: int
    reason: str = ""


class CardsPlayed(Event, frozen=True, kw_only=True, tag="yodomi.cards_played"):
    """Cards played face up on a check (public): ``bonus`` raises its 達成値 or target (YD-25, YD-26)."""

    character_id: str
    check_id: str
    cards: tuple[str, ...]
    bonus: int
    counted: str | None = None


# --------------------------------------------------------------------------- checks


class CheckRolled(Event, frozen=True, kw_only=True, tag="yodomi.check_rolled"):
    """A 2D9 or D99 check (YD-03, YD-11), with every face rolled."""

    check: Check


class CheckBoosted(Event, frozen=True, kw_only=True, tag="yodomi.check_boosted"):
    """The check after 流れ were played on it (G-YD-06: after the roll)."""

    check: Check


class ContestResolved(Event, frozen=True, kw_only=True, tag="yodomi.contest_resolved"):
    """A 対決: the higher 達成値 wins, ties to the reaction side (YD-14)."""

    action_check: str
    reaction_check: str
    action_value: int
    reaction_value: int
    winner: str


class ContinuousStarted(Event, frozen=True, kw_only=True, tag="yodomi.continuous_started"):
    continuous: Continuous


class ContinuousRolled(Event, frozen=True, kw_only=True, tag="yodomi.continuous_rolled"):
    """One D99 of a 継続判定 chain and what it earned (YD-16 … YD-18)."""

    continuous_id: str
    character_id: str
    check_id: str
    gained: int
    points: int
    next_target: int | None = None
    accident_roll: Roll | None = None
    accident_points: int = 0
    finished: bool = False
    success: bool | None = None
    accident: str = ""
    """A fumble set off the accident the GM declared (YD-18); then no points are lost by dice."""


class ContinuousRoundAdvanced(Event, frozen=True, kw_only=True, tag="yodomi.continuous_round_advanced"):
    continuous_id: str
    round: int
    finished: bool = False
    success: bool | None = None


# --------------------------------------------------------------------------- scenes (YD-71 … YD-77)


class SceneStarted(Event, frozen=True, kw_only=True, tag="yodomi.scene_started"):
    scene: Scene
    recovered: tuple[str, ...] = ()
    """戦闘不能 characters back at 【PP】1 (YD-48)."""


class SceneEntered(Event, frozen=True, kw_only=True, tag="yodomi.scene_entered"):
    character_id: str
    check_id: str | None = None


class SceneLeft(Event, frozen=True, kw_only=True, tag="yodomi.scene_left"):
    character_id: str


class TopicNoted(Event, frozen=True, kw_only=True, tag="yodomi.topic_noted"):
    """A thing or idea talked about in the scene (a パス to it becomes possible)."""

    text: str


class SceneEnded(Event, frozen=True, kw_only=True, tag="yodomi.scene_ended"):
    number: int
    vanished: tuple[str, ...] = ()
    poison_cleared: tuple[str, ...] = ()


class BackstageRecovered(Event, frozen=True, kw_only=True, tag="yodomi.backstage_recovered"):
    """舞台裏: 【PP】 +2D10 (G-YD-02: faces 1-10)."""

    character_id: str
    roll: Roll
    pp: int


class BackstageSkillUsed(Event, frozen=True, kw_only=True, tag="yodomi.backstage_skill_used"):
    character_id: str
    skill: str


class PathGained(Event, frozen=True, kw_only=True, tag="yodomi.path_gained"):
    character_id: str
    path: Path


class EmotionChanged(Event, frozen=True, kw_only=True, tag="yodomi.emotion_changed"):
    character_id: str
    target: str
    emotion: str


class SceneEndClosed(Event, frozen=True, kw_only=True, tag="yodomi.scene_end_closed"):
    number: int
    final: bool = False


class PurchaseRolled(Event, frozen=True, kw_only=True, tag="yodomi.purchase_rolled"):
    """A 購入判定: the 【社会】 check plus 財産点 spent (at most 【社会】, YD-77)."""

    character_id: str
    check_id: str
    wealth_spent: int
    wealth: int
    total: int
    backstage: bool = False


# --------------------------------------------------------------------------- damage and states


class Damaged(Event, frozen=True, kw_only=True, tag="yodomi.damaged"):
    """Damage after defence and 防御属性 (YD-44 … YD-46); the values after it."""

    character_id: str
    amount: int
    attribute: str = ""
    halved: bool = False
    to: str = "pp"
    item: str | None = None
    pp: int
    sp: int
    item_pp: int | None = None
    source: str = ""
    roll: Roll | None = None
    """The dice of damage that is rolled (毒X, 極技 and 転倒 4D6)."""


class ConditionChanged(Event, frozen=True, kw_only=True, tag="yodomi.condition_changed"):
    character_id: str
    condition: str
    reason: str = ""


class StatusAdded(Event, frozen=True, kw_only=True, tag="yodomi.status_added"):
    character_id: str
    status: str
    x: int = 0
    by: str | None = None
    item: str | None = None


class StatusRemoved(Event, frozen=True, kw_only=True, tag="yodomi.status_removed"):
    character_id: str
    status: str
    reason: str = ""
    item: str | None = None


class CostPaid(Event, frozen=True, kw_only=True, tag="yodomi.cost_paid"):
    """A cost paid (YD-35); ``pp``/``sp`` are the values after it. ``intuition_due``: 【PP】
    reached 0, so the character must make 直感把握."""

    character_id: str
    pp_paid: int = 0
    sp_paid: int = 0
    pp: int
    sp: int
    flow_cards: int = 0
    what: str = ""
    intuition_due: bool = False


class ConversionResolved(Event, frozen=True, kw_only=True, tag="yodomi.conversion_resolved"):
    """強制転換 (YD-49): ``success``, ``full`` (完全転換), ``failure`` or ``complete_failure`` (death)."""

    character_id: str
    check_id: str
    outcome: str
    pp: int
    sp: int


class FullConversionDone(Event, frozen=True, kw_only=True, tag="yodomi.full_conversion_done"):
    character_id: str
    amount: int
    pp: int
    sp: int


class DeathChosen(Event, frozen=True, kw_only=True, tag="yodomi.death_chosen"):
    """流れとしての死 or 澱みとしての生 (YD-51, YD-52)."""

    character_id: str
    choice: str
    sp: int


class FlagChanged(Event, frozen=True, kw_only=True, tag="yodomi.flag_changed"):
    """A spot-rule state: ``flying``, ``stealth`` or ``passenger_of`` (value: the rider or None)."""

    character_id: str
    flag: str
    value: bool | str | None = None


# --------------------------------------------------------------------------- combat


class CombatStarted(Event, frozen=True, kw_only=True, tag="yodomi.combat_started"):
    combat: Combat


class SetupDone(Event, frozen=True, kw_only=True, tag="yodomi.setup_done"):
    """Setup process: who is 未行動 this round and who stays 行動済み (不意打ち)."""

    round: int
    unacted: tuple[str, ...]
    acted: tuple[str, ...] = ()


class ActorChosen(Event, frozen=True, kw_only=True, tag="yodomi.actor_chosen"):
    """Initiative process: who acts next (``None``: everyone acted, on to cleanup)."""

    character_id: str | None = None


class Waited(Event, frozen=True, kw_only=True, tag="yodomi.waited"):
    character_id: str


class ActionUsed(Event, frozen=True, kw_only=True, tag="yodomi.action_used"):
    character_id: str
    action: str
    what: str = ""


class CleanupDone(Event, frozen=True, kw_only=True, tag="yodomi.cleanup_done"):
    round: int
    poison_rolls: tuple[Roll, ...] = ()


class CombatEnded(Event, frozen=True, kw_only=True, tag="yodomi.combat_ended"):
    rounds: int


class Moved(Event, frozen=True, kw_only=True, tag="yodomi.moved"):
    """移動 into ``engagement`` (or 離脱 into a new one: ``disengage``); passengers move along."""

    character_id: str
    engagement: str
    passengers: tuple[str, ...] = ()
    disengage: bool = False


class DisengageFailed(Event, frozen=True, kw_only=True, tag="yodomi.disengage_failed"):
    """A 離脱 from a 封鎖 engagement lost the 行動値 対決 against ``blocker``."""

    character_id: str
    blocker: str


class Blocked(Event, frozen=True, kw_only=True, tag="yodomi.blocked"):
    character_id: str
    engagement: str


class AttackDeclared(Event, frozen=True, kw_only=True, tag="yodomi.attack_declared"):
    attack: Attack


class Covered(Event, frozen=True, kw_only=True, tag="yodomi.covered"):
    attack_id: str
    character_id: str


class AttackResolved(Event, frozen=True, kw_only=True, tag="yodomi.attack_resolved"):
    """命中決定 (YD-42): ``winner`` is ``attacker`` or ``defender``; ``countered`` for 突き返し."""

    attack_id: str
    winner: str
    defence_check: str | None = None
    countered: bool = False
    fumble: bool = False


ALL_EVENTS: tuple[type[Event], ...] = tuple(
    globals()[n] for n in __all__ if n != "ALL_EVENTS"
)
