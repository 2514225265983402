"""The ruleset author's toolkit: what every ruleset needs and none should re-invent.

- :func:`rejecter`: a ruleset's ``reject(reason, message, section)``, raising
  ``rule/<ruleset>/<reason>`` with the rulebook section.
- :class:`Emit`: the events of one command, folded through the ruleset's
  ``evolve`` as they are added, so later checks see the state they leave.
- :func:`character`: a character by id (``command/unknown_character``).
- :func:`options`: the table's parsed options, typed.
- :func:`character_name`, :func:`member_name`, :func:`speaker`: names for
  rendered lines.
- :func:`secret`: an event shown only to the roller and the GM.
- :data:`ROLLER`: in a rendered line, the member who caused the event.
- :func:`timer`: a ``timer_set`` event for a turn's time limit (deadline from ``ctx.now``).

All pure (no I/O, clock or randomness).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic, NoReturn, TypeVar

from taku.core.events import GM, Event, Private, Redacted, TimerSet
from taku.errors import InvalidCommand, Rejected

if TYPE_CHECKING:
    from taku.core.ruleset import Context, Emitted
    from taku.core.table import Character, TableState

__all__ = [
    "ROLLER",
    "Emit",
    "character",
    "character_name",
    "member_name",
    "options",
    "rejecter",
    "secret",
    "speaker",
    "timer",
]

ROLLER = "{roller}"
"""Put in a ruleset's rendered line where the speaker goes when the event names no
character (a bare chat roll): the core replaces it with the name of the member who
caused the event (``"フジキド: 判定 …"``), so every roll line says who rolled."""

G = TypeVar("G")
O = TypeVar("O")  # noqa: E741 (the options type)
T = TypeVar("T")

Reject = Callable[..., NoReturn]


def rejecter(ruleset_id: str) -> Reject:
    """``reject(reason, message, section="", **params)`` for ``ruleset_id``.

    Raises :class:`~taku.errors.Rejected` (``rule/<ruleset_id>/<reason>``); the
    message is the rule's reason in Japanese, the section where the rule stands
    (``"NSTRPG 2-11 回避判定"``). Every reason must be listed in the ruleset's
    ``errors``.
    """

    def reject(reason: str, message: str, section: str = "", **params: Any) -> NoReturn:
        raise Rejected(ruleset_id, reason, message, section=section, **params)

    reject.__name__ = f"reject_{ruleset_id}"
    return reject


class Emit(Generic[G, O]):
    """The events of one command, with the game state as they leave it.

    ``Emit(table, evolve, options)``; ``add(event)`` appends an event and folds it
    into :attr:`game` with the ruleset's ``evolve``; ``private(event, audience,
    redacted)`` appends a hidden one (folded too); :attr:`out` is what ``decide``
    returns.
    """

    def __init__(
        self,
        table: TableState,
        evolve: Callable[[G, Event, TableState, O], G],
        opts: O,
        game: G | None = None,
    ) -> None:
        self.table = table
        self.options = opts
        self._evolve = evolve
        self.game: G = table.game if game is None else game
        self.out: list[Emitted] = []

    def add(self, event: Event) -> Event:
        self.out.append(event)
        self.game = self._evolve(self.game, event, self.table, self.options)
        return event

    def private(
        self, event: Event, audience: Sequence[str], redacted: Event | None = None
    ) -> Event:
        """A hidden event: ``audience`` (member ids, ``"@gm"``) sees it, the others ``redacted``."""
        self.out.append(Private(event=event, audience=tuple(audience), redacted=redacted))
        self.game = self._evolve(self.game, event, self.table, self.options)
        return event

    def extend(self, events: Sequence[Emitted]) -> None:
        for e in events:
            if isinstance(e, Private):
                self.private(e.event, e.audience, e.redacted)
            else:
                self.add(e)


def character(table: TableState, character_id: str) -> Character:
    """The character ``character_id``.

    Raises:
        InvalidCommand: ``command/unknown_character`` (params ``character_id``).
    """
    ch = table.characters.get(character_id)
    if ch is None:
        raise InvalidCommand(
            f"no character {character_id!r}",
            code="command/unknown_character",
            character_id=character_id,
        )
    return ch


def options(table: TableState, kind: type[T]) -> T:
    """The table's parsed options (``table.rules``) as ``kind``; defaults when the table has none yet."""
    rules = table.rules
    return rules if isinstance(rules, kind) else kind()


def character_name(table: TableState, character_id: str | None) -> str:
    """The character's name, or its id when it is gone (old logs)."""
    if character_id is None:
        return ""
    ch = table.characters.get(character_id)
    return ch.name if ch is not None else character_id


def member_name(table: TableState, member_id: str | None) -> str:
    """The member's name, ``"サーバー"`` for the server, or the id when unknown."""
    if member_id is None:
        return "サーバー"
    m = table.members.get(member_id)
    return m.name if m is not None else member_id


def speaker(table: TableState, actor: str | None, character_id: str | None = None) -> str:
    """Who speaks a line: the character's name when spoken as one, else the member's."""
    return character_name(table, character_id) if character_id else member_name(table, actor)


def secret(event: Event, ctx: Context[Any], note: str = "シークレットダイス") -> Emitted:
    """``event`` shown only to the actor and the GM; everyone else sees a ``redacted`` stand-in."""
    audience = (ctx.actor, GM) if ctx.actor is not None else (GM,)
    tag = type(event).__struct_config__.tag
    return Private(event=event, audience=audience, redacted=Redacted(of=str(tag), note=note))


def timer(
    ctx: Context[Any], duration_s: int, *, label: str = "", character_id: str | None = None
) -> TimerSet:
    """A ``timer_set`` event: a timer of ``duration_s`` seconds (1 to 86,400) from the
    command's time (``ctx.now``, which ``taku verify`` reads back from the log). At the
    deadline the server appends ``timer_expired`` and asks the ruleset's ``on_timer``.

    Raises:
        InvalidCommand: ``timer/invalid_duration``; ``timer/no_clock`` when decided
            without a time (outside the server and verify).
    """
    from taku.core.commands import MAX_TIMER_S

    if not 1 <= duration_s <= MAX_TIMER_S:
        raise InvalidCommand(
            f"a timer lasts 1 to {MAX_TIMER_S} seconds",
            code="timer/invalid_duration",
            duration_s=duration_s,
        )
    if ctx.now is None:
        raise InvalidCommand("timers need the command's time", code="timer/no_clock")
    return TimerSet(
        timer_id=ctx.new_id("timer"),
        deadline=ctx.now + dt.timedelta(seconds=duration_s),
        duration_s=duration_s,
        label=label,
        character_id=character_id,
    )
