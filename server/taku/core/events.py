"""The event envelope and the core events every table shares.

An event is a msgspec Struct in a tagged union (``"type"`` is the tag). Core
tags are plain (``member_joined``); a ruleset's tags take its id as a prefix
(``nstrpg.evasion_rolled``). Once shipped, an event type only gains fields with
defaults; anything else is a new type or an upcaster.

Stored events are :class:`Recorded` envelopes. The store keeps ``data`` as raw
JSON, so it needs no ruleset to read or write; the application decodes ``data``
with the table's union (:func:`taku.core.table.event_decoder`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import msgspec

from taku.core.dice import Roll

__all__ = [
    "CORE_EVENTS",
    "GM",
    "CharacterCreated",
    "CharacterRemoved",
    "CharacterUpdated",
    "ChatPosted",
    "DiceRolled",
    "Event",
    "GMOverridden",
    "MemberJoined",
    "MemberLeft",
    "MemberRenamed",
    "Private",
    "Recorded",
    "Redacted",
    "RoleChanged",
    "SeedRevealed",
    "TableCreated",
]

GM = "@gm"
"""In an audience, stands for every member whose role is GM."""


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", omit_defaults=True):
    """Base of every event, core and ruleset. Subclasses set an explicit ``tag``."""


class Private(msgspec.Struct, frozen=True, kw_only=True):
    """What a decider returns for an event not everybody may see.

    Args:
        event: the full event, seen by the audience (and written to the log).
        audience: member ids, and :data:`GM` for every GM, who see ``event``.
            An empty audience means nobody but the server (a deck's order).
        redacted: what everyone else receives at the same seq; ``None`` gives a
            plain :class:`Redacted` naming the event type.
    """

    event: Event
    audience: tuple[str, ...]
    redacted: Event | None = None


class Recorded(msgspec.Struct, frozen=True, kw_only=True):
    """One stored event: the envelope of DESIGN.md with ``data`` as raw JSON.

    Attributes:
        table_id: the stream.
        seq: 1, 2, 3 … without gaps within the table.
        type: the event's tag, e.g. ``"chat_posted"``.
        data: the event as JSON (it carries its ``type`` tag too).
        actor: the member id that caused it; ``None`` for the server.
        time: UTC time of the append.
        command_id: the command that produced it (idempotency, causation).
        audience: ``None`` when public; else who sees ``data`` (see :class:`Private`).
        redacted: the JSON everyone else sees instead, when ``audience`` is set
            (JSON ``null`` otherwise; see :meth:`redacted_form`).
        draws: faces the command drew from the table's dice stream, on the
            command's last event only (0 elsewhere); the fold sums them.
        command_fingerprint: the producing command's
            :func:`~taku.core.commands.fingerprint` (``None`` for the server's own
            commands and for events stored before taku kept it), so the command id
            sent again with a different command is refused, not swallowed.
    """

    table_id: str
    seq: int
    type: str
    data: msgspec.Raw
    actor: str | None
    time: dt.datetime
    command_id: str
    audience: tuple[str, ...] | None = None
    redacted: msgspec.Raw = msgspec.Raw(b"null")
    draws: int = 0
    command_fingerprint: str | None = None

    def redacted_form(self) -> msgspec.Raw | None:
        """The JSON shown to those outside ``audience`` (``None`` for a public event)."""
        return None if self.audience is None or bytes(self.redacted) == b"null" else self.redacted


# --------------------------------------------------------------------------- core events


class TableCreated(Event, frozen=True, kw_only=True, tag="table_created"):
    """The first event of every table. ``seed_hash`` commits to the dice seed."""

    name: str
    ruleset: str
    ruleset_version: str
    options: dict[str, Any] = {}
    seed_hash: str = ""


class MemberJoined(Event, frozen=True, kw_only=True, tag="member_joined"):
    member_id: str
    name: str
    role: str


class MemberLeft(Event, frozen=True, kw_only=True, tag="member_left"):
    member_id: str


class MemberRenamed(Event, frozen=True, kw_only=True, tag="member_renamed"):
    member_id: str
    name: str


class RoleChanged(Event, frozen=True, kw_only=True, tag="role_changed"):
    member_id: str
    role: str


class ChatPosted(Event, frozen=True, kw_only=True, tag="chat_posted"):
    """A line of chat. ``character_id`` when spoken as a character."""

    text: str
    character_id: str | None = None


class DiceRolled(Event, frozen=True, kw_only=True, tag="dice_rolled"):
    """A generic roll in BCDice notation (see :mod:`taku.core.chatdice`).

    ``result`` is the BCDice-style line, e.g. ``(2D6>=7) ＞ 8[3,5] ＞ 8 ＞ 成功``.
    """

    expression: str
    rolls: tuple[Roll, ...]
    total: int | None = None
    successes: int | None = None
    success: bool | None = None
    result: str = ""
    secret: bool = False
    comment: str = ""
    character_id: str | None = None


class Redacted(Event, frozen=True, kw_only=True, tag="redacted"):
    """What a viewer receives in place of an event they may not see (same seq)."""

    of: str
    note: str = ""


class CharacterCreated(Event, frozen=True, kw_only=True, tag="character_created"):
    character_id: str
    name: str
    owner: str | None = None
    sheet: dict[str, Any] = {}


class CharacterUpdated(Event, frozen=True, kw_only=True, tag="character_updated"):
    """``sheet`` holds the changed keys only; they replace the old values."""

    character_id: str
    name: str | None = None
    owner: str | None = None
    sheet: dict[str, Any] = {}


class CharacterRemoved(Event, frozen=True, kw_only=True, tag="character_removed"):
    character_id: str


class GMOverridden(Event, frozen=True, kw_only=True, tag="gm_overridden"):
    """The GM set a value by hand. ``path`` is into the table state's ``characters``
    (``["characters", id, "sheet", key]``) or the ruleset's ``game`` state
    (``["game", ...]``); ``previous`` is what it was."""

    path: tuple[str | int, ...]
    value: Any = None
    previous: Any = None
    reason: str = ""


class SeedRevealed(Event, frozen=True, kw_only=True, tag="seed_revealed"):
    """The GM revealed the table's dice seed (hex); ``taku verify`` can now check the log."""

    seed: str


CORE_EVENTS: tuple[type[Event], ...] = (
    TableCreated,
    MemberJoined,
    MemberLeft,
    MemberRenamed,
    RoleChanged,
    ChatPosted,
    DiceRolled,
    Redacted,
    CharacterCreated,
    CharacterUpdated,
    CharacterRemoved,
    GMOverridden,
    SeedRevealed,
)
