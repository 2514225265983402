"""Known answers of the server's dice: these faces and shuffles are what today's generator gives.

Every log ever written was rolled by :func:`taku.core.dice.face_at` and shuffled by
:func:`taku.core.dice.fisher_yates`; ``taku verify`` recomputes them from the
revealed seed. Changing either (the HMAC label, the attempt counter, the
rejection limit, the order of swaps) changes every face of every table and makes
every earlier log fail verification. The values below were computed once from
the generator and are literals on purpose: never update them to make a change
pass. A new generator needs a new, versioned name that verify picks by the log's
version (like an upcaster), with these vectors kept for the old one.

``known_answer_log.jsonl`` is a yodomi table's whole log (a deck shuffle of 54,
a 2D9 check, the key number, four chat rolls) written by this version with
``SEED`` and the table id ``known-answer-table``, in the lines
``taku verify FILE`` reads.
"""

from __future__ import annotations

import hmac
import json
from pathlib import Path

import pytest

from taku import cli
from taku.core import chatdice
from taku.core import dice as dice_module
from taku.core.dice import SeededDice, face_at, fisher_yates, seed_hash
from taku.verify import LogEntry, verify

SEED = bytes(range(32))
"""The known-answer seed: bytes 0x00 … 0x1f."""
TABLE_ID = "known-answer-table"
"""The table of the known-answer log (the faces depend only on the seed, never on the table id)."""
LOG = Path(__file__).parent / "data" / "known_answer_log.jsonl"

FIRST_FACES = {
    1: (1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
    2: (1, 1, 2, 2, 1, 2, 1, 1, 1, 2),
    3: (2, 1, 1, 3, 2, 1, 1, 2, 2, 3),
    4: (1, 3, 2, 4, 1, 2, 3, 3, 3, 4),
    6: (5, 1, 4, 6, 5, 4, 1, 5, 5, 6),
    8: (1, 3, 6, 8, 5, 6, 3, 3, 3, 8),
    10: (3, 1, 2, 4, 1, 10, 9, 9, 9, 8),
    12: (5, 7, 10, 12, 5, 10, 7, 11, 11, 12),
    20: (13, 11, 2, 4, 1, 10, 19, 19, 19, 8),
    100: (53, 51, 82, 4, 61, 10, 99, 39, 39, 48),
    1000: (753, 251, 982, 504, 261, 110, 899, 939, 539, 48),
}
"""Faces 0 … 9 of SEED's stream, read as a die of each size."""

SHUFFLE_54 = (
    49, 13, 20, 21, 50, 33, 26, 2, 34, 42, 1, 37, 53, 41, 15, 12, 28, 23, 39, 48, 24, 7, 36, 17, 44, 14, 46,
    31, 47, 27, 52, 6, 11, 51, 35, 29, 25, 3, 40, 30, 4, 0, 38, 19, 32, 8, 9, 18, 43, 10, 5, 45, 22, 16,
)  # fmt: skip
"""The first shuffle of 54 (a yodomi deck) of SEED's stream: faces 0 … 52."""


@pytest.mark.parametrize("sides", sorted(FIRST_FACES))
def test_first_faces_of_each_die_size(sides: int) -> None:
    """The first ten faces of the known seed for a d1 … d1000 (face k read as a die of ``sides``)."""
    assert tuple(face_at(SEED, k, sides) for k in range(10)) == FIRST_FACES[sides]
    roll = SeededDice(SEED).roll(10, sides)
    assert (roll.sides, roll.faces, roll.at) == (sides, FIRST_FACES[sides], 0)


def test_seed_commitment() -> None:
    """The hash a table publishes before its first roll."""
    assert (
        seed_hash(SEED) == "sha256:630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    )


def test_d66_is_two_d6_read_in_order() -> None:
    """A D66 of the known seed: faces 5 then 1 of two d6 read 51 (D66S sorts to 15)."""
    event = chatdice.parse_strict("D66").roll(SeededDice(SEED))
    ((roll,),) = [event.rolls]
    assert (roll.sides, roll.faces, roll.at) == (6, (5, 1), 0)
    assert event.total == 51 and event.result == "(D66) ＞ 51"
    assert chatdice.parse_strict("D66S").roll(SeededDice(SEED)).total == 15


def test_a_shuffle_of_54_and_the_faces_after_it() -> None:
    """The first shuffle of 54 draws faces 0 … 52; the next roll starts at face 53."""
    dice = SeededDice(SEED)
    shuffle = dice.shuffle(54)
    assert (shuffle.size, shuffle.order, shuffle.at) == (54, SHUFFLE_54, 0)
    assert dice.cursor == 53
    after = dice.roll(6, 6)
    assert (after.faces, after.at) == ((6, 2, 3, 4, 6, 6), 53)
    assert (dice.roll(3, 100).faces, dice.cursor) == ((47, 89, 41), 62)


def test_a_shuffle_from_a_cursor() -> None:
    """A shuffle of 5 at face 7 draws faces 7 … 10 (a d5, d4, d3, d2) and the next roll is face 11."""
    dice = SeededDice(SEED, cursor=7)
    shuffle = dice.shuffle(5)
    assert (shuffle.order, shuffle.at, dice.cursor) == ((0, 1, 4, 2, 3), 7, 11)
    assert dice.roll(2, 6).faces == (6, 1)


@pytest.mark.parametrize(
    ("size", "faces", "order"),
    [
        (0, [], ()),
        (1, [], (0,)),
        (2, [1], (1, 0)),
        (2, [2], (0, 1)),
        (4, [1, 1, 1], (1, 2, 3, 0)),
        (5, [5, 4, 3, 2], (0, 1, 2, 3, 4)),
        (5, [2, 3, 1, 2], (3, 4, 0, 2, 1)),
    ],
)
def test_fisher_yates_known_answers(size: int, faces: list[int], order: tuple[int, ...]) -> None:
    """Face j (a die of size - j) swaps item size-1-j with item face-1; faces at the top keep the order."""
    assert fisher_yates(size, faces) == order


def test_shuffles_of_0_and_1_draw_nothing() -> None:
    dice = SeededDice(SEED, cursor=3)
    assert dice.shuffle(0).order == () and dice.shuffle(1).order == (0,)
    assert dice.cursor == 3


def test_a_rejected_draw_takes_the_next_attempt(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rejection sampling: a 64-bit value at or above the largest multiple of the die is drawn again
    with attempt 1; one just below it is kept (so every face has probability exactly 1/sides)."""
    real = hmac.new
    limit6 = (1 << 64) - (1 << 64) % 6
    first = {}

    def fake(key: bytes, msg: bytes, digestmod: object) -> object:
        if msg in first:
            return type(
                "D", (), {"digest": lambda self: first[msg].to_bytes(8, "big") + bytes(24)}
            )()
        return real(key, msg, digestmod)

    monkeypatch.setattr(dice_module.hmac, "new", fake)
    first[b"taku/dice/0/0"] = limit6  # rejected
    first[b"taku/dice/1/0"] = limit6 - 1  # kept: the last value of the last full cycle, a 6
    first[b"taku/dice/2/0"] = (1 << 64) - 1  # rejected
    first[b"taku/dice/3/0"] = first[b"taku/dice/3/1"] = limit6 + 1  # rejected twice
    assert face_at(SEED, 1, 6) == 6
    assert face_at(SEED, 0, 6) == 3  # HMAC(SEED, "taku/dice/0/1"): not the 5 of attempt 0
    assert face_at(SEED, 2, 6) == 6  # HMAC(SEED, "taku/dice/2/1"): not the 4 of attempt 0
    assert face_at(SEED, 3, 6) == 5  # HMAC(SEED, "taku/dice/3/2"): the third attempt
    assert face_at(SEED, 0, 1) == 1  # a d1 rejects nothing: 2**64 is a multiple of 1


def _entries() -> list[LogEntry]:
    lines = [json.loads(line) for line in LOG.read_text("utf-8").splitlines()]
    return [LogEntry(d["seq"], d["command_id"], d["draws"], d["event"]) for d in lines]


def test_a_log_written_by_this_version_still_verifies(capsys: pytest.CaptureFixture[str]) -> None:
    """``taku verify`` on the checked-in log: the shuffle, the 2D9, the key number and the chat rolls."""
    entries = _entries()
    assert entries[0].data["seed_hash"] == seed_hash(SEED) and TABLE_ID in LOG.read_text("utf-8")
    assert [e.data["type"] for e in entries if e.draws] == [
        "yodomi.key_number_rolled",
        "yodomi.cards_dealt",
        "yodomi.check_rolled",
        *["dice_rolled"] * 4,
    ]
    problems, counts = verify(entries)
    assert problems == []
    assert counts == {"events": 14, "rolls": 7, "faces": 65, "skipped": 0}
    # written before the hash chain and the logged commands: its faces verify, but it is
    # only PARTLY VERIFIED (exit 3), and it says which seqs were not checked and why
    assert cli.main(["verify", str(LOG)]) == 3
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith(
        "一部のみ検証 [PARTLY VERIFIED]: 出来事 14 件、ダイス 7 回（出目 65 個）、判定し直したコマンド 0 件"
    ), out
    assert any("unchained" in line and "seq 1..14" in line for line in out), out
