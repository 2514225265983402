"""The table decider: what every game shares, and dispatch to the ruleset.

The core owns members and roles, characters and their owners, chat, generic
dice, GM overrides and the dice seed; everything else goes to the ruleset's
``decide``. All of it is pure: :func:`decide` returns the events of one command
(or raises one error, writing nothing), :func:`evolve` applies one event, and
:func:`fold` applies a stored one (a :class:`~taku.core.events.Recorded`).
"""

from __future__ import annotations

import copy
import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from taku.core import chatdice
from taku.core.commands import (
    CORE_COMMANDS,
    Chat,
    Command,
    CreateCharacter,
    Leave,
    Override,
    RemoveCharacter,
    RenameMember,
    RevealSeed,
    RollDice,
    SetRole,
    UpdateCharacter,
)
from taku.core.events import (
    CORE_EVENTS,
    GM,
    CharacterCreated,
    CharacterRemoved,
    CharacterUpdated,
    ChatPosted,
    DiceRolled,
    Event,
    GMOverridden,
    MemberJoined,
    MemberLeft,
    MemberRenamed,
    Private,
    Recorded,
    Redacted,
    RoleChanged,
    SeedRevealed,
    TableCreated,
)
from taku.core.ruleset import Context, Emitted, Role, Ruleset, Viewer
from taku.errors import Forbidden, InvalidCommand

__all__ = [
    "Character",
    "Member",
    "TableState",
    "command_decoder",
    "creation_events",
    "decide",
    "event_decoder",
    "evolve",
    "fold",
    "join_event",
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


class TableState(msgspec.Struct, frozen=True, kw_only=True):
    """A table at one seq: the fold of its events up to ``seq``.

    ``game`` is the ruleset's own state; ``dice_cursor`` the next face index of
    the table's dice stream; ``seed`` is set once the GM revealed it.
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

    def role_of(self, member_id: str | None) -> str:
        m = self.members.get(member_id) if member_id else None
        return m.role if m else Role.SPECTATOR

    def viewer(self, member_id: str | None) -> Viewer:
        return Viewer(member_id, self.role_of(member_id))


# --------------------------------------------------------------------------- codecs


def event_decoder(ruleset: Ruleset) -> msgspec.json.Decoder:
    """One typed decoder for the core events plus ``ruleset``'s (build once, reuse)."""
    types = CORE_EVENTS + tuple(ruleset.events)
    return msgspec.json.Decoder(_union(types))


def command_decoder(ruleset: Ruleset) -> msgspec.json.Decoder:
    """One typed decoder for the core commands plus ``ruleset``'s."""
    return msgspec.json.Decoder(_union(CORE_COMMANDS + tuple(ruleset.commands)))


def _union(types: Sequence[type]) -> Any:
    from typing import Union

    return Union[tuple(types)]  # noqa: UP007 (a runtime union of many types)


# --------------------------------------------------------------------------- creation


def creation_events(
    *, name: str, ruleset: Ruleset, options: dict[str, Any], seed_hash: str, gm_id: str, gm_name: str
) -> list[Event]:
    """The first events of a table: ``table_created`` and the GM's ``member_joined``.

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
        ),
        MemberJoined(member_id=gm_id, name=_name(gm_name or "GM"), role=Role.GM),
    ]


def join_event(member_id: str, name: str, role: str) -> MemberJoined:
    if role not in Role.ALL:
        raise InvalidCommand(f"unknown role {role!r}")
    return MemberJoined(member_id=member_id, name=_name(name), role=role)


def _name(name: str) -> str:
    name = name.strip()
    if not name or len(name) > MAX_NAME:
        raise InvalidCommand(f"a name has 1 to {MAX_NAME} characters", code="command/invalid_name")
    if any(_invisible(c) for c in name):
        raise InvalidCommand("a name may not hold control or direction characters", code="command/invalid_name")
    return name


def _invisible(c: str) -> bool:
    """Control characters and bidirectional overrides: they could forge lines in logs."""
    return unicodedata.category(c) == "Cc" or "\u202a" <= c <= "\u202e" or "\u2066" <= c <= "\u2069"


_UNWANTED = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _clean_text(text: str) -> str:
    """A chat line without control characters (newlines and tabs stay) or direction overrides."""
    return _UNWANTED.sub("", text)


# --------------------------------------------------------------------------- decide


def decide(state: TableState, command: Command, ctx: Context, ruleset: Ruleset) -> list[Emitted]:
    """The events of ``command`` at ``state``, or one raised error with nothing written.

    Core commands are decided here; the ruleset's go to ``ruleset.decide``.

    Raises:
        Forbidden: ``command/forbidden`` (role or ownership).
        InvalidCommand: ``command/invalid`` and friends.
        Rejected: ``rule/<ruleset>/<reason>`` from the ruleset.
        DiceError: ``dice/*`` for a bad dice expression.
    """
    if ctx.actor is None or ctx.actor not in state.members or not state.members[ctx.actor].present:
        raise Forbidden("join the table first")
    match command:
        case Chat(text=text, character_id=cid):
            return _chat(state, ctx, ruleset, text, cid)
        case RollDice(expression=expr, secret=secret, comment=comment):
            ctx.require_player()
            parsed = chatdice.parse_strict(expr if not comment else f"{expr} {comment}")
            if secret and not parsed.secret:
                parsed = chatdice.ParsedRoll(**{**parsed.__dict__, "secret": True})
            return [_roll_event(parsed.roll(ctx.dice), ctx)]
        case RenameMember(name=name, member_id=mid):
            target = mid or ctx.actor
            if target != ctx.actor:
                ctx.require_gm("renaming another member")
            if target not in state.members:
                raise InvalidCommand(f"no member {target!r}", code="command/unknown_member")
            return [MemberRenamed(member_id=target, name=_name(name))]
        case SetRole(member_id=mid, role=role):
            ctx.require_gm("changing roles")
            if mid not in state.members:
                raise InvalidCommand(f"no member {mid!r}", code="command/unknown_member")
            if role not in Role.ALL:
                raise InvalidCommand(f"unknown role {role!r}")
            if mid == ctx.actor and role != Role.GM and _gm_count(state) == 1:
                raise InvalidCommand("the last GM cannot step down", code="command/last_gm")
            return [RoleChanged(member_id=mid, role=role)]
        case Leave():
            return [MemberLeft(member_id=ctx.actor)]
        case CreateCharacter(name=name, owner=owner, sheet=sheet):
            ctx.require_player()
            if owner is not None and owner != ctx.actor:
                ctx.require_gm("creating a character for another member")
            if owner is not None and owner not in state.members:
                raise InvalidCommand(f"no member {owner!r}", code="command/unknown_member")
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
            ch = ctx.require_control(state, cid)
            if owner is not None:
                ctx.require_gm("giving a character to another member")
                if owner not in state.members:
                    raise InvalidCommand(f"no member {owner!r}", code="command/unknown_member")
            ruleset.check_sheet({**ch.sheet, **sheet})
            return [
                CharacterUpdated(
                    character_id=cid, name=_name(name) if name is not None else None, owner=owner, sheet=dict(sheet)
                )
            ]
        case RemoveCharacter(character_id=cid):
            ctx.require_control(state, cid)
            return [CharacterRemoved(character_id=cid)]
        case Override(path=path, value=value, reason=reason):
            ctx.require_gm("overriding values")
            previous = _read_path(state, path)
            event = GMOverridden(path=tuple(path), value=value, previous=previous, reason=reason[:500])
            _apply_override(state, event, ruleset)  # raises InvalidCommand when the result is invalid
            if ruleset.touches_hidden(event.path):
                # the values would reveal hidden information (a deck's order, a hand)
                return [Private(event=event, audience=(), redacted=GMOverridden(path=event.path, reason=event.reason))]
            return [event]
        case RevealSeed():
            ctx.require_gm("revealing the dice seed")
            if ctx.seed is None:
                raise InvalidCommand("this table has no seed to reveal", code="command/no_seed")
            if state.seed is not None:
                raise InvalidCommand("the seed is already revealed", code="command/seed_revealed")
            return [SeedRevealed(seed=ctx.seed.hex())]
        case _:
            if type(command) in ruleset.commands:
                ctx.require_player()
                return list(ruleset.decide(state, command, ctx))
            raise InvalidCommand(f"{type(command).__name__} is not a command of {ruleset.id}")


def _gm_count(state: TableState) -> int:
    return sum(1 for m in state.members.values() if m.role == Role.GM and m.present)


def _roll_event(event: DiceRolled, ctx: Context) -> Emitted:
    if not event.secret:
        return event
    assert ctx.actor is not None
    return Private(
        event=event,
        audience=(ctx.actor, GM),
        redacted=Redacted(of="dice_rolled", note="シークレットダイス"),
    )


def _chat(state: TableState, ctx: Context, ruleset: Ruleset, text: str, cid: str | None) -> list[Emitted]:
    text = _clean_text(text).strip()
    if not text:
        raise InvalidCommand("empty chat line", code="command/empty")
    if len(text) > MAX_CHAT:
        raise InvalidCommand(f"a chat line has at most {MAX_CHAT} characters", code="command/too_long")
    if cid is not None:
        ctx.require_control(state, cid)
        ctx.character_id = cid
    if ctx.role != Role.SPECTATOR:
        if ruleset.chat is not None:
            out = ruleset.chat(text, state, ctx)
            if out is not None:
                return list(out)
        parsed = chatdice.parse(text)
        if parsed is not None:
            return [_roll_event(parsed.roll(ctx.dice, character_id=cid), ctx)]
    return [ChatPosted(text=text, character_id=cid)]


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
        raise InvalidCommand('an override path starts with "characters" or "game"', code="command/invalid_path")
    if path[0] == "characters":
        return {k: msgspec.to_builtins(v) for k, v in state.characters.items()}
    return msgspec.to_builtins(state.game)


def _apply_override(state: TableState, event: GMOverridden, ruleset: Ruleset) -> TableState:
    """The state with ``event`` applied; raises InvalidCommand when that is no valid state."""
    path = event.path
    root = copy.deepcopy(_override_root(state, path))
    if len(path) < 2:
        raise InvalidCommand("an override names a value inside the state", code="command/invalid_path")
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
        raise InvalidCommand(f"that value does not fit: {e}", code="command/invalid_value") from None
    if _read_path(new, path) != msgspec.to_builtins(event.value):
        # e.g. a key the state does not have: the override would log a change that never happened
        raise InvalidCommand(f"no value at {list(path)} takes {event.value!r}", code="command/invalid_path")
    return new


# --------------------------------------------------------------------------- evolve and fold


def evolve(state: TableState, event: Event, ruleset: Ruleset) -> TableState:
    """Apply one event: the core's part, then ``ruleset.evolve``. Never rejects."""
    core = _evolve_core(state, event, ruleset)
    game = ruleset.evolve(core.game, event, core)
    if game is not core.game:
        core = msgspec.structs.replace(core, game=game)
    return core


def _evolve_core(state: TableState, event: Event, ruleset: Ruleset) -> TableState:
    replace = msgspec.structs.replace
    match event:
        case ChatPosted() | DiceRolled() | Redacted():
            return state
        case TableCreated():
            return replace(
                state,
                name=event.name,
                ruleset=event.ruleset,
                ruleset_version=event.ruleset_version,
                options=event.options,
                seed_hash=event.seed_hash,
                game=ruleset.initial_state(ruleset.make_options(event.options)),
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
            ch = Character(id=event.character_id, name=event.name, owner=event.owner, sheet=event.sheet)
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
            return replace(state, characters=chars)
        case GMOverridden():
            try:
                return _apply_override(state, event, ruleset)
            except InvalidCommand:
                return state  # a stored override that no longer fits (an older ruleset) is skipped
        case SeedRevealed():
            return replace(state, seed=event.seed)
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
    ruleset: Ruleset,
    decoder: msgspec.json.Decoder,
) -> TableState:
    """``state`` after the stored events ``recorded`` (in seq order).

    The seq and the dice cursor come from the envelope; the rest from :func:`evolve`.
    """
    for rec in recorded:
        event = decoder.decode(rec.data)
        state = evolve(state, event, ruleset)
        state = msgspec.structs.replace(state, seq=rec.seq, dice_cursor=state.dice_cursor + rec.draws)
    return state


# --------------------------------------------------------------------------- view


def view(state: TableState, viewer: Viewer, ruleset: Ruleset) -> dict[str, Any]:
    """The table as ``viewer`` may see it: the ruleset's ``view`` of the game, no secrets.

    Returns a JSON-ready dict: ``table_id, seq, name, ruleset, options, seed_hash,
    seed (once revealed), members, characters, game, you``.
    """
    return {
        "table_id": state.table_id,
        "seq": state.seq,
        "name": state.name,
        "ruleset": state.ruleset,
        "ruleset_version": state.ruleset_version,
        "options": state.options,
        "seed_hash": state.seed_hash,
        "seed": state.seed,
        "members": msgspec.to_builtins(state.members),
        "characters": msgspec.to_builtins(state.characters),
        "game": msgspec.to_builtins(ruleset.view(state, viewer)),
        "you": {"member_id": viewer.member_id, "role": viewer.role},
    }
