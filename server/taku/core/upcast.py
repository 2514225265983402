"""Reading stored events of any version: upcast, then decode, or a clear error.

An event type whose shape changes gets a new ``version`` (a class variable of the
event Struct, 1 unless set); every stored envelope names the version its data was
written in (:attr:`~taku.core.events.Recorded.event_version`). The ruleset declares
an upcaster from each older version (:attr:`~taku.core.ruleset.Ruleset.upcasters`,
``(tag, version) -> (data -> data of version + 1)``; the core's own are in
:data:`CORE_UPCASTERS`). :class:`EventReader` applies them in turn, on the JSON,
before decoding: a fold never sees an old shape.

A stored event that cannot be read (a type the ruleset does not have, a version
with no upcaster to today's, a newer version than this code, data that does not
fit) raises :class:`~taku.errors.UnreadableEvent` naming the table, seq and type:
never a silent change of the replayed state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from taku.core.events import CORE_EVENTS, Event, Recorded
from taku.errors import UnreadableEvent

__all__ = ["CORE_UPCASTERS", "EventReader", "Upcaster"]

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
"""An event's JSON data at one version -> its data at the next (``type`` kept)."""

CORE_UPCASTERS: Mapping[tuple[str, int], Upcaster] = {}
"""The core events' upcasters (none yet: every core event is at version 1)."""

_encode = msgspec.json.Encoder().encode


class EventReader:
    """Upcasts and decodes one table's stored events (build once per table, reuse).

    Args:
        types: every event Struct the table has (core and ruleset).
        upcasters: ``(tag, version) -> upcaster`` for the types that changed.
        decoder: the typed decoder of ``types`` (built when not given).
    """

    def __init__(
        self,
        types: tuple[type[Event], ...],
        upcasters: Mapping[tuple[str, int], Upcaster],
        decoder: msgspec.json.Decoder[Any],
    ) -> None:
        self.decoder = decoder
        self.current: dict[str, int] = {t.__struct_config__.tag: t.version for t in types}  # type: ignore[misc]
        self.upcasters = dict(upcasters)
        for tag, version in self.upcasters:
            now = self.current.get(tag)
            if now is None or not 1 <= version < now:
                raise ValueError(
                    f"an upcaster from {tag} v{version}, which is not an older version"
                )

    @classmethod
    def of(cls, ruleset: Any, decoder: msgspec.json.Decoder[Any] | None = None) -> EventReader:
        """The reader of a ruleset's tables: the core's events and upcasters, then its own."""
        from taku.core.table import event_decoder

        types = CORE_EVENTS + tuple(ruleset.events)
        return cls(
            types,
            {**CORE_UPCASTERS, **getattr(ruleset, "upcasters", {})},
            decoder or event_decoder(ruleset),
        )

    def is_current(self, rec: Recorded) -> bool:
        """Whether ``rec.data`` is in today's shape (no upcast needed)."""
        return self.current.get(rec.type) == rec.event_version

    def event(self, rec: Recorded) -> Event:
        """``rec``'s event in today's shape.

        Raises:
            UnreadableEvent: ``store/unreadable_event`` naming table, seq and type.
        """
        data = rec.data if self.is_current(rec) else self._upcast(rec)
        try:
            event: Event = self.decoder.decode(data)
            return event
        except (msgspec.ValidationError, msgspec.DecodeError) as e:
            raise self._error(rec, f"the data does not fit the type: {e}") from None

    def data(self, rec: Recorded, event: Event | None = None) -> msgspec.Raw:
        """``rec``'s JSON in today's shape (``rec.data`` itself when it is current)."""
        if self.is_current(rec):
            return rec.data
        return msgspec.Raw(_encode(event if event is not None else self.event(rec)))

    def _upcast(self, rec: Recorded) -> msgspec.Raw:
        now = self.current.get(rec.type)
        if now is None:
            raise self._error(rec, "this ruleset has no event of that type")
        if rec.event_version > now:
            raise self._error(rec, f"version {rec.event_version} is newer than this code's {now}")
        try:
            data = msgspec.json.decode(rec.data)
        except msgspec.DecodeError as e:
            raise self._error(rec, f"the data is not JSON: {e}") from None
        version = rec.event_version
        while version < now:
            step = self.upcasters.get((rec.type, version))
            if step is None:
                raise self._error(rec, f"no upcaster from version {version} to {version + 1}")
            try:
                data = step(dict(data))
            except Exception as e:  # noqa: BLE001 - a ruleset's upcaster bug names the event
                raise self._error(
                    rec, f"the upcaster from version {version} failed: {e!r}"
                ) from None
            version += 1
        if not isinstance(data, dict) or data.get("type") != rec.type:
            raise self._error(rec, "the upcast data lost its type")
        return msgspec.Raw(_encode(data))

    @staticmethod
    def _error(rec: Recorded, reason: str) -> UnreadableEvent:
        return UnreadableEvent(
            f"table {rec.table_id} seq {rec.seq} ({rec.type} v{rec.event_version}): {reason}",
            table_id=rec.table_id,
            seq=rec.seq,
            type=rec.type,
            reason=reason,
        )
