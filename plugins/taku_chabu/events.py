"""Events of the ``chabu`` ruleset (tags ``chabu.<fact>``).

Every face rolled is a field (a :class:`~taku.core.dice.Roll`), so a fold or a
replay never rolls again; the fields record facts (the 【判定値】, the value
read, the HP before and after), never instructions.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from taku.core.dice import Roll
from taku.core.events import Event
from taku_chabu.options import Range
from taku_chabu.state import Condition, Cost

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

    character_id: str | None = None
    purpose: Literal["check", "hit", "evasion"] = "check"
    label: str = ""
    target: int
    roll: Roll
    value: int
    success: bool
    tatsujin: bool = False
    ukatsu: bool = False
    declaration: str | None = None


class OpposedRound(msgspec.Struct, frozen=True, kw_only=True):
    """One roll of both sides of a 対抗判定."""

    a_roll: Roll
    a_value: int
    a_success: bool
    b_roll: Roll
    b_value: int
    b_success: bool


class OpposedRolled(Event, frozen=True, kw_only=True, tag="chabu.opposed_rolled"):
    """A 対抗判定 (CH-09) with every reroll.

    Attributes:
        a, b: the characters (``None`` for a bare value); a_target, b_target their 【判定値】.
        rounds: every roll pair, the last one decides.
        winner: ``a``, ``b`` or ``draw`` (only with ``opposed_both_fail = draw`` or the reroll guard).
    """

    label: str = ""
    a: str | None = None
    b: str | None = None
    a_target: int
    b_target: int
    rounds: tuple[OpposedRound, ...]
    winner: Literal["a", "b", "draw"]


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

    declaration: str | None = None
    attacker: str | None = None
    target: str | None = None
    power: int
    dl: int
    roll: Roll
    doubled: bool = False
    self_hit: bool = False
    total: int
    hp_before: int = 0
    hp_after: int = 0


class AttackDeclared(Event, frozen=True, kw_only=True, tag="chabu.attack_declared"):
    """An attack is declared: equipment or 特技, targets, 【判定値】, 威力 (CH-19, CH-20, CH-23)."""

    declaration: str
    attacker: str
    equipment: str | None = None
    tokugi: str | None = None
    targets: tuple[str, ...]
    check: int
    power: int | None = None
    modifier: int = 0
    is_action: bool = True
    held: bool = False


class CheckDeclared(Event, frozen=True, kw_only=True, tag="chabu.check_declared"):
    """A 判定 is declared and held for 刹那 answers (CH-27)."""

    declaration: str
    character_id: str
    label: str = ""
    check: int
    modifier: int = 0


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

    character_id: str
    tokugi: str
    timing: str
    targets: tuple[str, ...] = ()
    cost: Cost = Cost()
    hp_before: int = 0
    hp_after: int = 0
    ingaoho_before: int = 0
    ingaoho_after: int = 0
    died: bool = False
    resolved: bool = True
    answers: str | None = None
    declaration: str | None = None
    effect: str = ""
    until_end_phase: bool = False
    is_action: bool = False
    attack: bool = False
    tatsujin_for_wazamae: int = 0


class EvasionDeclined(Event, frozen=True, kw_only=True, tag="chabu.evasion_declined"):
    """A target takes the hit without a 回避判定."""

    declaration: str
    character_id: str


class DeclarationClosed(Event, frozen=True, kw_only=True, tag="chabu.declaration_closed"):
    """The declaration is resolved; a 活劇 makes its character 行動完了 (CH-16).

    ``outcome``: ``hit``, ``missed``, ``evaded``, ``self_hit``, ``success``,
    ``failure``, ``resolved`` or ``void`` (the declarer died before it resolved).
    ``lasting``: a held 特技's effect now lasts until the エンドフェイズ.
    """

    declaration: str
    character_id: str
    outcome: str = ""
    is_action: bool = False
    lasting: bool = False


class Died(Event, frozen=True, kw_only=True, tag="chabu.died"):
    """死亡 (CH-25): DL 0 and HP 0, or インガオホー値 100 or more."""

    character_id: str
    cause: Literal["hp", "ingaoho"]


class ValueAdjusted(Event, frozen=True, kw_only=True, tag="chabu.value_adjusted"):
    """The GM changed a character's HP, インガオホー値 or counter."""

    character_id: str
    key: str
    before: int
    after: int
    reason: str = ""


class CounterSpent(Event, frozen=True, kw_only=True, tag="chabu.counter_spent"):
    """A タツジン / ワザマエカウンター is spent (CH-07); ワザマエ raises インガオホー値.

    ``descension``: a 死亡 DL 0 character spent a ワザマエカウンター on
    「ディセンション」 and is 死亡 no more (CH-25; the details are in the
    missing part of the text, so the GM then sets its new DL and HP).
    """

    character_id: str
    counter: Literal["tatsujin", "wazamae"]
    ingaoho_before: int = 0
    ingaoho_after: int = 0
    note: str = ""
    descension: bool = False


class RangeSet(Event, frozen=True, kw_only=True, tag="chabu.range_set"):
    """The GM set where ``b`` is from ``a`` (CH-18)."""

    a: str
    b: str
    range: Range
    both: bool = True


class CombatStarted(Event, frozen=True, kw_only=True, tag="chabu.combat_started"):
    """ラウンド進行 starts with the GM's victory and defeat conditions (CH-10)."""

    victory: Condition
    defeat: Condition
    participants: tuple[str, ...]
    agreed_order: tuple[str, ...] = ()


class OrderAgreed(Event, frozen=True, kw_only=True, tag="chabu.order_agreed"):
    """The agreed order for the last initiative ties (CH-12)."""

    agreed_order: tuple[str, ...]


class RoundStarted(Event, frozen=True, kw_only=True, tag="chabu.round_started"):
    """イニシアティヴ決定フェイズ (CH-11, CH-12): who is 未行動, in acting order."""

    number: int
    order: tuple[str, ...]


class Waited(Event, frozen=True, kw_only=True, tag="chabu.waited"):
    """待機宣言 (CH-14)."""

    character_id: str


class Moved(Event, frozen=True, kw_only=True, tag="chabu.moved"):
    """移動, a 活劇 (CH-16): the character is 行動完了."""

    character_id: str
    note: str = ""


class ActionPassed(Event, frozen=True, kw_only=True, tag="chabu.action_passed"):
    """行動放棄 (CH-15): the character is 行動完了 at once."""

    character_id: str


class RoundEnded(Event, frozen=True, kw_only=True, tag="chabu.round_ended"):
    """エンドフェイズ (CH-17): effects lasting to it end."""

    number: int
    cleared: tuple[tuple[str, str], ...] = ()


class CombatEnded(Event, frozen=True, kw_only=True, tag="chabu.combat_ended"):
    """ラウンド進行 ends: a condition holds (CH-10) or the GM stopped it."""

    outcome: Literal["victory", "defeat", "aborted"]
    reason: str = ""


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
