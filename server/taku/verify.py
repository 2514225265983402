"""``taku verify``: check every recorded die face and shuffle of a table against its seed.

The seed is revealed by the GM (core event ``seed_revealed``); its SHA-256 was
published in ``table_created`` before any die was rolled. Every roll in the log
records ``at``, its first face's index in the table's face stream, so each face
can be recomputed (:func:`taku.core.dice.face_at`). The faces a command drew
(``draws`` on its last event) must be covered exactly by its rolls: a die rolled
and then hidden or replaced is caught too. The core's generic rolls
(``dice_rolled``) are recomputed from their expression and faces, so a changed
total or 成功/失敗 is caught as well; a ruleset's own results are checked as far
as their faces go. Events the reader may not see (``redacted``) are skipped;
for them only the count of faces is checked.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from taku.core.dice import face_at, fisher_yates

__all__ = ["LogEntry", "verify"]


@dataclass(frozen=True)
class LogEntry:
    """What verification needs of one event (from the store or an exported line)."""

    seq: int
    command_id: str
    draws: int
    data: dict[str, Any]
    redacted: bool = False


def _rolls(node: Any) -> Iterator[dict[str, Any]]:
    """Every Roll or Shuffle shape inside an event's data, depth first."""
    if isinstance(node, dict):
        keys = node.keys()
        if {"sides", "faces", "at"} <= keys or {"size", "order", "at"} <= keys:
            yield node
            return
        for v in node.values():
            yield from _rolls(v)
    elif isinstance(node, list):
        for v in node:
            yield from _rolls(v)


def _check_generic_roll(data: dict[str, Any]) -> str | None:
    """A core ``dice_rolled`` event must say what its expression gives with its own faces."""
    from taku.core import chatdice
    from taku.core.dice import ScriptedDice

    try:
        parsed = chatdice.parse(data["expression"])
    except Exception as e:  # noqa: BLE001 - an expression the server could never have rolled
        return f"cannot recompute {data.get('expression')!r}: {e}"
    if parsed is None:
        return None  # a ruleset's own dice command (e.g. nstrpg's N5[S]): its faces are checked, not its reading
    try:
        faces = [f for r in data.get("rolls", ()) for f in r["faces"]]
        dice = ScriptedDice(faces)
        again = parsed.roll(dice)
    except Exception as e:  # noqa: BLE001 - any failure to recompute is a finding
        return f"cannot recompute {data.get('expression')!r}: {e}"
    if dice.remaining:
        return f"{data['expression']!r} does not use all of its faces"
    for field in ("total", "successes", "success", "result"):
        if data.get(field) != getattr(again, field):
            return f"{field} is {data.get(field)!r}, but {data['expression']!r} with these faces gives {getattr(again, field)!r}"
    return None


def verify(entries: Iterable[LogEntry]) -> tuple[list[str], dict[str, int]]:
    """Check a table's log. Returns ``(problems, counts)``; no problems means verified.

    ``counts`` has ``events``, ``rolls``, ``faces`` and ``skipped`` (redacted events).
    """
    problems: list[str] = []
    entries = list(entries)
    counts = {"events": len(entries), "rolls": 0, "faces": 0, "skipped": 0}
    seed: bytes | None = None
    committed = ""
    for e in entries:
        if e.data.get("type") == "table_created":
            committed = e.data.get("seed_hash", "")
        if e.data.get("type") == "seed_revealed":
            seed = bytes.fromhex(e.data["seed"])
    if seed is None:
        return ["the seed has not been revealed (the GM sends reveal_seed)"], counts
    if "sha256:" + hashlib.sha256(seed).hexdigest() != committed:
        return [
            "the revealed seed does not match the hash published when the table was created"
        ], counts
    cursor = 0
    i = 0
    expected_seq = entries[0].seq if entries else 1
    while i < len(entries):
        # one command's events are consecutive and share a command id
        j = i
        while j + 1 < len(entries) and entries[j + 1].command_id == entries[i].command_id:
            j += 1
        group = entries[i : j + 1]
        draws = group[-1].draws
        lo, hi = cursor, cursor + draws
        covered: dict[int, int] = {}
        hidden = False
        for e in group:
            if e.seq != expected_seq:
                problems.append(f"seq {expected_seq} is missing (next is {e.seq})")
            expected_seq = e.seq + 1
            if e.redacted:
                hidden = True
                counts["skipped"] += 1
                continue
            if e.data.get("type") == "dice_rolled":
                wrong = _check_generic_roll(e.data)
                if wrong:
                    problems.append(f"seq {e.seq}: {wrong}")
            seen: set[tuple[Any, ...]] = set()
            for r in _rolls(e.data):
                key = (r["at"], tuple(r.get("faces", ())), tuple(r.get("order", ())))
                if key in seen:
                    continue
                seen.add(key)
                at = int(r["at"])
                if "faces" in r:
                    faces, sides = list(r["faces"]), int(r["sides"])
                    expect = [face_at(seed, at + k, sides) for k in range(len(faces))]
                    counts["rolls"] += 1
                    counts["faces"] += len(faces)
                    if faces != expect:
                        problems.append(f"seq {e.seq}: faces {faces} at {at} should be {expect}")
                    span = range(at, at + len(faces))
                else:
                    size, order = int(r["size"]), list(r["order"])
                    if at < 0:
                        problems.append(f"seq {e.seq}: a shuffle not drawn from the seed")
                        continue
                    n = max(size - 1, 0)
                    faces = [face_at(seed, at + k, size - k) for k in range(n)]
                    counts["rolls"] += 1
                    counts["faces"] += n
                    if list(fisher_yates(size, faces)) != order:
                        problems.append(f"seq {e.seq}: shuffle at {at} is not the seed's")
                    span = range(at, at + n)
                for k in span:
                    if not lo <= k < hi:
                        problems.append(
                            f"seq {e.seq}: face {k} lies outside the command's draws {lo}..{hi - 1}"
                        )
                    covered[k] = covered.get(k, 0) + 1
        if not hidden:
            missing = [k for k in range(lo, hi) if k not in covered]
            if missing:
                problems.append(
                    f"seq {group[0].seq}-{group[-1].seq}: faces {missing[:5]} were drawn but are not in the log"
                )
        cursor = hi
        i = j + 1
    return problems, counts
