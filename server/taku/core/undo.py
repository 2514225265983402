"""Undo and redo as compensating events, and the state a forked table starts from.

An undone command's events stay in the log. The ``undone`` event that names it
carries the compensation: the parts of the state that change when the table is
folded again without that command's events (and without the events of every
other command undone at that moment). So every fold — live, replay, snapshot,
``taku verify`` — just applies the event (:func:`evolve`); only deciding an
``undo`` or ``redo`` needs the table's log (:func:`decide`, given its
:class:`Entry` list).

Definitions (the property tests check them):

* the *effective log* of a table is its log without the events of the commands
  in ``TableState.undone`` and without the ``undone``/``redone`` events
  themselves;
* after any command, ``members``, ``characters``, ``game``, ``chat`` and ``timers``
  equal the fold of the effective log (:func:`replay`); ``seq``, ``head`` and
  ``dice_cursor`` follow the log itself: the dice an undone command drew stay
  drawn, the next roll never reuses a face.

Which commands can be undone: every member's command except ``undo``, ``redo``,
``reveal_seed`` (a published seed stays published), ``set_role`` and ``leave``
(membership is not play), ``set_timer`` and ``cancel_timer`` (real time); never the
server's own (joins, timer expiries, the table's creation). The armed timers follow
the effective log too, through timer events after the marker (:func:`timer_events`):
a move undone gives back the timers it stopped and stops the ones it set.

Dependence (an earlier command ``C`` and a later one ``L``, both in the effective
log): undoing ``C`` (or redoing it) while a later ``L`` depends on it needs
``force`` (GM, with a reason). The ruleset's ``depends`` hook decides when it
answers; otherwise :func:`default_depends`.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

from taku.core import chat as chat_core
from taku.core.commands import Redo, Undo
from taku.core.events import (
    CommandRedone,
    CommandUndone,
    Event,
    Private,
    TableForked,
    TimerCancelled,
    TimerSet,
)
from taku.core.ruleset import Context, Emitted, Role, Ruleset
from taku.errors import Forbidden, InvalidCommand

if TYPE_CHECKING:
    from taku.core.table import TableState

__all__ = [
    "NOT_UNDOABLE",
    "PARTS",
    "Entry",
    "Step",
    "decide",
    "default_depends",
    "prepend",
    "evolve",
    "hides_game",
    "replay",
    "check_sender",
    "resolve",
    "restore_parts",
    "target_seq",
    "timer_events",
    "touched",
    "window_ok",
]

PARTS = ("members", "characters", "game", "chat")
"""The parts of the state an ``undone``/``redone``/``table_forked`` event restores."""

NOT_UNDOABLE = frozenset(
    {"undo", "redo", "reveal_seed", "set_role", "leave", "set_timer", "cancel_timer"}
)
"""Command types that cannot be undone (besides the server's own, ``@…``): a timer runs
in real time, so the GM stops it (``cancel_timer``) rather than undoing it."""

_MARKERS = ("undone", "redone")


@dataclass(frozen=True, slots=True)
class Entry:
    """One stored event as undo reads the log: its seq, command id, actor, the type of
    the command that made it (``decided.type`` of its command's first event, ``""``
    when not recorded) and the decoded event (full, not redacted)."""

    seq: int
    command_id: str
    actor: str | None
    command: str
    event: Event


@dataclass(frozen=True, eq=False)
class Step:
    """One command of the effective log, for the ``depends`` hook.

    Attributes:
        command_id: the command's id.
        seq: the seq of its first event.
        actor: the member who sent it (``None``: the server).
        command: its type tag (``"chat"``, ``"nstrpg.attack"`` …; ``""`` unknown).
        events: its events, in order.
        before: the effective state before it.
        after: the effective state after it.
        touched: the parts of the state it changed (:func:`touched`; computed when
            first asked for).
    """

    command_id: str
    seq: int
    actor: str | None
    command: str
    events: tuple[Event, ...]
    before: TableState
    after: TableState

    @functools.cached_property
    def touched(self) -> frozenset[tuple[str, ...]]:
        return touched(self.before, self.after)


def touched(before: TableState, after: TableState) -> frozenset[tuple[str, ...]]:
    """The parts of the state that differ: ``("members", id)``, ``("characters", id)``,
    ``("chat",)`` and ``("game",)`` (the ruleset's state as one part)."""
    out: set[tuple[str, ...]] = set()
    for part in ("members", "characters"):  # identity first: most commands change neither
        a, b = getattr(before, part), getattr(after, part)
        if a is b:
            continue
        out.update((part, k) for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    if before.chat is not after.chat and before.chat != after.chat:
        out.add(("chat",))
    if before.game is not after.game and before.game != after.game:
        out.add(("game",))
    return frozenset(out)


def default_depends(earlier: Step, later: Step) -> bool:
    """The core's conservative rule: ``later`` depends on ``earlier`` when both changed
    the state and either they changed a part in common (a member, a character, the
    chat settings, or the ruleset's ``game`` state, which counts as one part), or one
    changed ``game`` and the other a character (game rules read the sheets). A command
    that changed nothing (a chat line, a roll) is never depended on and depends on
    nothing. Rulesets whose commands read state they do not write refine this with
    their ``depends`` hook."""
    a, b = earlier.touched, later.touched
    if not a or not b:
        return False
    if a & b:
        return True
    chars_a = any(p[0] == "characters" for p in a)
    chars_b = any(p[0] == "characters" for p in b)
    return (("game",) in a and chars_b) or (("game",) in b and chars_a)


def _groups(entries: Iterable[Entry]) -> list[list[Entry]]:
    out: list[list[Entry]] = []
    for e in entries:
        if out and out[-1][-1].command_id == e.command_id:
            out[-1].append(e)
        else:
            out.append([e])
    return out


def replay(
    table_id: str,
    entries: Sequence[Entry],
    ruleset: Ruleset[Any, Any],
    undone: Iterable[str],
    base: TableState | None = None,
) -> tuple[TableState, list[Step]]:
    """The fold of the effective log of ``entries`` with ``undone`` commands left out,
    and the steps (commands) it is made of. Pure.

    ``entries`` is the whole log, or its part after ``base``: the effective state at
    the seq before the part's first entry (see :func:`decide`)."""
    from taku.core import table as core_table

    skip = frozenset(undone)
    state = base if base is not None else core_table.TableState(table_id=table_id)
    steps: list[Step] = []
    for group in _groups(entries):
        first = group[0]
        if first.event.__struct_config__.tag in _MARKERS or first.command_id in skip:
            continue
        before = state
        for e in group:
            state = core_table.evolve(state, e.event, ruleset)
            state = msgspec.structs.replace(state, seq=e.seq)
        steps.append(
            Step(
                command_id=first.command_id,
                seq=first.seq,
                actor=first.actor,
                command=first.command,
                events=tuple(e.event for e in group),
                before=before,
                after=state,
            )
        )
    return state, steps


def restore_parts(current: TableState, target: TableState) -> dict[str, Any]:
    """The parts of ``target`` that differ from ``current``, as JSON (an event's ``restore``)."""
    return {
        part: msgspec.to_builtins(getattr(target, part))
        for part in PARTS
        if getattr(current, part) != getattr(target, part)
    }


def _restored(state: TableState, parts: dict[str, Any], ruleset: Ruleset[Any, Any]) -> TableState:
    from taku.core.table import Character, Member

    changes: dict[str, Any] = {}
    if "members" in parts:
        changes["members"] = msgspec.convert(parts["members"], dict[str, Member])
    if "characters" in parts:
        changes["characters"] = msgspec.convert(parts["characters"], dict[str, Character])
    if "chat" in parts:
        changes["chat"] = msgspec.convert(parts["chat"], chat_core.ChatState)
    if "game" in parts:
        game = parts["game"]
        if game is not None and ruleset.state is not None:
            # the way a snapshot reads it back: through JSON, typed
            game = msgspec.json.decode(msgspec.json.encode(game), type=ruleset.state)
        changes["game"] = game
    return msgspec.structs.replace(state, **changes) if changes else state


def evolve(state: TableState, event: Event, ruleset: Ruleset[Any, Any]) -> TableState:
    """Apply an ``undone``, ``redone`` or ``table_forked`` event (the core's fold calls it)."""
    replace = msgspec.structs.replace
    if isinstance(event, CommandUndone):
        state = _restored(state, event.restore, ruleset)
        return replace(state, undone=(*state.undone, event.command_id))
    if isinstance(event, CommandRedone):
        state = _restored(state, event.restore, ruleset)
        return replace(state, undone=tuple(c for c in state.undone if c != event.command_id))
    if isinstance(event, TableForked):
        state = _restored(state, event.state, ruleset)
        return replace(state, id_offset=event.id_offset)
    return state


# --------------------------------------------------------------------------- deciding


def _last_undone(entries: Sequence[Entry], state: TableState) -> str | None:
    for e in reversed(entries):
        if isinstance(e.event, CommandUndone) and e.event.command_id in state.undone:
            return e.event.command_id
    return None


def _acted_since(entries: Sequence[Entry], seq: int) -> bool:
    """Whether any member sent a command after ``seq`` (the server's joins do not count)."""
    return any(
        e.seq > seq and e.actor is not None and not e.command.startswith("@") for e in entries
    )


def check_sender(state: TableState, command: Undo | Redo, ctx: Context[Any]) -> None:
    """What :func:`decide` checks of the sender before anything else: a present member,
    the command's permit (players and GMs), the table's ``player_undo`` setting for a
    player, and ``force`` only by a GM with a reason.

    Raises:
        Forbidden: ``command/forbidden``.
        InvalidCommand: ``undo/players_not_allowed``, ``undo/reason_required``.
    """
    from taku.core.table import check_permit

    if ctx.actor is None or ctx.actor not in state.members or not state.members[ctx.actor].present:
        raise Forbidden("join the table first", reason="先に卓に参加してください")
    check_permit(state, command, ctx)
    tag = "undo" if isinstance(command, Undo) else "redo"
    if not ctx.is_gm and not state.history.player_undo:
        raise InvalidCommand(
            f"{tag}: the table lets only the GM undo", code="undo/players_not_allowed"
        )
    if command.force and not ctx.is_gm:
        raise Forbidden(
            f"{tag}: only a GM forces",
            command=tag,
            role=ctx.role,
            reason="強制できるのはGMだけです",
        )
    if command.force and not command.reason.strip():
        raise InvalidCommand("a forced undo needs a reason", code="undo/reason_required")


def resolve(
    state: TableState, command: Undo | Redo, entries: Sequence[Entry], ctx: Context[Any]
) -> Undo | Redo:
    """``command`` with its target made explicit (the table's last undoable command for
    an ``undo``, the last undone one for a ``redo``), as it is logged and decided again.

    Raises:
        Forbidden, InvalidCommand: :func:`check_sender`'s refusals first; then
            ``undo/nothing`` when there is no such command.
    """
    check_sender(state, command, ctx)
    if command.command_id is not None:
        return command
    if isinstance(command, Redo):
        target = _last_undone(entries, state)
        if target is None:
            raise InvalidCommand("nothing to redo", code="undo/nothing")
        return msgspec.structs.replace(command, command_id=target)
    for group in reversed(_groups(entries)):
        head = group[0]
        if head.command_id not in state.undone and _undoable(head):
            return msgspec.structs.replace(command, command_id=head.command_id)
    raise InvalidCommand("nothing to undo", code="undo/nothing")


def _undoable(head: Entry) -> bool:
    return (
        head.actor is not None
        and not head.command.startswith("@")
        and head.command not in NOT_UNDOABLE
        and head.command not in ("", *_MARKERS)
        and head.event.__struct_config__.tag not in _MARKERS
    )


def decide(
    state: TableState,
    command: Undo | Redo,
    ctx: Context[Any],
    ruleset: Ruleset[Any, Any],
    entries: Sequence[Entry],
    base: TableState | None = None,
) -> list[Emitted]:
    """The ``undone`` (or ``redone``) event of ``command`` at ``state``, whose log up to
    ``state.seq`` is ``entries`` (every event, decoded in full), followed by the
    :func:`timer_events` that give the armed timers of the fold without the commands
    undone then. Pure.

    ``entries`` may instead be the log from the target command's first event on, with
    ``base`` the table's state right before it, provided no ``undone``/``redone`` in
    that part names an earlier command (:func:`window_ok`): the effective log before
    the target is then what ``base`` folded (the application reads only that much).

    Raises:
        Forbidden: ``command/forbidden`` (a spectator; ``force`` by a player).
        InvalidCommand: ``undo/players_not_allowed`` (a player, on a table whose
            ``history.player_undo`` is off), ``undo/nothing``, ``undo/unknown_command``,
            ``undo/not_undoable``, ``undo/already_undone``, ``undo/not_undone``,
            ``undo/not_last`` (a player's undo after someone acted; param ``action``:
            取り消し or やり直し),
            ``undo/depends`` (params ``seq``, ``command``: the first later command
            that depends on it), ``undo/reason_required`` (``force`` without a reason).
    """
    check_sender(state, command, ctx)
    command = resolve(state, command, entries, ctx)
    target = command.command_id
    assert target is not None
    groups = {g[0].command_id: g for g in _groups(entries)}
    group = groups.get(target)
    if group is None:
        raise InvalidCommand(
            f"no command {target!r} on this table", code="undo/unknown_command", command_id=target
        )
    head = group[0]
    if not _undoable(head):
        raise InvalidCommand(
            f"{head.command or head.event.__struct_config__.tag} cannot be undone",
            code="undo/not_undoable",
            command=head.command,
        )
    undone = set(state.undone)
    if isinstance(command, Undo):
        if target in undone:
            raise InvalidCommand(
                f"{target} is undone already", code="undo/already_undone", command_id=target
            )
        new_undone = undone | {target}
        last_own = head.actor == ctx.actor and not _acted_since(entries, group[-1].seq)
    else:
        if target not in undone:
            raise InvalidCommand(
                f"{target} is not undone", code="undo/not_undone", command_id=target
            )
        new_undone = undone - {target}
        marker = next(
            e
            for e in reversed(entries)
            if isinstance(e.event, CommandUndone) and e.event.command_id == target
        )
        # the undo's own events (its timer events) are not someone acting since
        end = max(e.seq for e in entries if e.command_id == marker.command_id)
        last_own = head.actor == ctx.actor and not _acted_since(entries, end)
    if not ctx.is_gm and not last_own:
        raise InvalidCommand(
            "a player may undo only their own last command, while nobody has acted since",
            code="undo/not_last",
            action="取り消し" if isinstance(command, Undo) else "やり直し",
        )
    # the effective log with the target in it: what later commands may depend on
    with_it = new_undone if isinstance(command, Redo) else undone
    after, steps = replay(state.table_id, entries, ruleset, with_it, base)
    if not command.force:
        mine = next((s for s in steps if s.command_id == target), None)
        if mine is not None:
            for later in steps:
                if later.seq <= mine.seq:
                    continue
                said = ruleset.depends(mine, later, state.rules) if ruleset.depends else None
                if said is None:
                    said = default_depends(mine, later)
                if said:
                    raise InvalidCommand(
                        f"the command at seq {later.seq} ({later.command}) depends on {target}",
                        code="undo/depends",
                        seq=later.seq,
                        command=later.command,
                    )
    if isinstance(command, Undo):
        after, _ = replay(state.table_id, entries, ruleset, new_undone, base)
    fields: dict[str, Any] = dict(
        command_id=target,
        seq=head.seq,
        command=head.command,
        reason=command.reason[:500],
        forced=command.force,
    )
    cls = CommandUndone if isinstance(command, Undo) else CommandRedone
    event = cls(**fields, restore=restore_parts(state, after))
    timers = timer_events(state, after)
    if "game" in event.restore and hides_game(ruleset):
        # the restored game may hold hidden state (a deck's order, hands): nobody sees it
        return [Private(event=event, audience=(), redacted=cls(**fields)), *timers]
    return [event, *timers]


def timer_events(current: TableState, target: TableState) -> list[Event]:
    """The ``timer_cancelled`` and ``timer_set`` events that turn ``current``'s armed
    timers into ``target``'s: an undo (or redo) is followed by them, so the timers after
    it are the effective log's (a turn timer the undone move stopped runs again, the one
    it set is gone). A timer comes back with its own id and its first deadline: when
    that has passed, the server expires it at once. Timer events in the log (rather
    than a part of ``restore``) keep the store's armed-timer scan right."""
    out: list[Event] = []
    for tid, t in current.timers.items():
        if target.timers.get(tid) != t:
            out.append(TimerCancelled(timer_id=tid, label=t.label))
    for tid, t in target.timers.items():
        if current.timers.get(tid) != t:
            out.append(
                TimerSet(
                    timer_id=tid,
                    deadline=t.deadline,
                    duration_s=t.duration_s,
                    label=t.label,
                    character_id=t.character_id,
                )
            )
    return out


def hides_game(ruleset: Ruleset[Any, Any]) -> bool:
    """Whether ``ruleset``'s game state is not everyone's to see whole: it declares
    ``hidden_paths`` or has a ``view`` of its own. An event carrying that state (an
    ``undone`` restoring ``game``, a fork's ``table_forked``) is then hidden from
    everyone, and the public receives it without the state."""
    from taku.core.ruleset import _whole

    return bool(ruleset.hidden_paths) or ruleset.view is not _whole


def window_ok(entries: Sequence[Entry], first_seq: int) -> bool:
    """Whether ``entries`` (the log from ``first_seq`` on) may be decided on with the
    state before ``first_seq`` as the base: no ``undone``/``redone`` in it names a
    command before ``first_seq``."""
    return not any(
        isinstance(e.event, CommandUndone | CommandRedone) and e.event.seq < first_seq
        for e in entries
    )


def target_seq(entries: Sequence[Entry], command_id: str) -> int | None:
    """The first seq of ``command_id``'s events in ``entries`` (``None``: not there)."""
    return next((e.seq for e in entries if e.command_id == command_id), None)


def entries_of(recs: Iterable[Any], read: Any) -> list[Entry]:
    """:class:`Entry` list of stored :class:`~taku.core.events.Recorded` events
    (``read``: ``Recorded -> Event``, the table's reader)."""
    out: list[Entry] = []
    command = ""
    for rec in recs:
        raw = bytes(rec.command)
        if raw != b"null":
            decided = msgspec.json.decode(raw).get("decided") or {}
            command = str(decided.get("type", "")) if isinstance(decided, dict) else ""
        elif not out or out[-1].command_id != rec.command_id:
            command = ""
        out.append(Entry(rec.seq, rec.command_id, rec.actor, command, read(rec)))
    return out


def prepend(page: list[Entry], later: list[Entry]) -> list[Entry]:
    """``page`` (an earlier part of the log) followed by ``later``: a command whose events
    began in ``page`` gets its type on the events ``later`` holds too."""
    if page and later and later[0].command_id == page[-1].command_id:
        known = page[-1].command
        n = 0
        while n < len(later) and later[n].command_id == page[-1].command_id:
            n += 1
        later = [dataclasses.replace(e, command=known) for e in later[:n]] + later[n:]
    return page + later


def fork_state(source: TableState, forker: str | None) -> dict[str, Any]:
    """The ``state`` of a fork's ``table_forked``: the source's parts, its members absent
    (they join again with new links), ``forker`` a GM."""
    members = {}
    for mid, m in source.members.items():
        m = msgspec.structs.replace(m, present=False)
        if mid == forker:
            m = msgspec.structs.replace(m, role=Role.GM)
        members[mid] = m
    return {
        "members": msgspec.to_builtins(members),
        "characters": msgspec.to_builtins(source.characters),
        "game": msgspec.to_builtins(source.game),
        "chat": msgspec.to_builtins(source.chat),
    }
