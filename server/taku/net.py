"""The WebSocket server (websockets' asyncio API) and the HTTP side of the same port.

Frames become protocol Structs (:mod:`taku.protocol`), exceptions become
``error`` messages with their stable code; the connection stays open for
everything but a frame past the hard limit. ``GET /`` serves the web client
(gzipped when accepted, with ETag / Last-Modified validators),
``GET /healthz`` answers ``ok`` when the store answers, ``GET /readyz`` ``ready`` until the
server drains and while the store is reachable (:attr:`EventStore.reachable`), ``GET /metrics``
the Prometheus metrics (:mod:`taku.metrics`; on loopback by default); any path upgrades to
WebSocket.
"""

from __future__ import annotations

import asyncio
import collections
import datetime
import email.utils
import functools
import gzip
import hashlib
import importlib.resources
import itertools
import logging
import mimetypes
import os
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import structlog
from websockets.asyncio.server import Server as WSServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed, NegotiationError
from websockets.frames import Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import State
from websockets.typing import Subprotocol

from taku import __version__, metrics
from taku.app import Hub
from taku.core.commands import CORE_COMMANDS
from taku.errors import RateLimited, TakuError, UnsupportedVersion
from taku.export import MEDIA_TYPES as EXPORT_MEDIA
from taku.export import filename as export_filename
from taku.protocol import (
    PROTOCOL,
    PROTOCOLS,
    SUBPROTOCOLS,
    ChatMsg,
    ClientMessage,
    CommandMsg,
    Created,
    CreateTable,
    Exported,
    ExportLog,
    Forked,
    ForkTable,
    GetLog,
    GetState,
    Hello,
    Join,
    Joined,
    ListRulesets,
    LogMsg,
    RulesetInfo,
    RulesetsMsg,
    StateMsg,
    Subscribe,
    Subscribed,
    Unsubscribe,
    Welcome,
    encode,
)
from taku.session import Session, TokenBucket

__all__ = ["ServerConfig", "TakuServer", "default_web_dir"]

log = structlog.get_logger("taku.net")
_conn_ids = itertools.count(1)


class _HandshakeNoise(logging.Filter):
    """One line, not a traceback, for a connection websockets drops over a garbled handshake.

    A peer that sends bytes after its handshake request (junk, or a second request
    behind a plain ``GET``) makes websockets (17.x) send EOF twice: it logs
    "unexpected internal error" with an ``AssertionError`` traceback from
    ``send_eof`` and drops the connection, the server unharmed. That record becomes
    taku's one ``bad_handshake`` line (info: a scanner's junk is no server fault);
    every other record of websockets (that error on an open connection included)
    passes unchanged.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if not (isinstance(exc, AssertionError) and record.msg == "unexpected internal error"):
            return True
        conn = getattr(record, "websocket", None)
        if getattr(getattr(conn, "protocol", None), "state", None) is not State.CONNECTING:
            return True  # after the handshake: not this, keep the traceback
        peer = getattr(conn, "remote_address", None)
        log.info(
            "bad_handshake",
            peer=f"{peer[0]}:{peer[1]}" if peer else None,
            error="the peer's handshake was garbled",
        )
        return False


_WS_LOG = logging.getLogger("websockets.server.taku")
"""The websockets server's logger (a child of websockets' own, so its handlers still apply)."""
_WS_LOG.addFilter(_HandshakeNoise())


def default_web_dir() -> Path:
    """The web client's files: ``$TAKU_WEB_DIR`` when set, else the package data ``taku/web``.

    The wheel ships ``clients/web`` as ``taku/web`` (in the source tree, ``server/taku/web``
    is a link to ``clients/web``), found with :mod:`importlib.resources`; ``--web-dir``
    overrides both.
    """
    env = os.environ.get("TAKU_WEB_DIR")
    if env:
        return Path(env)
    return Path(str(importlib.resources.files("taku") / "web"))


@dataclass(frozen=True)
class ServerConfig:
    """Limits of one server. Units are in the names."""

    host: str = "127.0.0.1"
    port: int = 8765
    max_frame_bytes: int = 64 * 1024
    """Frames above this get ``protocol/frame_too_large`` (the connection stays)."""
    hard_max_frame_bytes: int = 1024 * 1024
    """Frames above this close the connection (1009), to protect the server."""
    rate_per_s: float = 50.0
    """Sustained messages per second per connection; more get ``protocol/rate_limited``."""
    rate_burst: int = 100
    creates_per_minute: float = 60.0
    """New tables per minute for the whole server (anyone may create one); more get
    ``protocol/rate_limited``. A burst of the same size is allowed."""
    ping_interval_s: float | None = 20.0
    """Every connection is pinged this often (None: never); see :meth:`TakuServer._keepalive`."""
    ping_timeout_s: float | None = 20.0
    """A connection whose ping is unanswered this long is closed with 1011 (None: never)."""
    max_unanswered: int = 256
    """Commands one connection may have in flight; past it the connection's next message
    waits (nothing is read from it meanwhile, so TCP slows the client down)."""
    max_backlog_bytes: int = 16 * 1024 * 1024
    """Frames written to a connection but not yet taken by its peer: past this the
    connection is dropped (a client that stopped reading must not fill the server's
    memory; events and acks are pushed, not awaited)."""
    catch_up_stall_s: float = 30.0
    """A catch-up (``subscribe``) waits for the peer to take each page; a peer that takes
    nothing for this long has stopped reading and is dropped, like one past the backlog."""
    shutdown_grace_s: float = 10.0
    web_dir: Path | None = None
    metrics: bool | None = None
    """``GET /metrics`` (Prometheus) on this port: None (the default) serves it when
    ``host`` is a loopback address, True always, False never."""
    health_timeout_s: float = 2.0
    """``/healthz`` answers 503 when the store has not answered within this."""
    compression: bool = False
    """permessage-deflate. Off by default: frames are small JSON, and deflating each
    one for every subscriber costs more CPU than the bytes it saves on a LAN."""


class _Outbox:
    """Frames held per connection while the hub publishes (``hub.publishing``).

    A publication (one table's part of a batch of appends: its commands in seq
    order, see ``EventStore.answering``) sends each command's events to every
    subscriber, then its ack to the sender; held, a connection's frames of the
    publication leave in one write, and each frame is serialized once for every
    connection it goes to. On loopback and LANs a server spends much of
    its time in ``send`` calls, one per write.
    """

    def __init__(self) -> None:
        self.depth = 0
        self.held: dict[_Connection, list[bytes]] = {}

    def hold(self, conn: _Connection, frame: bytes) -> None:
        frames = self.held.get(conn)
        if frames is None:
            self.held[conn] = [frame]
        else:
            frames.append(frame)

    def __enter__(self) -> None:
        self.depth += 1

    def __exit__(self, *exc: object) -> None:
        self.depth -= 1
        if self.depth or not self.held:
            return
        held, self.held = self.held, {}
        # most frames go to several connections (one object for every viewer who sees
        # an event alike): each is serialized once for all of them
        wire: dict[int, bytes] = {}
        for conn, frames in held.items():
            conn.write(frames, wire)


def _wire_frame(frame: bytes) -> bytes:
    """``frame`` (UTF-8 JSON) as a server's text frame on the wire: websockets' own
    serialization, unmasked and with no extension, so the same bytes for every
    connection that negotiated none (compression is off by default)."""
    return Frame(Opcode.TEXT, frame).serialize(mask=False)


def _write_frames(ws: ServerConnection, frames: Sequence[bytes], wire: dict[int, bytes]) -> None:
    """Several text frames to one connection in one socket write.

    What :func:`websockets.asyncio.server.broadcast` does for each frame, with the
    frames' bytes joined into one write, and each frame serialized once per
    publication however many connections it goes to (``wire``: ``id(frame)`` to its
    bytes, valid while the frames are held). What the connection's Sans-I/O
    ``protocol`` has queued (a pong) goes first; a connection that negotiated an
    extension (compression) has its frames made by its protocol. Like broadcast, a
    connection that is not open is skipped and a failed write is dropped.
    """
    protocol = ws.protocol
    if protocol.state is not State.OPEN:
        return
    try:
        if protocol.extensions:
            for frame in frames:
                protocol.send_text(frame)
            chunks = protocol.data_to_send()
        else:
            chunks = protocol.data_to_send()
            for frame in frames:
                data = wire.get(id(frame))
                if data is None:
                    data = wire[id(frame)] = _wire_frame(frame)
                chunks.append(data)
        ws.transport.write(b"".join(chunks))
        if b"" in chunks:  # the protocol ended the stream meanwhile, as websockets' send_data does
            if ws.transport.can_write_eof():
                ws.transport.write_eof()
            else:
                ws.transport.close()
    except Exception as e:  # noqa: BLE001 - a broken connection must not stop a publication
        log.warning("write_failed", error=repr(e))


KEEPALIVE_SLICE = 256
"""Connections the keepalive sweep pings before it lets the loop run other work."""


async def _close(ws: ServerConnection, code: int, reason: str) -> None:
    """Close ``ws`` with ``code``, aborting it after its close timeout: websockets'
    ``close`` first waits for the socket to drain, which a peer that stopped reading
    never lets happen."""
    try:
        await asyncio.wait_for(ws.close(code, reason), ws.close_timeout or 10.0)
    except TimeoutError:
        ws.transport.abort()


def _retrieved(task: asyncio.Task[Any]) -> None:
    """A ping that failed to go out (the connection closed meanwhile) is no error to log."""
    if not task.cancelled():
        task.exception()


def _ponged(ping: asyncio.Task[Awaitable[float]]) -> bool:
    """Whether the ping ``ping`` sent has its pong (a ping that failed to go out, the
    connection closing, counts as answered: the connection's own close ends it)."""
    if not ping.done():
        return False  # still being written: the peer is not reading
    if ping.cancelled() or ping.exception() is not None:
        return True
    pong = ping.result()
    return not isinstance(pong, asyncio.Future) or pong.done()


class _FrameQueue:
    """The part of :class:`collections.deque` that websockets' ``Assembler`` uses for the
    frames it has not handed to ``recv()`` yet, holding no deque while none waits.

    A deque allocates its first 64-slot block when it is made (about 0.7 KiB), and the
    queue of an idle connection is empty: made on the first frame that waits, dropped
    when the last one is taken. The methods are those every websockets release since
    14 calls on it (``append``, ``popleft``, ``len``; ``extendleft`` from 17, ``extend``
    in 14-16, ``clear`` in 14).
    """

    __slots__ = ("_items",)

    def __init__(self) -> None:
        self._items: collections.deque[Any] | None = None

    def __len__(self) -> int:
        return len(self._items) if self._items is not None else 0

    def append(self, item: Any) -> None:
        if self._items is None:
            self._items = collections.deque()
        self._items.append(item)

    def extendleft(self, items: Any) -> None:
        self._extend(items, left=True)

    def extend(self, items: Any) -> None:
        self._extend(items, left=False)

    def _extend(self, items: Any, *, left: bool) -> None:
        queue = self._items if self._items is not None else collections.deque()
        if left:
            queue.extendleft(items)
        else:
            queue.extend(items)
        self._items = queue or None

    def popleft(self) -> Any:
        if self._items is None:
            raise IndexError("pop from an empty deque")
        item = self._items.popleft()
        if not self._items:
            self._items = None
        return item

    def clear(self) -> None:
        self._items = None


class _WSConnection(ServerConnection):
    """websockets' server connection without two empty deques per connection.

    ``drain_waiters`` (the futures waiting for the socket to drain; websockets
    appends, removes and iterates over it) becomes a list, and the ``Assembler``'s
    frame queue a :class:`_FrameQueue`: each deque held a 64-slot block, about 0.7 KiB,
    which an idle connection never uses (issue 16: 10,000 idle clients). Where a
    websockets version keeps neither as an empty deque, nothing is changed.
    """

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # makes the Assembler
        waiters = getattr(self, "drain_waiters", None)
        if isinstance(waiters, collections.deque) and not waiters:
            self.drain_waiters = []  # type: ignore[assignment]
        frames = getattr(getattr(self, "recv_messages", None), "frames", None)
        queue = getattr(frames, "queue", None)
        if isinstance(queue, collections.deque) and not queue:
            frames.queue = _FrameQueue()  # type: ignore[union-attr]


class _Connection:
    """The asyncio driver of one WebSocket connection and its :class:`Session`.

    It reads frames and hands each to the session (size, rate, decoding, the answer
    order), submits commands to loaded tables at once, awaits the hub for the rest
    (:meth:`dispatch`), and writes what comes back: answers and events are pushed
    through ``server.outbox``, replies to other messages are awaited sends.
    """

    def __init__(self, server: TakuServer, ws: ServerConnection) -> None:
        self.server = server
        self.hub = server.hub
        self.ws = ws
        self.id = f"c{next(_conn_ids)}"
        self.session = Session(server.config, conn_id=self.id)
        self._answered: asyncio.Future[None] | None = None
        """What :meth:`answered` awaits: made only while a message waits (idle memory)."""

    def push(self, frame: bytes) -> None:
        """Write one frame now, or when the hub's publication ends (see :class:`_Outbox`)."""
        outbox = self.server.outbox
        if outbox.depth:
            outbox.hold(self, frame)
        else:
            self.write((frame,))

    def write(self, frames: Sequence[bytes], wire: dict[int, bytes] | None = None) -> None:
        """Write frames now (one write for several; ``wire``: the publication's frames
        serialized so far, see :func:`_write_frames`); a connection already lost is
        skipped, so a burst of events to a dropped peer does not log asyncio's warning
        for each."""
        if self.ws.transport.is_closing():
            return
        _write_frames(self.ws, frames, {} if wire is None else wire)
        self.check_backlog()

    def write_page(self, frames: Sequence[bytes]) -> None:
        """Write one page of a bulk send (a catch-up) now: its size is bounded, and the
        sender awaits :meth:`drain` before the next, so it is no backlog of the peer's."""
        if not self.ws.transport.is_closing():
            _write_frames(self.ws, frames, {})

    def check_backlog(self) -> None:
        """Drop the connection when its peer has stopped reading (:meth:`Session.over_backlog`)."""
        transport = self.ws.transport
        if (
            self.session.over_backlog(transport.get_write_buffer_size())
            and not transport.is_closing()
        ):
            self.session.log.warning(
                "connection_dropped_backlog", buffered_bytes=transport.get_write_buffer_size()
            )
            self.session.dropped = "backlog"
            transport.abort()

    async def drain(self) -> None:
        """Wait until the peer has taken what was written (the socket's low-water mark).

        A peer that takes nothing for ``catch_up_stall_s`` is dropped (it stopped
        reading; :meth:`Session.stalled`). Raises ConnectionClosed once the connection
        is gone, so a bulk send stops; a connection lost with an error while it waited
        (reset by the peer) is gone too, not a failure of the server's.
        """
        transport = self.ws.transport
        session = self.session
        last, still = transport.get_write_buffer_size(), 0.0
        step = session.stall_step_s
        while not transport.is_closing():
            try:
                await asyncio.wait_for(self.ws.drain(), step)
                break
            except ConnectionError:  # lost while it waited: ConnectionResetError and kin
                raise ConnectionClosed(None, None) from None
            except TimeoutError:
                now = transport.get_write_buffer_size()
                still = still + step if now >= last else 0.0
                last = now
                if session.stalled(still):
                    self.session.log.warning(
                        "connection_dropped_backlog", buffered_bytes=now, stalled_s=still
                    )
                    session.dropped = "backlog"  # counted as such, not as "lost"
                    transport.abort()
        if transport.is_closing():
            raise ConnectionClosed(None, None)

    async def send(self, msg: Any) -> None:
        await self.ws.send(encode(msg), text=True)

    async def run(self) -> None:
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(conn_id=self.id)
        log.info("connection_opened", peer=str(self.ws.remote_address))
        metrics.connection_opened()
        session = self.session
        ws = self.ws
        msg: ClientMessage | None = None
        try:
            while True:
                # not ``async for``: its generator is one more frame held by every idle
                # connection; recv() raises ConnectionClosed (OK or not) when it ends.
                # The frame's bytes, not decoded to str: the size limit counts bytes, and
                # msgspec checks the UTF-8 of the JSON it decodes. While it waits, an
                # idle connection holds neither its last frame nor its last message
                frame = msg = None
                frame = await ws.recv(decode=False)
                if self.server.closing or ws.protocol.state is not State.OPEN:
                    # shutting down: frames not started yet are dropped unanswered (the client
                    # resends them with the same command id); reading on lets the close
                    # handshake through even when more frames than max_queue are buffered
                    continue
                rid: Any = None
                cid: str | None = None  # a command's id, which its error names
                try:
                    msg = session.receive(frame)
                    rid = msg.id
                    if isinstance(msg, CommandMsg | ChatMsg):
                        cid = msg.command_id
                    if session.waits(msg):  # the answer order (see Session.waits)
                        await self.answered()
                    if isinstance(msg, CommandMsg | ChatMsg):
                        if self.submit(msg):
                            continue  # answered when the table has published it
                        if session.unanswered:  # a table still to be loaded: in its turn
                            await self.answered()
                    self.server.begin()
                    try:
                        await self.dispatch(msg)
                    finally:
                        self.server.end()
                except TakuError as e:
                    # answered in its turn (docs/protocol.md), naming what it refuses: after
                    # the connection's earlier commands (a frame refused for the rate or
                    # one that does not decode too), and nothing is read meanwhile
                    if isinstance(e, RateLimited) and e.refused is not None:
                        rid, cid = e.refused.id, getattr(e.refused, "command_id", None)
                    if session.unanswered:
                        await self.answered()
                    await self._send_quietly(session.error(e, rid, frame, command_id=cid))
                except ConnectionClosed:
                    continue
                except Exception:
                    log.exception("internal_error")
                    await self._send_quietly(session.error(None, rid))
        except ConnectionClosed:
            pass  # the peer went away without a closing handshake: nothing to answer
        finally:
            for sub in session.close():
                sub.table.unsubscribe(sub)
            log.info("connection_closed", code=self.ws.close_code)
            metrics.connection_closed(_close_code(self.ws), session.dropped)

    async def _send_quietly(self, frame: bytes) -> None:
        try:
            await self.ws.send(frame, text=True)
        except ConnectionClosed:
            pass

    async def dispatch(self, msg: ClientMessage) -> None:
        """Handle a message that needs awaiting (every one but a command to a loaded
        table): its reply is sent, awaited, once the hub has answered."""
        hub = self.hub
        session = self.session
        match msg:
            case Hello():
                if msg.protocol not in PROTOCOLS:
                    raise UnsupportedVersion(
                        f"this server speaks {', '.join(PROTOCOLS)}, not {msg.protocol}",
                        protocol=msg.protocol,
                        supported=list(PROTOCOLS),
                        versions="、".join(PROTOCOLS),
                    )
                await self.send(
                    Welcome(
                        re=msg.id,
                        protocol=PROTOCOL,
                        server=f"taku {__version__}",
                        rulesets=[r.id for r in hub.registry],
                    )
                )
            case ListRulesets():
                await self.send(
                    RulesetsMsg(
                        re=msg.id,
                        rulesets=[ruleset_info(r) for r in hub.registry],
                        core_command_schema=_core_command_schema(),
                        table_settings_schema=_table_settings_schema(),
                    )
                )
            case CreateTable(
                ruleset=rs, name=name, options=options, gm_name=gm_name, settings=settings
            ):
                if not self.server.creates.take(time.monotonic()):
                    raise RateLimited(
                        "too many new tables on this server right now; try again in a minute"
                    )
                c = await hub.create_table(
                    ruleset=rs,
                    name=name,
                    options=options,
                    gm_name=gm_name,
                    settings=settings,
                    history=msg.history,
                )
                session.joined(c.table_id, c.member_id)
                await self.send(
                    Created(
                        re=msg.id,
                        table_id=c.table_id,
                        member_id=c.member_id,
                        gm_token=c.gm_token,
                        player_token=c.player_token,
                        spectator_token=c.spectator_token,
                    )
                )
            case ForkTable(table_id=tid, at_seq=at, name=name):
                mid = session.member(tid)
                if not self.server.creates.take(time.monotonic()):
                    raise RateLimited(
                        "too many new tables on this server right now; try again in a minute"
                    )
                f = await hub.fork_table(tid, mid, at_seq=at, name=name)
                c = f.created
                await self.send(
                    Forked(
                        re=msg.id,
                        table_id=c.table_id,
                        member_id=c.member_id,
                        gm_token=c.gm_token,
                        player_token=c.player_token,
                        spectator_token=c.spectator_token,
                        source_table=f.source_table,
                        source_seq=f.source_seq,
                        source_head=f.source_head,
                        member_tokens=f.member_tokens,
                    )
                )
            case Join(table_id=tid, token=token, name=name):
                j = await hub.join(tid, token, name)
                session.joined(tid, j.member_id)
                structlog.contextvars.bind_contextvars(member_id=j.member_id)
                await self.send(
                    Joined(
                        re=msg.id,
                        table_id=tid,
                        member_id=j.member_id,
                        role=j.role,
                        seq=j.seq,
                        member_token=j.member_token,
                    )
                )
            case Subscribe(table_id=tid, after_seq=after):
                mid = session.member(tid)
                table = await hub.table(tid)
                old = session.unsubscribed(tid)
                if old is not None:
                    table.unsubscribe(old)
                sub = await table.subscribe(
                    mid,
                    self.push,
                    after,
                    send_page=self.write_page,
                    drain=self.drain,
                    page_bytes=max(1, min(256 * 1024, self.server.config.max_backlog_bytes // 4)),
                )
                session.subscribed(tid, sub)
                await self.send(Subscribed(re=msg.id, table_id=tid, seq=sub.last_seq))
            case Unsubscribe(table_id=tid):
                gone = session.unsubscribed(tid)
                if gone is not None:
                    gone.table.unsubscribe(gone)
                await self.send(Subscribed(re=msg.id, table_id=tid, seq=-1))
            case CommandMsg(table_id=tid, command_id=cid, command=raw, expected_seq=exp):
                mid = session.member(tid)
                table = await hub.table(tid)
                command = table.decode_command(raw)
                self._execute(msg.id, table, mid, command, cid, exp)
                await self.answered()
            case ChatMsg(table_id=tid):
                mid = session.member(tid)
                table = await hub.table(tid)
                cid = session.chat_command_id(msg)
                self._execute(msg.id, table, mid, msg.command(), cid, None)
                await self.answered()
            case GetState(table_id=tid, at_seq=at):
                mid = session.member(tid)
                table = await hub.table(tid)
                sv = await table.view_at(table.state.viewer(mid), at)
                await self.send(
                    StateMsg(
                        re=msg.id,
                        table_id=tid,
                        seq=sv.state["seq"],
                        state=sv.state,
                        affordances=sv.affordances,
                        turn=sv.turn,
                    )
                )
            case GetLog(table_id=tid, after_seq=after, limit=limit):
                mid = session.member(tid)
                table = await hub.table(tid)
                frames = await table.log_frames(mid, after, limit)
                events = [msgspec.Raw(f) for f in frames]
                await self.send(
                    LogMsg(re=msg.id, table_id=tid, events=events, last_seq=table.state.seq)
                )
            case ExportLog(table_id=tid, format=fmt):
                mid = session.member(tid)
                table = await hub.table(tid)
                await self.send(
                    Exported(
                        re=msg.id,
                        table_id=tid,
                        format=fmt,
                        filename=export_filename(tid, fmt),
                        media_type=EXPORT_MEDIA[fmt],
                        # jsonl, to verify: the asker's own view; html and text, to share: public
                        content=await table.export(fmt, mid if fmt == "jsonl" else None),
                    )
                )
            case _:  # pragma: no cover - decode_client only yields the types above
                raise AssertionError(f"unhandled message {msg!r}")

    def submit(self, msg: CommandMsg | ChatMsg) -> bool:
        """A command to a table this process has loaded: submitted at once, without
        holding up the next message. False for a table still to be loaded (then
        :meth:`dispatch` awaits it).

        Raises:
            TakuError: not joined, or a command that does not decode.
        """
        table = self.hub.loaded(msg.table_id)
        if table is None:
            return False
        mid = self.session.member(msg.table_id)
        if isinstance(msg, CommandMsg):
            try:
                command = table.decode_command(msg.command)
            except TakuError as e:  # answered in its turn, naming the command id
                self._execute(msg.id, table, mid, None, msg.command_id, None, failure=e)
                return True
            self._execute(msg.id, table, mid, command, msg.command_id, msg.expected_seq)
        else:
            cid = self.session.chat_command_id(msg)
            self._execute(msg.id, table, mid, msg.command(), cid, None)
        return True

    def _execute(
        self,
        rid: Any,
        table: Any,
        mid: str,
        command: Any,
        cid: str,
        exp: int | None,
        *,
        failure: TakuError | None = None,
    ) -> None:
        """Submit a command (or, with ``failure``, one that did not decode); its ack (or
        error, made by :meth:`Session.answer`) is pushed when the table answers
        (:meth:`answered` waits for it and every other)."""
        session = self.session
        pending = session.submitted(rid, table.table_id, table.ruleset.id, mid, cid, command)
        server = self.server
        server.begin()

        def reply(outcome: tuple[int, int, bool] | BaseException) -> None:
            state = table.state
            try:
                # written with the command's own event when this connection is subscribed
                frame = session.answer(pending, outcome, state.head, state.seq)
            finally:  # counted answered even if its frame failed: nothing waits for ever
                waiter = self._answered
                if not session.unanswered and waiter is not None:
                    self._answered = None
                    if not waiter.done():
                        waiter.set_result(None)
                server.end()
            self.push(frame)

        if failure is not None:
            table.answer(reply, failure)
        else:
            table.submit(
                mid,
                command,
                command_id=cid,
                expected_seq=exp,
                reply=reply,
                received=pending.t_in,
            )

    async def answered(self) -> None:
        """Until this connection has no command unanswered (at once when it has none)."""
        if not self.session.unanswered:
            return
        waiter = self._answered
        if waiter is None or waiter.done():  # done: cancelled with a task that waited
            waiter = self._answered = asyncio.get_running_loop().create_future()
        await asyncio.shield(waiter)


def _select_subprotocol(
    connection: ServerConnection, offered: Sequence[Subprotocol]
) -> Subprotocol | None:
    """``taku.v1`` when the client offers it; none when it offers none (older clients); a
    client offering only subprotocols taku does not speak is refused (HTTP 400 naming
    those it does)."""
    for name in SUBPROTOCOLS:
        if name in offered:
            return Subprotocol(name)
    if not offered:
        return None
    raise NegotiationError(
        f"unsupported subprotocol {', '.join(offered)}; this server speaks {', '.join(SUBPROTOCOLS)}"
    )


def _close_code(ws: ServerConnection) -> int | None:
    """The close code received, else the one the server sent (a connection it failed:
    frame too large, ping timeout), else None (no closing handshake either way)."""
    frame = ws.protocol.close_rcvd or ws.protocol.close_sent
    return int(frame.code) if frame is not None else None


def ruleset_info(r: Any) -> RulesetInfo:
    options: dict[str, Any] = {}
    if r.options is not None:
        options = msgspec.to_builtins(msgspec.convert({}, r.options))
    from taku.schema import type_schema, union_schema

    return RulesetInfo(
        id=r.id,
        name=r.name,
        version=r.version,
        summary=r.summary,
        commands=[t.__struct_config__.tag for t in r.commands],
        options=options,
        command_schema=union_schema(f"{r.id} commands", tuple(r.commands)) if r.commands else {},
        sheet_schema=type_schema(r.sheet) if r.sheet is not None else {},
        gm_commands=sorted(
            t.__struct_config__.tag for t in CORE_COMMANDS + tuple(r.commands) if t.permit.gm_only
        ),
        permissions={
            t.__struct_config__.tag: t.permit.describe() for t in CORE_COMMANDS + tuple(r.commands)
        },
        options_schema=type_schema(r.options) if r.options is not None else {},
        state_schema=type_schema(r.state) if r.state is not None else {},
        errors={f"rule/{r.id}/{reason}": meaning for reason, meaning in r.errors.items()},
        sheet_templates=list(r.sheet_templates),
    )


@functools.cache
def _core_command_schema() -> dict[str, Any]:
    from taku.core.commands import CORE_COMMANDS
    from taku.schema import union_schema

    return union_schema("core commands", CORE_COMMANDS)


@functools.cache
def _table_settings_schema() -> dict[str, Any]:
    from taku.core.events import HistorySettings, TableSettings
    from taku.schema import type_schema

    return {"settings": type_schema(TableSettings), "history": type_schema(HistorySettings)}


class TakuServer:
    """A taku server on one port: WebSocket for the protocol, HTTP for the web client.

    Call :meth:`start`, then :meth:`stop` (e.g. on SIGTERM): it stops accepting,
    lets commands in flight finish, and closes every connection with 1001.
    """

    def __init__(self, hub: Hub, config: ServerConfig | None = None) -> None:
        self.hub = hub
        self.config = config or ServerConfig()
        self.web_dir = (self.config.web_dir or default_web_dir()).resolve()
        self.in_flight = 0
        """Messages being handled and commands submitted but not answered yet."""
        self.creates = TokenBucket(
            self.config.creates_per_minute / 60,
            max(int(self.config.creates_per_minute), 1),
            time.monotonic(),
        )
        self.closing = False
        self.idle = asyncio.Event()
        self.idle.set()
        self.outbox = _Outbox()
        hub.publishing = self.outbox
        self._server: WSServer | None = None
        self._pinger: asyncio.Future[None] | None = None
        self._closing: set[asyncio.Future[None]] = set()
        self.port = self.config.port
        self.draining = False
        """Set by :meth:`drain` (SIGTERM): ``/readyz`` answers 503 from then on."""
        self.metrics = (
            self.config.metrics
            if self.config.metrics is not None
            else _is_loopback(self.config.host)
        )
        """Whether ``/metrics`` is served on this port."""

    def begin(self) -> None:
        self.in_flight += 1
        self.idle.clear()

    def end(self) -> None:
        self.in_flight -= 1
        if self.in_flight == 0:
            self.idle.set()

    async def start(self) -> int:
        """Listen; returns the port (useful with port 0)."""
        cfg = self.config
        self._server = await serve(
            self._handle,
            cfg.host,
            cfg.port,
            process_request=self._http,
            max_size=cfg.hard_max_frame_bytes,
            ping_interval=None,  # one keepalive task for the server (_keepalive)
            server_header=f"taku/{__version__}",
            compression="deflate" if cfg.compression else None,
            select_subprotocol=_select_subprotocol,
            logger=_WS_LOG,
            create_connection=_WSConnection,
        )
        sock = next(iter(self._server.sockets))
        self.port = sock.getsockname()[1]
        log.info("server_started", host=cfg.host, port=self.port)
        if not (self.web_dir / "index.html").is_file():
            log.warning("no_web_client", web_dir=str(self.web_dir), error="no index.html there")
        await self.hub.arm_timers()  # the tables with armed timers, loaded and armed again
        if cfg.ping_interval_s is not None:
            self._pinger = asyncio.ensure_future(self._keepalive())
        return self.port

    async def _keepalive(self) -> None:
        """websockets' keepalive for every connection, from one task: each open
        connection is pinged every ``ping_interval_s``; one whose ping is still
        unanswered after ``ping_timeout_s`` is closed with 1011 ("keepalive ping
        timeout"), as websockets' own keepalive does. websockets runs that as a task
        per connection (a task, its coroutine and a timer: ~1.6 KiB an idle client);
        here a connection holds only its last ping (a short task that sends it, which
        a peer that stopped reading can hold up without holding up the others). The
        sweep yields to the loop every :data:`KEEPALIVE_SLICE` connections, so 10,000
        of them do not hold commands up."""
        cfg = self.config
        interval = cfg.ping_interval_s
        assert interval is not None
        timeout = cfg.ping_timeout_s
        step = interval if timeout is None else min(interval, timeout)
        loop = asyncio.get_running_loop()
        pings: dict[ServerConnection, tuple[float, asyncio.Task[Awaitable[float]]]] = {}
        while self._server is not None:
            await asyncio.sleep(step)
            server = self._server
            if server is None:
                return
            now = loop.time()
            kept: dict[ServerConnection, tuple[float, asyncio.Task[Awaitable[float]]]] = {}
            for n, ws in enumerate(list(server.connections)):
                if n and n % KEEPALIVE_SLICE == 0:
                    await asyncio.sleep(0)
                try:
                    self._ping(ws, now, interval, timeout, pings, kept)
                except Exception:  # one connection's trouble must not end everyone's keepalive
                    log.exception("keepalive_failed")
            pings = kept

    def _ping(
        self,
        ws: ServerConnection,
        now: float,
        interval: float,
        timeout: float | None,
        pings: dict[ServerConnection, tuple[float, asyncio.Task[Awaitable[float]]]],
        kept: dict[ServerConnection, tuple[float, asyncio.Task[Awaitable[float]]]],
    ) -> None:
        """One connection's turn in the keepalive sweep: ping it when due, close it when
        its last ping went unanswered past ``timeout``; what stays pending goes to ``kept``."""
        if ws.protocol.state is not State.OPEN:
            return
        last = pings.get(ws)
        if last is not None:
            sent, ping = last
            if not _ponged(ping):
                if timeout is not None and now - sent >= timeout:
                    ping.cancel()
                    self._close_later(ws, 1011, "keepalive ping timeout")
                else:
                    kept[ws] = last
                return
            if now - sent < interval:
                kept[ws] = last
                return
        ping = asyncio.ensure_future(ws.ping())
        ping.add_done_callback(_retrieved)
        kept[ws] = (now, ping)

    def _close_later(self, ws: ServerConnection, code: int, reason: str) -> None:
        task = asyncio.ensure_future(_close(ws, code, reason))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    @property
    def url(self) -> str:
        return f"http://{self.config.host}:{self.port}/"

    @property
    def ws_url(self) -> str:
        return f"ws://{self.config.host}:{self.port}/ws"

    async def drain(self, seconds: float) -> None:
        """Tell load balancers to stop sending players here (``/readyz`` answers 503) and
        keep serving for ``seconds``; then call :meth:`stop`."""
        self.draining = True
        log.info("draining", seconds=seconds)
        if seconds > 0:
            await asyncio.sleep(seconds)

    async def stop(self) -> None:
        """Graceful stop: no new connections, finish commands in flight, close with 1001."""
        if self._server is None:
            return
        self._server.close(close_connections=False)
        self.closing = True
        if self._pinger is not None:
            self._pinger.cancel()
            self._pinger = None
        try:
            await asyncio.wait_for(self.idle.wait(), self.config.shutdown_grace_s)
        except TimeoutError:
            log.warning("shutdown_with_commands_in_flight", in_flight=self.in_flight)
        # the first close() started the server's close task; close the connections ourselves
        await asyncio.gather(
            *(_close(ws, 1001, "server shutting down") for ws in list(self._server.connections)),
            return_exceptions=True,
        )
        await self._server.wait_closed()
        self._server = None
        log.info("server_stopped")

    def _handle(self, ws: ServerConnection) -> Awaitable[None]:
        """websockets' handler: the connection's driver (returned, not awaited here:
        one coroutine frame fewer held by every idle connection)."""
        # the handshake's headers are not read again: ~3 KiB a connection kept for nothing
        if ws.request is not None:
            ws.request.headers.clear()
        if ws.response is not None:
            ws.response.headers.clear()
        return _Connection(self, ws).run()

    def _http(
        self, connection: ServerConnection, request: Request
    ) -> Response | Awaitable[Response] | None:
        """websockets' ``process_request``: None upgrades to WebSocket; ``/healthz`` is
        answered once the store has (an awaitable), every other path at once."""
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return None
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            return self._healthz()
        if path == "/readyz":
            if self.draining or self.closing:
                return _response(503, b"draining\n", "text/plain; charset=utf-8")
            if not self.hub.store.reachable:  # e.g. a node cut off from its database
                return _response(503, b"store unreachable\n", "text/plain; charset=utf-8")
            return _response(200, b"ready\n", "text/plain; charset=utf-8")
        if path == "/metrics" and self.metrics:
            return _response(200, metrics.exposition(), metrics.CONTENT_TYPE)
        if path == "/ws":
            return _response(
                426,
                b"this is the WebSocket endpoint: connect with a WebSocket client\n",
                "text/plain; charset=utf-8",
            )
        return self._static(path, request.headers)

    async def _healthz(self) -> Response:
        """200 ``ok`` when the store answers a read within ``health_timeout_s``, else 503."""
        try:
            await asyncio.wait_for(self.hub.store.ping(), self.config.health_timeout_s)
        except Exception as e:  # noqa: BLE001 - any failure of the store is "not healthy"
            log.warning("health_check_failed", error=repr(e))
            return _response(503, b"store unavailable\n", "text/plain; charset=utf-8")
        return _response(200, b"ok\n", "text/plain; charset=utf-8")

    def _static(self, path: str, headers: Headers) -> Response:
        """A file of the web client, gzipped when the client accepts it and revalidated
        with ETag / Last-Modified (``304`` when unchanged). ``Cache-Control: no-cache``:
        the files have no version in their names, so a browser asks again each time
        (and gets a 304 without a body)."""
        rel = path.lstrip("/") or "index.html"
        target = (self.web_dir / rel).resolve()
        if not target.is_relative_to(self.web_dir) or not target.is_file():
            return _response(404, b"not found\n", "text/plain; charset=utf-8")
        st = target.stat()
        ctype = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        textual = ctype.startswith("text/") or ctype in (
            "application/javascript",
            "application/json",
            "image/svg+xml",
        )
        if textual and ctype != "image/svg+xml":
            ctype += "; charset=utf-8"
        gzipped = textual and _accepts_gzip(headers.get("Accept-Encoding", ""))
        css = self.web_dir / "style.css"
        inline = rel == "index.html" and css.is_file()
        mtime = st.st_mtime
        if inline:
            # the stylesheet goes into the page itself: no render-blocking request (the page's
            # own styles never arrive late, so nothing flashes unstyled or shifts)
            cst = css.stat()
            mtime = max(mtime, cst.st_mtime)
            body, etag = _static_file(
                str(target),
                st.st_mtime_ns,
                st.st_size,
                gzipped,
                str(css),
                cst.st_mtime_ns,
                cst.st_size,
            )
        else:
            body, etag = _static_file(str(target), st.st_mtime_ns, st.st_size, gzipped)
        last_modified = email.utils.formatdate(mtime, usegmt=True)
        out = Headers(
            [("Cache-Control", "no-cache"), ("ETag", etag), ("Last-Modified", last_modified)]
        )
        if textual:
            out["Vary"] = "Accept-Encoding"
        if _not_modified(headers, etag, mtime):
            return Response(304, "Not Modified", out, b"")
        out["Content-Type"] = ctype
        if gzipped:
            out["Content-Encoding"] = "gzip"
        out["Content-Length"] = str(len(body))
        return Response(200, "OK", out, body)


STYLESHEET_LINK = b'<link rel="stylesheet" href="style.css">'
"""The page's stylesheet link, which the server replaces by the stylesheet itself."""


@functools.lru_cache(maxsize=128)
def _static_file(
    path: str,
    mtime_ns: int,
    size: int,
    gzipped: bool,
    css: str = "",
    css_mtime_ns: int = 0,
    css_size: int = 0,
) -> tuple[bytes, str]:
    """(body, ETag) of a static file as of ``mtime_ns``/``size`` (both only key the cache).

    With ``css`` (index.html), the stylesheet link is replaced by a ``<style>`` holding
    the stylesheet (``css_mtime_ns``/``css_size`` key the cache too). The ETag is the
    content's hash, ``-gzip`` added for the gzipped body: each encoding is a
    representation of its own (RFC 9110 8.8.3)."""
    raw = Path(path).read_bytes()
    if css:
        raw = raw.replace(STYLESHEET_LINK, b"<style>\n" + Path(css).read_bytes() + b"</style>", 1)
    tag = hashlib.sha256(raw).hexdigest()[:20]
    if gzipped:
        # mtime=0: the same bytes for the same file, whenever they are made
        return gzip.compress(raw, compresslevel=9, mtime=0), f'"{tag}-gzip"'
    return raw, f'"{tag}"'


def _accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` value allows gzip (``gzip;q=0`` refuses it)."""
    for part in accept_encoding.lower().split(","):
        name, _, params = part.strip().partition(";")
        if name.strip() in ("gzip", "*"):
            q = params.strip()
            return not (q.startswith("q=") and _quality(q[2:]) == 0)
    return False


def _quality(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return 1.0


def _not_modified(headers: Headers, etag: str, mtime_s: float) -> bool:
    """RFC 9110 13.1: If-None-Match (weak comparison) wins over If-Modified-Since."""
    inm = headers.get("If-None-Match")
    if inm is not None:
        tags = [t.strip().removeprefix("W/") for t in inm.split(",")]
        return "*" in tags or etag in tags
    ims = headers.get("If-Modified-Since")
    if ims is None:
        return False
    try:
        since = email.utils.parsedate_to_datetime(ims)
    except (TypeError, ValueError):
        return False
    if since.tzinfo is None:  # "-0000": UTC, as HTTP dates are
        since = since.replace(tzinfo=datetime.UTC)
    return int(mtime_s) <= since.timestamp()


def _is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or a name) is this machine only."""
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _response(status: int, body: bytes, ctype: str) -> Response:
    reasons = {
        200: "OK",
        404: "Not Found",
        426: "Upgrade Required",
        503: "Service Unavailable",
    }
    headers = Headers(
        [("Content-Type", ctype), ("Content-Length", str(len(body))), ("Cache-Control", "no-cache")]
    )
    return Response(status, reasons.get(status, ""), headers, body)
