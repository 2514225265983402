"""``taku verify``: check a table's log end to end (see docs/verify.md).

:func:`verify_log` checks, in order: the hash chain (:mod:`taku.core.chain`) from
the first event to the last, and to a head a player holds; every epoch's seed
against the hash published before it; every command by deciding it again with
its epoch's revealed seed, requiring the same events byte for byte (canonical
JSON); every hidden event and hidden command whose content the log holds
against the commitment everyone received; every roll's result read again from
its own faces (:func:`_check_results`: the core's generic dice and the ruleset's
``chat_dice``, no table state needed); every die face and shuffle (:func:`verify`,
below); and an export's display fields rendered again (:func:`_check_display`).
It reads a table from the store (the full log, as the GM's ``taku export --full``
has it) or from exported frames (a player's or the public's log), and names each
seq it could not check and why (:attr:`Report.unchecked`): the verdict
(:attr:`Report.verdict`) is ``VERIFIED`` only when there is none.

Past a hidden event whose content the log lacks (a public export), commands are
decided again on the *public state* (the log folded without those events): a
match is a check (:attr:`Report.notes` names those seqs). A difference is a
finding when every such hidden event is a secret roll or a whisper (they change
no state: :func:`_changes_nothing`), and otherwise an unchecked seq, since the
hidden event may explain it.

The face check, :func:`verify`:

The seed is revealed by the GM (core event ``seed_revealed``); its SHA-256 was
published in ``table_created`` before any die was rolled. Every roll in the log
records ``at``, its first face's index in the table's face stream, so each face
can be recomputed (:func:`taku.core.dice.face_at`). The faces a command drew
(``draws`` on its last event) must be covered exactly by its rolls: a die rolled
and then hidden or replaced is caught too. The core's generic rolls
(``dice_rolled``) are recomputed from their expression and faces, so a changed
total or 成功/失敗 is caught as well (:func:`verify_log` reads a ruleset's own
dice again too, through its ``chat_dice``). Events the reader may not see
(``redacted``) are skipped; for them only the count of faces is checked.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from dataclasses import field as _field
from typing import Any

import msgspec

from taku import codes
from taku.core import chain
from taku.core.dice import face_at, fisher_yates
from taku.core.events import Recorded

__all__ = [
    "Finding",
    "Line",
    "LogEntry",
    "Report",
    "lines_from_export",
    "lines_from_records",
    "verify",
    "verify_log",
]


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


def _check_generic_roll(data: dict[str, Any], chat_dice: Any = None) -> str | None:
    """A core ``dice_rolled`` event must say what its expression gives with its own faces
    (the core's generic dice, or ``chat_dice``: the ruleset's stateless dice reader,
    :attr:`taku.core.ruleset.Ruleset.chat_dice`)."""
    from taku.core import chatdice
    from taku.core.dice import ScriptedDice

    try:
        parsed = chatdice.parse(data["expression"])
    except Exception as e:  # noqa: BLE001 - an expression the server could never have rolled
        return f"{data.get('expression')!r} を計算し直せません: {e}"
    if parsed is None:
        # a ruleset's own dice command (e.g. nstrpg's N5[S]): read again by its chat_dice, if any
        return _check_ruleset_roll(data, chat_dice) if chat_dice is not None else None
    try:
        faces = [f for r in data.get("rolls", ()) for f in r["faces"]]
        dice = ScriptedDice(faces)
        again = parsed.roll(dice)
    except Exception as e:  # noqa: BLE001 - any failure to recompute is a finding
        return f"{data.get('expression')!r} を計算し直せません: {e}"
    if dice.remaining:
        return f"{data['expression']!r} が出目をすべては使っていません"
    for field in ("total", "successes", "success", "result"):
        if data.get(field) != getattr(again, field):
            return (
                f"{field} が {data.get(field)!r} ですが、この出目で {data['expression']!r} を"
                f"計算すると {getattr(again, field)!r} です"
            )
    return None


_RESULT_FIELDS = ("total", "successes", "success", "result", "outcome")


def _check_ruleset_roll(data: dict[str, Any], chat_dice: Any) -> str | None:
    """Read a ruleset's ``dice_rolled`` line again with its own faces: the result fields
    (:data:`_RESULT_FIELDS`) must be what the ruleset gives. Needs no table state, so it
    holds on a public export past a hidden event too."""
    from taku.core.dice import ScriptedDice
    from taku.core.events import Private
    from taku.core.ruleset import Context

    faces = [f for r in data.get("rolls", ()) for f in r.get("faces", ())]
    text = str(data.get("expression", ""))
    if data.get("comment"):
        text += " " + str(data["comment"])
    dice = ScriptedDice(faces)
    ctx: Context[Any] = Context(
        actor=None, role="player", dice=dice, secret=bool(data.get("secret"))
    )
    try:
        again = chat_dice(text, ctx)
    except Exception:  # noqa: BLE001 - not a line of its reader (a command's own roll)
        return None  # checked by deciding its command again
    if not again or len(again) != 1:
        return None  # not one of its stateless dice lines: checked by deciding the command
    ev = again[0].event if isinstance(again[0], Private) else again[0]
    got = msgspec.to_builtins(ev)
    if dice.remaining:
        return f"{data.get('expression')!r} が出目をすべては使っていません"
    if [list(r.get("faces", ())) for r in got.get("rolls", ())] != [
        list(r.get("faces", ())) for r in data.get("rolls", ())
    ]:
        return f"{data.get('expression')!r} はログにあるのと違うダイスを振ります"
    for field in _RESULT_FIELDS:
        if data.get(field) != got.get(field):
            return (
                f"{field} が {data.get(field)!r} ですが、この出目で {data['expression']!r} を"
                f"計算すると {got.get(field)!r} です"
            )
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
        return [_NOT_REVEALED], counts
    if "sha256:" + hashlib.sha256(seed).hexdigest() != committed:
        return ["公開されたシードが、卓の作成時に公開されたハッシュと一致しません"], counts
    problems, faces = _faces(entries, seed)
    faces["events"] = counts["events"]
    return problems, faces


def _faces(
    entries: list[LogEntry],
    seed: bytes,
    proven: frozenset[str] = frozenset(),
    results: bool = True,
) -> tuple[list[str], dict[str, int]]:
    """Every roll and shuffle of ``entries`` (one epoch, its faces from 0) against ``seed``.

    ``proven`` are command ids whose events were decided again and matched: every face
    they drew is accounted for by that, even one the events do not show as a roll.
    """
    problems: list[str] = []
    counts = {"events": len(entries), "rolls": 0, "faces": 0, "skipped": 0}
    cursor = 0
    i = 0
    expected_seq = entries[0].seq if entries else 1
    # rolls drawn (and checked) by an earlier command: a later event may show one again
    # (a card played on an earlier check carries the check's rolls), which draws nothing
    drawn_before: set[tuple[Any, ...]] = set()
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
                problems.append(f"seq {expected_seq} がありません（次は seq {e.seq}）")
            expected_seq = e.seq + 1
            if e.redacted:
                hidden = True
                counts["skipped"] += 1
                continue
            if results and e.data.get("type") == "dice_rolled":
                wrong = _check_generic_roll(e.data)
                if wrong:
                    problems.append(f"seq {e.seq}: {wrong}")
            seen: set[tuple[Any, ...]] = set()
            for r in _rolls(e.data):
                key = (r["at"], tuple(r.get("faces", ())), tuple(r.get("order", ())))
                if key in seen:
                    continue
                seen.add(key)
                if key in drawn_before and int(r["at"]) < lo:
                    continue  # shown again, checked where it was drawn
                at = int(r["at"])
                if "faces" in r:
                    faces, sides = list(r["faces"]), int(r["sides"])
                    expect = [face_at(seed, at + k, sides) for k in range(len(faces))]
                    counts["rolls"] += 1
                    counts["faces"] += len(faces)
                    if faces != expect:
                        problems.append(
                            f"seq {e.seq}: 位置 {at} からの出目 {faces} は、シードからは {expect} のはずです"
                        )
                    span = range(at, at + len(faces))
                else:
                    size, order = int(r["size"]), list(r["order"])
                    if at < 0:
                        problems.append(f"seq {e.seq}: シードから引かれていないシャッフルです")
                        continue
                    n = max(size - 1, 0)
                    faces = [face_at(seed, at + k, size - k) for k in range(n)]
                    counts["rolls"] += 1
                    counts["faces"] += n
                    if list(fisher_yates(size, faces)) != order:
                        problems.append(
                            f"seq {e.seq}: 位置 {at} のシャッフルがシードのものと違います"
                        )
                    span = range(at, at + n)
                for k in span:
                    if not lo <= k < hi:
                        problems.append(
                            f"seq {e.seq}: 位置 {k} の出目が、このコマンドの引いた範囲 {lo}..{hi - 1} の外にあります"
                        )
                    covered[k] = covered.get(k, 0) + 1
        if not hidden and group[0].command_id not in proven:
            missing = [k for k in range(lo, hi) if k not in covered]
            if missing:
                problems.append(
                    f"seq {group[0].seq}-{group[-1].seq}: 位置 {missing[:5]} の出目は引かれたのに、ログにありません"
                )
        drawn_before |= {
            (r["at"], tuple(r.get("faces", ())), tuple(r.get("order", ())))
            for e in group
            if not e.redacted
            for r in _rolls(e.data)
        }
        cursor = hi
        i = j + 1
    return problems, counts


# --------------------------------------------------------------------------- the whole log


@dataclass
class Line:
    """One event as :func:`verify_log` reads it: from the store (everything known) or
    from an exported frame (hidden parts may be missing: ``data``/``command`` ``None``).

    ``public`` is the event as the public received it (the stand-in of a hidden one);
    ``data`` the full event when known; ``command`` the command record when known;
    ``head`` the chain hash the line claims (full hex from the store, the short form
    from a frame, ``None`` for an event written before the chain).
    """

    seq: int
    table_id: str
    actor: str | None
    time: str
    command_id: str
    draws: int
    public: Any
    data: Any | None
    commitment: str | None = None
    salt: str | None = None
    command: Any | None = None
    command_commitment: str | None = None
    command_salt: str | None = None
    head: str | None = None
    audience: list[str] | None = None
    full: bool = False
    """From the store: ``audience`` and the redacted stand-in are known too."""
    event_version: int = 1
    text: str | None = None
    """The display fields of an exported frame (``text`` ``None`` from the store and in
    frames without a text): checked by rendering the event again (:func:`_check_display`)."""
    speaker: Any = None
    outcome: Any = None

    @property
    def hidden(self) -> bool:
        return self.commitment is not None

    def public_command(self) -> Any:
        if self.command_commitment is not None:
            return {"commitment": self.command_commitment}
        return self.command

    def body(self, fmt: int = chain.FORMAT) -> dict[str, Any]:
        return chain.body(
            table_id=self.table_id,
            seq=self.seq,
            actor=self.actor,
            time=self.time,
            command_id=self.command_id,
            draws=self.draws,
            event=self.public,
            commitment=self.commitment,
            command=self.public_command(),
            event_version=self.event_version,
            fmt=fmt,
        )


@dataclass(frozen=True)
class Finding:
    """One problem: a stable ``code`` (taku.codes ``verify/*``), the seq it is at, what differs."""

    code: str
    seq: int | None
    detail: str

    def __str__(self) -> str:
        """``seq N: <the code's Japanese message>: <what differs>``, for people."""
        where = f"seq {self.seq}: " if self.seq is not None else ""
        msg = codes.message(self.code, {"detail": self.detail})
        return f"{where}{msg}" + (f": {self.detail}" if self.detail and self.detail != msg else "")


@dataclass
class Report:
    """What :func:`verify_log` found. ``ok`` when there is no problem; ``unchecked``
    lists what could not be checked and why (``(seq or None, reason)``)."""

    problems: list[Finding] = _field(default_factory=list)
    unchecked: list[tuple[int | None, str]] = _field(default_factory=list)
    counts: dict[str, int] = _field(default_factory=dict)
    head: str = ""
    """The chain hash through the last event (full hex), as recomputed."""
    epochs: list[str] = _field(default_factory=list)
    """One line per epoch: revealed and checked, or open."""
    notes: list[str] = _field(default_factory=list)
    """What was checked in a weaker way than the rest, and how (not a gap)."""
    first_break: int | None = None
    """The first seq whose recorded hash its content does not give (or that is missing)."""

    @property
    def ok(self) -> bool:
        """No problem found (something may still be unchecked: see :attr:`verdict`)."""
        return not self.problems

    @property
    def complete(self) -> bool:
        """No problem and nothing left unchecked: every seq was checked."""
        return not self.problems and not self.unchecked

    @property
    def verdict(self) -> str:
        """``VERIFIED`` (every seq checked, no problem), ``PARTLY VERIFIED`` (no problem
        in what was checked, but :attr:`unchecked` is not empty) or ``NOT VERIFIED``."""
        if self.problems:
            return "NOT VERIFIED"
        return "PARTLY VERIFIED" if self.unchecked else "VERIFIED"

    @property
    def label(self) -> str:
        """The verdict in Japanese, as ``taku verify`` prints it: 検証成功 / 一部のみ検証 / 検証失敗."""
        return VERDICTS[self.verdict]

    @property
    def exit_code(self) -> int:
        """``taku verify``'s exit status: 0 verified, 1 not verified, 3 partly verified."""
        return {"VERIFIED": 0, "NOT VERIFIED": 1, "PARTLY VERIFIED": 3}[self.verdict]

    def problem(self, code: str, seq: int | None, detail: str) -> None:
        self.problems.append(Finding(code, seq, detail))


VERDICTS = {"VERIFIED": "検証成功", "PARTLY VERIFIED": "一部のみ検証", "NOT VERIFIED": "検証失敗"}
""":attr:`Report.verdict` (the stable form, printed beside it) → what a person reads."""

_NOT_REVEALED = "シードがまだ公開されていません（GM が「シードを公開する」を送ります）"


def _raw_json(raw: msgspec.Raw) -> Any:
    b = bytes(raw)
    return None if b == b"null" else msgspec.json.decode(b)


def lines_from_records(recs: Iterable[Recorded]) -> list[Line]:
    """The lines of a table read from its store (the full log)."""
    out = []
    for r in recs:
        out.append(
            Line(
                seq=r.seq,
                table_id=r.table_id,
                actor=r.actor,
                time=chain.time_text(r),
                command_id=r.command_id,
                draws=r.draws,
                public=msgspec.json.decode(bytes(chain.public_event(r))),
                data=msgspec.json.decode(bytes(r.data)),
                commitment=r.commitment,
                salt=r.salt,
                command=_raw_json(r.command),
                command_commitment=r.command_commitment,
                command_salt=r.command_salt,
                head=r.hash,
                audience=list(r.audience) if r.audience is not None else None,
                full=True,
                event_version=r.event_version,
            )
        )
    return out


def _line_from_frame(d: dict[str, Any]) -> Line:
    command = d.get("command")
    command_commitment = None
    command_salt = d.get("command_salt")
    if isinstance(command, dict) and set(command) == {"commitment"}:
        command_commitment, command = command["commitment"], None
    elif command is not None and command_salt:
        command_commitment = chain.commitment(command_salt, command)
    if d.get("redacted"):
        public, data = d["event"], None
    elif d.get("stand_in") is not None:
        public, data = d["stand_in"], d["event"]
    else:
        public = data = d["event"]
    return Line(
        seq=int(d["seq"]),
        table_id=d.get("table_id", ""),
        actor=d.get("actor"),
        time=d.get("time", ""),
        command_id=d.get("command_id", ""),
        draws=int(d.get("draws", 0)),
        public=public,
        data=data,
        commitment=d.get("commitment"),
        salt=d.get("salt"),
        command=command,
        command_commitment=command_commitment,
        command_salt=command_salt,
        head=d.get("head") or None,
        # who saw a hidden event shown in full: a claim the chain does not cover, compared
        # with the audience deciding its command again gives
        audience=list(d["audience"]) if isinstance(d.get("audience"), list) else None,
        event_version=int(d.get("event_version", 1)),
        # a frame with a ``text`` shows a rendered line (absent speaker/outcome: none shown);
        # one without (a hand-made log of events) claims nothing to be shown
        text=d.get("text"),
        speaker=d.get("speaker"),
        outcome=d.get("outcome"),
    )


def lines_from_export(text: str) -> list[Line]:
    """The lines of an exported log: event frames (``taku export --format jsonl``, a
    client's saved frames) or stored envelopes (``taku export --full``), one per line.

    Raises:
        ValueError: naming the line that is neither.
    """
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            d = json.loads(raw)
            if "data" in d and "type" in d and "event" not in d:
                out.extend(lines_from_records([msgspec.json.decode(raw.encode(), type=Recorded)]))
            else:
                out.append(_line_from_frame(d))
        except (ValueError, KeyError, TypeError, msgspec.ValidationError) as e:
            raise ValueError(f"{n} 行目は書き出された出来事ではありません: {e}") from None
    return out


def _differs(a: Any, b: Any, path: str = "") -> str | None:
    """Where two JSON values first differ, for people (``None`` when equal)."""
    if a == b:
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a:
                return f"{path}{k} がログにありません（判定し直すと {json.dumps(b[k], ensure_ascii=False)[:120]}）"
            if k not in b:
                return f"{path}{k} はログにありますが、判定し直すとありません"
            d = _differs(a[k], b[k], f"{path}{k}.")
            if d:
                return d
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            d = _differs(x, y, f"{path}{i}.")
            if d:
                return d

    def show(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False)[:160]

    return f"{path.rstrip('.') or '出来事'} はログでは {show(a)}、判定し直すと {show(b)} です"


def _parse_head(head: str) -> tuple[int | None, str] | None:
    """``[SEQ:]HASH`` as a client shows it (the web client's header: ``指紋 SEQ:HEAD``, the
    label allowed); ``None`` when it is not a head."""
    text = head.strip().removeprefix("指紋").strip()
    seq, _, h = text.rpartition(":")
    seq, h = seq.strip(), h.strip().lower()
    if (seq and not seq.isdecimal()) or any(c not in "0123456789abcdef" for c in h):
        return None
    return (int(seq) if seq else None), h


class _NoDice:
    """The dice of an epoch whose seed is not revealed: any draw means "cannot check"."""

    cursor = 0

    def roll(self, n: int, sides: int) -> Any:
        raise _Unrevealed

    def shuffle(self, size: int) -> Any:
        raise _Unrevealed


class _Unrevealed(Exception):
    pass


def verify_log(
    lines: Sequence[Line],
    registry: Any = None,
    *,
    heads: Sequence[str] = (),
) -> Report:
    """Check a table's log (see the module doc). ``registry`` (:func:`taku.plugins.load_registry`)
    lets commands be decided again; ``heads`` are heads a player holds (``HEX`` or
    ``SEQ:HEX``, full or short form), each of which the log must reach.
    """
    rep = Report(counts={"events": len(lines), "chained": 0, "commands": 0, "rolls": 0, "faces": 0})
    if not lines:
        rep.problem("verify/empty", None, "")
        return rep
    lines = sorted(lines, key=lambda x: x.seq)
    hashes = _check_chain(lines, rep)
    for h in heads:
        _check_head(h, hashes, rep)
    seeds = _check_epochs(lines, rep)
    _check_commitments(lines, rep)
    rs = _ruleset_of(lines, registry)
    _check_results(lines, rs, rep)
    states: dict[int, Any] | None = {} if any(ln.text is not None for ln in lines) else None
    proven = _decide_again(lines, seeds, registry, rep, states)
    _check_faces_by_epoch(lines, seeds, rep, proven)
    if states is not None:
        _check_display(lines, rs, states, rep)
    first = lines[0].public if lines[0].seq == 1 else None
    origin = first.get("forked_from") if isinstance(first, dict) else None
    if isinstance(origin, dict):
        # the state a fork starts from is its source's: nothing in this log checks it
        forked = next((ln.seq for ln in lines if _type_of(ln) == "table_forked"), 2)
        rep.unchecked.append(
            (
                forked,
                f"{_FORK_UNCHECKED}seq {forked}: 卓 {origin.get('table_id')} の seq "
                f"{origin.get('seq')} から引き継いだ状態は、分岐元のログがあるときだけ検証されます"
                "（taku verify FORK --fork-source SOURCE）",
            )
        )
    return rep


_FORK_UNCHECKED = "分岐した卓: "
"""How :func:`verify_log` names a fork's carried state as not checked (:func:`check_fork`
drops it when it checks that state)."""


def _type_of(ln: Line) -> Any:
    return ln.public.get("type") if isinstance(ln.public, dict) else None


def _ruleset_of(lines: Sequence[Line], registry: Any) -> Any:
    """The table's ruleset from its ``table_created``, or ``None`` (not there, not installed)."""
    first = lines[0].public if lines[0].seq == 1 else None
    if registry is None or not isinstance(first, dict) or first.get("type") != "table_created":
        return None
    try:
        return registry.get(first["ruleset"])
    except Exception:  # noqa: BLE001 - an unknown ruleset is a reason, given by _decide_again
        return None


def _check_results(lines: Sequence[Line], rs: Any, rep: Report) -> None:
    """Every ``dice_rolled`` whose content this log holds, read again from its own faces
    (the core's generic dice; a ruleset's through its ``chat_dice``), in every epoch,
    revealed or not: a changed total, 成功数 or flag is caught even where the command
    cannot be decided again. Whether the faces are the seed's is :func:`_faces`'s."""
    chat_dice = getattr(rs, "chat_dice", None)
    for ln in lines:
        data = ln.data
        if not isinstance(data, dict) or data.get("type") != "dice_rolled":
            continue
        wrong = _check_generic_roll(data, chat_dice)
        if wrong:
            rep.problem("verify/result", ln.seq, wrong)
        rep.counts["results"] = rep.counts.get("results", 0) + 1


def _check_chain(lines: Sequence[Line], rep: Report) -> dict[int, str]:
    """Recompute the chain; returns each chained seq's recomputed hash. Records in
    ``rep.first_break`` the first seq whose recorded hash its content does not give."""
    hashes: dict[int, str] = {}
    first = lines[0].public if lines[0].seq == 1 else {}
    seed_hash = first.get("seed_hash", "") if isinstance(first, dict) else ""
    table_id = lines[0].table_id
    expected = 1
    prev: str | None = None
    unchained: list[int] = []
    format1: list[int] = []
    fmt = 1  # the format may go from 1 to 2 once, never back
    broken: int | None = None
    for ln in lines:
        if ln.seq != expected:
            rep.problem(
                "verify/missing",
                expected,
                f"seq {expected}..{ln.seq - 1} がありません: ログは seq {expected - 1} から seq {ln.seq} に飛んでいます",
            )
            rep.first_break = rep.first_break or expected
        if ln.table_id != table_id:
            rep.problem(
                "verify/chain",
                ln.seq,
                f"卓 {ln.table_id!r} の出来事です（このログの卓は {table_id!r}）",
            )
        expected = ln.seq + 1
        if ln.head is None:
            if prev is not None:
                rep.problem("verify/chain", ln.seq, "鎖が続くはずのところにハッシュがありません")
                rep.first_break = rep.first_break or ln.seq
            unchained.append(ln.seq)
            continue
        if prev is None:
            prev = chain.genesis(table_id, seed_hash, ln.seq - 1)
        claimed = ln.head.lower()
        ok = len(claimed) >= chain.SHORT
        h = chain.link(prev, ln.body(chain.FORMAT))
        if ok and h.startswith(claimed):
            fmt = chain.FORMAT
        elif fmt == 1:
            old = chain.link(prev, ln.body(1))
            if ok and old.startswith(claimed):
                format1.append(ln.seq)
            if format1:
                h = old  # still in a format 1 part: its hash (or what differs) is format 1's
        hashes[ln.seq] = h
        if not (ok and h.startswith(claimed)):
            if broken is None:
                rep.problem(
                    "verify/chain",
                    ln.seq,
                    f"記録されたハッシュは {chain.short(ln.head)} ですが、内容からは {chain.short(h)} に"
                    "なります: 書かれたあとで書き換えられたか、その前の出来事が消されています",
                )
            rep.first_break = rep.first_break or ln.seq
            if len(ln.head) == 64:
                h = claimed  # go on from the stored hash: each later break is its own
            else:
                broken = broken or ln.seq  # a short head: every later one differs too
        rep.counts["chained"] += 1
        prev = h
    if broken is not None:
        rep.unchecked.append(
            (
                broken,
                f"seq {broken} 以降: 鎖がそこで切れているので、それより後の seq は一つずつは検証されません",
            )
        )
    if unchained:
        rep.unchecked.append(
            (
                unchained[0],
                f"seq {unchained[0]}..{unchained[-1]} は鎖なし（unchained）: taku がハッシュの鎖を持つ前に書かれました",
            )
        )
    if format1:
        rep.notes.append(
            f"seq {_ranges(format1)}: 鎖の形式1（event_version を鎖に含める前）です。"
            "これらの event_version は、コマンドを判定し直す出来事でだけ検証されます"
        )
    rep.head = prev or ""
    return hashes


def _check_head(head: str, hashes: dict[int, str], rep: Report) -> None:
    parsed = _parse_head(head)
    if parsed is None:
        rep.problem(
            "verify/head",
            None,
            f"{head!r} はヘッドではありません: SEQ:HEAD の形、クライアントの画面上部の「指紋」のあとの16進数です",
        )
        return
    seq, h = parsed
    if len(h) < chain.SHORT:
        # a shorter prefix is too weak: 8 digits (32 bits) are hit by a forger's search
        rep.problem(
            "verify/head",
            seq,
            f"{head!r} はヘッドとしては短すぎます: クライアントが表示する {chain.SHORT} 桁の16進数をすべて控えてください",
        )
        return
    if seq is not None:
        have = hashes.get(seq)
        if have is None:
            rep.problem(
                "verify/head",
                seq,
                f"ログはあなたの控えたヘッド {chain.short(h)} に届きません: 鎖のある seq {seq} がありません",
            )
        elif not have.startswith(h):
            brk = rep.first_break
            if brk is not None and brk <= seq:
                # the chain breaks before the head: the edit is there, not at the head
                rep.problem(
                    "verify/head",
                    brk,
                    f"鎖が seq {brk} で切れています（内容が記録されたハッシュにならない最初の seq）。"
                    f"そのため、ログは seq {seq} であなたの控えたヘッド {chain.short(h)} に届きません",
                )
            else:
                rep.problem(
                    "verify/head",
                    seq,
                    f"あなたの控えたヘッドは seq {seq} で {chain.short(h)} ですが、ログではそこが "
                    f"{chain.short(have)} です: seq {seq} までのどれかの出来事が、あなたに届いたものと違います",
                )
        return
    if not any(v.startswith(h) for v in hashes.values()):
        brk = rep.first_break
        rep.problem(
            "verify/head",
            brk,
            f"ログはどこでもあなたの控えたヘッド {chain.short(h)} に届きません"
            + (
                f": 鎖が seq {brk} で切れています（内容が記録されたハッシュにならない最初の seq）"
                if brk is not None
                else ""
            ),
        )


def _check_epochs(lines: Sequence[Line], rep: Report) -> dict[int, bytes]:
    """Each epoch's revealed seed, checked against the hash published before it."""
    seeds: dict[int, bytes] = {}
    first = lines[0].public if lines[0].seq == 1 else None
    committed = first.get("seed_hash", "") if isinstance(first, dict) else ""
    epoch, start = 0, lines[0].seq
    for ln in lines:
        ev = ln.public
        if not isinstance(ev, dict) or ev.get("type") != "seed_revealed":
            continue
        try:
            seed = bytes.fromhex(ev["seed"])
        except (KeyError, ValueError):
            rep.problem("verify/seed", ln.seq, "公開されたシードが16進数ではありません")
            seed = b""
        if seed and "sha256:" + hashlib.sha256(seed).hexdigest() != committed:
            rep.problem(
                "verify/seed",
                ln.seq,
                f"期 {epoch} の公開されたシードが、期の始めに公開されたハッシュ {committed or '（なし）'} と一致しません",
            )
        else:
            seeds[epoch] = seed
            rep.epochs.append(f"期 {epoch}（seq {start}..{ln.seq}）: seq {ln.seq} でシード公開")
        committed = ev.get("next_seed_hash", "")
        if not committed:
            return seeds  # a table without epochs: no dice after its one reveal
        epoch, start = epoch + 1, ln.seq + 1
    last = lines[-1].seq
    if not seeds and any(ln.draws for ln in lines):
        rep.problem("verify/unrevealed", None, _NOT_REVEALED)
    if start > last:
        rep.epochs.append(f"期 {epoch}（seq {last} より後）: 進行中、シード未公開")
    else:
        rep.epochs.append(f"期 {epoch}（seq {start}..{last}）: 進行中、シード未公開")
        drawn = [ln.seq for ln in lines if ln.seq >= start and ln.draws]
        if drawn:  # an open epoch without a die drawn leaves nothing unchecked
            rep.unchecked.append(
                (
                    drawn[0],
                    f"期 {epoch}（seq {start}..{last}）はシード未公開: seq {_ranges(drawn)} で"
                    "引かれたダイスは、GM がシードを公開するまで検証されません",
                )
            )
    return seeds


def _check_commitments(lines: Sequence[Line], rep: Report) -> None:
    hidden_unknown: list[int] = []
    unsalted: list[int] = []  # hidden commands shown without their salt
    for ln in lines:
        if ln.hidden:
            if ln.data is None or ln.salt is None:
                hidden_unknown.append(ln.seq)
            elif chain.commitment(ln.salt, ln.data) != ln.commitment:
                rep.problem(
                    "verify/commitment",
                    ln.seq,
                    "非公開の出来事の内容",
                )
        if ln.command_commitment is not None and ln.command is not None:
            if not ln.command_salt:
                # the chain covers the commitment, not the command shown: without the salt
                # nothing ties the two together
                unsalted.append(ln.seq)
            elif chain.commitment(ln.command_salt, ln.command) != ln.command_commitment:
                rep.problem(
                    "verify/commitment",
                    ln.seq,
                    "非公開のコマンドの内容",
                )
    if hidden_unknown:
        rep.unchecked.append(
            (
                hidden_unknown[0],
                "このログにない非公開の出来事（内容が公開されれば検証されます）: seq "
                + _ranges(hidden_unknown),
            )
        )
    if unsalted:
        rep.unchecked.append(
            (
                unsalted[0],
                "塩のない非公開のコマンド（コミットメントと照合されません）: seq "
                + _ranges(unsalted),
            )
        )


def _ranges(seqs: Sequence[int]) -> str:
    out: list[str] = []
    start = prev = seqs[0]
    for s in [*seqs[1:], None]:
        if s is not None and s == prev + 1:
            prev = s
            continue
        out.append(str(start) if start == prev else f"{start}-{prev}")
        if s is not None:
            start = prev = s
    return ", ".join(out)


def _groups(lines: Sequence[Line]) -> list[list[Line]]:
    out: list[list[Line]] = []
    for ln in lines:
        if out and out[-1][-1].command_id == ln.command_id:
            out[-1].append(ln)
        else:
            out.append([ln])
    return out


def _decide_again(
    lines: Sequence[Line],
    seeds: dict[int, bytes],
    registry: Any,
    rep: Report,
    states: dict[int, Any] | None = None,
) -> frozenset[str]:
    """Decide every command again on the state folded from the log before it; returns
    the command ids whose events came out the same. ``states`` (when given) gets, for
    each seq, ``(state after it, whether a hidden event this log lacks, and which may
    have changed the state, came before)``."""
    from taku.core import table as core_table

    first = lines[0].public if lines[0].seq == 1 else None
    if not isinstance(first, dict) or first.get("type") != "table_created":
        rep.unchecked.append(
            (
                lines[0].seq,
                "ログが卓の作成（table_created）から始まっていません: コマンドは判定し直されません",
            )
        )
        return frozenset()
    if registry is None:
        rep.unchecked.append((None, "ルールが与えられていません: コマンドは判定し直されません"))
        return frozenset()
    try:
        rs = registry.get(first["ruleset"])
    except Exception:  # noqa: BLE001 - an unknown ruleset is a reason, not a crash
        rep.unchecked.append(
            (
                None,
                f"ルール {first.get('ruleset')!r} がインストールされていません: コマンドは判定し直されません",
            )
        )
        return frozenset()
    decoder = core_table.event_decoder(rs)
    commands = core_table.command_decoder(rs)
    server = msgspec.json.Decoder(_server_union())
    encode = msgspec.json.Encoder().encode
    state = core_table.TableState(table_id=lines[0].table_id)
    proven: set[str] = set()
    not_recorded: list[int] = []
    stale: list[int] = []
    unrevealed: list[int] = []
    hidden_cmd: list[int] = []
    hidden_seen: list[int] = []  # hidden events so far whose content this log lacks
    # whether every one of them is a secret roll or a whisper that changes no state (the
    # core leaves the state alone for them and so does the ruleset's evolve): then the
    # public state is the state, and a difference past them is a finding
    neutral = True
    on_public: list[int] = []  # decided again on the public state, and matched
    undecided: list[tuple[int, str]] = []  # decided again on the public state: differs
    entries: list[Any] = []  # the log so far, for undo and redo (taku.core.undo)
    for group in _groups(lines):
        head = group[0]
        rec = head.command
        if head.seq == 1:
            pass  # table_created: the server's, checked by the chain and the seed hash
        elif rec is None and head.command_commitment is None and head.head is not None:
            # a chained event (chain format 1 on, where taku always logs the command)
            # without its command: the record was removed
            rep.problem(
                "verify/command",
                head.seq,
                "鎖に含まれた出来事なのに、判定したコマンドの記録がありません"
                "（鎖のあるログにはコマンドが必ず記録されるので、消されています）",
            )
        elif rec is None:
            (hidden_cmd if head.command_commitment else not_recorded).append(head.seq)
        elif rec.get("version") != rs.version:
            stale.append(head.seq)
        else:
            # with every event before it known, a difference is a finding; past a hidden
            # event this log lacks, the command is decided on the public state (the state
            # without those events): a match is a check, a difference may be the hidden
            # event's doing and is reported as not checked, never as verified
            into = rep if not hidden_seen or neutral else Report(counts={"commands": 0})
            if hidden_seen and _is_undo(rec):
                # an undo reads the events this log lacks (and their commands)
                into = Report(counts={"commands": 0})
            drawn_unrevealed = len(unrevealed)
            if _decide_one(
                group,
                rec,
                state,
                rs,
                seeds,
                decoder,
                commands,
                server,
                encode,
                into,
                stale_to=unrevealed,
                entries=entries,
            ):
                rep.counts["commands"] += 1
                if hidden_seen:
                    on_public.append(head.seq)
                if all(ln.data is not None for ln in group):
                    proven.add(head.command_id)
            elif len(unrevealed) > drawn_unrevealed:
                pass  # draws from an epoch whose seed is not revealed: not decided
            elif into is not rep:
                for p in into.problems:
                    undecided.append((p.seq or head.seq, p.detail))
            else:
                rep.counts["commands"] += 1  # decided again, and what differs is reported
        # the log's own events, decided again or not, make the state for the next command
        for ln in group:
            if ln.data is None:
                hidden_seen.append(ln.seq)
                neutral = neutral and _changes_nothing(ln.public, state, rs)
                state = msgspec.structs.replace(
                    state, seq=ln.seq, dice_cursor=state.dice_cursor + ln.draws
                )
            else:
                try:
                    ev = decoder.decode(encode(ln.data))
                except msgspec.ValidationError as e:
                    rep.problem("verify/decode", ln.seq, f"{rs.id} の出来事ではありません: {e}")
                    continue
                st = core_table.evolve(state, ev, rs)
                state = msgspec.structs.replace(
                    st, seq=ln.seq, dice_cursor=st.dice_cursor + ln.draws
                )
                entries.append(_undo_entry(group, ln, ev))
            if states is not None:
                states[ln.seq] = (state, bool(hidden_seen) and not neutral)
    if on_public:
        rep.notes.append(
            "seq "
            + _ranges(on_public)
            + ": 公開の状態（このログにない非公開の出来事 seq "
            + _ranges(hidden_seen)
            + " を除いた状態）で判定し直し、一致しました"
            + (
                "。それらは卓の状態を変えない出来事（シークレットダイス、ささやき）なので、これで検証は完全です"
                if neutral
                else "。卓の状態全体での判定は GM の全ログで決まります"
            )
        )
    for seq, detail in undecided:
        rep.unchecked.append(
            (
                seq,
                f"seq {seq}: 判定し直せません: 公開の状態（その前の非公開の出来事を除いた状態）"
                f"では別の結果になります（{detail}）。GM の全ログで決まります",
            )
        )
    if not_recorded:
        rep.unchecked.append(
            (
                not_recorded[0],
                "コマンドの記録なし（taku がコマンドを記録する前に書かれました）: seq "
                + _ranges(not_recorded),
            )
        )
    if hidden_cmd:
        rep.unchecked.append(
            (hidden_cmd[0], "このログにない非公開のコマンド: seq " + _ranges(hidden_cmd))
        )
    if stale:
        rep.unchecked.append(
            (
                stale[0],
                f"インストールされている {rs.id} {rs.version} とは別の版で判定されました: seq "
                + _ranges(stale),
            )
        )
    if unrevealed:
        rep.unchecked.append(
            (unrevealed[0], "シード未公開の期のダイスを引いています: seq " + _ranges(unrevealed))
        )
    return frozenset(proven)


_HIDDEN_NOT_PUBLIC = "ログでは非公開ですが、判定し直すと公開です"

_NEUTRAL = ("dice_rolled", "chat_posted")
"""The hidden events the core leaves the state alone for: a secret roll, a whisper."""


def _changes_nothing(stand_in: Any, state: Any, rs: Any) -> bool:
    """Whether the hidden event behind ``stand_in`` leaves the table's state alone: it
    is a secret roll or a whisper (the core changes nothing for them), and the
    ruleset's evolve leaves its game alone for that type too (tried on a bare event
    of the type). Only decides whether a difference past it is a finding or not
    checked: a wrong "nothing" makes a false alarm on a true log, never a pass."""
    from taku.core import table as core_table
    from taku.core.events import ChatPosted, DiceRolled

    of = stand_in.get("of") if isinstance(stand_in, dict) else None
    if of not in _NEUTRAL:
        return False
    sample = DiceRolled(expression="1D6", rolls=()) if of == "dice_rolled" else ChatPosted(text="")
    try:
        return core_table.evolve(state, sample, rs) == state
    except Exception:  # noqa: BLE001 - a ruleset that cannot take it does something with it
        return False


def _undo_entry(group: Sequence[Line], ln: Line, event: Any) -> Any:
    """``ln`` as :mod:`taku.core.undo` reads the log (the type of its command from the
    command recorded on its group's first line)."""
    from taku.core.undo import Entry

    rec = group[0].command
    decided = rec.get("decided") if isinstance(rec, dict) else None
    command = str(decided.get("type", "")) if isinstance(decided, dict) else ""
    return Entry(ln.seq, ln.command_id, ln.actor, command, event)


def _is_undo(rec: Any) -> bool:
    decided = rec.get("decided") if isinstance(rec, dict) else None
    return isinstance(decided, dict) and decided.get("type") in ("undo", "redo")


def _decide_command(state: Any, cmd: Any, ctx: Any, rs: Any, entries: Any) -> Any:
    """A member's command decided again: ``undo``/``redo`` on the log before it."""
    from taku.core import table as core_table
    from taku.core import undo
    from taku.core.commands import Redo, Undo

    if isinstance(cmd, Undo | Redo):
        return undo.decide(state, cmd, ctx, rs, entries)
    return core_table.decide(state, cmd, ctx, rs)


def _server_union() -> Any:
    from typing import Union

    from taku.core.table import SERVER_COMMANDS

    return Union[tuple(SERVER_COMMANDS)]  # noqa: UP007


def _line_time(text: str) -> Any:
    """A line's ``time`` (RFC 3339) as the ``datetime`` the command was decided at (a
    timer's deadline derives from it); ``None`` when it does not read."""
    import datetime as dt

    try:
        return msgspec.json.decode(msgspec.json.encode(text), type=dt.datetime)
    except msgspec.ValidationError:
        return None


def _decide_one(
    group, rec, state, rs, seeds, decoder, commands, server, encode, rep, *, stale_to, entries=()
) -> bool:
    from taku.core import table as core_table
    from taku.core.dice import SeededDice
    from taku.core.events import Private, Redacted, tag_of
    from taku.core.ruleset import Context
    from taku.errors import TakuError

    head = group[0]
    seq = head.seq
    found = len(rep.problems)
    if rec.get("at") != state.seq:
        rep.problem(
            "verify/command",
            seq,
            f"コマンドは seq {rec.get('at')} で判定されたとありますが、seq {state.seq} の後にあります",
        )
        return False
    decided = rec.get("decided")
    raw = encode(decided)
    try:
        if isinstance(decided, dict) and str(decided.get("type", "")).startswith("@"):
            cmd = server.decode(raw)
            is_server = True
        else:
            cmd = commands.decode(raw)
            is_server = False
    except msgspec.ValidationError as e:
        rep.problem("verify/command", seq, f"記録されたコマンドが読めません: {e}")
        return False
    seed = seeds.get(state.epoch)
    dice = SeededDice(seed, state.dice_cursor) if seed else _NoDice()
    next_hash = ""
    if isinstance(head.data, dict) and head.data.get("type") == "seed_revealed":
        next_hash = head.data.get("next_seed_hash", "")
    ctx = Context(
        actor=head.actor,
        role=state.role_of(head.actor),
        dice=dice,
        options=state.rules,
        next_seq=state.seq + 1,
        seed=seed,
        next_seed_hash=next_hash,
        now=_line_time(head.time),
        id_offset=state.id_offset,
    )
    start = dice.cursor
    try:
        emitted = (
            core_table.decide_server(state, cmd, ctx, rs)
            if is_server
            else _decide_command(state, cmd, ctx, rs, entries)
        )
    except _Unrevealed:
        stale_to.append(seq)
        return False
    except TakuError as e:
        rep.problem(
            "verify/rejected",
            seq,
            f"{decided.get('type')}: {e.message} [{e.code}]",
        )
        return False
    drew = dice.cursor - start
    if len(emitted) != len(group):
        rep.problem(
            "verify/differs",
            seq,
            f"ログにはコマンド {head.command_id} の出来事が {len(group)} 件ありますが、判定し直すと {len(emitted)} 件です",
        )
        return False
    for ln, item in zip(group, emitted, strict=True):
        audience = None
        red = None
        if isinstance(item, Private):
            event = item.event
            audience = list(item.audience)
            red = item.redacted or Redacted(of=tag_of(type(event)))
        else:
            event = item
        if ln.data is None:
            # hidden, its content not in this log: its stand-in is what can be compared
            if audience is None:
                rep.problem("verify/differs", ln.seq, _HIDDEN_NOT_PUBLIC)
            elif chain.canonical(ln.public) != chain.canonical(msgspec.json.decode(encode(red))):
                rep.problem(
                    "verify/differs",
                    ln.seq,
                    "全員に届いたスタンドイン: "
                    + (_differs(ln.public, msgspec.json.decode(encode(red))) or "違います"),
                )
            continue
        again = msgspec.json.decode(encode(event))
        if ln.event_version != type(event).version:
            rep.problem(
                "verify/differs",
                ln.seq,
                f"event_version がログでは {ln.event_version}、"
                f"判定し直すと {type(event).version} です",
            )
            continue
        if chain.canonical(ln.data) != chain.canonical(again):
            rep.problem("verify/differs", ln.seq, _differs(ln.data, again) or "出来事が違います")
            continue
        if (audience is None) != (not ln.hidden):
            rep.problem(
                "verify/differs",
                ln.seq,
                _HIDDEN_NOT_PUBLIC if ln.hidden else "ログでは公開ですが、判定し直すと非公開です",
            )
            continue
        if red is not None and chain.canonical(ln.public) != chain.canonical(
            msgspec.json.decode(encode(red))
        ):
            rep.problem(
                "verify/differs",
                ln.seq,
                "全員に届いたスタンドイン: "
                + (_differs(ln.public, msgspec.json.decode(encode(red))) or "違います"),
            )
        claimed = ln.full or ln.audience is not None  # a frame may leave it out
        if claimed and audience is not None and sorted(ln.audience or []) != sorted(audience):
            rep.problem(
                "verify/differs",
                ln.seq,
                f"ログでは {ln.audience} に見せていますが、判定し直すと {audience} に見せます",
            )
    if group[-1].draws != drew or any(ln.draws for ln in group[:-1]):
        rep.problem(
            "verify/differs",
            group[-1].seq,
            f"ログではこのコマンドが {group[-1].draws} 個の出目を引いていますが、判定し直すと {drew} 個です",
        )
    return len(rep.problems) == found


def _check_faces_by_epoch(
    lines: Sequence[Line], seeds: dict[int, bytes], rep: Report, proven: frozenset[str]
) -> None:
    """:func:`verify`'s face check on each revealed epoch's part of the log."""
    epoch, part = 0, []
    parts: list[tuple[int, list[Line]]] = []
    for ln in lines:
        part.append(ln)
        ev = ln.public
        if isinstance(ev, dict) and ev.get("type") == "seed_revealed" and ev.get("next_seed_hash"):
            parts.append((epoch, part))
            epoch, part = epoch + 1, []
    parts.append((epoch, part))
    for ep, ls in parts:
        seed = seeds.get(ep)
        if seed is None or not ls:
            continue
        entries = [
            LogEntry(
                ln.seq,
                ln.command_id,
                ln.draws,
                ln.data if ln.data is not None else ln.public,
                ln.data is None,
            )
            for ln in ls
        ]
        problems, counts = _faces(entries, seed, proven, results=False)
        for p in problems:
            seq = None
            if p.startswith("seq "):
                try:
                    seq = int(p[4:].split(":")[0].split("-")[0].split(" ")[0])
                except ValueError:
                    seq = None
            rep.problem(
                "verify/faces", seq, p.split(": ", 1)[1] if seq is not None and ": " in p else p
            )
        rep.counts["rolls"] += counts["rolls"]
        rep.counts["faces"] += counts["faces"]


def _check_display(lines: Sequence[Line], rs: Any, states: dict[int, Any], rep: Report) -> None:
    """The display fields of exported frames (``text``, ``speaker``, ``outcome``), which
    the chain does not cover, against the event they show rendered again.

    An export renders every line with the table's state at export time (today's names
    and colours), a client's saved frames with the state when each arrived (or, for a
    catch-up, when the client joined): a rendering with any state the log went
    through is accepted, so a line must show what some state of the table renders. Past a hidden event this log lacks, the state is the
    public one, and a difference is reported as not checked (a render may read hidden
    state); so is every line of a log whose ruleset is not installed or another version.
    """
    from taku.app import speaker_of
    from taku.core import table as core_table
    from taku.core.render import outcome, render

    shown_lines = [ln for ln in lines if ln.text is not None]
    if not shown_lines:
        return
    first = lines[0].public if lines[0].seq == 1 else None
    version = first.get("ruleset_version") if isinstance(first, dict) else None
    if rs is None or not states or (version is not None and version != rs.version):
        rep.unchecked.append(
            (
                shown_lines[0].seq,
                "表示（文面・発言者・成否）は検証されません: それを書いた版の卓のルールが"
                "インストールされていません",
            )
        )
        return
    decoder = core_table.event_decoder(rs)
    encode = msgspec.json.Encoder().encode
    final, _ = states[max(states)]
    group_end: dict[int, int] = {}
    for group in _groups(lines):
        for ln in group:
            group_end[ln.seq] = group[-1].seq
    # a client's saved catch-up frames are rendered with the state when it joined: on
    # a difference, every state with other names, members or colours is tried too
    shown_by: list[Any] = []
    for seq in sorted(states):
        st = states[seq][0]
        last = shown_by[-1] if shown_by else None
        if last is None or (st.characters, st.members, st.chat) != (
            last.characters,
            last.members,
            last.chat,
        ):
            shown_by.append(st)
    unsure: list[int] = []
    for ln in shown_lines:
        if ln.seq not in states:
            continue  # not folded (not an event of the ruleset): reported already
        shown_json = ln.data if ln.data is not None else ln.public
        try:
            shown = decoder.decode(encode(shown_json))
        except msgspec.ValidationError:
            continue  # verify/decode names it
        at_seq, hidden_before = states[group_end.get(ln.seq, ln.seq)]
        found: str | None = None
        tried = [final, at_seq]
        for st in itertools.chain(tried, (x for x in shown_by if x not in tried)):
            try:
                text = render(shown, st, rs, ln.actor)
            except Exception:  # noqa: BLE001 - the server shows the type when render fails
                text = str(shown_json.get("type", "")) if isinstance(shown_json, dict) else ""
            sp = speaker_of(st, shown, ln.actor)
            want = {
                "text": text,
                "speaker": msgspec.to_builtins(sp) if sp is not None else None,
                "outcome": outcome(shown),
            }
            got = {"text": ln.text, "speaker": ln.speaker, "outcome": ln.outcome}
            diff = _differs(got, want)
            if diff is None:
                found = None
                break
            found = found or diff  # what differs from today's rendering, for the report
        if found is None:
            continue
        if hidden_before:
            unsure.append(ln.seq)
        else:
            rep.problem(
                "verify/display",
                ln.seq,
                found.replace("判定し直すと", "出来事から作り直すと"),
            )
    if unsure:
        rep.unchecked.append(
            (
                unsure[0],
                "このログにない非公開の出来事のあとで、表示が公開の状態から作り直したものと"
                "違います（GM の全ログで決まります）: seq " + _ranges(unsure),
            )
        )


def check_fork(lines: Sequence[Line], source: Sequence[Line], registry: Any, rep: Report) -> None:
    """A forked table's prefix, through its source's log: the source verifies and reaches
    the head ``table_created.forked_from`` names at its seq, and the fork's
    ``table_forked`` carries exactly the source's state there (folded from the source's
    log). Findings go into ``rep`` (``verify/fork``; the source's own, named so).
    """
    from taku.core import table as core_table
    from taku.core import undo

    lines = sorted(lines, key=lambda x: x.seq)
    first = lines[0].public if lines and lines[0].seq == 1 else None
    origin = first.get("forked_from") if isinstance(first, dict) else None
    if not isinstance(origin, dict):
        rep.problem(
            "verify/fork",
            1,
            "分岐した卓のログではありません（table_created.forked_from がありません）",
        )
        return
    # checked here (or named again below when it cannot be)
    rep.unchecked[:] = [u for u in rep.unchecked if not u[1].startswith(_FORK_UNCHECKED)]
    seq, head = int(origin.get("seq", 0)), str(origin.get("head", ""))
    src = verify_log(source, registry, heads=(f"{seq}:{head}",) if head else ())
    for p in src.problems:
        rep.problems.append(Finding(p.code, p.seq, f"分岐元 {origin.get('table_id')}: {p.detail}"))
    for at, why in src.unchecked:
        rep.unchecked.append((at, f"分岐元: {why}"))
    source = sorted(source, key=lambda x: x.seq)
    if not source or source[0].table_id != origin.get("table_id"):
        rep.problem(
            "verify/fork", 1, f"分岐元のログが卓 {origin.get('table_id')} のものではありません"
        )
        return
    forked = next(
        (ln for ln in lines if isinstance(ln.data, dict) and ln.data.get("type") == "table_forked"),
        None,
    )
    joined = next((ln for ln in lines[2:3] if isinstance(ln.data, dict)), None)
    if forked is None or registry is None:
        rep.unchecked.append(
            (
                None,
                "分岐で引き継いだ状態は検証されません（table_forked がないか、ルールが与えられていません）",
            )
        )
        return
    assert isinstance(first, dict)
    rs = registry.get(first["ruleset"])
    decoder = core_table.event_decoder(rs)
    encode = msgspec.json.Encoder().encode
    state = core_table.TableState(table_id=source[0].table_id)
    for ln in source:
        if ln.seq > seq:
            break
        if ln.data is None:
            rep.unchecked.append(
                (
                    ln.seq,
                    "分岐元の非公開の出来事がそのログにありません: 引き継いだ状態は検証されません"
                    "（GM の全ログなら検証されます）",
                )
            )
            return
        st = core_table.evolve(state, decoder.decode(encode(ln.data)), rs)
        state = msgspec.structs.replace(st, seq=ln.seq)
    if state.seq != seq:
        rep.problem("verify/fork", forked.seq, f"分岐元のログが seq {seq} より前で終わっています")
        return
    forker = joined.data.get("member_id") if joined is not None and joined.data else None
    expected = undo.fork_state(state, forker)
    got = forked.data.get("state", {}) if isinstance(forked.data, dict) else {}
    if chain.canonical(got) != chain.canonical(msgspec.json.decode(encode(expected))):
        rep.problem(
            "verify/fork",
            forked.seq,
            _differs(got, msgspec.json.decode(encode(expected)))
            or "引き継いだ状態が、分岐元のその seq の状態と違います",
        )
    else:
        rep.counts["fork_prefix"] = seq
