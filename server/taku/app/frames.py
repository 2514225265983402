"""Per-viewer frames: the ``event`` messages of a table's records as each viewer may
see them, and their delivery to the table's subscribers.

Shapes: a frame is the encoded :class:`~taku.protocol.EventMsg` (``bytes``) of one
stored :class:`~taku.core.events.Recorded` and its decoded event, for one viewer
(a member id, or None for the public). A viewer sees a hidden event (``audience``)
in full only if it is in the audience, else its redacted form; a hidden command
(``command_commitment``) in clear only if it sent it. So an event has at most four
forms (``sees`` x ``knows``), most have one: it is built once per broadcast, not
once per subscriber (:meth:`Frames.deliver`), and not kept past it, so an idle table
holds no frames; a catch-up's, a log page's or an export's are built one by one.

Frames are rendered with the table's *current* state (today's names and colours).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import msgspec
import structlog

from taku import app as _app
from taku.core import chain
from taku.core import chat as chat_core
from taku.core.events import CORE_EVENTS, ChatPosted, DiceRolled, Event, Recorded, Redacted
from taku.core.render import outcome
from taku.core.table import TableState
from taku.protocol import EventMsg, Speaker, encode

if TYPE_CHECKING:
    from taku.app.table import TableService

log = structlog.get_logger("taku.app")

_CORE = frozenset(CORE_EVENTS)
_LINES = frozenset({ChatPosted, DiceRolled})


def speaker_of(state: TableState, event: Event, actor: str | None) -> Speaker | None:
    """Who ``event``'s line is from: for a chat line, a roll or a ruleset's event, the
    character its ``character_id`` names (with the character's chat colour); else (and
    for the core's own events about characters) the member ``actor``; ``None`` for the
    server."""
    speaks = type(event) in _LINES or type(event) not in _CORE
    cid = getattr(event, "character_id", None) if speaks else None
    ch = state.characters.get(cid) if isinstance(cid, str) else None
    if ch is not None:
        return Speaker(
            name=ch.name,
            member_id=actor,
            character_id=ch.id,
            color=chat_core.color_of(state.chat, ch.id),
        )
    if actor is None:
        return None
    m = state.members.get(actor)
    return Speaker(name=m.name if m else actor, member_id=actor)


@dataclass(eq=False)
class Subscription:
    """One viewer's feed of a table: frames go to ``sink`` in seq order.

    Until ``live`` (its catch-up from the store is done) the table's new events are
    held in ``pending``; ``last_seq`` is the last seq sent.
    """

    table: TableService
    member_id: str | None
    sink: Callable[[bytes], None]
    last_seq: int
    live: bool = False
    pending: list[tuple[Recorded, Event]] = field(default_factory=list)

    def deliver(self, rec: Recorded, event: Event) -> None:
        if not self.live:
            self.pending.append((rec, event))
            return
        if rec.seq <= self.last_seq:
            return
        self.sink(self.table.frames.frame(rec, event, self.member_id))
        self.last_seq = rec.seq


class Frames:
    """One table's frames: built for a viewer, sent to the table's subscribers
    (``table.subscriptions``)."""

    def __init__(self, table: TableService) -> None:
        self.table = table
        self._cache: dict[tuple[int, bool, bool], tuple[Recorded, bytes]] = {}
        """``(seq, sees, knows) -> (rec, frame)`` for the hidden event being broadcast."""

    def deliver(self, rec: Recorded, event: Event) -> None:
        """Send ``rec`` to every subscriber. An event everyone may see in full (most
        are) has one frame for all, looked up once, not once per subscriber."""
        subscriptions = self.table.subscriptions
        if rec.audience is not None or rec.command_commitment is not None:
            for sub in list(subscriptions):
                sub.deliver(rec, event)
            # the forms are not kept past their broadcast: an idle table holds no frames
            self._cache.clear()
            return
        frame: bytes | None = None
        seq = rec.seq
        for sub in list(subscriptions):
            if not sub.live:
                sub.pending.append((rec, event))
            elif seq > sub.last_seq:
                if frame is None:
                    frame = self.build(rec, event, True, True)
                sub.sink(frame)
                sub.last_seq = seq

    def frame(self, rec: Recorded, event: Event, member_id: str | None) -> bytes:
        """The ``event`` message for ``rec`` as ``member_id`` may see it.

        A table has at most four forms of an event (full or redacted, its command in
        clear or not); a hidden event's broadcast asks for them once per subscriber,
        so they are cached until it is done (:meth:`deliver`).
        """
        sees = rec.audience is None or self.table.state.viewer(member_id).sees(rec.audience)
        knows = _knows_command(rec, member_id)
        cache = self._cache
        cached = cache.get((rec.seq, sees, knows))
        if cached is not None and cached[0] is rec:
            return cached[1]
        frame = self.build(rec, event, sees, knows)
        if len(cache) > 8:
            cache.clear()
        cache[(rec.seq, sees, knows)] = (rec, frame)
        return frame

    def build(self, rec: Recorded, event: Event, sees: bool, knows: bool) -> bytes:
        """The frame of ``rec`` (decoded: ``event``), in full if ``sees`` else
        redacted, with its command in clear if ``knows``; not cached."""
        table = self.table
        state = table.state
        if sees:
            data, shown = table.reader.data(rec, event), event
        else:
            data = rec.redacted_form() or msgspec.Raw(encode(Redacted(of=rec.type)))
            shown = table.decoder.decode(data)
        try:
            # through the package: ``taku.app.render`` is where a test puts a buggy one
            text = _app.render(shown, state, table.ruleset, rec.actor)
        except Exception:  # a ruleset's render bug must not stop the event reaching anyone
            log.exception("render_failed", table_id=table.table_id, seq=rec.seq, type=rec.type)
            text = rec.type
        return encode(
            EventMsg(
                table_id=rec.table_id,
                seq=rec.seq,
                event=data,
                actor=rec.actor,
                time=rec.time,
                command_id=rec.command_id,
                redacted=shown is not event,
                draws=rec.draws,
                text=text,
                speaker=speaker_of(state, shown, rec.actor),
                outcome=outcome(shown),
                audience=list(rec.audience) if sees and rec.audience is not None else None,
                head=chain.short(rec.hash or ""),
                commitment=rec.commitment,
                salt=rec.salt if sees else None,
                stand_in=chain.public_event(rec) if sees and rec.audience is not None else None,
                command=_command_frame(rec, knows),
                command_salt=rec.command_salt if knows else None,
                event_version=rec.event_version,
            )
        )

    def viewer_frames(self, recs: Sequence[Recorded], member_id: str | None) -> list[bytes]:
        """The ``event`` messages of stored ``recs`` as ``member_id`` may see them (a
        catch-up, a log page, an export): built one by one, past the one-event frame
        cache, with today's names and colours."""
        viewer = self.table.state.viewer(member_id)
        event = self.table.reader.event
        return [
            self.build(
                r,
                event(r),
                r.audience is None or viewer.sees(r.audience),
                _knows_command(r, member_id),
            )
            for r in recs
        ]


def _command_frame(rec: Recorded, knows: bool) -> msgspec.Raw | None:
    """The ``command`` of ``rec``'s frame: the record, or the commitment to a hidden one."""
    if bytes(rec.command) == b"null":
        return None
    if knows or rec.command_commitment is None:
        return rec.command
    return msgspec.Raw(encode({"commitment": rec.command_commitment}))


def _knows_command(rec: Recorded, member_id: str | None) -> bool:
    """Whether ``member_id`` gets ``rec``'s command in clear: a hidden command's
    arguments (a whisper's text, cards given from a hand …) are for its sender only."""
    return rec.command_commitment is None or (member_id is not None and member_id == rec.actor)
