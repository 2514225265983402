"""Dice sources: every roll and shuffle of a table comes from one of these.

A dice source is an *input* of the pure core (``ctx.dice``): deciders call it,
and every face it returns is written into the event as a :class:`Roll` (or a
:class:`Shuffle`), so a fold or a replay never rolls again.

Two sources ship:

- :class:`SeededDice`, the server's: face number ``k`` of a table is drawn from
  HMAC-SHA256 over the table's secret seed and ``k`` with rejection sampling, so
  faces are unbiased and anybody holding the seed (revealed at the end of a
  session, core event ``seed_revealed``) can recompute every face of the log
  (``taku verify``).
- :class:`ScriptedDice`, for tests: the faces (and shuffles) are given in order.

A :class:`Roll` records ``at``, the index of its first face in the table's face
stream; the faces of one table tile ``0, 1, 2 …`` without gap or overlap.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Sequence
from typing import Annotated, ClassVar, Protocol

import msgspec

from taku.errors import DiceError

__all__ = [
    "DiceSource",
    "Roll",
    "ScriptedDice",
    "SeededDice",
    "Shuffle",
    "epoch_seed",
    "face_at",
    "fisher_yates",
    "seed_hash",
]

MAX_SIDES = 1000
"""The most faces one die may have (issue: more than 1000 faces is an error)."""


class Roll(msgspec.Struct, frozen=True, kw_only=True):
    """Dice rolled at once: ``faces`` of ``sides``-sided dice, in the order rolled.

    ``at`` is the index of the first face in the table's face stream (see module doc).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(title="出目", description="同時に振ったダイス")

    sides: Annotated[int, msgspec.Meta(title="面数")]
    faces: Annotated[tuple[int, ...], msgspec.Meta(title="出目")]
    at: Annotated[int, msgspec.Meta(title="位置", description="卓のダイス列で最初の出目の番号")] = 0

    @property
    def total(self) -> int:
        return sum(self.faces)


class Shuffle(msgspec.Struct, frozen=True, kw_only=True):
    """A permutation of ``size`` items drawn from the face stream (Fisher-Yates).

    ``order[i]`` is the index (in the unshuffled list) of the item now at
    position ``i``. It uses ``size - 1`` faces starting at ``at``; a scripted
    shuffle uses none and has ``at = -1``.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="シャッフル", description="卓のダイス列から引いた並べ替え"
    )

    size: Annotated[int, msgspec.Meta(title="枚数")]
    order: Annotated[tuple[int, ...], msgspec.Meta(title="並び")]
    at: Annotated[
        int,
        msgspec.Meta(title="位置", description="卓のダイス列で最初の数の番号（-1: 台本どおり）"),
    ] = -1


class DiceSource(Protocol):
    """Where a decider gets its randomness. Never global, always ``ctx.dice``."""

    def roll(self, n: int, sides: int) -> Roll:
        """Roll ``n`` dice of ``sides`` faces (1..sides). Raises DiceError past the limits."""
        ...

    def shuffle(self, size: int) -> Shuffle:
        """A uniformly random permutation of ``range(size)``."""
        ...

    @property
    def cursor(self) -> int:
        """The index of the next face in the table's face stream."""
        ...


def seed_hash(seed: bytes) -> str:
    """The public commitment to a table's seed: ``sha256:<hex>`` of the seed bytes."""
    return "sha256:" + hashlib.sha256(seed).hexdigest()


def epoch_seed(master: bytes, epoch: int, *, epochs: bool = True) -> bytes:
    """The dice seed of ``epoch`` (0, 1, 2 …) of a table whose secret is ``master``.

    Each ``reveal_seed`` publishes the current epoch's seed and begins the next;
    epoch seeds are HMAC-SHA256(master, "taku/epoch/<n>"), so a revealed one tells
    nothing of the next. A table from before epochs (``epochs=False``) has one
    seed, ``master`` itself.
    """
    if not epochs:
        return master
    return hmac.new(master, b"taku/epoch/%d" % epoch, hashlib.sha256).digest()


def face_at(seed: bytes, k: int, sides: int) -> int:
    """Face number ``k`` of the stream keyed by ``seed``, for a ``sides``-sided die.

    HMAC-SHA256(seed, "taku/dice/<k>/<attempt>") read as a 64-bit integer; values
    at or above the largest multiple of ``sides`` are rejected and the next attempt
    is drawn, so every face has probability exactly 1/sides.
    """
    limit = (1 << 64) - ((1 << 64) % sides)
    attempt = 0
    while True:
        digest = hmac.new(seed, b"taku/dice/%d/%d" % (k, attempt), hashlib.sha256).digest()
        value = int.from_bytes(digest[:8], "big")
        if value < limit:
            return value % sides + 1
        attempt += 1


def fisher_yates(size: int, faces: Iterable[int]) -> tuple[int, ...]:
    """The permutation Fisher-Yates makes of ``range(size)`` from ``size - 1`` faces.

    The ``j``-th face (0-based) is a die of ``size - j`` sides; item ``i = size-1-j``
    is swapped with item ``face - 1``.
    """
    order = list(range(size))
    it = iter(faces)
    for i in range(size - 1, 0, -1):
        j = next(it) - 1
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def _check(n: int, sides: int) -> None:
    if n < 0:
        raise DiceError(
            "a negative number of dice", code="dice/invalid", reason="ダイスの数が負です"
        )
    if sides < 1:
        raise DiceError(
            "a die needs at least one face",
            code="dice/invalid",
            reason="ダイスの面の数は1以上にしてください",
        )
    if sides > MAX_SIDES:
        raise DiceError(f"a die may have at most {MAX_SIDES} faces", code="dice/too_many_faces")


class SeededDice:
    """The server's dice: faces from HMAC-SHA256 over the table's secret seed.

    Args:
        seed: the table's secret seed (32 random bytes, made by the application).
        cursor: the index of the next face (the table state's ``dice_cursor``).
    """

    def __init__(self, seed: bytes, cursor: int = 0) -> None:
        self._seed = seed
        self._cursor = cursor

    @property
    def cursor(self) -> int:
        return self._cursor

    def roll(self, n: int, sides: int) -> Roll:
        _check(n, sides)
        at = self._cursor
        faces = tuple(face_at(self._seed, at + i, sides) for i in range(n))
        self._cursor += n
        return Roll(sides=sides, faces=faces, at=at)

    def shuffle(self, size: int) -> Shuffle:
        at = self._cursor
        faces = [face_at(self._seed, at + j, size - j) for j in range(max(size - 1, 0))]
        self._cursor += len(faces)
        return Shuffle(size=size, order=fisher_yates(size, faces), at=at)


class ScriptedDice:
    """Dice for tests: returns the given faces in order, and the given shuffles.

    Args:
        faces: the faces to return, in the order they will be rolled.
        shuffles: permutations to return from :meth:`shuffle`, in order; when
            none is left, a shuffle is the identity.

    Raises:
        AssertionError: when a script runs out or a face does not fit the die, so
            a test that rolls more (or other) dice than its rulebook example fails.

    :attr:`rolled` keeps every roll and :attr:`sizes` the size of every die asked
    for, so a test can assert the dice a rule rolls, not only their faces: a
    scripted 5 fits a d6 and a d7 alike, so only ``sizes`` tells a D66 (``[6, 6]``)
    from two d7s, or yodomi's 2D9 (two d10 read 0-9, ``[10, 10]``) from two d9s.
    """

    def __init__(
        self, faces: Iterable[int] = (), *, shuffles: Iterable[Sequence[int]] = ()
    ) -> None:
        self._faces = list(faces)
        self._shuffles = [tuple(s) for s in shuffles]
        self._cursor = 0
        self.rolled: list[Roll] = []
        """Every roll made, for assertions."""

    @property
    def cursor(self) -> int:
        return self._cursor

    @property
    def sizes(self) -> list[int]:
        """The number of faces of every die rolled so far, one entry a die, in order."""
        return [r.sides for r in self.rolled for _ in r.faces]

    @property
    def remaining(self) -> list[int]:
        """The scripted faces not rolled yet."""
        return list(self._faces)

    def extend(self, faces: Iterable[int]) -> None:
        """Script more faces after the ones still waiting."""
        self._faces.extend(faces)

    def add_shuffle(self, order: Sequence[int]) -> None:
        self._shuffles.append(tuple(order))

    def roll(self, n: int, sides: int) -> Roll:
        _check(n, sides)
        if len(self._faces) < n:
            raise AssertionError(f"scripted dice ran out: wanted {n}d{sides}, have {self._faces}")
        faces = tuple(self._faces[:n])
        del self._faces[:n]
        for f in faces:
            if not 1 <= f <= sides:
                raise AssertionError(f"scripted face {f} does not fit a d{sides}")
        roll = Roll(sides=sides, faces=faces, at=self._cursor)
        self._cursor += n
        self.rolled.append(roll)
        return roll

    def shuffle(self, size: int) -> Shuffle:
        if self._shuffles:
            order = self._shuffles.pop(0)
            if sorted(order) != list(range(size)):
                raise AssertionError(f"scripted shuffle {order} is not a permutation of {size}")
            return Shuffle(size=size, order=order)
        return Shuffle(size=size, order=tuple(range(size)))
