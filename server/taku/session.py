"""One client connection's session, without I/O: what the server decides per connection.

The WebSocket driver (:mod:`taku.net`) reads frames, hands them to a
:class:`Session` and writes what it returns, the way websockets keeps its
Sans-I/O ``Protocol`` apart from the asyncio ``Connection`` that feeds it. A
session owns no socket, starts no task and awaits nothing; time comes from the
``clock`` it is given, so a test drives one with plain calls:

- :meth:`Session.receive` checks a frame's size and the rate limit and decodes it;
- :meth:`Session.member` is the table's member id on this connection (``protocol/not_joined``);
- :meth:`Session.waits` is the answer order: whether a message must wait for
  earlier commands' answers;
- :meth:`Session.submitted` / :meth:`Session.answer` count a command in flight and
  make its ``ack`` or ``error`` frame (with its metrics and log line);
- :meth:`Session.error` is the ``error`` frame answering a frame that failed;
- :meth:`Session.over_backlog` / :meth:`Session.stalled` decide when a peer that
  stopped reading is dropped.

What needs awaiting (loading a table, a join, a catch-up) and every write stay in
the driver.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import msgspec
import structlog

from taku import codes, metrics
from taku.core import chain
from taku.errors import FrameTooLarge, NotJoined, RateLimited, TakuError
from taku.protocol import Ack, ChatMsg, ClientMessage, CommandMsg, ErrorMsg, decode_client, encode

if TYPE_CHECKING:
    from taku.app import Subscription

__all__ = ["Limits", "Pending", "Session", "TokenBucket", "error_frame"]

Outcome = tuple[int, int, bool] | BaseException
"""What a table answers for a command: ``(first_seq, last_seq, duplicate)``, or the
exception it failed with (a :class:`TakuError`: a rejection; anything else: internal)."""


class Limits(Protocol):
    """The limits a session applies (:class:`taku.net.ServerConfig` has them all)."""

    @property
    def max_frame_bytes(self) -> int: ...
    @property
    def hard_max_frame_bytes(self) -> int: ...
    @property
    def rate_per_s(self) -> float: ...
    @property
    def rate_burst(self) -> int: ...
    @property
    def max_unanswered(self) -> int: ...
    @property
    def max_backlog_bytes(self) -> int: ...
    @property
    def catch_up_stall_s(self) -> float: ...


class TokenBucket:
    """Token bucket: ``rate`` tokens a second, at most ``burst`` saved up (full at ``now``).

    Times are seconds on any monotonic clock, passed in.
    """

    __slots__ = ("burst", "rate", "t", "tokens")

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.t = now

    def take(self, now: float) -> bool:
        """Take one token at ``now``: False when none is left (refused)."""
        self.tokens = min(self.burst, self.tokens + (now - self.t) * self.rate)
        self.t = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Pending:
    """One command submitted on a session and not answered yet (see :meth:`Session.submitted`)."""

    __slots__ = ("command_id", "member_id", "name", "rid", "ruleset", "t0", "t_in", "table_id")

    def __init__(
        self,
        rid: Any,
        table_id: str,
        ruleset: str,
        member_id: str,
        command_id: str,
        name: str,
        t0: float,
        t_in: float,
    ) -> None:
        self.rid, self.table_id, self.ruleset = rid, table_id, ruleset
        self.member_id, self.command_id, self.name = member_id, command_id, name
        self.t0, self.t_in = t0, t_in


class Session:
    """The per-connection session logic of one client connection, without I/O.

    Args:
        limits: frame sizes, rate, ``max_unanswered`` and the backlog limits
            (a :class:`taku.net.ServerConfig`).
        conn_id: the connection's id in logs (``c1``…) and generated chat command ids.
        clock: seconds on a monotonic clock (``time.perf_counter``: the same clock as
            the ``received`` time a table's stage timings use); the rate limit, the
            frame's arrival and command latencies are read from it.
        logger: the connection's bound logger; by default ``taku.net``'s, with ``conn_id``.
    """

    def __init__(
        self,
        limits: Limits,
        *,
        conn_id: str,
        clock: Callable[[], float] = time.perf_counter,
        logger: Any = None,
    ) -> None:
        self.id = conn_id
        self._clock = clock
        self._max_frame = limits.max_frame_bytes
        self._hard_max_frame = limits.hard_max_frame_bytes
        self._max_unanswered = limits.max_unanswered
        self._max_backlog = limits.max_backlog_bytes
        self._stall_s = limits.catch_up_stall_s
        self._bucket = TokenBucket(limits.rate_per_s, limits.rate_burst, clock())
        self._members: dict[str, str] = {}  # table_id -> member_id
        self._subs: dict[str, Subscription] = {}
        self._unanswered = 0
        self.frame_in = 0.0
        """When the frame being handled was received (the clock's time, read by
        :meth:`receive`): a command's latency runs from here to its answer, waits for
        earlier commands included."""
        self._log = logger
        """The bound logger (:attr:`log`), made on first use: most connections never
        log a line of their own, and each bound logger is a few hundred bytes."""
        self.log_commands = (
            logger if logger is not None else structlog.get_logger("taku.net")
        ).is_enabled_for(logging.INFO)
        self.dropped: str | None = None
        """Why the server dropped this connection itself (``backlog``; for the metrics), if it did."""

    # ------------------------------------------------------------------ frames in

    @property
    def log(self) -> Any:
        """The connection's bound logger (``taku.net``'s with ``conn_id``): a command's
        lines are written from the table's publication, outside the connection's task
        and its contextvars, so the connection id is bound here."""
        if self._log is None:
            self._log = structlog.get_logger("taku.net").bind(conn_id=self.id)
        return self._log

    def receive(self, frame: bytes | str) -> ClientMessage:
        """The message of one frame read from the peer, the frame's time noted.

        Raises:
            FrameTooLarge: ``protocol/frame_too_large``, a frame past ``max_frame_bytes``.
            RateLimited: ``protocol/rate_limited``, past ``rate_burst`` messages saved up
                at ``rate_per_s``; its ``refused`` is the decoded message (None for a
                frame that does not decode).
            TakuError: a frame that does not decode (``protocol/malformed_json``,
                ``protocol/unknown_type``, ``protocol/invalid_fields``).
        """
        now = self.frame_in = self._clock()
        limit = self._max_frame
        if len(frame) > limit:
            raise FrameTooLarge(f"frames may have at most {limit} bytes", limit=limit)
        if self._bucket.take(now):
            return decode_client(frame)
        # decoded all the same (a bounded frame: microseconds), so that the refusal names
        # the command and is answered in its turn (see the driver); past the rate a frame
        # that does not decode is refused for the rate too
        refusal = RateLimited("too many messages; slow down")
        try:
            refusal.refused = decode_client(frame)
        except TakuError:
            pass
        raise refusal

    def error(
        self,
        e: TakuError | None,
        rid: Any,
        frame: bytes | str | None = None,
        *,
        command_id: str | None = None,
    ) -> bytes:
        """The encoded ``error`` frame answering a message (``e`` None: an internal error).

        With ``frame`` (the frame that failed) and no ``rid``, the frame's own ``id`` is
        answered when it has a usable one and is within ``hard_max_frame_bytes``.
        ``command_id`` names the command refused (a rate-limited ``command`` or ``chat``).
        """
        if frame is not None and rid is None and len(frame) <= self._hard_max_frame:
            rid, peeked = _peek_ids(frame)
            command_id = command_id or peeked
        return encode(error_frame(e, rid, command_id))

    # ------------------------------------------------------------------ membership

    def joined(self, table_id: str, member_id: str) -> None:
        """This connection acts as ``member_id`` at ``table_id`` (after a join or create)."""
        self._members[table_id] = member_id

    def member(self, table_id: str) -> str:
        """The member id this connection joined ``table_id`` as.

        Raises:
            NotJoined: ``protocol/not_joined``, not joined (or created) on this connection.
        """
        try:
            return self._members[table_id]
        except KeyError:
            raise NotJoined(f"join table {table_id!r} first") from None

    # ------------------------------------------------------------------ subscriptions

    def subscribed(self, table_id: str, sub: Subscription) -> None:
        """Keep ``sub``, this connection's feed of ``table_id``."""
        self._subs[table_id] = sub

    def unsubscribed(self, table_id: str) -> Subscription | None:
        """Forget this connection's feed of ``table_id``; the one to end, if there was one."""
        return self._subs.pop(table_id, None)

    def close(self) -> list[Subscription]:
        """The connection ended: every feed it had, to end (the session forgets them)."""
        subs, self._subs = list(self._subs.values()), {}
        return subs

    # ------------------------------------------------------------------ the answer order

    @property
    def unanswered(self) -> int:
        """Commands submitted (:meth:`submitted`) and not answered (:meth:`answer`) yet."""
        return self._unanswered

    def waits(self, msg: ClientMessage) -> bool:
        """Whether ``msg`` must wait, reading nothing further, until every command
        submitted before it is answered.

        A command (``command``, ``chat``) waits once ``max_unanswered`` are in flight
        (the client outruns the table; TCP slows it down); any other message waits
        while any is, so a ``get_state`` after a command sees the command's events.
        A command that cannot be submitted at once (its table still to be loaded)
        is handled in its turn like any other message: the driver waits while
        :attr:`unanswered` is not 0.
        """
        if isinstance(msg, CommandMsg | ChatMsg):
            return self._unanswered >= self._max_unanswered
        return self._unanswered > 0

    def chat_command_id(self, msg: ChatMsg) -> str:
        """A ``chat`` message's command id: its own, else one made unique on this connection."""
        return msg.command_id or f"chat-{self.id}-{time.monotonic_ns()}"

    def submitted(
        self, rid: Any, table_id: str, ruleset: str, member_id: str, command_id: str, command: Any
    ) -> Pending:
        """Count a command submitted to a table (``command`` None: one that did not
        decode); pass what it returns to :meth:`answer` once the table answers."""
        self._unanswered += 1
        t0 = self._clock()
        name = type(command).__name__ if command is not None else "?"
        return Pending(rid, table_id, ruleset, member_id, command_id, name, t0, self.frame_in or t0)

    def answer(self, p: Pending, outcome: Outcome, head: str, head_seq: int) -> bytes:
        """The encoded frame answering a command, which is no longer counted unanswered.

        ``outcome`` ``(first_seq, last_seq, duplicate)`` gives an ``ack`` naming
        ``head``/``head_seq`` (the table's hash-chain head and seq now); a
        :class:`TakuError` an ``error`` with its code (a rejection); any other
        exception ``internal/error`` (logged with its traceback). Each is counted in
        ``taku_commands_total`` and the latency histogram (from the frame's arrival);
        ``command_done`` / ``command_rejected`` are logged at info.
        """
        self._unanswered -= 1
        where = {"table_id": p.table_id, "member_id": p.member_id, "command_id": p.command_id}
        if isinstance(outcome, TakuError):
            frame = encode(error_frame(outcome, p.rid, p.command_id))
            now = self._clock()
            metrics.command_answered(p.ruleset, "rejected", now - p.t_in)
            if self.log_commands:
                self.log.info(
                    "command_rejected",
                    code=outcome.code,
                    command=p.name,
                    duration_ms=_ms(now - p.t0),
                    **where,
                )
        elif isinstance(outcome, BaseException):
            if isinstance(outcome, Exception):
                self.log.error("internal_error", command=p.name, exc_info=outcome, **where)
            frame = encode(error_frame(None, p.rid, p.command_id))
            metrics.command_answered(p.ruleset, "error", self._clock() - p.t_in)
        else:
            first, last, dup = outcome
            frame = encode(
                Ack(
                    re=p.rid,
                    table_id=p.table_id,
                    command_id=p.command_id,
                    first_seq=first,
                    last_seq=last,
                    duplicate=dup,
                    head=chain.short(head),
                    head_seq=head_seq,
                )
            )
            now = self._clock()
            metrics.command_answered(p.ruleset, "duplicate" if dup else "ok", now - p.t_in)
            if self.log_commands:
                # the command's context goes into its one canonical line as keys
                self.log.info(
                    "command_done",
                    command=p.name,
                    seqs=[first, last],
                    duplicate=dup,
                    duration_ms=_ms(now - p.t0),
                    **where,
                )
        return frame

    # ------------------------------------------------------------------ the backlog

    def over_backlog(self, buffered_bytes: int) -> bool:
        """Whether a peer with ``buffered_bytes`` written and not taken is to be dropped
        (past ``max_backlog_bytes``: it stopped reading; events and acks are pushed,
        not awaited, and must not fill the server's memory)."""
        return buffered_bytes > self._max_backlog

    @property
    def stall_step_s(self) -> float:
        """How long a bulk send waits for the peer at a time before it looks again."""
        return min(1.0, self._stall_s)

    def stalled(self, stalled_s: float) -> bool:
        """Whether a peer that has taken nothing of a bulk send (a catch-up) for
        ``stalled_s`` seconds is to be dropped (``catch_up_stall_s``)."""
        return stalled_s >= self._stall_s


def error_frame(e: TakuError | None, rid: Any, command_id: str | None = None) -> ErrorMsg:
    """The ``error`` message of ``e`` (``None``: an internal error): the code, its Japanese
    message from the catalogue (taku.codes) and the params. Counted in ``taku_errors_total``."""
    metrics.error_sent(e.code if e is not None else "internal/error")
    if e is None:
        return ErrorMsg(
            re=rid,
            code="internal/error",
            message=codes.message("internal/error", {}),
            params={},
            details={},
            command_id=command_id,
        )
    params = _jsonable(e.details)
    return ErrorMsg(
        re=rid,
        code=e.code,
        message=codes.message(e.code, params, fallback=e.message),
        params=params,
        details=params,
        command_id=command_id,
    )


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def _peek_ids(frame: str | bytes) -> tuple[Any, str | None]:
    """The ``id`` and ``command_id`` of a frame that failed to decode as a message, each
    if it has a usable one (so a client can tell which command its error answers)."""
    try:
        raw = msgspec.json.decode(frame)
    except (msgspec.DecodeError, RecursionError):
        return None, None
    if not isinstance(raw, dict):
        return None, None
    rid, cid = raw.get("id"), raw.get("command_id")
    rid = rid if isinstance(rid, (str, int)) and not isinstance(rid, bool) else None
    return rid, cid if isinstance(cid, str) and 0 < len(cid) <= 128 else None


def _jsonable(details: dict[str, Any]) -> dict[str, Any]:
    return msgspec.to_builtins(details, str_keys=True, enc_hook=repr)
