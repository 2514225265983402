"""Every exception taku raises on purpose, each with its stable wire code.

The hierarchy::

    TakuError                       code
    ├── ProtocolError               protocol/*   (the frame or message is wrong)
    │   ├── MalformedMessage        protocol/malformed_json
    │   ├── UnknownMessageType      protocol/unknown_type
    │   ├── InvalidFields           protocol/invalid_fields
    │   ├── FrameTooLarge           protocol/frame_too_large
    │   ├── RateLimited             protocol/rate_limited
    │   └── NotJoined               protocol/not_joined
    ├── AccessError                 auth/*
    │   ├── BadToken                auth/bad_token
    │   └── Forbidden               command/forbidden
    ├── TableNotFound               table/not_found
    ├── UnknownRuleset              table/unknown_ruleset
    ├── InvalidCommand              command/invalid
    │   └── CommandIdReused         command/id_reused   (the command id was sent with another command)
    ├── StaleSeq                    command/stale_seq   (expected seq is not the table's seq)
    ├── Rejected                    rule/<ruleset>/<reason>  (the rules forbid the command)
    ├── DiceError                   dice/<reason>  (a malformed or oversized dice expression)
    └── StoreError                  store/*
        ├── SeqConflict             store/seq_conflict  (another append took the seq)
        └── DuplicateCommand        store/duplicate_command

A code never changes once shipped; clients switch on it. The human message may
change. ``details`` carries machine-readable extras (for a rejection: the rule's
section in the rulebook).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

__all__ = [
    "AccessError",
    "BadToken",
    "CommandIdReused",
    "DiceError",
    "DuplicateCommand",
    "Forbidden",
    "FrameTooLarge",
    "InvalidCommand",
    "InvalidFields",
    "MalformedMessage",
    "NotJoined",
    "ProtocolError",
    "RateLimited",
    "Rejected",
    "SeqConflict",
    "StaleSeq",
    "StoreError",
    "TableNotFound",
    "TakuError",
    "UnknownMessageType",
    "UnknownRuleset",
    "UnsupportedVersion",
    "UnreadableEvent",
    "japanese_detail",
]


class TakuError(Exception):
    """Base of every taku error: a stable ``code`` and a human ``message``."""

    code: str = "internal/error"

    def __init__(self, message: str, *, code: str | None = None, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details: dict[str, Any] = details

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class ProtocolError(TakuError):
    code = "protocol/error"


class MalformedMessage(ProtocolError):
    code = "protocol/malformed_json"


class UnknownMessageType(ProtocolError):
    code = "protocol/unknown_type"


class InvalidFields(ProtocolError):
    code = "protocol/invalid_fields"


class FrameTooLarge(ProtocolError):
    code = "protocol/frame_too_large"


class RateLimited(ProtocolError):
    """Too many messages (or new tables). ``refused`` is the message that was refused,
    decoded (``None`` where there is none: a ``create_table`` past the server-wide
    limit is refused after it decoded, and the caller knows it), so the answer can
    name its ``id`` and command id and wait its turn behind earlier commands."""

    code = "protocol/rate_limited"
    refused: Any = None


class NotJoined(ProtocolError):
    code = "protocol/not_joined"


class UnsupportedVersion(ProtocolError):
    """A ``hello`` naming a protocol version the server does not speak (``params.supported``
    lists those it does)."""

    code = "protocol/unsupported_version"


class AccessError(TakuError):
    code = "auth/error"


class BadToken(AccessError):
    code = "auth/bad_token"


class Forbidden(AccessError):
    code = "command/forbidden"


class TableNotFound(TakuError):
    code = "table/not_found"


class UnknownRuleset(TakuError):
    code = "table/unknown_ruleset"


class InvalidCommand(TakuError):
    """The command is well-formed JSON but makes no sense (an unknown character, a bad value)."""

    code = "command/invalid"


class CommandIdReused(InvalidCommand):
    """The ``command_id`` was used before with a different command (another type or
    other arguments, compared on the canonical form: :func:`taku.core.commands.fingerprint`).
    Nothing was written: a retry must send the same command, a new command needs a new id."""

    code = "command/id_reused"


class StaleSeq(TakuError):
    """The command named an expected seq that is not the table's current seq. Nothing was written."""

    code = "command/stale_seq"


class Rejected(TakuError):
    """The rules forbid the command.

    Args:
        ruleset: the ruleset id, e.g. ``"nstrpg"``; the code becomes ``rule/<ruleset>/<reason>``.
        reason: a stable snake_case reason, e.g. ``"no_evasion_dice"``.
        message: the rule's reason for a human, ideally in the rulebook's language.
        section: where the rule stands, e.g. ``"NSTRPG 2-11 回避判定"``.
    """

    def __init__(
        self, ruleset: str, reason: str, message: str, *, section: str = "", **details: Any
    ) -> None:
        super().__init__(message, code=f"rule/{ruleset}/{reason}", section=section, **details)
        self.ruleset = ruleset
        self.reason = reason
        self.section = section


class DiceError(TakuError):
    code = "dice/invalid"


class StoreError(TakuError):
    code = "store/error"


class SeqConflict(StoreError):
    """An append's expected seq was taken by another writer; nothing of the append was written."""

    code = "store/seq_conflict"


class DuplicateCommand(StoreError):
    """The command id was already appended to this table; ``seqs`` names what it wrote."""

    code = "store/duplicate_command"

    def __init__(self, message: str, *, first_seq: int, last_seq: int) -> None:
        super().__init__(message, first_seq=first_seq, last_seq=last_seq)
        self.first_seq = first_seq
        self.last_seq = last_seq


class UnreadableEvent(StoreError):
    """A stored event this code cannot read: an unknown type, a version with no
    upcaster to today's, or data that does not fit its type. Names the table, the
    seq and the type; nothing is folded past it (never a silent change of state)."""

    code = "store/unreadable_event"

    def __init__(self, message: str, *, table_id: str, seq: int, type: str, reason: str) -> None:
        super().__init__(message, table_id=table_id, seq=seq, type=type, reason=reason)
        self.table_id = table_id
        self.seq = seq
        self.type = type


# --------------------------------------------------------------------------- msgspec's words in Japanese

_TYPE_JA = {
    "str": "文字列",
    "int": "整数",
    "float": "数",
    "bool": "true か false",
    "array": "リスト",
    "object": "オブジェクト",
    "null": "null",
}


def _t(name: str) -> str:
    return _TYPE_JA.get(name, name)


_DETAIL_JA: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (
        re.compile(r"Object contains unknown field `(.+)`"),
        lambda m: f"「{m[1]}」という項目はありません",
    ),
    (re.compile(r"Object missing required field `(.+)`"), lambda m: f"項目「{m[1]}」が必要です"),
    (
        re.compile(r"Expected `(\w+)`, got `(\w+)`"),
        lambda m: f"{_t(m[1])}が必要です（{_t(m[2])}が来ました）",
    ),
    (re.compile(r"Expected `(\w+)` >= (\S+)"), lambda m: f"{m[2]}以上の{_t(m[1])}が必要です"),
    (re.compile(r"Expected `(\w+)` > (\S+)"), lambda m: f"{m[2]}より大きい{_t(m[1])}が必要です"),
    (re.compile(r"Expected `(\w+)` <= (\S+)"), lambda m: f"{m[2]}以下の{_t(m[1])}が必要です"),
    (re.compile(r"Expected `(\w+)` < (\S+)"), lambda m: f"{m[2]}より小さい{_t(m[1])}が必要です"),
    (
        re.compile(r"Expected `(\w+)` of length <= (\d+)"),
        lambda m: f"長さ{m[2]}までの{_t(m[1])}にしてください",
    ),
    (
        re.compile(r"Expected `(\w+)` of length >= (\d+)"),
        lambda m: f"長さ{m[2]}以上の{_t(m[1])}にしてください",
    ),
    (
        re.compile(r"Expected `(\w+)` matching regex .*"),
        lambda m: f"{_t(m[1])}の形が正しくありません",
    ),
    (re.compile(r"Invalid enum value (.+)"), lambda m: f"{m[1]} は選べる値ではありません"),
    (re.compile(r"JSON is malformed.*"), lambda m: "JSONとして読めません"),
]
_AT = re.compile(r"^(.*?) - at `(.+)`$", re.S)


def japanese_detail(text: str) -> str:
    """msgspec's validation message in Japanese, for the ``detail`` people read.

    ``Object contains unknown field `カラテ` `` → ``「カラテ」という項目はありません``;
    ``Expected `int` >= 0 - at `$.karate` `` → ``0以上の整数が必要です（場所: karate）``.
    A message it does not know stays as it is.
    """
    where = ""
    m = _AT.match(text)
    if m:
        text, path = m[1], m[2]
        path = path.removeprefix("$").lstrip(".")
        where = f"（場所: {path}）" if path else ""
    for pattern, say in _DETAIL_JA:
        hit = pattern.fullmatch(text.strip())
        if hit:
            return say(hit) + where
    return text + where
