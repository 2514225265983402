"""The application service: where the clock, ids, the store and the rules meet.

:class:`Hub` holds one :class:`TableService` per open table. A table service
decides one command at a time: fold state -> ``decide`` -> append with the
expected seq -> fold the new events -> publish to subscribers -> ack. Nothing
is published or acknowledged before the store made it durable.

The package, by concern (each module's docstring gives its shapes):

- :mod:`taku.app.hub`: :class:`Hub`, the tables of a process: create, fork, join,
  load on first use, timers at start, idle unloading and eviction;
- :mod:`taku.app.table`: :class:`TableService`, one table: its folded state,
  snapshots and past states, load and (shared stores) the pump following other
  nodes, timers, subscriptions and their catch-up, log pages, export; and the thin
  entries of the command path (``submit``, ``commit``, ``execute``, ``answer``);
- :mod:`taku.app.commands`: the command path, one entry (``CommandPath.run``) and
  two strategies, :class:`~taku.app.commands.Pipelined` and
  :class:`~taku.app.commands.Locked`;
- :mod:`taku.app.frames`: per-viewer ``event`` frames (redaction, hidden commands,
  rendering) and their delivery to subscribers, :class:`Subscription`.

Design notes for the seams:

- A table service *owns* its command path (``table.commands``) and its frames
  (``table.frames``), made once when it is loaded; both reach back into the table
  for its state (``state``, ``_decided``, ``acks``) and its fold/publish
  (``_fold``, ``_publish``, ``_apply``, ``_catch_up_locked``): those underscored
  names are private to this package, not to one module.
- Every command goes through ``table.commands.run(decider, actor=…, command_id=…,
  expected_seq=…, fingerprint=…, decided=…, reply=…, received=…)``, which answers
  ``reply`` exactly once. ``TableService.submit`` (the server's, a callback),
  ``commit`` (server deciders: joins, timer expiries, undo) and ``execute`` (a
  member's command, awaited) wrap it; an ``undo``/``redo`` first reads the log
  (:func:`taku.history.execute_undo`) and then goes through ``commit``.
- The strategy is chosen by the store, once per table: a store this process owns
  (memory, SQLite) is pipelined (decide on the in-flight state, answer from the
  store's callback in seq order, no task per command, so a busy table's commands
  share one group commit); a shared store (PostgreSQL, several nodes) is locked
  (the table lock and ``store.exclusive`` through each append, catch up, decide
  again on a ``SeqConflict``). :mod:`taku.app.commands` says why neither serves
  both.
- Publication happens inside ``hub.publishing`` (the server holds each
  connection's frames until it is left), so a connection's event and its ack
  leave in one write.
- ``render`` and ``ACKS_KEPT`` are read through this package at each use
  (``taku.app.render``, ``taku.app.ACKS_KEPT``): tests replace them here.

Subscriptions catch up from the store and then switch to live events with no
gap and no repeat: a subscription is registered at the published seq, reads
the store up to that seq, then flushes what was published meanwhile.
"""

from __future__ import annotations

from taku.app.commands import MAX_CONFLICT_RETRIES, TIMER_COMMAND_ID_PREFIX, Reply
from taku.app.frames import Subscription, speaker_of
from taku.app.hub import (
    EVICT_AFTER_S,
    CreatedTable,
    DiceFactory,
    ForkedTable,
    Hub,
    Joined,
    hash_token,
)
from taku.app.table import (
    ACKS_KEPT,
    CATCH_UP_PAGE,
    CATCH_UP_PAGE_BYTES,
    FOLD_PAGE,
    FOLD_SLICE,
    LOG_PAGE_BYTES,
    StateView,
    TableService,
)
from taku.core.render import outcome, render

__all__ = [
    "ACKS_KEPT",
    "CATCH_UP_PAGE",
    "CATCH_UP_PAGE_BYTES",
    "EVICT_AFTER_S",
    "FOLD_PAGE",
    "FOLD_SLICE",
    "LOG_PAGE_BYTES",
    "MAX_CONFLICT_RETRIES",
    "TIMER_COMMAND_ID_PREFIX",
    "CreatedTable",
    "DiceFactory",
    "ForkedTable",
    "Hub",
    "Joined",
    "Reply",
    "StateView",
    "Subscription",
    "TableService",
    "hash_token",
    "outcome",
    "render",
    "speaker_of",
]
