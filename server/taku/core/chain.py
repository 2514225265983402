"""The hash chain over a table's log, and the commitments to its hidden parts (pure).

Every recorded event carries ``hash``: SHA-256 over the previous event's hash and
the event's *public body* (:func:`body`), hex. The first event chains from
:func:`genesis` (the table id and the seed hash of ``table_created``). So the
hash of seq ``n`` fixes every event up to ``n``: whoever holds it (every client
holds the head it last received, :func:`short`) can check that a log reaches it,
and any truncation, insertion, reorder or edit before it changes it.

The public body is what everyone receives of an event: its envelope (table,
seq, actor, time, command id, draws), the event as the public sees it (the full
event, or the redacted stand-in of a hidden one), the stand-in's
``commitment`` and the command that produced it (in clear when every event of
the command is public; else a commitment, on the command's first event). A
commitment is ``sha256:`` over a random salt and the hidden content
(:func:`commitment`): it fixes the hidden event (type, audience and data) without
telling it, and once the GM publishes the full log (with the salts), anyone can
check the hidden events against the commitments they received.

From chain format 2 (:data:`FORMAT`) the body also holds the event's
``event_version`` (the shape its data was written in, which decides how it is
upcast on read); events chained before that keep the format 1 body.

The body is hashed in a canonical JSON form (object keys sorted, no spaces,
UTF-8) of its *values*, so a re-formatted export (pretty-printed, keys
reordered) still checks, and a changed value never does.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from taku.core.events import Recorded, Redacted

__all__ = [
    "FORMAT",
    "SHORT",
    "body",
    "body_of",
    "canonical",
    "commitment",
    "genesis",
    "link",
    "public_command",
    "public_event",
    "seal",
    "short",
]

VERSION = "taku-chain/1"
"""Names the chain's rules; part of :func:`genesis` (unchanged by format 2, so a table
chained before format 2 goes on from the same genesis)."""

FORMAT = 2
"""The body format new events are chained with. Format 2 adds ``event_version`` and
``"chain": 2`` to the body; format 1 (events chained before it) has neither. A log
may start in format 1 and go on in format 2 (an old table played on after the
upgrade), never the other way round (:func:`taku.verify.verify_log` checks that)."""

SHORT = 16
"""Hex digits of a head's short form (64 bits): what clients show and keep."""

_canonical = msgspec.json.Encoder(order="deterministic").encode
_decode = msgspec.json.decode


def canonical(value: Any) -> bytes:
    """``value`` (JSON data; raw JSON is parsed first) as canonical JSON bytes."""
    return _canonical(_plain(value))


def _plain(value: Any) -> Any:
    if isinstance(value, msgspec.Raw):
        return _decode(bytes(value))
    if isinstance(value, (bytes, bytearray, memoryview)):
        return _decode(bytes(value))
    return value


def genesis(table_id: str, seed_hash: str, after_seq: int = 0) -> str:
    """What the first chained event of a table chains from (hex).

    ``after_seq`` is 0 for a table created with the chain; a table created before
    it starts its chain after its last unchained event.
    """
    return hashlib.sha256(
        canonical(
            {"chain": VERSION, "table_id": table_id, "seed_hash": seed_hash, "after": after_seq}
        )
    ).hexdigest()


def body(
    *,
    table_id: str,
    seq: int,
    actor: str | None,
    time: str,
    command_id: str,
    draws: int,
    event: Any,
    commitment: str | None,
    command: Any,
    event_version: int = 1,
    fmt: int = FORMAT,
) -> dict[str, Any]:
    """The public body of one event (see the module doc); ``time`` as RFC 3339 text
    (``2026-12-01T09:32:48.219381Z``), ``event`` and ``command`` as JSON (raw or parsed),
    ``event_version`` the version of ``event``'s shape as stored (covered from format 2
    on; ``fmt`` 1 gives the body of an event chained before :data:`FORMAT` 2)."""
    out = {
        "table_id": table_id,
        "seq": seq,
        "actor": actor,
        "time": time,
        "command_id": command_id,
        "draws": draws,
        "event": _plain(event),
        "commitment": commitment,
        "command": _plain(command) if command is not None else None,
    }
    if fmt >= 2:
        out["chain"] = fmt
        out["event_version"] = event_version
    return out


def link(prev: str, body_: dict[str, Any]) -> str:
    """The hash of an event whose predecessor's hash is ``prev`` (hex SHA-256)."""
    return hashlib.sha256(bytes.fromhex(prev) + canonical(body_)).hexdigest()


def commitment(salt: str, hidden: Any) -> str:
    """``sha256:<hex>`` over the salt (hex) and the canonical JSON of ``hidden`` (a
    hidden event's data, which carries its type; or a hidden command's record)."""
    return "sha256:" + hashlib.sha256(bytes.fromhex(salt) + canonical(hidden)).hexdigest()


def short(head: str) -> str:
    """A head's short form: its first :data:`SHORT` hex digits (``""`` for none)."""
    return head[:SHORT]


# --------------------------------------------------------------------------- stored events


def public_event(rec: Recorded) -> msgspec.Raw:
    """``rec`` as the public receives it: its data, or its redacted stand-in."""
    if rec.audience is None:
        return rec.data
    return rec.redacted_form() or msgspec.Raw(msgspec.json.encode(Redacted(of=rec.type)))


def public_command(rec: Recorded) -> Any:
    """What the public receives of ``rec``'s command: the command record, its
    commitment (``{"commitment": …}``) when the command is hidden, or ``None``."""
    if rec.command_commitment:
        return {"commitment": rec.command_commitment}
    raw = bytes(rec.command)
    return None if raw == b"null" else msgspec.Raw(raw)


def time_text(rec: Recorded) -> str:
    """``rec.time`` as the frames carry it (RFC 3339)."""
    return msgspec.json.encode(rec.time).decode()[1:-1]


def body_of(rec: Recorded, fmt: int = FORMAT) -> dict[str, Any]:
    """The public body (:func:`body`, format ``fmt``) of a stored event."""
    return body(
        table_id=rec.table_id,
        seq=rec.seq,
        actor=rec.actor,
        time=time_text(rec),
        command_id=rec.command_id,
        draws=rec.draws,
        event=public_event(rec),
        commitment=rec.commitment,
        command=public_command(rec),
        event_version=rec.event_version,
        fmt=fmt,
    )


def seal(recs: list[Recorded], prev: str) -> list[Recorded]:
    """``recs`` (consecutive, without hashes) with their chain hashes, the first
    chaining from ``prev``."""
    out = []
    for rec in recs:
        prev = link(prev, body_of(rec))
        out.append(msgspec.structs.replace(rec, hash=prev))
    return out
