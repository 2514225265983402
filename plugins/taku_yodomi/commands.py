"""The commands of 澱み流れ (tags ``yodomi.<verb>``).

Check commands share these fields: ``modifier`` (declared modifiers),
``key_reroll`` (if a die shows the character's key number and the roll is not
already a double, reroll both dice once: YD-09, G-YD-03) and ``cards`` (流れ
played with the roll; more may be played afterwards with :class:`PlayCards`).
Cards are written ``"♦10"``, ``"D10"``, ``"♠A"``, ``"JK1"``.
"""

from __future__ import annotations

from typing import Literal

from taku.core.commands import Command

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


# --------------------------------------------------------------------------- pre-play


class ReadTrailer(Command, frozen=True, kw_only=True, tag="yodomi.read_trailer"):
    """GM: the trailer (YD-71)."""

    gm_only = True

    text: str


class GiveHandout(Command, frozen=True, kw_only=True, tag="yodomi.give_handout"):
    """GM: a handout for a PC."""

    gm_only = True

    character_id: str
    text: str


class Introduce(Command, frozen=True, kw_only=True, tag="yodomi.introduce"):
    character_id: str
    text: str


class RollKeyNumber(Command, frozen=True, kw_only=True, tag="yodomi.roll_key_number"):
    """1D9 moved by the 変動値 (sheet ``variation``), rerolled until it is 1-9."""

    character_id: str


class ChooseSuit(Command, frozen=True, kw_only=True, tag="yodomi.choose_suit"):
    character_id: str
    suit: str


# --------------------------------------------------------------------------- the 流れ deck


class DealCards(Command, frozen=True, kw_only=True, tag="yodomi.deal_cards"):
    """GM: the top ``count`` cards of the deck to a character (YD-23)."""

    gm_only = True

    character_id: str
    count: int = 1


class GiveCards(Command, frozen=True, kw_only=True, tag="yodomi.give_cards"):
    """A player passes 流れ from their character's hand to another (YD-23)."""

    from_character: str
    to_character: str
    cards: list[str]


class PlayCards(Command, frozen=True, kw_only=True, tag="yodomi.play_cards"):
    """Play 流れ on a check already rolled (the character's latest check, or an attack's hit check)."""

    check_id: str
    cards: list[str]


class CutHand(Command, frozen=True, kw_only=True, tag="yodomi.cut_hand"):
    """At scene end, after the パス step: discard the chosen cards (YD-24)."""

    character_id: str
    cards: list[str]


# --------------------------------------------------------------------------- checks


class RollCheck(Command, frozen=True, kw_only=True, tag="yodomi.roll_check"):
    """A 2D9 check (``kind="2d9"``: 達成値 = ``value`` + ability + dice + modifier, against
    ``difficulty``) or a D99 check (``kind="d99"``: success below ``value`` + ability
    (+ 【PP】 with ``add_pp``) + modifier). ``no_roll``: the side cannot roll (YD-15)."""

    character_id: str | None = None
    kind: Literal["2d9", "d99"] = "2d9"
    value: int = 0
    ability: str | None = None
    add_pp: bool = False
    add_sp: bool = False
    modifier: int = 0
    difficulty: int | None = None
    label: str = ""
    no_roll: bool = False
    key_reroll: bool = False
    cards: list[str] = []


class Contest(Command, frozen=True, kw_only=True, tag="yodomi.contest"):
    """Decide a 対決 between two rolled 2D9 checks (YD-14)."""

    action_check: str
    reaction_check: str


class StartContinuous(Command, frozen=True, kw_only=True, tag="yodomi.start_continuous"):
    """GM: a 継続判定 with its target points, ability, accident and round limit (YD-16)."""

    gm_only = True

    target_points: int
    ability: str
    round_limit: int
    accident: str = ""


class RollContinuous(Command, frozen=True, kw_only=True, tag="yodomi.roll_continuous"):
    """One D99 of a 継続判定: the first of a round against ability + 【PP】, then (``chain``)
    against the last number rolled."""

    continuous_id: str
    character_id: str
    modifier: int = 0
    key_reroll: bool = False
    cards: list[str] = []


class AdvanceContinuous(Command, frozen=True, kw_only=True, tag="yodomi.advance_continuous"):
    """GM: the next round of a 継続判定 (chains end; the round limit is checked)."""

    gm_only = True

    continuous_id: str


class Intuition(Command, frozen=True, kw_only=True, tag="yodomi.intuition"):
    """直感把握: D99 against 【PP】 + an ability; 流れ allowed (YD-21)."""

    character_id: str
    ability: str
    modifier: int = 0
    key_reroll: bool = False
    cards: list[str] = []


class Purchase(Command, frozen=True, kw_only=True, tag="yodomi.purchase"):
    """購入判定: a 2D9 【社会】 check, plus 財産点 spent (at most 【社会】); once a scene, once in 舞台裏."""

    character_id: str
    wealth: int = 0
    backstage: bool = False
    modifier: int = 0
    key_reroll: bool = False
    cards: list[str] = []


# --------------------------------------------------------------------------- scenes


class StartScene(Command, frozen=True, kw_only=True, tag="yodomi.start_scene"):
    """GM: a scene with its scene player (YD-72, YD-73); ``present`` appear without a check."""

    gm_only = True

    kind: Literal["opening", "middle", "climax", "ending"]
    scene_player: str
    present: list[str] = []


class EnterScene(Command, frozen=True, kw_only=True, tag="yodomi.enter_scene"):
    """登場判定: D99 against current 【PP】 (no equipment), +20 with a パス target in the scene (YD-74)."""

    character_id: str
    modifier: int = 0
    key_reroll: bool = False
    cards: list[str] = []


class LeaveScene(Command, frozen=True, kw_only=True, tag="yodomi.leave_scene"):
    """Leave the scene; when the scene player leaves, the scene ends (YD-73)."""

    character_id: str


class NoteTopic(Command, frozen=True, kw_only=True, tag="yodomi.note_topic"):
    """Note a thing or idea talked about in this scene (a later パス target)."""

    text: str


class EndScene(Command, frozen=True, kw_only=True, tag="yodomi.end_scene"):
    """GM: end the scene; 舞台裏, パス and the 流れ adjustment follow (YD-76)."""

    gm_only = True


class Backstage(Command, frozen=True, kw_only=True, tag="yodomi.backstage"):
    """舞台裏 for a PC that was not in the scene: 【PP】 +2D10 (YD-75)."""

    character_id: str


class BackstageSkill(Command, frozen=True, kw_only=True, tag="yodomi.backstage_skill"):
    character_id: str
    skill: str


class GainPath(Command, frozen=True, kw_only=True, tag="yodomi.gain_path"):
    """A new パス (at most 7; one per scene end; a thing or idea only if it was talked about)."""

    character_id: str
    target: str
    emotion: str


class ChangeEmotion(Command, frozen=True, kw_only=True, tag="yodomi.change_emotion"):
    character_id: str
    target: str
    emotion: str


class CloseSceneEnd(Command, frozen=True, kw_only=True, tag="yodomi.close_scene_end"):
    """GM: finish the scene end (every hand within its パス); ``final`` ends the session."""

    gm_only = True

    final: bool = False


# --------------------------------------------------------------------------- states


class ForcedConversion(Command, frozen=True, kw_only=True, tag="yodomi.forced_conversion"):
    """強制転換: D99 against current 【SP】, no 流れ (YD-49)."""

    character_id: str
    key_reroll: bool = False


class FullConversion(Command, frozen=True, kw_only=True, tag="yodomi.full_conversion"):
    """After a 完全転換: move ``amount`` from 【SP】 to 【PP】."""

    character_id: str
    amount: int


class PayCost(Command, frozen=True, kw_only=True, tag="yodomi.pay_cost"):
    """代償の消費 (YD-35): 【PP】 (and 【SP】) a skill or weapon costs, or 流れ ``cards``.
    澱みとしての生 pays no 【PP】 and pays 10 【SP】 per 流れ instead (YD-52)."""

    character_id: str
    pp: int = 0
    sp: int = 0
    cards: list[str] = []
    what: str = ""


class ChooseDeath(Command, frozen=True, kw_only=True, tag="yodomi.choose_death"):
    """流れとしての死 (``flow``) or 澱みとしての生 (``yodomi``) (YD-50 … YD-52)."""

    character_id: str
    choice: Literal["flow", "yodomi"]


class AddStatus(Command, frozen=True, kw_only=True, tag="yodomi.add_status"):
    """GM (or an effect): give a bad status; ``x`` for 毒X, ``item`` for 使用不能, ``by`` for 極技."""

    gm_only = True

    character_id: str
    status: str
    x: int = 0
    item: str | None = None
    by: str | None = None


class RemoveStatus(Command, frozen=True, kw_only=True, tag="yodomi.remove_status"):
    """Remove a bad status with a minor action; 蝕み by discarding one 流れ (``card``)."""

    character_id: str
    status: str
    item: str | None = None
    card: str | None = None


# --------------------------------------------------------------------------- combat


class StartCombat(Command, frozen=True, kw_only=True, tag="yodomi.start_combat"):
    """GM: round progression with these engagements (lists of character ids)."""

    gm_only = True

    engagements: list[list[str]]
    surprised: list[str] = []


class AdvanceRound(Command, frozen=True, kw_only=True, tag="yodomi.advance"):
    """GM: run the next process step (setup, initiative, cleanup)."""

    gm_only = True


class Wait(Command, frozen=True, kw_only=True, tag="yodomi.wait"):
    """待機: act last (YD-32)."""

    character_id: str


class Minor(Command, frozen=True, kw_only=True, tag="yodomi.minor"):
    """A minor action not modelled otherwise (a skill, an equipment change)."""

    character_id: str
    what: str = ""
    major: bool = False


class Move(Command, frozen=True, kw_only=True, tag="yodomi.move"):
    """移動 into another engagement (minor, or major with ``major``)."""

    character_id: str
    engagement: str
    major: bool = False


class Disengage(Command, frozen=True, kw_only=True, tag="yodomi.disengage"):
    """離脱 (major, no roll); against 封鎖, a 行動値 対決 with every blocker."""

    character_id: str
    key_reroll: bool = False
    cards: list[str] = []


class Block(Command, frozen=True, kw_only=True, tag="yodomi.block"):
    """封鎖 one's engagement (major)."""

    character_id: str


class Hide(Command, frozen=True, kw_only=True, tag="yodomi.hide"):
    """隠密: a major action while not engaged with an enemy (YD-66)."""

    character_id: str


class SetFlying(Command, frozen=True, kw_only=True, tag="yodomi.set_flying"):
    character_id: str
    flying: bool = True


class Mount(Command, frozen=True, kw_only=True, tag="yodomi.mount"):
    """同乗 with ``rider`` (minor), or get off with ``rider=None``."""

    character_id: str
    rider: str | None = None


class EndCombat(Command, frozen=True, kw_only=True, tag="yodomi.end_combat"):
    """GM: the fight is over."""

    gm_only = True


class Attack(Command, frozen=True, kw_only=True, tag="yodomi.attack"):
    """攻撃宣言 and 命中判定 (YD-42): a 2D9 with ``value`` + ``ability``; damage
    ``power`` + ``skill_bonus`` of ``attribute`` (default: the ``ability`` used, YD-45;
    ``yodomi``: attribute 澱み)."""

    attacker: str
    target: str
    weapon: str | None = None
    value: int = 0
    ability: str | None = None
    modifier: int = 0
    power: int = 0
    skill_bonus: int = 0
    attribute: str = ""
    yodomi: bool = False
    called_shot: str | None = None
    ambush: bool = False
    statuses: dict[str, int] = {}
    key_reroll: bool = False
    cards: list[str] = []


class Cover(Command, frozen=True, kw_only=True, tag="yodomi.cover"):
    """かばう: take the attack instead (same engagement, 未行動; YD-69)."""

    attack_id: str
    character_id: str


class Defend(Command, frozen=True, kw_only=True, tag="yodomi.defend"):
    """防御判定: ``evasion`` (回避値), ``ability`` (a named stat), ``counter`` (突き返し with
    the named stat; on a win the defender deals ``counter_power``), or ``none`` (no roll)."""

    attack_id: str
    mode: Literal["evasion", "ability", "counter", "none"] = "evasion"
    ability: str | None = None
    value: int = 0
    modifier: int = 0
    counter_power: int = 0
    counter_attribute: str = ""
    key_reroll: bool = False
    cards: list[str] = []


ALL_COMMANDS: tuple[type[Command], ...] = tuple(globals()[n] for n in __all__ if n != "ALL_COMMANDS")
