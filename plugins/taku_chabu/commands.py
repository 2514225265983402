"""Commands of the ``chabu`` ruleset (tags ``chabu.<verb>``).

A character is named by its id (``c5``); equipment and 特技 by their names on
the sheet. GM-only commands say so. Every command either writes all its events
or is rejected with ``rule/chabu/<reason>`` and writes nothing.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from taku.core.commands import Command
from taku_chabu.options import Range
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


class Check(Command, frozen=True, kw_only=True, tag="chabu.check"):
    """A 判定: 1d100 at or under the 【判定値】 (チャブ ■■基本判定ルール■■, CH-05…CH-08).

    The 【判定値】 is ``ability`` + ``skill`` from the character's sheet (the
    ability alone when the character lacks the skill), or ``value`` as the GM
    names it, plus ``modifier`` (GM's judgment or a 特技's effect).
    ``hold`` waits for 刹那 answers and ``chabu.proceed`` before rolling.
    """

    character_id: str
    ability: str | None = None
    skill: str | None = None
    value: int | None = None
    modifier: int = 0
    label: str = ""
    hold: bool = False


class OpposedSide(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One side of an opposed check: a character and its 【判定値】 (or a bare ``value``)."""

    character_id: str | None = None
    ability: str | None = None
    skill: str | None = None
    value: int | None = None


class OpposedCheck(Command, frozen=True, kw_only=True, tag="chabu.opposed_check"):
    """A 対抗判定 (チャブ ■対抗判定, CH-09): both sides roll with their own 【判定値】 (G-CH-05)."""

    a: OpposedSide
    b: OpposedSide
    label: str = ""


class Attack(Command, frozen=True, kw_only=True, tag="chabu.attack"):
    """An attack without a 特技 (活劇): declare ``equipment`` and ``targets`` (チャブ ■命中判定, CH-19).

    The hit check uses the 【判定値】 written on the equipment. ``hold`` waits
    for 刹那 answers and ``chabu.proceed``.
    """

    character_id: str
    equipment: str
    targets: list[str]
    modifier: int = 0
    hold: bool = False


class UseTokugi(Command, frozen=True, kw_only=True, tag="chabu.use_tokugi"):
    """Use a 特技 (チャブ ■■特技の使用■■, CH-26…CH-30).

    活劇 特技 are the character's action in a round; 刹那 特技 answer the
    pending declaration. An attacking 特技 rolls its own 【判定値】 and adds the
    威力 of ``equipment`` (or the one worn item) of the 分類 it names.

    A ワザマエカウンター in the コスト may be paid with a タツジンカウンター,
    which "「ワザマエカウンター」と同様に使用できる" (CH-07): ワザマエ first and
    the shortfall in タツジン, or タツジン first with ``prefer_tatsujin``.
    """

    character_id: str
    tokugi: str
    targets: list[str] = []
    equipment: str | None = None
    modifier: int = 0
    hold: bool = False
    prefer_tatsujin: bool = False


class Proceed(Command, frozen=True, kw_only=True, tag="chabu.proceed"):
    """Resolve the held declaration once 刹那 answers are in (the declarer or the GM).

    ``modifier`` is added to its 【判定値】 (the effect of a 刹那 特技, GM's judgment).
    """

    modifier: int = 0


class Evade(Command, frozen=True, kw_only=True, tag="chabu.evade"):
    """A 回避判定 against the pending hit: the 反応 ability (チャブ ■回避判定, CH-21)."""

    character_id: str
    modifier: int = 0


class Decline(Command, frozen=True, kw_only=True, tag="chabu.decline"):
    """Take the pending hit without a 回避判定."""

    character_id: str


class Move(Command, frozen=True, kw_only=True, tag="chabu.move"):
    """移動, a 活劇 (CH-16). The GM then sets the new ranges (``chabu.set_range``)."""

    character_id: str
    note: str = ""


class Wait(Command, frozen=True, kw_only=True, tag="chabu.wait"):
    """待機宣言 (CH-14): act after every character who did not wait."""

    character_id: str


class PassAction(Command, frozen=True, kw_only=True, tag="chabu.pass"):
    """行動放棄 (CH-15): the character is 行動完了 at once."""

    character_id: str


class StartCombat(Command, frozen=True, kw_only=True, tag="chabu.start_combat"):
    """GM: start ラウンド進行 with the victory and defeat conditions (CH-10).

    ``participants`` defaults to every character not 死亡, in creation order;
    ``agreed_order`` is the players' agreed order for the last ties (CH-12).
    """

    gm_only = True

    victory: Condition
    defeat: Condition
    participants: list[str] | None = None
    agreed_order: list[str] = []


class SetOrder(Command, frozen=True, kw_only=True, tag="chabu.set_order"):
    """GM: the agreed order for initiative ties, used from the next イニシアティヴ決定フェイズ."""

    gm_only = True

    agreed_order: list[str]


class EndCombat(Command, frozen=True, kw_only=True, tag="chabu.end_combat"):
    """GM: a condition holds that the server cannot see (a ``manual`` condition)."""

    gm_only = True

    outcome: Literal["victory", "defeat", "aborted"]
    reason: str = ""


class SetRange(Command, frozen=True, kw_only=True, tag="chabu.set_range"):
    """GM: where ``b`` is from ``a`` (and, with ``both``, ``a`` from ``b``) (CH-18)."""

    gm_only = True

    a: str
    b: str
    range: Range
    both: bool = True


class Adjust(Command, frozen=True, kw_only=True, tag="chabu.adjust"):
    """GM: change a character's HP, インガオホー値 or counters by ``delta`` or to ``value``.

    Unlike a raw ``override``, the consequences follow: HP 0 is 戦闘不能,
    インガオホー値 100 is 死亡, and a combat condition may end the combat.
    """

    gm_only = True

    character_id: str
    key: Literal["hp", "ingaoho", "tatsujin", "wazamae"]
    delta: int | None = None
    value: int | None = None
    reason: str = ""


class SpendCounter(Command, frozen=True, kw_only=True, tag="chabu.spend_counter"):
    """Spend a タツジン or ワザマエカウンター (CH-07); its effect is the GM's (G-CH-02).

    A ワザマエカウンター raises インガオホー値 by the option ``wazamae_ingaoho``;
    a タツジンカウンター never does. Spent by a 死亡 DL 0 character, either
    counter is ディセンション and lifts 死亡 (CH-25; a タツジンカウンター is used
    like a ワザマエカウンター, CH-07).
    """

    character_id: str
    counter: Literal["tatsujin", "wazamae"]
    note: str = ""


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
