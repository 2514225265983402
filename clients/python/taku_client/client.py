"""An asyncio client for the ``taku/1`` protocol (see server/taku/protocol.py).

It speaks with the server's own msgspec Structs (:mod:`taku.protocol`), and
does for a front-end what every front-end needs:

- request/response matching by ``id`` (each request gets a fresh id);
- commands with generated command ids, awaiting their ``ack`` or raising a
  typed :class:`CommandError` with the server's stable code;
- subscriptions (:class:`Feed`) that survive a dropped connection: the client
  reconnects, joins again with the member's own token, and subscribes from the
  last seq it delivered, so no event is lost or repeated;
- a command in flight when the connection drops is sent again after the
  reconnect with the *same* command id, so the server applies it at most once;
- a command answered ``store/retry`` or ``store/seq_conflict`` is sent again with
  the same id; one answered ``store/unavailable`` (the node cannot reach its
  database), or not answered within ``command_timeout_s``, is sent again with
  the same id on the next of the client's URLs (a list of nodes, or the load
  balancer again), whose feeds resume from their last seq.

Example::

    async with await TakuClient.connect("ws://127.0.0.1:8765/ws") as c:
        created = await c.create_table("nstrpg", name="ネオサイタマの夜")
        feed = await c.subscribe(created.table_id)
        await c.chat(created.table_id, "2D6>=7 アンブッシュ")
        async for ev in feed:
            print(ev.seq, ev.text)
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, Union

import msgspec
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Subprotocol

from taku.protocol import (
    SERVER_MESSAGES,
    SUBPROTOCOLS,
    Ack,
    ChatMsg,
    ClientMessage,
    CommandMsg,
    Created,
    CreateTable,
    ErrorMsg,
    EventMsg,
    Exported,
    ExportLog,
    GetLog,
    GetState,
    Hello,
    Join,
    Joined,
    ListRulesets,
    LogMsg,
    RulesetInfo,
    RulesetsMsg,
    ServerMessage,
    StateMsg,
    Subscribe,
    Subscribed,
    Unsubscribe,
    Welcome,
)

__all__ = [
    "CommandError",
    "ConnectionLost",
    "Feed",
    "TakuClient",
    "TakuClientError",
    "event_data",
]

_decoder = msgspec.json.Decoder(Union[SERVER_MESSAGES])  # noqa: UP007 - a Union of a tuple
_encoder = msgspec.json.Encoder()

_SUBPROTOCOLS = [Subprotocol(p) for p in SUBPROTOCOLS]
"""Offered in the handshake: the protocol's version (the server picks ``taku.v1``)."""


class TakuClientError(Exception):
    """Base of the client's errors."""


class CommandError(TakuClientError):
    """The server answered ``error``: nothing was changed.

    Attributes:
        code: the stable code, e.g. ``command/forbidden``, ``rule/nstrpg/no_seitei``.
        message: the server's human message.
        details: extra data of the error (e.g. the rulebook section).
        command_id: the command's id, for commands.
    """

    def __init__(self, error: ErrorMsg) -> None:
        super().__init__(f"{error.code}: {error.message}")
        self.error = error
        self.code = error.code
        self.message = error.message
        self.details = error.details
        self.command_id = error.command_id


class ConnectionLost(TakuClientError):
    """The connection dropped and the request cannot safely be sent again
    (``create_table``, or a ``join`` with an invite token), or the client was closed."""


def event_data(ev: EventMsg) -> dict[str, Any]:
    """The event of an ``event`` message as plain JSON data (``{"type": ..., ...}``)."""
    return msgspec.json.decode(ev.event)


class Feed:
    """The events of one table, in seq order, live after the catch-up.

    Iterate it (``async for ev in feed``) or call :meth:`next`. ``last_seq`` is
    the seq of the last event handed out; after a reconnect the client
    subscribes again from it, and any event at or below it is dropped, so the
    feed never repeats or skips a seq.
    """

    def __init__(self, client: TakuClient, table_id: str, after_seq: int) -> None:
        self.client = client
        self.table_id = table_id
        self.last_seq = after_seq
        """The seq of the last event put into the feed."""
        self.live_seq = -1
        """The table's seq when the subscription went live (``subscribed``)."""
        self._queue: asyncio.Queue[EventMsg | None] = asyncio.Queue()
        self._callbacks: list[Callable[[EventMsg], Any]] = []
        self.closed = False

    def on_event(self, callback: Callable[[EventMsg], Any]) -> None:
        """Also call ``callback(ev)`` for each new event (as it is put in the feed)."""
        self._callbacks.append(callback)

    def _put(self, ev: EventMsg) -> None:
        if ev.seq <= self.last_seq:
            return  # already delivered before a reconnect
        if ev.seq != self.last_seq + 1:  # pragma: no cover - the server guarantees no gaps
            raise AssertionError(f"gap in {self.table_id}: {self.last_seq} -> {ev.seq}")
        self.last_seq = ev.seq
        if ev.head:
            self.client._saw_head(self.table_id, ev.seq, ev.head)
        self._queue.put_nowait(ev)
        for cb in self._callbacks:
            cb(ev)

    def _close(self) -> None:
        if not self.closed:
            self.closed = True
            self._queue.put_nowait(None)

    async def next(self, timeout_s: float | None = None) -> EventMsg:
        """The next event; raises ``StopAsyncIteration`` once the feed is closed."""
        item = await asyncio.wait_for(self._queue.get(), timeout_s)
        if item is None:
            self._queue.put_nowait(None)
            raise StopAsyncIteration
        return item

    def pending(self) -> list[EventMsg]:
        """Every event already received and not yet taken, without waiting."""
        out: list[EventMsg] = []
        while not self._queue.empty():
            item = self._queue.get_nowait()
            if item is None:
                self._queue.put_nowait(None)
                break
            out.append(item)
        return out

    def __aiter__(self) -> AsyncIterator[EventMsg]:
        return self

    async def __anext__(self) -> EventMsg:
        return await self.next()


RETRY_CODES = frozenset({"store/retry", "store/seq_conflict"})
"""Answers after which a command is sent again, with the same id, to the same node."""
MOVE_CODES = frozenset({"store/unavailable", "store/closed"})
"""Answers after which a command is sent again, with the same id, to the next node."""


class TakuClient:
    """One connection to a taku server, reconnected as needed. Make it with :meth:`connect`.

    Args:
        url: the WebSocket URL (``ws://host:port/ws``), or several (nodes of one
            deployment, tried in turn); an ``http(s)://`` URL is turned into its
            WebSocket form.
        reconnect: reconnect (and resume subscriptions) after a dropped connection.
        retry_delays_s: the pauses between reconnection attempts; the last one repeats.
        client_name: sent in ``hello``.
        command_timeout_s: how long a command waits for its answer before the client
            moves to the next URL and sends it again (same id); None waits for ever.
        retry_for_s: how long a command is sent again (after ``store/retry``,
            ``store/unavailable`` or a timeout) before its last error is raised.
    """

    def __init__(
        self,
        url: str | Sequence[str],
        *,
        reconnect: bool = True,
        retry_delays_s: tuple[float, ...] = (0.05, 0.2, 0.5, 1.0, 2.0),
        max_attempts: int = 30,
        client_name: str = "taku_client",
        command_timeout_s: float | None = 10.0,
        retry_for_s: float = 60.0,
    ) -> None:
        self.urls = [ws_url(u) for u in ([url] if isinstance(url, str) else url)]
        if not self.urls:
            raise ValueError("no URL to connect to")
        self._url_index = 0
        self.command_timeout_s = command_timeout_s
        self.retry_for_s = retry_for_s
        self.moves = 0
        """How many times a command made the client move to another URL."""
        self.reconnect = reconnect
        self.retry_delays_s = retry_delays_s
        self.max_attempts = max_attempts
        self.client_name = client_name
        self.welcome: Welcome | None = None
        self.tokens: dict[str, str] = {}
        """table id -> the member's own token (to join again after a reconnect)."""
        self.members: dict[str, Joined] = {}
        """table id -> how this client joined it."""
        self.feeds: dict[str, Feed] = {}
        self.heads: dict[str, tuple[int, str]] = {}
        """table id -> ``(seq, head)``: the latest head of the table's hash chain this
        client received (in an event or an ack). Keep it: ``taku verify --head SEQ:HEAD``
        checks a published log against it (docs/verify.md)."""
        self.reconnects = 0
        """How many times the connection was made again."""
        self.status_callbacks: list[Callable[[str], Any]] = []
        """Called with ``"reconnecting"`` when the connection drops, ``"open"`` once resumed
        and ``"closed"`` when the client gave up reconnecting."""
        self._ws: ClientConnection | None = None
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[ServerMessage]] = {}
        self._connected = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self._reconnecting: asyncio.Task[None] | None = None
        self._closed = False
        self._lost = ""

    # ------------------------------------------------------------ lifecycle

    @classmethod
    async def connect(cls, url: str, **kwargs: Any) -> TakuClient:
        """Open a connection and say ``hello``."""
        client = cls(url, **kwargs)
        await client._open()
        return client

    async def __aenter__(self) -> TakuClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def connected(self) -> bool:
        return self._connected.is_set() and not self._closed

    async def _wait_connected(self) -> None:
        """Until connected; raises :class:`ConnectionLost` once the client is closed or gave up."""
        if not self._closed:
            await self._connected.wait()
        if self._closed:
            raise ConnectionLost(self._lost or "the client is closed")

    @property
    def url(self) -> str:
        """The URL connected (or being connected) to now."""
        return self.urls[self._url_index]

    def _next_url(self) -> None:
        self._url_index = (self._url_index + 1) % len(self.urls)

    async def close(self) -> None:
        """Close the connection for good; open feeds end."""
        self._closed = True
        for task in (self._reconnecting, self._reader):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if self._ws is not None:
            await self._ws.close()
        self._fail_pending(ConnectionLost("the client was closed"))
        for feed in self.feeds.values():
            feed._close()

    async def _open(self) -> None:
        """Connect to the first of the URLs that answers (in turn), and say ``hello``."""
        for i in range(len(self.urls)):
            try:
                ws = await ws_connect(self.url, max_size=None, subprotocols=_SUBPROTOCOLS)
                break
            except (OSError, TimeoutError):
                if i == len(self.urls) - 1:
                    raise
                self._next_url()
        self._ws = ws
        self._reader = asyncio.create_task(self._read(ws), name="taku-client-reader")
        self._connected.set()
        self.welcome = await self._request(Hello(client=self.client_name), retry=False)  # type: ignore[assignment]

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for frame in ws:
                msg = _decoder.decode(frame)
                if isinstance(msg, EventMsg) and msg.re is None:
                    feed = self.feeds.get(msg.table_id)
                    if feed is not None:
                        feed._put(msg)
                    continue
                if msg.re is None:
                    continue
                fut = self._pending.pop(msg.re, None) if isinstance(msg.re, int) else None
                if fut is not None and not fut.done():
                    fut.set_result(msg)
        except ConnectionClosed:
            pass
        finally:
            if self._ws is ws:
                self._connected.clear()
                self._fail_pending(_Dropped())
                resuming = self._reconnecting is not None and not self._reconnecting.done()
                if self._closed:
                    pass
                elif not self.reconnect:
                    self._give_up(ConnectionLost("the connection dropped (reconnect is off)"))
                elif not resuming:
                    self._status("reconnecting")
                    self._reconnecting = asyncio.create_task(
                        self._resume(), name="taku-client-resume"
                    )
                # else: dropped again while resuming; the resume sees it and tries again

    def _fail_pending(self, exc: Exception) -> None:
        pending, self._pending = self._pending, {}
        for fut in pending.values():
            if not fut.done():
                fut.set_exception(exc)

    async def _resume(self) -> None:
        """Reconnect, join every table again with the member's token, resubscribe from ``last_seq``.

        A connection that drops again before the resume is done (during a catch-up)
        is another attempt: the pauses of ``retry_delays_s`` grow between attempts,
        and after ``max_attempts`` the client gives up: every waiting call raises
        :class:`ConnectionLost` and the feeds end.
        """
        attempt = 0
        while not self._closed:
            if attempt >= self.max_attempts:
                self._give_up(ConnectionLost(f"{attempt} attempts to reconnect failed"))
                return
            delay = self.retry_delays_s[min(attempt, len(self.retry_delays_s) - 1)]
            await asyncio.sleep(delay)
            attempt += 1
            try:
                ws = await ws_connect(self.url, max_size=None, subprotocols=_SUBPROTOCOLS)
            except (OSError, TimeoutError, ConnectionClosed) as e:
                if attempt >= self.max_attempts:
                    self._give_up(e)
                    return
                self._next_url()
                continue
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - e.g. a refused handshake: give up, never hang
                self._give_up(e)
                return
            self._ws = ws
            self.reconnects += 1
            self._reader = asyncio.create_task(self._read(ws), name="taku-client-reader")
            try:
                await self._raw_request(Hello(client=self.client_name))
                for table_id, token in list(self.tokens.items()):
                    joined = await self._raw_request(Join(table_id=table_id, token=token))
                    if isinstance(joined, Joined):
                        self.members[table_id] = joined
                    elif _passing(joined):
                        raise _Busy
                for table_id, feed in list(self.feeds.items()):
                    if not feed.closed:
                        sub = await self._raw_request(
                            Subscribe(table_id=table_id, after_seq=feed.last_seq)
                        )
                        if isinstance(sub, Subscribed):
                            feed.live_seq = sub.seq
                        elif _passing(sub):
                            raise _Busy
            except (_Dropped, ConnectionClosed):
                continue  # dropped again while resuming: the reader starts another round
            except _Busy:  # the node cannot reach its database now: try again, on the next URL
                if attempt >= self.max_attempts:
                    self._give_up(ConnectionLost("no node could take the client back"))
                    return
                self._next_url()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(ws.close(), 1)
                continue
            self._connected.set()
            self._status("open")
            return

    def _status(self, status: str) -> None:
        for cb in self.status_callbacks:
            cb(status)

    def _give_up(self, exc: BaseException) -> None:
        self._closed = True
        self._lost = str(exc)
        self._fail_pending(ConnectionLost(f"could not reconnect: {exc}"))
        self._connected.set()  # wakes the calls waiting for a connection: they see the client closed
        self._status("closed")
        for feed in self.feeds.values():
            feed._close()

    # ------------------------------------------------------------ requests

    async def _raw_request(self, msg: ClientMessage) -> ServerMessage:
        """Send ``msg`` on the current connection and await the reply with its id."""
        rid = next(self._ids)
        msg = msgspec.structs.replace(msg, id=rid)
        fut: asyncio.Future[ServerMessage] = asyncio.get_running_loop().create_future()
        self._pending[rid] = fut
        ws = self._ws
        assert ws is not None, "connect first"
        try:
            await ws.send(_encoder.encode(msg).decode())
            return await fut
        except ConnectionClosed:
            raise _Dropped() from None
        finally:
            self._pending.pop(rid, None)

    async def _request(
        self, msg: ClientMessage, *, retry: bool = True, timeout_s: float | None = None
    ) -> ServerMessage:
        """Send ``msg`` and return the reply; raise :class:`CommandError` for ``error``.

        With ``retry`` the request is sent again after a reconnect (only for
        requests that are safe to repeat). ``TimeoutError`` when no answer came within
        ``timeout_s`` of sending.
        """
        while True:
            await self._wait_connected()
            try:
                reply = await asyncio.wait_for(self._raw_request(msg), timeout_s)
            except _Dropped:
                if not retry or not self.reconnect:
                    raise ConnectionLost("the connection dropped before the answer came") from None
                continue
            if isinstance(reply, ErrorMsg):
                raise CommandError(reply)
            return reply

    async def _command(self, msg: CommandMsg | ChatMsg) -> Ack:
        """Send a command until it is answered for good, always with its one command id:
        again on this node after ``store/retry``, on the next URL after
        ``store/unavailable`` or no answer within ``command_timeout_s``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.retry_for_s
        pause = 0.02
        while True:
            try:
                reply = await self._request(msg, timeout_s=self.command_timeout_s)
            except TimeoutError:
                if loop.time() >= deadline:
                    raise
                await self._move()
                continue
            except CommandError as e:
                if e.code not in RETRY_CODES | MOVE_CODES or loop.time() >= deadline:
                    raise
                if e.code in MOVE_CODES:
                    await self._move()
                else:
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, 0.5)
                continue
            assert isinstance(reply, Ack)
            self._saw_head(msg.table_id, reply.head_seq, reply.head)
            return reply

    async def _move(self) -> None:
        """Go to the next URL (the same one, after a pause, when there is only one):
        the connection is closed and resumed there, feeds and members with it."""
        self.moves += 1
        ws = self._ws
        if len(self.urls) == 1 or ws is None or not self.reconnect:
            await asyncio.sleep(0.2)
            return
        self._status("moving")
        self._next_url()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 1)
        if self._ws is ws:  # the reader has not noticed yet
            self._connected.clear()

    async def hello(self) -> Welcome:
        return await self._request(Hello(client=self.client_name))  # type: ignore[return-value]

    async def list_rulesets(self) -> list[RulesetInfo]:
        """The installed rulesets, each with its JSON Schema of commands."""
        reply = await self._request(ListRulesets())
        assert isinstance(reply, RulesetsMsg)
        return reply.rulesets

    async def create_table(
        self,
        ruleset: str = "generic",
        *,
        name: str = "",
        options: dict[str, Any] | None = None,
        gm_name: str = "GM",
    ) -> Created:
        """Create a table; this client is its GM (joined already). Not retried after a drop."""
        reply = await self._request(
            CreateTable(ruleset=ruleset, name=name, options=options or {}, gm_name=gm_name),
            retry=False,
        )
        assert isinstance(reply, Created)
        self.tokens[reply.table_id] = reply.gm_token
        return reply

    async def join(self, table_id: str, token: str, name: str = "") -> Joined:
        """Join with an invite token (a new member) or one's own member token.

        The member's own token is kept, so a reconnect joins as the same member.
        """
        reply = await self._request(
            Join(table_id=table_id, token=token, name=name), retry=token in self.tokens.values()
        )
        assert isinstance(reply, Joined)
        self.tokens[table_id] = reply.member_token or token
        self.members[table_id] = reply
        return reply

    async def subscribe(self, table_id: str, after_seq: int = 0) -> Feed:
        """A :class:`Feed` of the table's events after ``after_seq``, then live ones."""
        old = self.feeds.pop(table_id, None)
        if old is not None:
            old._close()
        feed = Feed(self, table_id, after_seq)
        self.feeds[table_id] = feed
        await self._wait_connected()
        try:
            reply = await self._raw_request(Subscribe(table_id=table_id, after_seq=after_seq))
        except _Dropped:
            if not self.reconnect:
                raise ConnectionLost("the connection dropped before the answer came") from None
            # the resume subscribes every feed again from its last seq (this one included)
            await self._wait_connected()
            return feed
        if isinstance(reply, ErrorMsg):
            self.feeds.pop(table_id, None)
            feed._close()
            raise CommandError(reply)
        assert isinstance(reply, Subscribed)
        feed.live_seq = reply.seq
        return feed

    async def unsubscribe(self, table_id: str) -> None:
        feed = self.feeds.pop(table_id, None)
        if feed is not None:
            feed._close()
        await self._request(Unsubscribe(table_id=table_id))

    async def command(
        self,
        table_id: str,
        command: msgspec.Struct | dict[str, Any],
        *,
        command_id: str | None = None,
        expected_seq: int | None = None,
    ) -> Ack:
        """Send a command (a command Struct, or its JSON as a dict with ``type``).

        A command id is generated unless given; if the connection drops before
        the ack, the same command (same id) is sent again after the reconnect,
        so it takes effect at most once.

        Raises:
            CommandError: the server's ``error`` (nothing changed), e.g.
                ``command/forbidden``, ``command/stale_seq``, ``rule/<id>/<reason>``.
        """
        raw = msgspec.Raw(_encoder.encode(command))
        cid = command_id or new_command_id()
        return await self._command(
            CommandMsg(table_id=table_id, command_id=cid, command=raw, expected_seq=expected_seq)
        )

    def _saw_head(self, table_id: str, seq: int, head: str) -> None:
        """Keep the latest head of ``table_id``'s chain (see :attr:`heads`)."""
        if head and seq >= self.heads.get(table_id, (0, ""))[0]:
            self.heads[table_id] = (seq, head)

    def fingerprint(self, table_id: str) -> str:
        """The table's current fingerprint, ``SEQ:HEAD`` (what ``taku verify --head`` takes),
        or ``""`` before any head was received."""
        seq, head = self.heads.get(table_id, (0, ""))
        return f"{seq}:{head}" if head else ""

    async def chat(
        self,
        table_id: str,
        text: str,
        *,
        character_id: str | None = None,
        channel: str = "",
        to: Sequence[str] = (),
    ) -> Ack:
        """A chat line; the ruleset may read a dice command in it (``2D6>=7``).

        ``channel`` is one of the table's channels (``""``: メイン); ``to`` (member ids)
        makes it a whisper, seen only by them, the sender and the GM.
        """
        return await self._command(
            ChatMsg(
                table_id=table_id,
                text=text,
                command_id=new_command_id(),
                character_id=character_id,
                channel=channel,
                to=list(to),
            )
        )

    async def export_log(self, table_id: str, format: str = "html") -> Exported:
        """The table's whole log as a file: ``html`` or ``text``, the public log to share
        (no hidden information); ``jsonl``, to verify, as this member received it
        (``taku export --as``): their own secret rolls, whispers and hand in full with
        their salts, everyone else's as stand-ins."""
        reply = await self._request(ExportLog(table_id=table_id, format=format))  # type: ignore[arg-type]
        assert isinstance(reply, Exported)
        return reply

    async def roll(
        self, table_id: str, expression: str, *, secret: bool = False, comment: str = ""
    ) -> Ack:
        """A generic BCDice-style roll (the core ``roll`` command); ``secret`` shows it to the GM only."""
        return await self.command(
            table_id,
            {"type": "roll", "expression": expression, "secret": secret, "comment": comment},
        )

    async def get_state(self, table_id: str, at_seq: int | None = None) -> StateMsg:
        """The table as this member may see it, now or at ``at_seq`` (a replay)."""
        reply = await self._request(GetState(table_id=table_id, at_seq=at_seq))
        assert isinstance(reply, StateMsg)
        return reply

    async def get_log(self, table_id: str, after_seq: int = 0, limit: int = 500) -> list[EventMsg]:
        """Up to ``limit`` events after ``after_seq``, as this member may see them."""
        reply = await self._request(GetLog(table_id=table_id, after_seq=after_seq, limit=limit))
        assert isinstance(reply, LogMsg)
        return [msgspec.json.decode(raw, type=EventMsg) for raw in reply.events]

    async def full_log(self, table_id: str) -> list[EventMsg]:
        """Every event of the table (paged through ``get_log``)."""
        out: list[EventMsg] = []
        while True:
            page = await self.get_log(table_id, after_seq=out[-1].seq if out else 0)
            if not page:
                return out
            out.extend(page)


class _Dropped(Exception):
    """Internal: the connection dropped while a request waited."""


class _Busy(Exception):
    """Internal: a node answered a resume's join or subscribe with a passing store error."""


def _passing(reply: ServerMessage) -> bool:
    """An ``error`` that goes away by itself (the node's store is away for now)."""
    return isinstance(reply, ErrorMsg) and reply.code in RETRY_CODES | MOVE_CODES


def new_command_id() -> str:
    """A fresh command id (random, so that two clients never collide)."""
    return "c-" + uuid.uuid4().hex


def ws_url(url: str) -> str:
    """The WebSocket URL for ``url``: ``http://h:p/...`` becomes ``ws://h:p/ws``."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    if scheme not in ("ws", "wss"):
        raise ValueError(f"not a taku URL: {url!r}")
    path = parts.path if parts.scheme in ("ws", "wss") and parts.path not in ("", "/") else "/ws"
    return f"{scheme}://{parts.netloc}{path}"
