"""The 流れ deck's card codes, its order, and the values cards add (YD-23 … YD-28, G-YD-07)."""

from __future__ import annotations

from typing import Any

import pytest

from taku_yodomi import _cards
from taku_yodomi import commands as C
from taku_yodomi._cards import card_at, card_value, deck_from_order, flow_bonus, full_deck


@pytest.mark.parametrize(
    "code", ["D1", "d1", "DA", "S10", "HQ", "♤5", "♡1", "JOKER1", "joker2", "jk1", "♠1", "X5", ""]
)
def test_a_card_is_one_of_the_54_codes(code: str) -> None:
    """Cards on the wire are one closed set, the 54 codes (♠A … ♣K, JK1, JK2): an alias such as
    D1 or JOKER1, or a rank written 1, is refused when the command is read (nothing is guessed)."""
    import msgspec

    with pytest.raises(msgspec.ValidationError, match="Invalid enum value"):
        msgspec.convert(
            {"type": "yodomi.roll_check", "character_id": "c1", "value": 4, "cards": [code]},
            C.RollCheck,
        )


async def test_cards_play_on_a_check(new_table: Any, order: Any) -> None:
    """♦A and JK1 from the hand on a 2D9 check; the check rolls two d10."""
    yd = await new_table(shuffles=[order("♦A", "JK1")])
    await yd.h.send(yd.pa, C.ChooseSuit(character_id=yd.a, suit="♠"))
    await yd.h.send(yd.h.gm, C.DealCards(character_id=yd.a, count=2))
    yd.h.roll(2, 3)
    rolled, played = await yd.h.send(
        yd.pa, C.RollCheck(character_id=yd.a, value=4, cards=["♦A", "JK1"])
    )
    assert yd.h.dice.sizes == [10, 10]
    assert played.cards == ("♦A", "JK1") and played.counted == "JK1" and played.bonus == 21
    assert yd.game.hands[yd.a] == [] and yd.game.discards == ["♦A", "JK1"]


def test_the_unshuffled_deck() -> None:
    """♠A … ♠K, ♥A … ♥K, ♦A … ♦K, ♣A … ♣K, then JK1 and JK2: 54 distinct cards."""
    deck = full_deck()
    assert len(deck) == _cards.DECK_SIZE == 54 and len(set(deck)) == 54
    assert (
        deck[:3] == ("♠A", "♠2", "♠3")
        and deck[12:14] == ("♠K", "♥A")
        and deck[51:] == ("♣K", "JK1", "JK2")
    )
    assert [card_at(i) for i in (0, 9, 10, 25, 26, 39, 52, 53)] == [
        "♠A",
        "♠10",
        "♠J",
        "♥K",
        "♦A",
        "♣A",
        "JK1",
        "JK2",
    ]
    assert (
        all(_cards.is_card(c) for c in deck)
        and not _cards.is_card("♦1")
        and not _cards.is_card("JK3")
    )


def test_suits_and_ranks() -> None:
    assert (_cards.suit_of("♦10"), _cards.rank_of("♦10")) == ("♦", "10")
    assert (_cards.suit_of("JK2"), _cards.rank_of("JK2")) == (None, None)


def test_deck_from_order() -> None:
    """A shuffle's order puts card ``order[k]`` at position k (0 is the top); any list of cards can be shuffled."""
    assert deck_from_order([53, 0, 1] + list(range(2, 53)))[:3] == ("JK2", "♠A", "♠2")
    assert deck_from_order([2, 0, 1], ["♦2", "JK1", "♠K"]) == ("♠K", "♦2", "JK1")


@pytest.mark.parametrize(
    ("cards", "key", "expected"),
    [
        (["♦7"], 7, (10, "♦7")),  # the key number's rank counts 10 (YD-27)
        (["♦7"], None, (7, "♦7")),
        (["♦7"], 6, (7, "♦7")),
        (["♦7", "♠7"], 7, (11, "♦7")),  # only the own-suit card counts at its value
        (["♠K", "♥2"], 2, (2, None)),
        ([], 3, (0, None)),
    ],
)
def test_flow_bonus_uses_the_key_number(
    cards: list[str], key: int | None, expected: tuple[int, str | None]
) -> None:
    assert flow_bonus(cards, "♦", key) == expected


def test_flow_bonus_refusals_say_why() -> None:
    """YD-25: one own-suit card at most; YD-64: under 蝕み none at all (jokers then add 1)."""
    with pytest.raises(ValueError, match="^自分のスートの「流れ」は一枚だけ出せます$"):
        flow_bonus(["♦3", "♦4"], "♦", None)
    with pytest.raises(ValueError, match="^蝕み: 自分のスートの「流れ」は使えません$"):
        flow_bonus(["♦3"], "♦", None, own_suit_barred=True)
    assert flow_bonus(["JK1", "JK2"], "♦", None, own_suit_barred=True) == (2, None)
    assert flow_bonus(["♦3", "JK1"], None, None) == (
        21,
        "JK1",
    )  # no suit chosen: a joker still counts 20


def test_card_values_of_every_rank() -> None:
    """YD-27 on a whole suit without a key number: A 20, 2-10 their number, J Q K 10; jokers 20."""
    assert [card_value(f"♣{r}", None) for r in _cards.RANKS] == [
        20,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
        9,
        10,
        10,
        10,
        10,
    ]
    assert card_value("JK2", 5) == 20


@pytest.mark.parametrize(
    ("code", "label"),
    [
        ("♦10", "♦10（ダイヤの10）"),
        ("♠A", "♠A（スペードのA）"),
        ("♥Q", "♥Q（ハートのQ）"),
        ("♣K", "♣K（クラブのK）"),
        ("JK1", "JK1（ジョーカー）"),
        ("JK2", "JK2（ジョーカー）"),
    ],
)
def test_a_card_for_people(code: str, label: str) -> None:
    """How a card is named in choices and lines: its code, then suit and rank in Japanese."""
    assert _cards.card_label(code) == label
