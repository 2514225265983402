"""The ruleset API: what a game plugin hands the core, and what the core hands it.

A ruleset is a decider (DESIGN.md, STYLE.md §1), generic over its game state
``G`` and its options Struct ``O``::

    initial_state(options: O) -> G
    decide(table, command, ctx: Context[O]) -> list[Event | Private]  # pure; raises Rejected
    evolve(game: G, event, table, options: O) -> G                   # pure; never rejects, never rolls
    view(table, viewer, options: O) -> G as that viewer may see it
    render(event, table, options: O) -> str | None
    affordances(table, viewer, options: O) -> list[Affordance]       # taku.core.play
    turn(table, options: O) -> Turn | None

``table`` is the whole :class:`~taku.core.table.TableState` (members,
characters, the ruleset's ``game`` state, the table's seq, and ``rules``: the
parsed options); ``ctx`` is a :class:`Context` (acting member, dice source,
options, id maker). ``evolve`` is called for every event of the table, core
events included (``character_created`` …), after the core has applied it, so a
ruleset can keep its own projection of characters. Nothing here does I/O.

Who may send each command is declared on the command class
(:class:`~taku.core.commands.Permit`) and enforced by the core before
``decide``; :mod:`taku.core.kit` is the toolkit every ruleset shares.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Final, Generic, TypeVar

import msgspec

from taku.core.commands import Command
from taku.core.dice import DiceSource
from taku.core.events import Event, Private
from taku.errors import InvalidCommand, japanese_detail

if TYPE_CHECKING:
    from taku.core.play import Affordance, Turn
    from taku.core.table import TableState

__all__ = ["Context", "Emitted", "Role", "Ruleset", "Viewer"]

G = TypeVar("G")
"""The ruleset's game state type."""
O = TypeVar("O")  # noqa: E741 (the options type)
"""The ruleset's options type (a Struct, or ``None`` for a ruleset without options)."""

Emitted = Event | Private
"""What a decider returns, one per event: an :class:`Event`, or a :class:`Private` one."""


class Role:
    """The three roles of a table member (stable strings on the wire and in the log)."""

    GM: Final = "gm"
    PLAYER: Final = "player"
    SPECTATOR: Final = "spectator"
    ALL: Final = ("gm", "player", "spectator")


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
class Context(Generic[O]):
    """What ``decide`` may use besides the state: never the clock, never global randomness.

    Attributes:
        actor: the acting member id (``None`` when the server acts).
        role: the actor's role (:class:`Role`).
        dice: the table's dice source; every face it returns goes into an event.
        options: the ruleset's options Struct (``None`` when it has none).
        next_seq: the seq the command's first event will take; ids derive from it.
        seed: the current epoch's secret dice seed; only the core's ``reveal_seed`` reads it.
        next_seed_hash: the hash of the next epoch's seed, which ``reveal_seed`` publishes.
        character_id: the character a chat line is spoken as (``chat`` with
            ``character_id``), already checked to be the actor's; ``None`` otherwise.
        secret: the chat line had the ``S`` prefix (the core strips it and makes
            whatever the ruleset returns secret: roller and GM only).
        now: the UTC time the command's events are recorded with (their envelope's
            ``time``, in the hash chain), so a deadline derived from it is decided again
            the same by ``taku verify``; the only time a decider may read (timers:
            :func:`taku.core.kit.timer`). ``None`` outside the server and verify.
    """

    actor: str | None
    role: str
    dice: DiceSource
    options: O = None  # type: ignore[assignment]
    next_seq: int = 1
    seed: bytes | None = field(default=None, repr=False)
    next_seed_hash: str = ""
    character_id: str | None = None
    secret: bool = False
    id_offset: int = 0
    """Added to ``next_seq`` in :meth:`new_id`: a forked table's ``TableState.id_offset``."""
    now: dt.datetime | None = None
    _ids: int = field(default=0, repr=False)

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM

    def new_id(self, prefix: str) -> str:
        """A table-unique id: ``<prefix><next_seq>``, then ``…-2``, ``…-3`` within one command
        (in a forked table ``next_seq + id_offset``, past every id of its source)."""
        self._ids += 1
        n = self.next_seq + self.id_offset
        return f"{prefix}{n}" if self._ids == 1 else f"{prefix}{n}-{self._ids}"

    def controls(self, table: TableState, character_id: str) -> bool:
        """Whether the actor owns ``character_id`` or is a GM (for rules that depend on it,
        beyond the command's declared :class:`~taku.core.commands.Permit`)."""
        ch = table.characters.get(character_id)
        return ch is not None and (self.is_gm or (ch.owner is not None and ch.owner == self.actor))


def _no_decide(table: Any, command: Command, ctx: Context[Any]) -> list[Emitted]:
    raise InvalidCommand(
        f"unknown command {type(command).__name__}", code="command/unknown_command"
    )


def _keep(game: Any, event: Event, table: Any, options: Any) -> Any:
    return game


def _whole(table: Any, viewer: Viewer, options: Any) -> Any:
    return table.game


def _none(options: Any) -> Any:
    return None


class SheetTemplate(msgspec.Struct, frozen=True, kw_only=True):
    """A character to start from (a starting ninja, a mob group …), offered by the sheet form.

    ``sheet`` must pass the ruleset's ``check_sheet`` (the conformance kit checks it).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(title="キャラクターのひな形")

    title: Annotated[str, msgspec.Meta(title="ひな形の名前")]
    name: Annotated[str, msgspec.Meta(title="キャラクターの名前")] = ""
    sheet: Annotated[dict[str, Any], msgspec.Meta(title="シート")] = {}
    description: Annotated[str, msgspec.Meta(title="説明")] = ""


@dataclass(frozen=True)
class Ruleset(Generic[G, O]):
    """Everything the core needs of a game. Returned by the ``taku_ruleset`` hook.

    Attributes:
        id: short stable id (``"nstrpg"``); prefixes the ruleset's tags and error codes.
        name: the game's name for people (``"ニンジャスレイヤーTRPG 2版"``).
        version: the ruleset's version string, written into ``table_created``.
        commands: the ruleset's command Structs (tags ``<id>.<verb>``), each with its
            ``permit`` and Japanese ``meta``.
        events: the ruleset's event Structs (tags ``<id>.<fact>``).
        initial_state: ``options -> game``; ``options`` is an ``options`` Struct or ``None``.
        decide: ``(table, command, ctx) -> list[Event | Private]``; raises
            :class:`~taku.errors.Rejected` with the rule's section, never returns part.
            The command's ``permit`` has already been enforced.
        evolve: ``(game, event, table, options) -> game``; every stored event, core ones included.
        view: ``(table, viewer, options) -> game as that viewer may see it`` (hide hands, decks).
        options: a Struct of house rules and gap defaults, all with defaults and Japanese titles.
        sheet: a Struct checking character sheets (``create_character.sheet``), or ``None``.
        state: the game state's type (for its JSON Schema: labels of state values), or ``None``.
        chat: ``(text, table, ctx) -> list[Event | Private] | None``: reads the
            ruleset's own chat commands (BCDice style); ``None`` falls back to the
            generic dice of :mod:`taku.core.chatdice`, then to plain chat. The core
            strips a leading ``S`` (secret) before asking and, if the ruleset reads
            the rest, makes the result secret (``ctx.secret`` is then true).
        chat_dice: ``(text, ctx) -> list[Event | Private] | None``: the ruleset's chat
            dice that read nothing but the line and the dice (no table state), e.g.
            nstrpg's ``N5[S]``. ``taku verify`` reads a logged ``dice_rolled`` again
            with it on the event's own faces, so its 成功数, total and flag are checked
            even where its command cannot be decided again (a public log past a
            hidden event). ``None``: only the core's generic dice are read again.
        render: ``(event, table, options) -> str | None``: one readable Japanese line.
        affordances: ``(table, viewer, options) -> list[Affordance]``: what the
            viewer may do now (:mod:`taku.core.play`).
        turn: ``(table, options) -> Turn | None``: whose turn it is, for games with turns.
        summary: one line about the game in Japanese, for ``taku rulesets`` and clients.
        hidden_paths: paths inside ``game`` that hold hidden information (a deck's
            order, hands), e.g. ``(("deck",), ("hands",))``. A GM override that
            touches one (or a path above one, such as the whole ``game``) is logged
            with its values for nobody; everyone receives it without them.
        errors: the ruleset's rejection reasons, ``reason -> Japanese meaning``; every
            ``rule/<id>/<reason>`` it raises is listed here (the error catalogue).
        upcasters: ``(event tag, version) -> (data -> data of version + 1)`` for each
            older version of an event whose Struct's ``version`` was raised: the log is
            upcast on read, before decoding (:mod:`taku.core.upcast`).
        sheet_templates: characters to start from (:class:`SheetTemplate`), offered to
            clients by ``list_rulesets`` (the web client's sheet form).
        depends: ``(earlier: Step, later: Step, options) -> bool | None``: whether the
            ``later`` command depends on the ``earlier`` one, so that ``earlier`` may
            not be undone (or redone) without ``force``
            (:class:`taku.core.undo.Step`: each command's events, the states before and
            after it and the parts of the state it changed); ``None`` (or no hook)
            leaves it to the core's default, :func:`taku.core.undo.default_depends`.
        on_timer: ``(table, expired, ctx) -> list[Event | Private]``: what the game does
            when a timer expires (``expired`` is the
            :class:`~taku.core.events.TimerExpired` event, ``table`` the state with the
            timer already gone, ``ctx.actor`` ``None``: the server acts). Its events
            follow ``timer_expired`` in the same command, decided and logged like a
            command's (``ctx.dice`` may roll). A rejection (``Rejected``) means "nothing
            to do": the timer expires alone. ``None``: expiries change nothing in the game.
        hides_command: ``(command, emitted) -> bool``: whether a decided command's
            arguments tell something its public events do not show (cards named from a
            hidden hand that the command did not play face up). Such a command's record
            is then, like one with a hidden event, in clear for its sender only and a
            commitment for everyone else (the log and ``taku verify --full`` keep it).
            ``None``: only a command with a hidden event (``Private``) is hidden.
        palette: the チャットパレット a character starts with, as ココフォリア's ruleset
            palettes: lines of chat (the ruleset's own commands) with ``{カラテ}``-style
            references to the sheet; a string, or a function of the character's sheet
            (``dict``) giving one. Shown as ``default`` in the state's ``chat.palettes``
            until the owner saves a palette of their own (:func:`taku.core.chat.view`).
    """

    id: str
    name: str
    version: str
    commands: tuple[type[Command], ...] = ()
    events: tuple[type[Event], ...] = ()
    initial_state: Callable[[O], G] = _none
    decide: Callable[[TableState, Any, Context[O]], Sequence[Emitted]] = _no_decide
    evolve: Callable[[G, Event, TableState, O], G] = _keep
    view: Callable[[TableState, Viewer, O], Any] = _whole
    options: type[O] | None = None
    sheet: type[msgspec.Struct] | None = None
    state: type[Any] | None = None
    chat: Callable[[str, TableState, Context[O]], Sequence[Emitted] | None] | None = None
    chat_dice: Callable[[str, Context[O]], Sequence[Emitted] | None] | None = None
    render: Callable[[Event, TableState, O], str | None] | None = None
    affordances: Callable[[TableState, Viewer, O], Sequence[Affordance]] | None = None
    turn: Callable[[TableState, O], Turn | None] | None = None
    summary: str = ""
    hidden_paths: tuple[tuple[str | int, ...], ...] = ()
    errors: Mapping[str, str] = field(default_factory=dict)
    upcasters: Mapping[tuple[str, int], Callable[[dict[str, Any]], dict[str, Any]]] = field(
        default_factory=dict
    )
    sheet_templates: tuple[SheetTemplate, ...] = ()
    depends: Callable[[Any, Any, O], bool | None] | None = None
    on_timer: Callable[[TableState, Any, Context[O]], Sequence[Emitted]] | None = None
    hides_command: Callable[[Any, Sequence[Emitted]], bool] | None = None
    palette: str | Callable[[dict[str, Any]], str] = ""

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
                    raise ValueError(
                        f"{self.id}: {kind} {t.__name__} needs a tag starting with {prefix!r}"
                    )

    def make_options(self, raw: dict[str, Any] | None) -> O:
        """The options Struct from a table's options dict (defaults filled in).

        Raises:
            InvalidCommand: ``command/invalid_options`` when a value does not fit.
        """
        if self.options is None:
            if raw:
                raise InvalidCommand(f"{self.id} takes no options", code="command/invalid_options")
            return None  # type: ignore[return-value]
        try:
            return msgspec.convert(raw or {}, self.options)
        except msgspec.ValidationError as e:
            raise InvalidCommand(
                f"bad options: {e}", code="command/invalid_options", detail=japanese_detail(str(e))
            ) from None

    def check_sheet(self, sheet: dict[str, Any]) -> dict[str, Any]:
        """The sheet as the ruleset reads it (defaults filled in), as plain JSON data.

        Raises:
            InvalidCommand: ``command/invalid_sheet`` naming the bad field.
        """
        if self.sheet is None:
            return dict(sheet)
        try:
            # through JSON, so the stored sheet is exactly what a replay reads back (lists, not tuples)
            out: dict[str, Any] = msgspec.json.decode(
                msgspec.json.encode(msgspec.convert(sheet, self.sheet))
            )
            return out
        except msgspec.ValidationError as e:
            raise InvalidCommand(
                f"bad character sheet: {e}",
                code="command/invalid_sheet",
                detail=japanese_detail(str(e)),
            ) from None
