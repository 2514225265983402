"""The wire protocol ``taku/1``: every message as a msgspec Struct (sans I/O).

JSON text frames; each is one member of a tagged union on ``"type"``. Client
messages forbid unknown fields. Every client message may carry ``id`` (any
string or integer); the reply to it carries the same value as ``re``. Events
pushed by a subscription carry no ``re``.

Client to server: ``hello``, ``list_rulesets``, ``create_table``, ``join``,
``subscribe``, ``unsubscribe``, ``command``, ``chat``, ``get_state``, ``get_log``,
``export_log``, ``fork_table``. Server to client: ``welcome``, ``rulesets``, ``created``,
``forked``, ``joined``,
``subscribed``, ``ack``, ``error``, ``event``, ``state``, ``log``, ``exported``.

See docs/protocol.md for a commented transcript; docs/schema/ holds the JSON
Schema of every message, generated from these Structs (``taku schema``).
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal, Union

import msgspec

from taku.core.commands import Chat
from taku.core.events import HistorySettings, TableSettings, tag_of
from taku.core.play import Affordance, Turn
from taku.core.ruleset import SheetTemplate
from taku.errors import InvalidFields, MalformedMessage, UnknownMessageType, japanese_detail

__all__ = [
    "CLIENT_MESSAGES",
    "PROTOCOL",
    "PROTOCOLS",
    "SUBPROTOCOLS",
    "SERVER_MESSAGES",
    "Ack",
    "ChatMsg",
    "ClientMessage",
    "CommandMsg",
    "CreateTable",
    "Created",
    "ErrorMsg",
    "EventMsg",
    "ExportLog",
    "Exported",
    "ForkTable",
    "Forked",
    "GetLog",
    "GetState",
    "Hello",
    "Join",
    "Joined",
    "ListRulesets",
    "LogMsg",
    "RulesetInfo",
    "RulesetsMsg",
    "ServerMessage",
    "StateMsg",
    "Subscribe",
    "Subscribed",
    "Unsubscribe",
    "Welcome",
    "decode_client",
    "encode",
]

PROTOCOL = "taku/1"
"""The protocol version this server speaks and its clients send in ``hello``."""
PROTOCOLS = (PROTOCOL,)
"""Every version this server speaks (``hello`` with another: ``protocol/unsupported_version``)."""
SUBPROTOCOLS = ("taku.v1",)
"""The WebSocket subprotocols (``Sec-WebSocket-Protocol``) accepted, one per version above."""

RequestId = str | int | None
Seq = Annotated[int, msgspec.Meta(ge=0, le=2**53 - 1)]
"""A seq in a message: 0 (before the first event) up to JavaScript's largest safe integer."""


class ClientMessage(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    id: RequestId = None


class Hello(ClientMessage, frozen=True, kw_only=True, tag="hello"):
    """Optional first message; the server answers ``welcome``."""

    protocol: str = PROTOCOL
    client: str = ""


class ListRulesets(ClientMessage, frozen=True, kw_only=True, tag="list_rulesets"):
    """Ask for the installed rulesets (answer: ``rulesets``)."""


class CreateTable(ClientMessage, frozen=True, kw_only=True, tag="create_table"):
    """Create a table; the sender becomes its GM (answer: ``created``, then ``joined``)."""

    ruleset: str = "generic"
    name: str = ""
    options: dict[str, Any] = {}
    gm_name: str = "GM"
    settings: TableSettings = TableSettings()
    history: HistorySettings = HistorySettings()


class Join(ClientMessage, frozen=True, kw_only=True, tag="join"):
    """Join with an invite token (a new member named ``name``) or one's own member
    token (the same member again, e.g. after a dropped connection)."""

    table_id: str
    token: str
    name: str = ""


class Subscribe(ClientMessage, frozen=True, kw_only=True, tag="subscribe"):
    """Receive the table's events after ``after_seq``, then live ones (no gap, no repeat)."""

    table_id: str
    after_seq: Seq = 0


class Unsubscribe(ClientMessage, frozen=True, kw_only=True, tag="unsubscribe"):
    table_id: str


class CommandMsg(ClientMessage, frozen=True, kw_only=True, tag="command"):
    """A command (a core or ruleset command Struct, tagged by ``type``).

    ``command_id`` makes it idempotent: sent again, it yields the same ``ack``
    and no new event. ``expected_seq``, when given, must be the table's seq, or
    the answer is ``command/stale_seq`` and nothing changes.
    """

    table_id: str
    command_id: str
    command: msgspec.Raw
    expected_seq: Seq | None = None


class ChatMsg(ClientMessage, frozen=True, kw_only=True, tag="chat"):
    """Shorthand for the ``chat`` command: a line that may hold a dice command,
    in ``channel`` (``""``: メイン), whispered when ``to`` names members."""

    table_id: str
    text: str
    command_id: str | None = None
    character_id: str | None = None
    channel: str = ""
    to: list[str] = []

    def command(self) -> Chat:
        """The ``chat`` command this message stands for."""
        return Chat(
            text=self.text, character_id=self.character_id, channel=self.channel, to=self.to
        )


class GetState(ClientMessage, frozen=True, kw_only=True, tag="get_state"):
    """The table as the sender may see it, now or at ``at_seq`` (a replay)."""

    table_id: str
    at_seq: Seq | None = None


class GetLog(ClientMessage, frozen=True, kw_only=True, tag="get_log"):
    """Up to ``limit`` events after ``after_seq`` (as the sender may see them)."""

    table_id: str
    after_seq: Seq = 0
    limit: Annotated[int, msgspec.Meta(ge=1, le=5000)] = 500


class ExportLog(ClientMessage, frozen=True, kw_only=True, tag="export_log"):
    """The table's whole log as a file (answer: ``exported``). ``jsonl`` (to verify) is
    the log as the member asking received it (``taku export --as``, :mod:`taku.export`):
    their own secret rolls, whispers, hands and hidden commands in full with their salts
    (so ``taku verify`` checks them against the commitments), everyone else's hidden
    events as stand-ins. ``html`` and ``text`` (to share, as ココフォリア's logs) are the
    public log: no hidden information, whoever asks."""

    table_id: str
    format: Literal["html", "text", "jsonl"] = "html"


class ForkTable(ClientMessage, frozen=True, kw_only=True, tag="fork_table"):
    """A new table from this one's state right after ``at_seq`` (default: now), with a
    new seed and new tokens (answer: ``forked``). The source's GM may fork it; its
    other members too when its settings allow (``history.fork_by_members``)."""

    table_id: str
    at_seq: Seq | None = None
    name: str = ""


CLIENT_MESSAGES: tuple[type[ClientMessage], ...] = (
    Hello,
    ListRulesets,
    CreateTable,
    Join,
    Subscribe,
    Unsubscribe,
    CommandMsg,
    ChatMsg,
    GetState,
    GetLog,
    ExportLog,
    ForkTable,
)


# --------------------------------------------------------------------------- server to client


class ServerMessage(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", omit_defaults=True
):
    re: RequestId = None


class RulesetInfo(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    version: str
    summary: str = ""
    commands: list[str] = []
    options: dict[str, Any] = {}
    command_schema: dict[str, Any] = {}
    """JSON Schema of the ruleset's commands, so a client can build forms for them."""
    sheet_schema: dict[str, Any] = {}
    """JSON Schema of the ruleset's character sheet (``create_character.sheet``), if it checks one."""
    gm_commands: list[str] = []
    """Tags of the commands only a GM may send (core ones included)."""
    permissions: dict[str, dict[str, Any]] = {}
    """Each command's declared permit (core ones included): ``{tag: {roles, owner_fields, label}}``."""
    options_schema: dict[str, Any] = {}
    """JSON Schema of the ruleset's table options (Japanese titles, defaults)."""
    state_schema: dict[str, Any] = {}
    """JSON Schema of the ruleset's game state (labels for state values), if it declares one."""
    errors: dict[str, str] = {}
    """The ruleset's rejection reasons: ``rule/<id>/<reason>`` code -> Japanese meaning."""
    sheet_templates: list[SheetTemplate] = []
    """Characters to start from (a starting ninja, a mob group …), each ``{title, name, sheet}``."""


class Welcome(ServerMessage, frozen=True, kw_only=True, tag="welcome"):
    protocol: str
    server: str = ""
    rulesets: list[str] = []


class RulesetsMsg(ServerMessage, frozen=True, kw_only=True, tag="rulesets"):
    """The installed rulesets, the JSON Schema of the core commands every table takes, and
    ``table_settings_schema``: ``{"settings": schema, "history": schema}``, the JSON Schemas
    (Japanese titles) of ``create_table``'s ``settings`` and ``history``, for a create form."""

    rulesets: list[RulesetInfo]
    core_command_schema: dict[str, Any] = {}
    table_settings_schema: dict[str, Any] = {}


class Created(ServerMessage, frozen=True, kw_only=True, tag="created"):
    """A new table. ``gm_token`` is the GM's own token; the invites make new members.
    Tokens are shown once and kept only as hashes."""

    table_id: str
    member_id: str
    gm_token: str
    player_token: str
    spectator_token: str


class Forked(ServerMessage, frozen=True, kw_only=True, tag="forked"):
    """A forked table (``fork_table``): like ``created`` (``member_id`` is the forker,
    its GM, with ``gm_token``), where it comes from, and ``member_tokens``: a new
    token for each other member carried from the source (``member id -> token``; the
    GM hands them out as links). Tokens are shown once."""

    table_id: str
    member_id: str
    gm_token: str
    player_token: str
    spectator_token: str
    source_table: str
    source_seq: int
    source_head: str = ""
    member_tokens: dict[str, str] = {}


class Joined(ServerMessage, frozen=True, kw_only=True, tag="joined"):
    """``member_token`` rejoins as this member later (keep it; it is shown once)."""

    table_id: str
    member_id: str
    role: str
    seq: int
    member_token: str | None = None


class Subscribed(ServerMessage, frozen=True, kw_only=True, tag="subscribed"):
    """Sent after the catch-up events: from here on, events are live."""

    table_id: str
    seq: int


class Ack(ServerMessage, frozen=True, kw_only=True, tag="ack"):
    """The command's events are durable as seqs ``first_seq..last_seq``; ``head`` is the
    short form of the table's hash chain through ``head_seq`` (at least ``last_seq``)."""

    table_id: str
    command_id: str
    first_seq: int
    last_seq: int
    duplicate: bool = False
    head: str = ""
    head_seq: int = 0


class ErrorMsg(ServerMessage, frozen=True, kw_only=True, tag="error"):
    """A stable ``code`` (the catalogue, taku.codes), a Japanese ``message`` made from the
    code's template and ``params``; nothing was changed. ``details`` is the same
    as ``params`` (its name before params existed)."""

    code: str
    message: str
    params: dict[str, Any]
    details: dict[str, Any]
    command_id: str | None = None


class Speaker(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Who a line is from: the character it names (``character_id``, with its chat
    ``color``), else the member who caused it."""

    name: Annotated[str, msgspec.Meta(title="発言者")]
    member_id: Annotated[str | None, msgspec.Meta(title="メンバー")] = None
    character_id: Annotated[str | None, msgspec.Meta(title="キャラクター")] = None
    color: Annotated[str, msgspec.Meta(title="色", description="#rrggbb（キャラクターの色）")] = ""


Outcome = Literal["success", "failure"]


class EventMsg(ServerMessage, frozen=True, kw_only=True, tag="event"):
    """One event as the receiver may see it; a redacted one keeps its seq.

    ``speaker`` is who the line is from (absent for the server's own events).
    ``outcome`` is the event's own ``success`` field read by the server
    (``"success"``/``"failure"``; absent when the event has none, e.g. a table
    roll): a client draws its 成功/失敗 badge from it, never from the text.
    ``audience`` (only to those who see a hidden event in full) lists who sees it:
    member ids and ``"@gm"`` (a whisper's recipients, a secret roll's roller).
    ``head`` is the short form of the table's hash chain through this event
    (:mod:`taku.core.chain`): keep the last one, ``taku verify --head`` checks a log
    against it. A hidden event's stand-in carries ``commitment`` (to the hidden
    event); who sees the event in full gets its ``salt`` too. ``command`` is the
    command as decided, on its first event (for a command with hidden events, a
    ``{"commitment": …}`` except for its sender, who gets it with
    ``command_salt``). ``event_version`` is the stored event's shape version
    (absent for 1; the chain covers it). Everything the chain covers is in the
    frame, so a saved log of frames (``taku export --format jsonl``) can be verified.
    """

    table_id: str
    seq: int
    event: msgspec.Raw
    actor: str | None = None
    time: dt.datetime
    command_id: str = ""
    redacted: bool = False
    draws: int = 0
    text: str = ""
    speaker: Speaker | None = None
    outcome: Outcome | None = None
    audience: list[str] | None = None
    head: str = ""
    commitment: str | None = None
    salt: str | None = None
    stand_in: Any = None
    command: Any = None
    command_salt: str | None = None
    event_version: int = 1


class StateMsg(ServerMessage, frozen=True, kw_only=True, tag="state"):
    """The table as the receiver may see it at ``seq``, with what the receiver may do now
    (``affordances``) and whose turn it is (``turn``, absent for games without turns).
    At an earlier seq (``get_state`` with ``at_seq``) ``affordances`` is empty."""

    table_id: str
    seq: int
    state: dict[str, Any]
    affordances: list[Affordance] = []
    turn: Turn | None = None


class LogMsg(ServerMessage, frozen=True, kw_only=True, tag="log"):
    """``events`` are ``event`` messages (without ``re``), in seq order."""

    table_id: str
    events: list[msgspec.Raw]
    last_seq: int


class Exported(ServerMessage, frozen=True, kw_only=True, tag="exported"):
    """The answer to ``export_log``: the document ``content`` (UTF-8 text) to save as
    ``filename`` with the media type ``media_type``."""

    table_id: str
    format: str
    filename: str
    media_type: str
    content: str


SERVER_MESSAGES: tuple[type[ServerMessage], ...] = (
    Welcome,
    RulesetsMsg,
    Created,
    Forked,
    Joined,
    Subscribed,
    Ack,
    ErrorMsg,
    EventMsg,
    StateMsg,
    LogMsg,
    Exported,
)

_client_decoder = msgspec.json.Decoder(Union[CLIENT_MESSAGES])  # noqa: UP007 - a Union of a tuple
_client_tags = {tag_of(t) for t in CLIENT_MESSAGES}
_encoder = msgspec.json.Encoder()
encode = _encoder.encode
"""Encode a server message (or anything msgspec can) to JSON bytes."""


def classify(
    exc: msgspec.ValidationError, frame: bytes | str, tags: set[str]
) -> InvalidFields | UnknownMessageType:
    """Tell an unknown ``type`` from wrong fields in a frame that failed validation."""
    try:
        raw = msgspec.json.decode(frame)
    except (msgspec.DecodeError, RecursionError):
        raw = None
    if not isinstance(raw, dict) or raw.get("type") not in tags:
        t = raw.get("type") if isinstance(raw, dict) else None
        return UnknownMessageType(
            f"unknown message type {t!r}", known=sorted(tags), type=t if isinstance(t, str) else ""
        )
    return InvalidFields(str(exc), detail=japanese_detail(str(exc)))


def decode_client(frame: bytes | str) -> ClientMessage:
    """Decode one client frame.

    Raises:
        MalformedMessage: ``protocol/malformed_json``.
        UnknownMessageType: ``protocol/unknown_type``.
        InvalidFields: ``protocol/invalid_fields`` (missing, extra or mistyped field).
    """
    try:
        return _client_decoder.decode(frame)
    except msgspec.ValidationError as e:
        raise classify(e, frame, _client_tags) from None
    except msgspec.DecodeError as e:
        raise MalformedMessage(f"not valid JSON: {e}") from None
    except RecursionError:
        raise MalformedMessage("JSON nested too deeply") from None
