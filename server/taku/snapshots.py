"""Snapshots: a table's folded state cached beside its stream (never its source of truth).

A snapshot is :class:`~taku.core.table.TableState` as JSON (the ruleset's options
Struct is rebuilt from ``options``, the game decoded with the ruleset's ``state``
type). Its ``version`` (:func:`snapshot_version`) names the ruleset id and version
and this module's format: a snapshot written by another is dropped, never read, so
a changed ruleset refolds from the events. :func:`make_snapshot` refuses a state
that does not come back equal from its JSON (a game state that JSON cannot carry),
so a snapshot can only ever give the state the events give.
"""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core import chat as chat_core
from taku.core.events import HistorySettings, TableSettings
from taku.core.table import Character, Member, TableState, Timer
from taku.store.base import Snapshot

__all__ = ["SNAPSHOT_FORMAT", "decode_state", "encode_state", "make_snapshot", "snapshot_version"]

SNAPSHOT_FORMAT = 2
"""Raised whenever :class:`~taku.core.table.TableState`'s fields change meaning."""


class _Saved(msgspec.Struct, kw_only=True):
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
    game: msgspec.Raw = msgspec.Raw(b"null")
    dice_cursor: int = 0
    settings: TableSettings = TableSettings()
    unfit_overrides: tuple[int, ...] = ()
    chat: chat_core.ChatState = chat_core.ChatState()
    head: str = ""
    epoch: int = 0
    epochs: bool = False
    seed_open: bool = True
    undone: tuple[str, ...] = ()
    """Added with undo (and ``history``, ``id_offset`` with forks): every older snapshot
    is of a table without them (the defaults)."""
    history: HistorySettings = HistorySettings()
    id_offset: int = 0
    timers: dict[str, Timer] = {}
    """Added with timers: every older snapshot is of a table without timers (the default)."""


# every field of the state but the options Struct (rebuilt from ``options``): a field
# added to TableState and not here would be lost from every snapshot
assert set(_Saved.__struct_fields__) == set(TableState.__struct_fields__) - {"rules"}, (
    "snapshots.py: _Saved must list every TableState field (and SNAPSHOT_FORMAT go up)"
)

_decode_saved = msgspec.json.Decoder(_Saved).decode
_encode = msgspec.json.Encoder().encode


def snapshot_version(ruleset: Any) -> str:
    """What a snapshot of ``ruleset``'s tables is written by: ``<id>@<version>/s<format>``."""
    return f"{ruleset.id}@{ruleset.version}/s{SNAPSHOT_FORMAT}"


def encode_state(state: TableState) -> bytes:
    """``state`` as a snapshot's bytes (JSON; the options Struct left out)."""
    return _encode(msgspec.structs.replace(state, rules=None))


def decode_state(data: bytes, ruleset: Any) -> TableState:
    """The state of a snapshot's bytes, for ``ruleset`` (of the snapshot's version).

    Raises:
        msgspec.ValidationError, msgspec.DecodeError: bytes this format does not read.
    """
    saved = _decode_saved(data)
    raw = bytes(saved.game)
    if raw == b"null":
        game = None
    elif ruleset.state is not None:
        game = msgspec.json.decode(raw, type=ruleset.state)
    else:
        game = msgspec.json.decode(raw)
    fields = {f: getattr(saved, f) for f in saved.__struct_fields__ if f != "game"}
    rules = ruleset.make_options(saved.options) if saved.ruleset else None
    return TableState(**fields, game=game, rules=rules)


def make_snapshot(state: TableState, ruleset: Any) -> Snapshot | None:
    """The snapshot of ``state``, or None when its JSON would not give it back equal."""
    data = encode_state(state)
    try:
        same = decode_state(data, ruleset) == state
    except (msgspec.ValidationError, msgspec.DecodeError, TypeError, ValueError):
        same = False
    if not same:
        return None
    return Snapshot(
        table_id=state.table_id, seq=state.seq, version=snapshot_version(ruleset), data=data
    )
