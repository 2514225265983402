"""Shared set-up for the 澱み流れ tests: a table with two players, their PCs and an enemy."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from taku.core.commands import CreateCharacter
from taku.testing.harness import TableHarness
from taku_yodomi._cards import JOKERS, RANKS, SUITS

PC_A = {
    "pp": 40,
    "sp": 60,
    "action": 6,
    "evasion": 5,
    "social": 4,
    "wealth": 10,
    "abilities": {"体": 5, "知": 3},
    "items": {"刀": 10},
}
PC_B = {"pp": 30, "sp": 50, "action": 3, "evasion": 4, "social": 2, "abilities": {"体": 2, "知": 6}}
ENEMY = {
    "pp": 20,
    "sp": 30,
    "action": 4,
    "evasion": 3,
    "abilities": {"体": 4},
    "defense": {"体": 2},
    "defense_attributes": ["知"],
    "items": {"爪": 8},
}


def card_index(card: str) -> int:
    """The index of ``card`` in the unshuffled deck (for scripting shuffles)."""
    if card in JOKERS:
        return 52 + JOKERS.index(card)
    return SUITS.index(card[0]) * 13 + RANKS.index(card[1:])


def deck_order(*top: str) -> list[int]:
    """A shuffle (order of 54) that puts ``top`` on the top of the deck, in that order."""
    first = [card_index(c) for c in top]
    return first + [i for i in range(54) if i not in first]


@dataclass
class Yd:
    """A yodomi table: ``h`` the harness, players ``pa``/``pb``, PCs ``a``/``b``, enemy ``e``."""

    h: TableHarness
    pa: str
    pb: str
    spec: str
    a: str
    b: str
    e: str

    @property
    def game(self) -> Any:
        return self.h.game


async def make_table(
    *,
    shuffles: list[list[int]] | None = None,
    options: dict[str, Any] | None = None,
    sheets: tuple[dict[str, Any], dict[str, Any], dict[str, Any]] = (PC_A, PC_B, ENEMY),
) -> Yd:
    h = await TableHarness.create("yodomi", shuffles=shuffles or [], options=options)
    pa = await h.join("あかね")
    pb = await h.join("ぶんた")
    spec = await h.join("見学", role="spectator")
    (ca,) = await h.send(pa, CreateCharacter(name="アキラ", sheet=sheets[0]))
    (cb,) = await h.send(pb, CreateCharacter(name="ミナ", sheet=sheets[1]))
    (ce,) = await h.send(h.gm, CreateCharacter(name="澱みの獣", sheet=sheets[2]))
    return Yd(h, pa, pb, spec, ca.character_id, cb.character_id, ce.character_id)


@pytest.fixture
async def yd() -> Yd:
    return await make_table()


@pytest.fixture
def new_table() -> Any:
    """``await new_table(shuffles=..., options=..., sheets=...)`` -> :class:`Yd`."""
    return make_table


@pytest.fixture
def order() -> Any:
    """``order("♦10", "♠9")``: a scripted shuffle putting those cards on top."""
    return deck_order
