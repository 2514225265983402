"""Undo, redo and forks on the application service (issue #20).

The pure part is :mod:`taku.core.undo`; this module reads what it needs from the
store. :func:`execute_undo` is how a table decides ``undo``/``redo`` (it reads the log
back to the target command, then goes through the table's usual command path), and
:func:`fork_table` makes a new table from a past state of another.
"""

from __future__ import annotations

import asyncio
import functools
import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import msgspec
import structlog

from taku.app import (
    CATCH_UP_PAGE,
    MAX_CONFLICT_RETRIES,
    CreatedTable,
    ForkedTable,
    hash_token,
)
from taku.app.hub import opening_records
from taku.core import chain, undo
from taku.core import table as core_table
from taku.core.commands import Redo, Undo, fingerprint
from taku.core.dice import epoch_seed, seed_hash
from taku.core.events import Event, ForkOrigin, TableCreated, TableForked
from taku.core.ruleset import Context, Emitted, Role, Ruleset
from taku.core.table import TableState
from taku.errors import Forbidden, InvalidCommand, SeqConflict
from taku.protocol import encode
from taku.store.base import TableRecord, TokenRecord

if TYPE_CHECKING:
    from taku.app import Hub, TableService

__all__ = ["execute_undo", "fork_table", "undo_log"]

log = structlog.get_logger("taku.history")

OFF_LOOP_ENTRIES = 1_000
"""Log entries from which an undo (or redo) is decided in a worker thread: folding
again several thousand events takes the event loop a second (20,000 events, 2 cores),
during which no other table's command would be read."""


async def execute_undo(
    table: TableService,
    actor: str,
    command: Undo | Redo,
    command_id: str,
    expected_seq: int | None,
) -> tuple[int, int, bool]:
    """``table.execute`` for ``undo``/``redo``: read the log back to the target (see
    :func:`undo_log`), then decide on that very state (:func:`taku.core.undo.decide`)
    through the table's usual command path; when commands came in between, read again.

    Returns and raises what :meth:`TableService.execute <taku.app.TableService.execute>` does.
    """
    fp = fingerprint(command)
    for attempt in range(MAX_CONFLICT_RETRIES):
        if table.hub.store.shared:  # what other nodes appended, before reading the log
            async with table.lock:
                await table._catch_up_locked()
        at = table.state.seq
        if command_id in table.acks or table.commands.pending(command_id):
            entries: list[undo.Entry] = []
            resolved: Undo | Redo = command  # a repeat: answered before any decide
            base: TableState | None = None
        else:
            got = await undo_log(table, actor, command, at)
            if got is None or table.state.seq != at or table._decided.seq != at:
                await asyncio.sleep(0.002)  # appends in flight: read again after them
                continue
            resolved, entries, base = got

        if len(entries) >= OFF_LOOP_ENTRIES and attempt < MAX_CONFLICT_RETRIES - 1:
            # a long stretch to fold again (an undo far back): decided in a worker thread,
            # so the other tables' commands go on meanwhile; used if the table has not
            # moved. A table so busy that every try is overtaken gets its last on the loop.
            state = table.state
            ctx: Context[Any] = Context(actor=actor, role=state.role_of(actor), dice=_NO_DICE)
            outcome = await asyncio.to_thread(
                _decided_or_refused, state, resolved, ctx, table.ruleset, entries, base
            )
            if table.state.seq != at or table._decided.seq != at:
                await asyncio.sleep(0.002)  # commands came in meanwhile: read again
                continue
            decider = functools.partial(_use_decided, at, outcome)
        else:
            decider = functools.partial(_decide_undo, table.ruleset, at, resolved, entries, base)
        try:
            return await table.commit(
                decider,
                actor=actor,
                command_id=command_id,
                expected_seq=expected_seq,
                fingerprint=fp,
                decided=resolved,
            )
        except _Moved:
            await asyncio.sleep(0.002)
    raise SeqConflict("too many concurrent writers on this table; try again")


async def undo_log(
    table: TableService, actor: str, command: Undo | Redo, at: int
) -> tuple[Undo | Redo, list[undo.Entry], TableState | None] | None:
    """The command with its target explicit, and the log an undo is decided on: the
    part from the target's first event on with the state before it (a past state,
    from the nearest snapshot), read backwards a page at a time until the target is
    in it; the whole log when an undo in that part names an earlier command. None
    when the table moved on meanwhile."""
    store = table.hub.store
    state = table.state
    ctx: Context[Any] = Context(actor=actor, role=state.role_of(actor), dice=_NO_DICE)
    undo.check_sender(state, command, ctx)
    entries: list[undo.Entry] = []
    start = at
    while True:
        end, start = start, max(0, start - CATCH_UP_PAGE)
        page = await store.read(table.table_id, after_seq=start, to_seq=end)
        await asyncio.sleep(0)  # a page at a time: the other tables' commands in between
        if table.state.seq != at:
            return None
        entries = undo.prepend(undo.entries_of(page, table.reader.event), entries)
        try:
            resolved = undo.resolve(state, command, entries, ctx)
        except InvalidCommand:
            if start == 0:
                raise
            continue  # the target may be further back
        assert resolved.command_id is not None
        first = undo.target_seq(entries, resolved.command_id)
        if first is None or first == start + 1:
            if start == 0:
                break  # not on the table: decide says so
            continue  # not here, or the page may begin inside its events
        window = [e for e in entries if e.seq >= first]
        if not undo.window_ok(window, first):
            break
        base = await table.past_state(first - 1)
        if table.state.seq != at:
            return None
        return resolved, window, base
    everything = await store.read(table.table_id, to_seq=at)
    if len(everything) >= OFF_LOOP_ENTRIES:  # decoded in a worker thread, as it is decided
        entries = await asyncio.to_thread(undo.entries_of, everything, table.reader.event)
        if table.state.seq != at:
            return None
    else:
        entries = undo.entries_of(everything, table.reader.event)
    return undo.resolve(state, command, entries, ctx), entries, None


def _hides_from(state: TableState, ruleset: Ruleset, member_id: str, role: str) -> bool:
    """Whether ``state`` holds anything ``member_id`` (as ``role``) may not see that a
    fork would show them as its GM: the ruleset's view of the game for a GM tells
    something (a value at a path, :func:`_leaves`) their own view does not (an NPC's
    hand, a deck order the GM sees), or the game holds at one of the ruleset's
    ``hidden_paths`` a value their view does not show there (a shuffled deck's order,
    which nobody sees but the fork would carry to its GM). A fork carries only
    the members, characters (public), chat settings (public) and the game; none of
    the source's log (chat lines, whispers, secret rolls) is copied."""
    from taku.core.ruleset import Viewer

    own = msgspec.to_builtins(ruleset.view(state, Viewer(member_id, role), state.rules))
    mine = _leaves(own)
    gms = _leaves(msgspec.to_builtins(ruleset.view(state, Viewer(member_id, Role.GM), state.rules)))
    if not gms <= mine:
        return True
    # what even the GM does not see (a shuffled deck's order): the fork carries the game
    # whole, so its GM would learn it (deal an NPC there, see the source's next cards)
    raw = msgspec.to_builtins(state.game)
    for path in ruleset.hidden_paths:
        told = {leaf[-1] for leaf in _leaves(_at(raw, path))}
        if told - {leaf[-1] for leaf in _leaves(_at(own, path))}:
            return True
    return False


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    """The value at ``path`` in JSON-like ``data`` (None where there is none)."""
    for key in path:
        if isinstance(data, dict):
            data = data.get(key)
        elif isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data):
            data = data[key]
        else:
            return None
    return data


def _leaves(data: Any, path: tuple[Any, ...] = ()) -> set[tuple[Any, ...]]:
    """Every scalar in JSON-like ``data`` with its path: what a view tells. An empty list
    or object tells nothing (a GM's view of an empty hand ``cards: []`` shows no more
    than a player's ``count: 0``)."""
    if isinstance(data, dict):
        return {leaf for k, v in data.items() for leaf in _leaves(v, (*path, k))}
    if isinstance(data, list):
        return {leaf for i, v in enumerate(data) for leaf in _leaves(v, (*path, i))}
    return {(*path, repr(data))}


class _NoDice:
    """Resolving an undo's target rolls nothing."""

    cursor = 0

    def roll(self, n: int, sides: int) -> Any:
        raise AssertionError("no dice here")

    def shuffle(self, size: int) -> Any:
        raise AssertionError("no dice here")


_NO_DICE: Any = _NoDice()


class _Moved(Exception):
    """An undo decided on a state its log read did not reach: read again."""


def _decided_or_refused(
    state: TableState,
    command: Undo | Redo,
    ctx: Context,
    ruleset: Ruleset,
    entries: Sequence[undo.Entry],
    base: TableState | None,
) -> list[Emitted] | Exception:
    """:func:`taku.core.undo.decide` (pure: it may run in a worker thread), its
    refusal returned rather than raised."""
    try:
        return undo.decide(state, command, ctx, ruleset, entries, base)
    except Exception as e:  # noqa: BLE001 - raised again by the command path's decider
        return e


def _use_decided(
    at: int, outcome: list[Emitted] | Exception, state: TableState, ctx: Context
) -> list[Emitted]:
    """The decider of an undo decided ahead on the state at ``at`` (the same state: a
    table's state at a seq is the fold of its log up to it)."""
    if state.seq != at:
        raise _Moved
    if isinstance(outcome, Exception):
        raise outcome
    return outcome


def _decide_undo(
    ruleset: Ruleset,
    at: int,
    command: Undo | Redo,
    entries: Sequence[undo.Entry],
    base: TableState | None,
    state: TableState,
    ctx: Context,
) -> list[Emitted]:
    if state.seq != at:
        raise _Moved
    return undo.decide(state, command, ctx, ruleset, entries, base)


async def fork_table(
    hub: Hub, source_id: str, member_id: str | None, *, at_seq: int | None = None, name: str = ""
) -> ForkedTable:
    """A new table whose state is ``source_id``'s right after ``at_seq`` (default: now).

    Its events: ``table_created`` (``forked_from``: the source, the seq and the
    source's chain head there), ``table_forked`` (the source's state; its members
    carried, absent) and the forker's ``member_joined`` as a GM. It has a new seed
    and new tokens: one for each carried member (their links to join again as
    themselves) besides the usual invites.

    Raises:
        TableNotFound: no source table.
        Forbidden: ``fork/forbidden``, the sender is not the source's GM and its
            settings do not let members fork (a spectator never forks);
            ``fork/hidden_state``, a member (not the GM) forks at a seq whose state
            holds what they may not see (see :func:`_hides_from`): the forker is the
            fork's GM and would see it all, so only the source's GM may fork there.
        InvalidCommand: ``fork/bad_seq``.
    """
    source = await hub.table(source_id)
    now_state = source.state
    role = now_state.role_of(member_id)
    if member_id not in now_state.members or (
        role != Role.GM and (role != Role.PLAYER or not now_state.history.fork_by_members)
    ):
        raise Forbidden(
            "only the GM forks this table", code="fork/forbidden", reason="GMだけが分岐できます"
        )
    seq = now_state.seq if at_seq is None else at_seq
    if not 1 <= seq <= now_state.seq:
        raise InvalidCommand(f"no seq {seq} on {source_id}", code="fork/bad_seq", seq=seq)
    past = await source.past_state(seq)
    assert member_id is not None
    if role != Role.GM and _hides_from(past, source.ruleset, member_id, role):
        raise Forbidden(
            "the state at that seq holds what this member may not see",
            code="fork/hidden_state",
            reason="この時点の卓にはあなたに見えない情報があります。GMに分岐を頼んでください",
        )
    rs = source.ruleset
    table_id = "t" + secrets.token_hex(6)
    seed = secrets.token_bytes(32)
    first_hash = seed_hash(epoch_seed(seed, 0))
    forker = now_state.members[member_id]
    events: list[Event] = [
        TableCreated(
            name=core_table._name(name or f"{past.name}（分岐）"[:64]),
            ruleset=rs.id,
            ruleset_version=rs.version,
            options=dict(past.options),
            seed_hash=first_hash,
            settings=past.settings,
            history=past.history,
            epochs=True,
            forked_from=ForkOrigin(table_id=source_id, seq=seq, head=past.head),
        ),
        TableForked(
            source_table=source_id,
            source_seq=seq,
            source_head=past.head,
            state=undo.fork_state(past, member_id),
            id_offset=now_state.seq + now_state.id_offset,  # past every id the source made
            source_name=now_state.name,
        ),
        core_table.join_event(member_id, forker.name, Role.GM),
    ]
    now = hub.clock()
    command_id = "fork-" + table_id
    recs = opening_records(table_id, events, member_id, command_id, now)
    if undo.hides_game(rs):
        # the source's game may hold hidden state (a deck, hands): for nobody
        forked = recs[1]
        salt = secrets.token_hex(16)
        stand_in = msgspec.structs.replace(events[1], state={})
        recs[1] = msgspec.structs.replace(
            forked,
            audience=(),
            redacted=msgspec.Raw(encode(stand_in)),
            salt=salt,
            commitment=chain.commitment(salt, forked.data),
        )
    record = TableRecord(
        table_id=table_id, ruleset=rs.id, name=name, created=now.isoformat(), seed=seed
    )
    tokens = await hub.store_new_table(record, recs, first_hash, command_id, member_id)
    members: dict[str, str] = {}
    for mid, m in past.members.items():
        if mid == member_id:
            continue
        members[mid] = secrets.token_urlsafe(24)
        await hub.store.add_token(
            TokenRecord(
                token_hash=hash_token(members[mid]),
                table_id=table_id,
                role=m.role,
                member_id=mid,
            )
        )
    log.info("table_forked", table_id=table_id, source=source_id, seq=seq)
    return ForkedTable(
        CreatedTable(table_id, member_id, tokens["gm"], tokens["player"], tokens["spectator"]),
        source_id,
        seq,
        past.head,
        members,
    )
