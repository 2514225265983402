"""The table decider: what every game shares, and dispatch to the ruleset.

The core owns members and roles, characters and their owners, chat, generic
dice, GM overrides and the dice seed; everything else goes to the ruleset's
``decide``. All of it is pure: :func:`decide` returns the events of one command
(or raises one error, writing nothing), :func:`evolve` applies one event, and
:func:`fold` applies a stored one (a :class:`~taku.core.events.Recorded`).
"""

from __future__ import annotations

import copy
import datetime as dt
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, cast

import msgspec

from taku.core import chain, chatdice, kit
from taku.core import chat as chat_core
from taku.core.commands import (
    CORE_COMMANDS,
    AddChannel,
    CancelTimer,
    Chat,
    Command,
    CreateCharacter,
    Leave,
    Override,
    Permit,
    RemoveCharacter,
    RenameMember,
    RevealSeed,
    RoleName,
    RollDice,
    SetChatPalette,
    SetRole,
    SetTimer,
    UpdateCharacter,
)
from taku.core.events import (
    CORE_EVENTS,
    GM,
    ChannelAdded,
    CharacterCreated,
    CharacterRemoved,
    CharacterUpdated,
    ChatPaletteSet,
    ChatPosted,
    CommandRedone,
    CommandUndone,
    DiceRolled,
    Event,
    GMOverridden,
    HistorySettings,
    MemberJoined,
    MemberLeft,
    MemberRenamed,
    Private,
    Recorded,
    Redacted,
    RoleChanged,
    SeedRevealed,
    TableCreated,
    TableForked,
    TableSettings,
    TimerCancelled,
    TimerExpired,
    TimerSet,
)
from taku.core.play import Affordance, Choice, Turn
from taku.core.ruleset import Context, Emitted, Role, Ruleset, Viewer
from taku.errors import Forbidden, InvalidCommand, TakuError, japanese_detail

if TYPE_CHECKING:
    from taku.core.upcast import EventReader

__all__ = [
    "SERVER_COMMANDS",
    "Admit",
    "Character",
    "ExpireTimer",
    "Member",
    "Rejoin",
    "TableState",
    "Timer",
    "affordances",
    "check_permit",
    "command_decoder",
    "creation_events",
    "decide",
    "decide_server",
    "event_decoder",
    "evolve",
    "fold",
    "join_event",
    "turn",
    "view",
]

MAX_NAME = 64
MAX_CHAT = 4000


class Member(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    role: str
    present: bool = True


class Character(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    owner: str | None = None
    sheet: dict[str, Any] = {}


class Timer(msgspec.Struct, frozen=True, kw_only=True):
    """An armed timer (from its ``timer_set``): ``deadline`` is UTC."""

    id: str
    deadline: dt.datetime
    duration_s: int
    label: str = ""
    character_id: str | None = None


class TableState(msgspec.Struct, frozen=True, kw_only=True):
    """A table at one seq: the fold of its events up to ``seq``.

    ``game`` is the ruleset's own state; ``dice_cursor`` the next face index of
    the current epoch's dice stream; ``seed`` is set once the GM revealed it (the
    last revealed seed); ``rules`` the ruleset's options Struct parsed from
    ``options`` (what the ruleset's callables receive as ``options``);
    ``settings`` the core's own options; ``chat`` the channels and the characters'
    colours and palettes (:mod:`taku.core.chat`). ``head`` is the hash chain through
    ``seq`` (:mod:`taku.core.chain`; ``""`` before the chain); ``epoch`` counts the
    seeds revealed so far when the table has ``epochs`` (each reveal begins a new
    epoch whose ``seed_hash`` the reveal published); ``seed_open`` is false once a
    table without epochs revealed its only seed (no more dice then). ``timers`` are
    the armed timers by id (set, neither expired nor cancelled yet).
    """

    table_id: str
    seq: int = 0
    name: str = ""
    ruleset: str = ""
    ruleset_version: str = ""
    options: dict[str, Any] = {}
    seed_hash: str = ""
    seed: str | None = None
    members: dict[str, Member] = {}
    characters: dict[str, Character] = {}
    game: Any = None
    dice_cursor: int = 0
    rules: Any = None
    settings: TableSettings = TableSettings()
    unfit_overrides: tuple[int, ...] = ()
    """Seqs of stored GM overrides that no longer fit the state (a ruleset changed
    since): they changed nothing, and the view reports them."""
    chat: chat_core.ChatState = chat_core.ChatState()
    head: str = ""
    epoch: int = 0
    epochs: bool = False
    seed_open: bool = True
    undone: tuple[str, ...] = ()
    """Command ids undone now (``undone`` events not followed by a ``redone``), in order."""
    history: HistorySettings = HistorySettings()
    """Who may undo and fork (``table_created.history``)."""
    id_offset: int = 0
    """A forked table's offset for new ids (``table_forked.id_offset``; 0 otherwise)."""
    timers: dict[str, Timer] = {}

    def role_of(self, member_id: str | None) -> str:
        m = self.members.get(member_id) if member_id else None
        return m.role if m else Role.SPECTATOR

    def viewer(self, member_id: str | None) -> Viewer:
        return Viewer(member_id, self.role_of(member_id))


# --------------------------------------------------------------------------- codecs


def event_decoder(ruleset: Ruleset[Any, Any]) -> msgspec.json.Decoder[Any]:
    """One typed decoder for the core events plus ``ruleset``'s (build once, reuse)."""
    types = CORE_EVENTS + tuple(ruleset.events)
    return msgspec.json.Decoder(_union(types))


def command_decoder(ruleset: Ruleset[Any, Any]) -> msgspec.json.Decoder[Any]:
    """One typed decoder for the core commands plus ``ruleset``'s."""
    return msgspec.json.Decoder(_union(CORE_COMMANDS + tuple(ruleset.commands)))


def _union(types: Sequence[type]) -> Any:
    from typing import Union

    return Union[tuple(types)]  # noqa: UP007 (a runtime union of many types)


# --------------------------------------------------------------------------- creation


def creation_events(
    *,
    name: str,
    ruleset: Ruleset[Any, Any],
    options: dict[str, Any],
    seed_hash: str,
    gm_id: str,
    gm_name: str,
    settings: TableSettings | None = None,
    epochs: bool = True,
    history: HistorySettings | None = None,
) -> list[Event]:
    """The first events of a table: ``table_created`` and the GM's ``member_joined``.

    ``seed_hash`` commits to the first epoch's seed (``epochs``: each ``reveal_seed``
    begins a new epoch, see :func:`taku.core.dice.epoch_seed`).

    Raises:
        InvalidCommand: bad options (``command/invalid_options``) or name.
    """
    ruleset.make_options(options)  # validates
    return [
        TableCreated(
            name=_name(name or "卓"),
            ruleset=ruleset.id,
            ruleset_version=ruleset.version,
            options=dict(options),
            seed_hash=seed_hash,
            settings=settings or TableSettings(),
            epochs=epochs,
            history=history or HistorySettings(),
        ),
        MemberJoined(member_id=gm_id, name=_name(gm_name or "GM"), role=Role.GM),
    ]


def join_event(member_id: str, name: str, role: str) -> MemberJoined:
    if role not in Role.ALL:
        raise InvalidCommand(f"unknown role {role!r}")
    return MemberJoined(member_id=member_id, name=_name(name), role=cast(RoleName, role))


class Admit(msgspec.Struct, frozen=True, kw_only=True, tag="@admit", tag_field="type"):
    """The server's own command when an invite token joins: a new member (``name`` may be empty)."""

    name: str = ""
    role: str = Role.PLAYER


class Rejoin(msgspec.Struct, frozen=True, kw_only=True, tag="@rejoin", tag_field="type"):
    """The server's own command when a member who left comes back with their token."""

    member_id: str


class ExpireTimer(msgspec.Struct, frozen=True, kw_only=True, tag="@expire_timer", tag_field="type"):
    """The server's own command at a timer's deadline (command id ``timer-<timer_id>``)."""

    timer_id: str


SERVER_COMMANDS: tuple[type[msgspec.Struct], ...] = (Admit, Rejoin, ExpireTimer)
"""Commands only the server decides (joins, timer expiries); logged like the members' commands."""


def decide_server(
    state: TableState,
    command: Admit | Rejoin | ExpireTimer,
    ctx: Context[Any],
    ruleset: Ruleset[Any, Any] | None = None,
) -> list[Emitted]:
    """The events of a server command: the joined member's ``member_joined``, or a
    timer's ``timer_expired`` followed by ``ruleset.on_timer``'s events.

    An :class:`Admit` takes the id ``m<seq>`` and, without a name, ``<role><seq>``.

    Raises:
        InvalidCommand: ``timer/unknown_timer`` (not armed: expired or cancelled
            already), ``timer/not_due`` (``ctx.now`` before the deadline).
    """
    if isinstance(command, ExpireTimer):
        return _expire(state, command.timer_id, ctx, ruleset)
    match command:
        case Admit(name=name, role=role):
            mid = ctx.new_id("m")
            return [join_event(mid, name or f"{role}{ctx.next_seq}", role)]
        case Rejoin(member_id=mid):
            member = state.members[mid]
            return [join_event(mid, member.name, member.role)]
    raise InvalidCommand(f"unknown server command {command!r}", code="command/unknown_command")


def _expire(
    state: TableState, timer_id: str, ctx: Context[Any], ruleset: Ruleset[Any, Any] | None
) -> list[Emitted]:
    timer = state.timers.get(timer_id)
    if timer is None:
        raise InvalidCommand(
            f"no armed timer {timer_id!r}", code="timer/unknown_timer", timer_id=timer_id[:64]
        )
    if ctx.now is None or ctx.now < timer.deadline:
        raise InvalidCommand(
            f"timer {timer_id!r} is not due yet", code="timer/not_due", timer_id=timer_id
        )
    expired = TimerExpired(
        timer_id=timer.id,
        deadline=timer.deadline,
        label=timer.label,
        character_id=timer.character_id,
    )
    out: list[Emitted] = [expired]
    if ruleset is not None and ruleset.on_timer is not None:
        after = evolve(state, expired, ruleset)
        after = msgspec.structs.replace(after, seq=state.seq + 1)
        ctx.next_seq = state.seq + 2
        try:
            out.extend(ruleset.on_timer(after, expired, ctx))
        except TakuError:
            pass  # nothing for the game to do: the timer expires alone (decided again the same)
    return out


def _name(name: str) -> str:
    name = name.strip()
    if not name or len(name) > MAX_NAME:
        raise InvalidCommand(f"a name has 1 to {MAX_NAME} characters", code="command/invalid_name")
    if any(_invisible(c) for c in name):
        raise InvalidCommand(
            "a name may not hold control or direction characters", code="command/invalid_name"
        )
    return name


def _invisible(c: str) -> bool:
    """Control characters and bidirectional overrides: they could forge lines in logs."""
    return unicodedata.category(c) == "Cc" or "\u202a" <= c <= "\u202e" or "\u2066" <= c <= "\u2069"


_UNWANTED = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _clean_text(text: str) -> str:
    """A chat line without control characters (newlines and tabs stay) or direction overrides."""
    return _UNWANTED.sub("", text)


# --------------------------------------------------------------------------- decide


def check_permit(state: TableState, command: Command, ctx: Context[Any]) -> None:
    """Enforce ``command``'s declared :class:`~taku.core.commands.Permit` for ``ctx.actor``.

    Raises:
        Forbidden: ``command/forbidden`` (params ``command``, ``role``, ``reason``).
        InvalidCommand: ``command/unknown_character`` for a named character that does not exist.
    """
    permit: Permit = type(command).permit
    tag = type(command).__struct_config__.tag
    if ctx.role not in permit.roles:
        if ctx.role == Role.SPECTATOR:
            reason = "観戦者は操作できません"
        elif permit.gm_only:
            reason = "GMだけができる操作です"
        else:
            reason = f"この操作ができるのは{permit.label}です"
        raise Forbidden(f"{tag}: not for a {ctx.role}", command=tag, role=ctx.role, reason=reason)
    for cid in _named_characters(command, permit.owner_fields):
        ch = state.characters.get(cid)
        if ch is None:
            raise InvalidCommand(
                f"no character {cid!r}", code="command/unknown_character", character_id=cid
            )
        if not ctx.is_gm and (ch.owner is None or ch.owner != ctx.actor):
            raise Forbidden(
                f"{tag}: {cid} is not the sender's",
                command=tag,
                role=ctx.role,
                reason=f"{ch.name}はあなたのキャラクターではありません",
            )


def _named_characters(command: Command, fields: Sequence[str]) -> list[str]:
    """The character ids ``command`` names in ``fields`` (dotted paths; lists and ``None`` allowed)."""
    out: list[str] = []
    for path in fields:
        if "." not in path:  # the common case: one field of the command
            v = getattr(command, path, None)
            if isinstance(v, str):
                out.append(v)
                continue
            if v is None:
                continue
        nodes: list[Any] = [command]
        for part in path.split("."):
            nxt: list[Any] = []
            for n in nodes:
                v = getattr(n, part, None)
                if isinstance(v, (list, tuple)):
                    nxt.extend(v)
                elif v is not None:
                    nxt.append(v)
            nodes = nxt
        out.extend(n for n in nodes if isinstance(n, str))
    return out


def decide(
    state: TableState, command: Command, ctx: Context[Any], ruleset: Ruleset[Any, Any]
) -> list[Emitted]:
    """The events of ``command`` at ``state``, or one raised error with nothing written.

    The command's declared ``permit`` is enforced first (:func:`check_permit`);
    core commands are decided here, the ruleset's go to ``ruleset.decide``.

    Raises:
        Forbidden: ``command/forbidden`` (the declared permission).
        InvalidCommand: ``command/invalid`` and friends.
        Rejected: ``rule/<ruleset>/<reason>`` from the ruleset.
        DiceError: ``dice/*`` for a bad dice expression.
    """
    if ctx.actor is None or ctx.actor not in state.members or not state.members[ctx.actor].present:
        raise Forbidden("join the table first", reason="先に卓に参加してください")
    if (
        isinstance(command, Chat)
        and ctx.role == Role.SPECTATOR
        and state.settings.spectator_chat
        and command.character_id is None
        and not command.to
        and command.channel in ("", chat_core.SPECTATOR)
    ):
        return [ChatPosted(text=_chat_text(command.text), channel=SPECTATOR_CHANNEL)]
    check_permit(state, command, ctx)
    match command:
        case Chat(text=text, character_id=cid, channel=channel, to=to):
            return _chat(
                state,
                ctx,
                ruleset,
                text,
                cid,
                channel=chat_core.channel_of(state.chat, channel),
                to=_recipients(state, ctx, to),
            )
        case RollDice(expression=expr, secret=secret, comment=comment):
            if ruleset.chat is not None:
                # the ruleset's own chat commands too (the GM's secret dice box: `N4`)
                line = expr if not comment else f"{expr} {comment}"
                ctx.secret = secret
                try:
                    out = ruleset.chat(_chat_text(line), state, ctx)
                    if out is None and secret and (bare := _secret_prefix(line)) is not None:
                        out = ruleset.chat(bare, state, ctx)  # `SN4` typed into the secret box
                finally:
                    ctx.secret = False
                if out is not None:
                    return [_as_secret(e, ctx) for e in out] if secret else list(out)
            parsed = chatdice.parse_strict(expr if not comment else f"{expr} {comment}")
            if secret and not parsed.secret:
                parsed = chatdice.ParsedRoll(**{**parsed.__dict__, "secret": True})
            return [_roll_event(parsed.roll(ctx.dice), ctx)]
        case RenameMember(name=name, member_id=mid):
            target = mid or ctx.actor
            if target != ctx.actor and not ctx.is_gm:
                raise Forbidden(
                    "renaming another member",
                    command="rename",
                    role=ctx.role,
                    reason="他のメンバーの名前を変えられるのはGMだけです",
                )
            if target not in state.members:
                raise InvalidCommand(
                    f"no member {target!r}", code="command/unknown_member", member_id=target
                )
            return [MemberRenamed(member_id=target, name=_name(name))]
        case SetRole(member_id=mid, role=role):
            if mid not in state.members:
                raise InvalidCommand(
                    f"no member {mid!r}", code="command/unknown_member", member_id=mid
                )
            if mid == ctx.actor and role != Role.GM and _gm_count(state) == 1:
                raise InvalidCommand("the last GM cannot step down", code="command/last_gm")
            return [RoleChanged(member_id=mid, role=role)]
        case Leave():
            return [MemberLeft(member_id=ctx.actor)]
        case CreateCharacter(name=name, owner=owner, sheet=sheet):
            if owner is not None and owner != ctx.actor and not ctx.is_gm:
                raise Forbidden(
                    "creating a character for another member",
                    command="create_character",
                    role=ctx.role,
                    reason="他のメンバーのキャラクターを作れるのはGMだけです",
                )
            if owner is not None and owner not in state.members:
                raise InvalidCommand(
                    f"no member {owner!r}", code="command/unknown_member", member_id=owner
                )
            if owner is None and not ctx.is_gm:
                owner = ctx.actor
            return [
                CharacterCreated(
                    character_id=ctx.new_id("c"),
                    name=_name(name),
                    owner=owner,
                    sheet=ruleset.check_sheet(sheet),
                )
            ]
        case UpdateCharacter(character_id=cid, name=name, owner=owner, sheet=sheet):
            ch = state.characters[cid]  # the permit checked it exists and is the sender's
            if owner is not None:
                if not ctx.is_gm:
                    raise Forbidden(
                        "giving a character to another member",
                        command="update_character",
                        role=ctx.role,
                        reason="キャラクターの持ち主を変えられるのはGMだけです",
                    )
                if owner not in state.members:
                    raise InvalidCommand(
                        f"no member {owner!r}", code="command/unknown_member", member_id=owner
                    )
            ruleset.check_sheet({**ch.sheet, **sheet})
            return [
                CharacterUpdated(
                    character_id=cid,
                    name=_name(name) if name is not None else None,
                    owner=owner,
                    sheet=dict(sheet),
                )
            ]
        case RemoveCharacter(character_id=cid):
            return [CharacterRemoved(character_id=cid)]
        case Override(path=path, value=value, reason=reason):
            previous = _read_path(state, path)
            event = GMOverridden(
                path=tuple(path), value=value, previous=previous, reason=reason[:500]
            )
            _apply_override(
                state, event, ruleset
            )  # raises InvalidCommand when the result is invalid
            if ruleset.touches_hidden(event.path):
                # the values would reveal hidden information (a deck's order, a hand)
                return [
                    Private(
                        event=event,
                        audience=(),
                        redacted=GMOverridden(path=event.path, reason=event.reason),
                    )
                ]
            return [event]
        case AddChannel(name=name):
            return [ChannelAdded(name=chat_core.new_channel(state.chat, name))]
        case SetChatPalette(character_id=cid, color=color, palette=palette):
            old = state.chat.profiles.get(cid, chat_core.ChatProfile())
            new = ChatPaletteSet(
                character_id=cid,
                color=old.color if color is None else color.lower(),
                palette=old.palette if palette is None else _clean_text(palette),
            )
            if (new.color, new.palette) == (old.color, old.palette):
                raise InvalidCommand("nothing changes", code="command/no_effect")
            return [new]
        case SetTimer(duration_s=duration_s, label=label, character_id=cid):
            if cid is not None and cid not in state.characters:
                raise InvalidCommand(
                    f"no character {cid!r}", code="command/unknown_character", character_id=cid
                )
            return [kit.timer(ctx, duration_s, label=label.strip(), character_id=cid)]
        case CancelTimer(timer_id=tid):
            if tid not in state.timers:
                raise InvalidCommand(
                    f"no armed timer {tid!r}", code="timer/unknown_timer", timer_id=tid[:64]
                )
            return [TimerCancelled(timer_id=tid, label=state.timers[tid].label)]
        case RevealSeed():
            if ctx.seed is None:
                raise InvalidCommand("this table has no seed to reveal", code="command/no_seed")
            if not state.seed_open:
                raise InvalidCommand("the seed is already revealed", code="command/seed_revealed")
            # a table with epochs goes on with a fresh secret seed, committed here
            return [
                SeedRevealed(
                    seed=ctx.seed.hex(), next_seed_hash=ctx.next_seed_hash if state.epochs else ""
                )
            ]
        case _:
            if type(command) in ruleset.commands:
                return list(ruleset.decide(state, command, ctx))
            raise InvalidCommand(
                f"{type(command).__name__} is not a command of {ruleset.id}",
                code="command/unknown_command",
            )


SPECTATOR_CHANNEL = chat_core.SPECTATOR
"""The channel of spectators' lines (when ``settings.spectator_chat`` allows them)."""


def _gm_count(state: TableState) -> int:
    return sum(1 for m in state.members.values() if m.role == Role.GM and m.present)


def _roll_event(event: DiceRolled, ctx: Context[Any]) -> Emitted:
    if not event.secret:
        return event
    assert ctx.actor is not None
    return Private(
        event=event,
        audience=(ctx.actor, GM),
        redacted=Redacted(of="dice_rolled", note="シークレットダイス"),
    )


def _chat_text(text: str) -> str:
    text = _clean_text(text).strip()
    if not text:
        raise InvalidCommand("empty chat line", code="command/empty")
    if len(text) > MAX_CHAT:
        raise InvalidCommand(
            f"a chat line has at most {MAX_CHAT} characters", code="command/too_long"
        )
    return text


def _secret_prefix(text: str) -> str | None:
    """The line without its secret prefix ``S`` (half- or full-width), or ``None`` when it has none."""
    head = unicodedata.normalize("NFKC", text[:1]).upper()
    rest = text[1:].lstrip()
    return rest if head == "S" and rest else None


def _recipients(state: TableState, ctx: Context[Any], to: Sequence[str]) -> tuple[str, ...]:
    """A whisper's recipients: members, each once, in the order given.

    Raises:
        InvalidCommand: ``command/unknown_member`` for an id that is not a member.
    """
    out: list[str] = []
    for mid in to:
        if mid not in state.members:
            raise InvalidCommand(
                f"no member {mid!r}", code="command/unknown_member", member_id=mid[:64]
            )
        if mid not in out:
            out.append(mid)
    return tuple(out)


def _chat(
    state: TableState,
    ctx: Context[Any],
    ruleset: Ruleset[Any, Any],
    text: str,
    cid: str | None,
    *,
    channel: str = "",
    to: tuple[str, ...] = (),
) -> list[Emitted]:
    """A chat line: a ruleset's chat command, else the generic dice, else plain chat.

    Spoken as a character, ``{name}`` references to its sheet are replaced first
    (:func:`taku.core.chat.resolve_refs`). The secret prefix is the core's: for
    ``S<command>`` the core asks the ruleset (then the generic dice) about
    ``<command>`` with ``ctx.secret`` set, and makes every event of the answer
    secret (the actor and the GM see it, the others a ``redacted`` stand-in). A
    line the ruleset does not read with the prefix stripped is read as it is
    (``Sorry`` stays chat). ``channel`` (stored form, ``""`` for メイン) goes on the
    core's ``chat_posted`` and ``dice_rolled``; ``to`` makes every event a whisper
    (:func:`_as_whisper`).
    """
    text = _chat_text(text)
    if cid is not None and cid in state.characters:
        sheet = state.characters[cid].sheet
        text = _chat_text(
            chat_core.resolve_refs(text, sheet, chat_core.sheet_titles(ruleset.sheet))
        )
    ctx.character_id = cid
    stripped = _secret_prefix(text)
    out: list[Emitted] | None = None
    if stripped is not None:
        ctx.secret = True
        try:
            out = _chat_command(state, ctx, ruleset, stripped, cid)
        finally:
            ctx.secret = False
        if out is not None:
            out = [_as_secret(e, ctx) for e in out]
    if out is None:
        out = _chat_command(state, ctx, ruleset, text, cid)
    if out is None:
        out = [ChatPosted(text=text, character_id=cid)]
    out = [_placed(e, channel, to) for e in out]
    return [_as_whisper(e, ctx, to) for e in out] if to else out


def _placed(emitted: Emitted, channel: str, to: tuple[str, ...]) -> Emitted:
    """A chat line's event with its channel and recipients: the core's ``chat_posted``
    and ``dice_rolled``, and every ruleset event that declares a ``channel`` field
    (``""`` by default, so a log written before it loads as メイン) — a ruleset's roll
    typed in 情報 lands in 情報. ``to`` is set where the event has that field too."""
    if not channel and not to:
        return emitted
    inner = emitted.event if isinstance(emitted, Private) else emitted
    fields = type(inner).__struct_fields__
    if "channel" not in fields:
        return emitted
    changes: dict[str, Any] = {"channel": channel}
    if "to" in fields:
        changes["to"] = to
    inner = msgspec.structs.replace(inner, **changes)
    if isinstance(emitted, Private):
        return Private(event=inner, audience=emitted.audience, redacted=emitted.redacted)
    return inner


WHISPER_NOTE = "内緒話"


def _as_whisper(emitted: Emitted, ctx: Context[Any], to: tuple[str, ...]) -> Emitted:
    """``emitted`` seen only by the sender, ``to`` and the GM (an already hidden event
    keeps the narrower audience)."""
    assert ctx.actor is not None
    allowed = (ctx.actor, *(m for m in to if m != ctx.actor), GM)
    if isinstance(emitted, Private):
        audience = tuple(a for a in emitted.audience if a in allowed)
        return Private(event=emitted.event, audience=audience, redacted=emitted.redacted)
    tag = type(emitted).__struct_config__.tag
    return Private(
        event=emitted, audience=allowed, redacted=Redacted(of=str(tag), note=WHISPER_NOTE)
    )


def _chat_command(
    state: TableState, ctx: Context[Any], ruleset: Ruleset[Any, Any], text: str, cid: str | None
) -> list[Emitted] | None:
    if ruleset.chat is not None:
        out = ruleset.chat(text, state, ctx)
        if out is not None:
            return [_spoken_as(e, cid) for e in out]
    parsed = chatdice.parse(text)
    if parsed is not None:
        return [_roll_event(parsed.roll(ctx.dice, character_id=cid), ctx)]
    return None


def _spoken_as(emitted: Emitted, cid: str | None) -> Emitted:
    """A ruleset's core ``dice_rolled`` (its dice forms: nstrpg's ``N4``) on a line spoken
    as the character ``cid`` names that character, as the generic dice do."""
    if cid is None:
        return emitted
    event = emitted.event if isinstance(emitted, Private) else emitted
    if not isinstance(event, DiceRolled) or event.character_id is not None:
        return emitted
    event = msgspec.structs.replace(event, character_id=cid)
    if isinstance(emitted, Private):
        return Private(event=event, audience=emitted.audience, redacted=emitted.redacted)
    return event


def _as_secret(emitted: Emitted, ctx: Context[Any]) -> Emitted:
    """``emitted`` seen only by the actor and the GM (a hidden event keeps the narrower of the two audiences)."""
    assert ctx.actor is not None
    allowed = (ctx.actor, GM)
    if isinstance(emitted, Private):
        audience = tuple(a for a in emitted.audience if a in allowed)
        return Private(event=emitted.event, audience=audience, redacted=emitted.redacted)
    if isinstance(emitted, DiceRolled) and not emitted.secret:
        emitted = msgspec.structs.replace(emitted, secret=True)
    return kit.secret(emitted, ctx)


# --------------------------------------------------------------------------- overrides


def _read_path(state: TableState, path: Sequence[str | int]) -> Any:
    root = _override_root(state, path)
    node: Any = root
    for key in path[1:]:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def _override_root(state: TableState, path: Sequence[str | int]) -> Any:
    if not path or path[0] not in ("characters", "game"):
        raise InvalidCommand(
            'an override path starts with "characters" or "game"', code="command/invalid_path"
        )
    if path[0] == "characters":
        return {k: msgspec.to_builtins(v) for k, v in state.characters.items()}
    return msgspec.to_builtins(state.game)


def _apply_override(
    state: TableState, event: GMOverridden, ruleset: Ruleset[Any, Any]
) -> TableState:
    """The state with ``event`` applied; raises InvalidCommand when that is no valid state."""
    path = event.path
    root = copy.deepcopy(_override_root(state, path))
    if len(path) < 2:
        raise InvalidCommand(
            "an override names a value inside the state", code="command/invalid_path"
        )
    node = root
    try:
        for key in path[1:-1]:
            node = node[key]
        if isinstance(node, list):
            node[int(path[-1])] = event.value
        elif isinstance(node, dict):
            node[path[-1]] = event.value
        else:
            raise TypeError
    except (KeyError, IndexError, TypeError, ValueError):
        raise InvalidCommand(f"no value at {list(path)}", code="command/invalid_path") from None
    try:
        if path[0] == "characters":
            chars = msgspec.convert(root, dict[str, Character])
            for ch in chars.values():
                ruleset.check_sheet(ch.sheet)
                _name(ch.name)  # the same rules as a name given any other way
            new = msgspec.structs.replace(state, characters=chars)
        else:
            game = msgspec.convert(root, type(state.game)) if state.game is not None else root
            new = msgspec.structs.replace(state, game=game)
    except msgspec.ValidationError as e:
        raise InvalidCommand(
            f"that value does not fit: {e}",
            code="command/invalid_value",
            detail=japanese_detail(str(e)),
        ) from None
    if _read_path(new, path) != msgspec.to_builtins(event.value):
        # e.g. a key the state does not have: the override would log a change that never happened
        raise InvalidCommand(
            f"no value at {list(path)} takes {event.value!r}", code="command/invalid_path"
        )
    return new


# --------------------------------------------------------------------------- evolve and fold


def evolve(state: TableState, event: Event, ruleset: Ruleset[Any, Any]) -> TableState:
    """Apply one event: the core's part, then ``ruleset.evolve``. Never rejects."""
    core = _evolve_core(state, event, ruleset)
    game = ruleset.evolve(core.game, event, core, core.rules)
    if game is not core.game:
        core = msgspec.structs.replace(core, game=game)
    return core


def _evolve_core(state: TableState, event: Event, ruleset: Ruleset[Any, Any]) -> TableState:
    replace = msgspec.structs.replace
    match event:
        case ChatPosted() | DiceRolled() | Redacted():
            return state
        case ChannelAdded(name=name):
            chat = replace(state.chat, channels=(*state.chat.channels, name))
            return replace(state, chat=chat)
        case ChatPaletteSet(character_id=cid, color=color, palette=palette):
            profiles = {
                **state.chat.profiles,
                cid: chat_core.ChatProfile(color=color, palette=palette),
            }
            return replace(state, chat=replace(state.chat, profiles=profiles))
        case TableCreated():
            rules = ruleset.make_options(event.options)
            return replace(
                state,
                name=event.name,
                ruleset=event.ruleset,
                ruleset_version=event.ruleset_version,
                options=event.options,
                seed_hash=event.seed_hash,
                settings=event.settings,
                history=event.history,
                epochs=event.epochs,
                rules=rules,
                game=ruleset.initial_state(rules),
            )
        case MemberJoined():
            m = Member(id=event.member_id, name=event.name, role=event.role)
            return replace(state, members={**state.members, m.id: m})
        case MemberLeft():
            return _member(state, event.member_id, present=False)
        case MemberRenamed():
            return _member(state, event.member_id, name=event.name)
        case RoleChanged():
            return _member(state, event.member_id, role=event.role)
        case CharacterCreated():
            ch = Character(
                id=event.character_id, name=event.name, owner=event.owner, sheet=event.sheet
            )
            return replace(state, characters={**state.characters, ch.id: ch})
        case CharacterUpdated():
            old = state.characters.get(event.character_id)
            if old is None:
                return state
            ch = replace(
                old,
                name=event.name if event.name is not None else old.name,
                owner=event.owner if event.owner is not None else old.owner,
                sheet={**old.sheet, **event.sheet},
            )
            return replace(state, characters={**state.characters, ch.id: ch})
        case CharacterRemoved():
            chars = dict(state.characters)
            chars.pop(event.character_id, None)
            state = replace(state, characters=chars)
            if event.character_id in state.chat.profiles:
                profiles = dict(state.chat.profiles)
                profiles.pop(event.character_id)
                state = replace(state, chat=replace(state.chat, profiles=profiles))
            return state
        case GMOverridden():
            try:
                return _apply_override(state, event, ruleset)
            except InvalidCommand:
                # a stored override that no longer fits (an older ruleset) changes nothing,
                # and is reported (its seq: the fold sets the event's seq after evolve)
                return replace(state, unfit_overrides=(*state.unfit_overrides, state.seq + 1))
        case TimerSet():
            t = Timer(
                id=event.timer_id,
                deadline=event.deadline,
                duration_s=event.duration_s,
                label=event.label,
                character_id=event.character_id,
            )
            return replace(state, timers={**state.timers, t.id: t})
        case TimerCancelled(timer_id=tid) | TimerExpired(timer_id=tid):
            if tid not in state.timers:
                return state
            timers = dict(state.timers)
            del timers[tid]
            return replace(state, timers=timers)
        case SeedRevealed():
            if not event.next_seed_hash:
                return replace(state, seed=event.seed, seed_open=False)
            # a new epoch: its own seed (committed by the event) and its own face stream
            return replace(
                state,
                seed=event.seed,
                seed_hash=event.next_seed_hash,
                epoch=state.epoch + 1,
                dice_cursor=0,
            )
        case CommandUndone() | CommandRedone() | TableForked():
            from taku.core import undo

            return undo.evolve(state, event, ruleset)
        case _:
            return state


def _member(state: TableState, member_id: str, **changes: Any) -> TableState:
    old = state.members.get(member_id)
    if old is None:
        return state
    m = msgspec.structs.replace(old, **changes)
    return msgspec.structs.replace(state, members={**state.members, member_id: m})


def fold(
    state: TableState,
    recorded: Iterable[Recorded],
    ruleset: Ruleset[Any, Any],
    decoder: msgspec.json.Decoder[Any] | EventReader,
) -> TableState:
    """``state`` after the stored events ``recorded`` (in seq order).

    The seq and the dice cursor come from the envelope; the rest from :func:`evolve`.
    ``decoder`` is the table's :class:`~taku.core.upcast.EventReader` (old versions
    upcast, unreadable events raise ``store/unreadable_event``) or a plain decoder
    of today's shapes.
    """
    from taku.core.upcast import EventReader

    read: Callable[[Recorded], Event]
    if isinstance(decoder, EventReader):
        read = decoder.event
    else:
        plain = decoder
        read = lambda rec: plain.decode(rec.data)  # noqa: E731
    for rec in recorded:
        event = read(rec)
        state = evolve(state, event, ruleset)
        state = msgspec.structs.replace(
            state, seq=rec.seq, dice_cursor=state.dice_cursor + rec.draws, head=rec.hash or ""
        )
    return state


# --------------------------------------------------------------------------- view


def view(state: TableState, viewer: Viewer, ruleset: Ruleset[Any, Any]) -> dict[str, Any]:
    """The table as ``viewer`` may see it: the ruleset's ``view`` of the game, no secrets.

    Returns a JSON-ready dict: ``table_id, seq, name, ruleset, options, seed_hash,
    seed (once revealed), epoch, head (the chain's short form at seq), members,
    characters, game, you, chat`` (``chat``: ``{channels, palettes}``,
    :func:`taku.core.chat.view`), ``unfit_overrides`` (the seqs of stored GM
    overrides that no longer fit) when there are any, ``timers`` (the armed
    timers: ``[{id, deadline (RFC 3339 UTC), duration_s, label, character_id}]``)
    when there are any; ``undone`` (the command ids undone now) when there are any,
    ``player_undo`` and ``fork_by_members`` when the table's ``history`` settings
    turn them on.
    """
    out = {
        "table_id": state.table_id,
        "seq": state.seq,
        "name": state.name,
        "ruleset": state.ruleset,
        "ruleset_version": state.ruleset_version,
        "options": state.options,
        "seed_hash": state.seed_hash,
        "seed": state.seed,
        "epoch": state.epoch,
        "head": chain.short(state.head),
        "members": msgspec.to_builtins(state.members),
        "characters": msgspec.to_builtins(state.characters),
        "game": msgspec.to_builtins(ruleset.view(state, viewer, state.rules)),
        "you": {"member_id": viewer.member_id, "role": viewer.role},
        "chat": chat_core.view(state.chat, state.characters, ruleset.palette),
    }
    if state.unfit_overrides:
        out["unfit_overrides"] = list(state.unfit_overrides)
    if state.undone:  # commands undone now (taku.core.undo): clients strike their lines through
        out["undone"] = list(state.undone)
    if state.history.player_undo:
        out["player_undo"] = True
    if state.history.fork_by_members:
        out["fork_by_members"] = True
    if state.timers:
        out["timers"] = [msgspec.to_builtins(t) for t in state.timers.values()]
    return out


def affordances(state: TableState, viewer: Viewer, ruleset: Ruleset[Any, Any]) -> list[Affordance]:
    """What ``viewer`` may do now: the core's own actions, then the ruleset's.

    A spectator gets none (spectators never act). Every affordance names a
    command whose declared permit the viewer passes.
    """
    if (
        viewer.member_id is None
        or viewer.role == Role.SPECTATOR
        or viewer.member_id not in state.members
    ):
        return []
    out: list[Affordance] = [Affordance(command="chat", label="発言する")]
    own = [c for c in state.characters.values() if viewer.is_gm or c.owner == viewer.member_id]
    if own:
        out.append(
            Affordance(
                command="chat",
                label="キャラクターとして発言する",
                choices={"character_id": [Choice(value=c.id, label=c.name) for c in own]},
            )
        )
    out.append(Affordance(command="roll", label="ダイスを振る"))
    out.append(Affordance(command="create_character", label="キャラクターを作る"))
    if own:
        chars = [Choice(value=c.id, label=c.name) for c in own]
        out.append(
            Affordance(
                command="update_character",
                label="キャラクターを編集する",
                choices={"character_id": chars},
            )
        )
        out.append(
            Affordance(
                command="remove_character",
                label="キャラクターを削除する",
                choices={"character_id": chars},
            )
        )
    if viewer.is_gm and state.seed_open:
        out.append(Affordance(command="reveal_seed", label="シードを公開する"))
    if viewer.is_gm:
        out.append(Affordance(command="set_timer", label="タイマーを設定する"))
        if state.timers:
            out.append(
                Affordance(
                    command="cancel_timer",
                    label="タイマーを止める",
                    choices={
                        "timer_id": [
                            Choice(value=t.id, label=t.label or "タイマー")
                            for t in state.timers.values()
                        ]
                    },
                )
            )
    if ruleset.affordances is not None:
        out.extend(ruleset.affordances(state, viewer, state.rules))
    return out


def turn(state: TableState, ruleset: Ruleset[Any, Any]) -> Turn | None:
    """Whose turn it is, for rulesets with turns (``None`` otherwise)."""
    return ruleset.turn(state, state.rules) if ruleset.turn is not None else None
