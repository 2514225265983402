"""The ruleset API: what a game plugin hands the core, and what the core hands it.

A ruleset is a decider (DESIGN.md, STYLE.md §1)::

    initial_state(options) -> game
    decide(table, command, ctx) -> list[Event | Private]     # pure; raises Rejected
    evolve(game, event, table) -> game                       # pure; never rejects, never rolls

``table`` is the whole :class:`~taku.core.table.TableState` (members,
characters, the ruleset's ``game`` state, the table's seq); ``ctx`` is a
:class:`Context` (acting member, dice source, options, id maker). ``evolve`` is
called for every event of the table, core events included (``character_created``
…), after the core has applied it, so a ruleset can keep its own projection of
characters. Nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgspec

from taku.core.commands import Command
from taku.core.dice import DiceSource
from taku.core.events import Event, Private
from taku.errors import Forbidden, InvalidCommand

if TYPE_CHECKING:
    from taku.core.table import Character, TableState

__all__ = ["Context", "Emitted", "Role", "Ruleset", "Viewer"]

Emitted = Event | Private
"""What a decider returns, one per event: an :class:`Event`, or a :class:`Private` one."""


class Role:
    """The three roles of a table member (stable strings on the wire and in the log)."""

    GM = "gm"
    PLAYER = "player"
    SPECTATOR = "spectator"
    ALL = ("gm", "player", "spectator")


@dataclass(frozen=True)
class Viewer:
    """Who looks at the state or a stream: a member id and role (``None`` = the public)."""

    member_id: str | None
    role: str = Role.SPECTATOR

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM

    def sees(self, audience: Sequence[str] | None) -> bool:
        """Whether an event with ``audience`` (``None`` = public) is shown in full."""
        if audience is None:
            return True
        return (self.member_id is not None and self.member_id in audience) or (
            self.is_gm and "@gm" in audience
        )


@dataclass
class Context:
    """What ``decide`` may use besides the state: never the clock, never global randomness.

    Attributes:
        actor: the acting member id (``None`` when the server acts).
        role: the actor's role (:class:`Role`).
        dice: the table's dice source; every face it returns goes into an event.
        options: the ruleset's options Struct (``None`` when it has none).
        next_seq: the seq the command's first event will take; ids derive from it.
        seed: the table's secret dice seed; only the core's ``reveal_seed`` reads it.
        character_id: the character a chat line is spoken as (``chat`` with
            ``character_id``), already checked to be the actor's; ``None`` otherwise.
    """

    actor: str | None
    role: str
    dice: DiceSource
    options: Any = None
    next_seq: int = 1
    seed: bytes | None = field(default=None, repr=False)
    character_id: str | None = None
    _ids: int = field(default=0, repr=False)

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM

    def new_id(self, prefix: str) -> str:
        """A table-unique id: ``<prefix><next_seq>``, then ``…-2``, ``…-3`` within one command."""
        self._ids += 1
        return f"{prefix}{self.next_seq}" if self._ids == 1 else f"{prefix}{self.next_seq}-{self._ids}"

    def require_gm(self, what: str = "this") -> None:
        """Raise ``command/forbidden`` unless the actor is a GM."""
        if not self.is_gm:
            raise Forbidden(f"GM only: {what}")

    def require_player(self) -> None:
        """Raise ``command/forbidden`` for spectators."""
        if self.role == Role.SPECTATOR:
            raise Forbidden("spectators cannot act at the table")

    def require_control(self, table: TableState, character_id: str) -> Character:
        """The character, if the actor owns it or is a GM.

        Raises:
            InvalidCommand: ``command/invalid`` for an unknown character.
            Forbidden: ``command/forbidden`` when a player acts for another's character.
        """
        ch = table.characters.get(character_id)
        if ch is None:
            raise InvalidCommand(f"no character {character_id!r}", code="command/unknown_character")
        if not self.is_gm and ch.owner != self.actor:
            raise Forbidden(f"{ch.name} is not your character")
        return ch


def _no_decide(table: Any, command: Command, ctx: Context) -> list[Emitted]:
    raise InvalidCommand(f"unknown command {type(command).__name__}")


def _keep(game: Any, event: Event, table: Any) -> Any:
    return game


def _whole(table: Any, viewer: Viewer) -> Any:
    return table.game


@dataclass(frozen=True)
class Ruleset:
    """Everything the core needs of a game. Returned by the ``taku_ruleset`` hook.

    Attributes:
        id: short stable id (``"nstrpg"``); prefixes the ruleset's tags and error codes.
        name: the game's name for people (``"ニンジャスレイヤーTRPG 2版"``).
        version: the ruleset's version string, written into ``table_created``.
        commands: the ruleset's command Structs (tags ``<id>.<verb>``).
        events: the ruleset's event Structs (tags ``<id>.<fact>``).
        initial_state: ``options -> game``; ``options`` is an ``options`` Struct or ``None``.
        decide: ``(table, command, ctx) -> list[Event | Private]``; raises
            :class:`~taku.errors.Rejected` with the rule's section, never returns part.
        evolve: ``(game, event, table) -> game``; every stored event, core ones included.
        view: ``(table, viewer) -> game as that viewer may see it`` (hide hands, decks).
        options: a Struct of house rules and gap defaults, all with defaults.
        sheet: a Struct checking character sheets (``create_character.sheet``), or ``None``.
        chat: ``(text, table, ctx) -> list[Event | Private] | None``: reads the
            ruleset's own chat commands (BCDice style); ``None`` falls back to the
            generic dice of :mod:`taku.core.chatdice`, then to plain chat.
        render: ``(event, table) -> str | None``: one readable line of a ruleset event.
        summary: one line about the game for ``taku rulesets`` and clients.
        hidden_paths: paths inside ``game`` that hold hidden information (a deck's
            order, hands), e.g. ``(("deck",), ("hands",))``. A GM override that
            touches one (or a path above one, such as the whole ``game``) is logged
            with its values for nobody; everyone receives it without them.
    """

    id: str
    name: str
    version: str
    commands: tuple[type[Command], ...] = ()
    events: tuple[type[Event], ...] = ()
    initial_state: Callable[[Any], Any] = lambda options: None
    decide: Callable[[Any, Any, Context], Sequence[Emitted]] = _no_decide
    evolve: Callable[[Any, Event, Any], Any] = _keep
    view: Callable[[Any, Viewer], Any] = _whole
    options: type[msgspec.Struct] | None = None
    sheet: type[msgspec.Struct] | None = None
    chat: Callable[[str, Any, Context], Sequence[Emitted] | None] | None = None
    render: Callable[[Event, Any], str | None] | None = None
    summary: str = ""
    hidden_paths: tuple[tuple[str | int, ...], ...] = ()

    def touches_hidden(self, path: Sequence[str | int]) -> bool:
        """Whether an override at ``path`` (starting with ``"game"``) reads or writes hidden state."""
        if not path or path[0] != "game":
            return False
        inner = tuple(path[1:])
        return any(inner[: len(h)] == h or h[: len(inner)] == inner for h in self.hidden_paths)

    def __post_init__(self) -> None:
        prefix = self.id + "."
        for kind, types in (("command", self.commands), ("event", self.events)):
            for t in types:
                tag = t.__struct_config__.tag
                if not isinstance(tag, str) or not tag.startswith(prefix):
                    raise ValueError(f"{self.id}: {kind} {t.__name__} needs a tag starting with {prefix!r}")

    def make_options(self, raw: dict[str, Any] | None) -> Any:
        """The options Struct from a table's options dict (defaults filled in).

        Raises:
            InvalidCommand: ``command/invalid_options`` when a value does not fit.
        """
        if self.options is None:
            if raw:
                raise InvalidCommand(f"{self.id} takes no options", code="command/invalid_options")
            return None
        try:
            return msgspec.convert(raw or {}, self.options)
        except msgspec.ValidationError as e:
            raise InvalidCommand(f"bad options: {e}", code="command/invalid_options") from None

    def check_sheet(self, sheet: dict[str, Any]) -> dict[str, Any]:
        """The sheet as the ruleset reads it (defaults filled in), as plain JSON data.

        Raises:
            InvalidCommand: ``command/invalid_sheet`` naming the bad field.
        """
        if self.sheet is None:
            return dict(sheet)
        try:
            # through JSON, so the stored sheet is exactly what a replay reads back (lists, not tuples)
            return msgspec.json.decode(msgspec.json.encode(msgspec.convert(sheet, self.sheet)))
        except msgspec.ValidationError as e:
            raise InvalidCommand(f"bad character sheet: {e}", code="command/invalid_sheet") from None
