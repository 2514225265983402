"""The limits every dice source enforces, and the scripted dice tests rely on."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from taku.core.dice import MAX_SIDES, DiceSource, Roll, ScriptedDice, SeededDice, Shuffle
from taku.errors import DiceError

SEED = b"\x05" * 32


@pytest.mark.parametrize(
    "make", [lambda: SeededDice(SEED), lambda: ScriptedDice([1] * 5)], ids=["seeded", "scripted"]
)
@pytest.mark.parametrize(
    ("n", "sides", "code", "message"),
    [
        (-1, 6, "dice/invalid", "a negative number of dice"),
        (1, 0, "dice/invalid", "a die needs at least one face"),
        (1, -6, "dice/invalid", "a die needs at least one face"),
        (1, MAX_SIDES + 1, "dice/too_many_faces", "a die may have at most 1000 faces"),
    ],
)
def test_impossible_dice_are_refused(
    make: Callable[[], DiceSource], n: int, sides: int, code: str, message: str
) -> None:
    """A negative count, a die without faces or one of more than 1000 faces is a DiceError with its code."""
    dice = make()
    with pytest.raises(DiceError, match=f"^{message}$") as e:
        dice.roll(n, sides)
    assert e.value.code == code
    assert dice.cursor == 0


def test_the_limits_themselves_are_allowed() -> None:
    """No dice (a pool of 0), a d1 and a d1000 are all rollable; no dice draws no face."""
    dice = SeededDice(SEED)
    assert dice.roll(0, 6) == Roll(sides=6, faces=(), at=0) and dice.cursor == 0
    assert dice.roll(1, 1) == Roll(sides=1, faces=(1,), at=0) and dice.cursor == 1
    big = dice.roll(3, MAX_SIDES)
    assert (
        big.sides == 1000
        and big.at == 1
        and all(1 <= f <= 1000 for f in big.faces)
        and dice.cursor == 4
    )
    assert MAX_SIDES == 1000


def test_a_roll_records_its_faces_size_and_place() -> None:
    dice = SeededDice(SEED, cursor=10)
    r = dice.roll(3, 6)
    assert (r.sides, len(r.faces), r.at, r.total) == (6, 3, 10, sum(r.faces)) and dice.cursor == 13


class TestScriptedDice:
    def test_faces_come_in_order_and_are_recorded(self) -> None:
        dice = ScriptedDice([3, 4, 9])
        assert dice.roll(2, 6) == Roll(sides=6, faces=(3, 4), at=0)
        assert dice.remaining == [9] and dice.cursor == 2
        assert dice.roll(1, 10) == Roll(sides=10, faces=(9,), at=2)
        assert dice.rolled == [Roll(sides=6, faces=(3, 4), at=0), Roll(sides=10, faces=(9,), at=2)]
        assert dice.remaining == [] and dice.cursor == 3

    def test_sizes_say_which_dice_were_rolled(self) -> None:
        """One entry a die: a D66 is [6, 6], a 2D9 [10, 10]; no dice add nothing."""
        dice = ScriptedDice([5, 2, 10, 1])
        dice.roll(2, 6)
        dice.roll(0, 6)
        dice.roll(2, 10)
        assert dice.sizes == [6, 6, 10, 10]

    def test_the_last_faces_can_be_rolled(self) -> None:
        dice = ScriptedDice([1, 2])
        assert dice.roll(2, 2).faces == (1, 2) and dice.remaining == []

    def test_running_out_fails_the_test(self) -> None:
        dice = ScriptedDice([1])
        with pytest.raises(
            AssertionError, match=r"^scripted dice ran out: wanted 2d6, have \[1\]$"
        ):
            dice.roll(2, 6)

    @pytest.mark.parametrize(("face", "sides"), [(7, 6), (0, 6), (0, 10), (11, 10), (2, 1)])
    def test_a_face_the_die_cannot_show_fails_the_test(self, face: int, sides: int) -> None:
        """A d6 cannot show 7, nor a d10 0 (a D9's 0 is scripted as the d10's 10)."""
        dice = ScriptedDice([face])
        with pytest.raises(
            AssertionError, match=rf"^scripted face {face} does not fit a d{sides}$"
        ):
            dice.roll(1, sides)
        assert dice.rolled == []

    def test_every_face_is_checked_not_only_the_first(self) -> None:
        with pytest.raises(AssertionError, match="scripted face 7 does not fit a d6"):
            ScriptedDice([6, 7]).roll(2, 6)

    def test_extend_scripts_more_faces_after_the_waiting_ones(self) -> None:
        dice = ScriptedDice([1])
        dice.extend([2, 3])
        assert dice.remaining == [1, 2, 3]
        assert dice.roll(3, 6).faces == (1, 2, 3)

    def test_remaining_is_a_copy(self) -> None:
        dice = ScriptedDice([1, 2])
        dice.remaining.clear()
        assert dice.remaining == [1, 2]

    def test_scripted_shuffles_then_the_identity(self) -> None:
        """Shuffles come from the script in order (given at creation or added); then the identity."""
        dice = ScriptedDice(shuffles=[[2, 0, 1]])
        dice.add_shuffle((1, 0))
        assert dice.shuffle(3) == Shuffle(size=3, order=(2, 0, 1), at=-1)
        assert dice.shuffle(2) == Shuffle(size=2, order=(1, 0), at=-1)
        assert dice.shuffle(4) == Shuffle(size=4, order=(0, 1, 2, 3), at=-1)
        assert dice.cursor == 0

    @pytest.mark.parametrize("order", [[0, 1], [0, 0, 1], [1, 2, 3]])
    def test_a_scripted_shuffle_must_be_a_permutation_of_the_size(self, order: list[int]) -> None:
        dice = ScriptedDice(shuffles=[order])
        with pytest.raises(
            AssertionError, match=r"^scripted shuffle \(.*\) is not a permutation of 3$"
        ):
            dice.shuffle(3)
