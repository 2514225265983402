"""The 流れ deck: 52 cards and 2 jokers, their codes and their values.

澱み流れ "流れ"ルール ▼「流れ」の使用方法 (CHECKLIST YD-23 … YD-28, G-YD-07).

A card is a short string: the suit sign and the rank (``"♦10"``, ``"♠A"``,
``"♣K"``) or a joker (``"JK1"``, ``"JK2"``). Card index ``i`` of the unshuffled
deck is ``SUITS[i // 13]`` with rank ``i % 13 + 1`` for ``i < 52``, and the
jokers are 52 and 53; a :class:`~taku.core.dice.Shuffle` of 54 puts index
``order[k]`` at position ``k`` (position 0 is the top of the deck).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Annotated, Literal

import msgspec

__all__ = [
    "CARD_CODES",
    "Card",
    "DECK_SIZE",
    "JOKERS",
    "RANKS",
    "SUITS",
    "Suit",
    "card_at",
    "card_value",
    "flow_bonus",
    "full_deck",
    "is_card",
    "rank_of",
    "suit_of",
]

SUITS = ("♠", "♥", "♦", "♣")
"""The four suits; a player's 流れ suit is one of them (YD-71)."""

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKERS = ("JK1", "JK2")
DECK_SIZE = 54
"""52 cards and 2 jokers (G-YD-07)."""


def card_at(index: int) -> str:
    """The card at ``index`` of the unshuffled deck (0..53)."""
    if index >= 52:
        return JOKERS[index - 52]
    return SUITS[index // 13] + RANKS[index % 13]


def full_deck() -> tuple[str, ...]:
    return tuple(card_at(i) for i in range(DECK_SIZE))


CARD_CODES: tuple[str, ...] = full_deck()
"""The 54 card codes, in the order of the unshuffled deck."""
_ALL = frozenset(CARD_CODES)

SUIT_NAMES = {"♠": "スペード", "♥": "ハート", "♦": "ダイヤ", "♣": "クラブ"}

Card = Annotated[
    Literal[CARD_CODES],  # type: ignore[valid-type]  # the 54 codes, spelled out by full_deck()
    msgspec.Meta(
        title="「流れ」のカード",
        description="♠（スペード）♥（ハート）♦（ダイヤ）♣（クラブ）とランク A・2〜10・J・Q・K（例: ♦10、♠A）、JK1/JK2（ジョーカー）",
    ),
]
"""A card code of the 流れ deck (a closed set of 54)."""

Suit = Annotated[
    Literal["♠", "♥", "♦", "♣"],
    msgspec.Meta(
        title="スート", description="♠（スペード）/ ♥（ハート）/ ♦（ダイヤ）/ ♣（クラブ）"
    ),
]
"""A 流れ suit (YD-71)."""


def is_card(code: str) -> bool:
    return code in _ALL


def card_label(code: str) -> str:
    """A card for people: ``"♦10（ダイヤの10）"``, ``"JK1（ジョーカー）"``."""
    if code in JOKERS:
        return f"{code}（ジョーカー）"
    return f"{code}（{SUIT_NAMES.get(code[0], code[0])}の{code[1:]}）"


def suit_of(card: str) -> str | None:
    """The suit sign, or ``None`` for a joker."""
    return None if card in JOKERS else card[0]


def rank_of(card: str) -> str | None:
    return None if card in JOKERS else card[1:]


def card_value(card: str, key_number: int | None) -> int:
    """The value of a card played as one's own suit (YD-27).

    Face cards (J Q K) count 10, A and jokers 20; a card whose rank is the key
    number counts 10, except that with key number 1 an A stays 20.
    """
    rank = rank_of(card)
    if rank is None or rank == "A":
        return 20
    if rank in ("J", "Q", "K"):
        return 10
    n = int(rank)
    if key_number is not None and n == key_number:
        return 10
    return n


def flow_bonus(
    cards: Sequence[str], suit: str | None, key_number: int | None, *, own_suit_barred: bool = False
) -> tuple[int, str | None]:
    """How much ``cards`` raise a 達成値 (2D9) or a target (D99), and the card counted at value.

    At most one card of one's own suit counts at its value; every other card
    adds 1 (YD-25, YD-26; example YD-EX-01: suit ♦, ♦10 + ♠9 = 11). A joker has
    no suit: it may be the one own-suit card (20), else it adds 1 (G-YD-07).
    Under 蝕み own-suit cards may not be played at all (YD-64).

    Returns:
        ``(bonus, counted)``; ``counted`` is the card taken at its value.

    Raises:
        ValueError: two cards of one's own suit, or an own-suit card under 蝕み;
            the message says which.
    """
    own = [c for c in cards if suit is not None and suit_of(c) == suit]
    if own and own_suit_barred:
        raise ValueError("蝕み: 自分のスートの「流れ」は使えません")
    if len(own) > 1:
        raise ValueError("自分のスートの「流れ」は一枚だけ出せます")
    counted: str | None = own[0] if own else None
    if counted is None and not own_suit_barred:
        jokers = [c for c in cards if c in JOKERS]
        if jokers:
            counted = jokers[0]
    bonus = 0
    for c in cards:
        bonus += card_value(c, key_number) if c == counted else 1
    return bonus, counted


def deck_from_order(order: Iterable[int], cards: Sequence[str] | None = None) -> tuple[str, ...]:
    """The deck after a shuffle: ``cards`` (default the full deck) permuted by ``order``."""
    src = tuple(cards) if cards is not None else full_deck()
    return tuple(src[i] for i in order)
