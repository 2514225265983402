"""Fixtures for the 秘伝の声 tests: a table on the real command path with scripted dice."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from taku.core.commands import CreateCharacter
from taku.core.events import CharacterCreated
from taku.testing.harness import TableHarness

KOU = {
    "abilities": {"器用": 1, "知識": 0, "知覚": 0, "知恵": 1, "気合い": 2, "勘働き": 3},
    "tokugi": {"姿隠し": {"level": 2, "ability": "器用"}},
    "skills": {"料理": 3},
    "traits": {"容貌": {"cp": 2}, "酒の耐性": {"cp": 5}, "発作": {"cp": -3}},
    "zabuton": 2,
}
"""甲 of the 五ノ六 example: 〈器用〉+1, 《姿隠し》2 (plus other values for other tests)."""

OTSU = {
    "abilities": {"器用": 0, "知覚": 0, "気合い": -1},
    "tokugi": {"探索": {"level": 3, "ability": "知覚"}},
}
"""乙 of the 五ノ六 example: 《探索》3, 〈知覚〉0."""


class Table:
    """A harness with one player (たろう) who owns 甲, and the GM's NPC 乙."""

    def __init__(self, h: TableHarness, pl: str, kou: str, otsu: str) -> None:
        self.h = h
        self.pl = pl
        self.kou = kou
        self.otsu = otsu

    async def character(self, member: str, name: str, sheet: dict[str, Any]) -> str:
        (ev,) = await self.h.send(member, CreateCharacter(name=name, sheet=sheet))
        assert isinstance(ev, CharacterCreated)
        return ev.character_id


MakeTable = Callable[..., Awaitable[Table]]


@pytest.fixture
def make_table() -> MakeTable:
    async def make(
        options: dict[str, Any] | None = None, kou: dict[str, Any] | None = None
    ) -> Table:
        h = await TableHarness.create("hiden", options=options)
        pl = await h.join("たろう")
        t = Table(h, pl, "", "")
        t.kou = await t.character(pl, "甲", kou if kou is not None else KOU)
        t.otsu = await t.character(h.gm, "乙", OTSU)
        return t

    return make
