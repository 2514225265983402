"""Shared setup for the ``chabu`` tests: a table over the real command path.

``d100(50, 5)`` turns 1d100 results into the two d10 faces that read as them
(tens die first; a die showing 0 is the face 10, so 100 is ``10, 10``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from taku.core.commands import CreateCharacter
from taku.testing.harness import TableHarness


def d100_faces(*values: int) -> list[int]:
    """The d10 faces (tens, units) that read as each 1d100 value."""
    faces: list[int] = []
    for v in values:
        assert 1 <= v <= 100
        tens, units = divmod(v % 100, 10)
        faces += [tens or 10, units or 10]
    return faces


def katana(**kw: Any) -> dict[str, Any]:
    return {
        "name": "カタナ",
        "category": "カタナ",
        "check": {"ability": "肉体", "skill": "カラテ"},
        "power": 5,
        "range": "short",
        **kw,
    }


def shuriken(**kw: Any) -> dict[str, Any]:
    return {
        "name": "スリケン",
        "category": "スリケン",
        "check": {"ability": "肉体", "skill": "射撃"},
        "power": 3,
        "range": "long",
        **kw,
    }


def sheet(**kw: Any) -> dict[str, Any]:
    """A ninja sheet: 肉体40 反応30 精神50, カラテ15 射撃20, DL2 HP30, katana and shuriken."""
    base: dict[str, Any] = {
        "abilities": {"肉体": 40, "反応": 30, "精神": 50},
        "skills": {"カラテ": 15, "射撃": 20},
        "dl": 2,
        "hp": 30,
        "equipment": [katana(), shuriken()],
    }
    base.update(kw)
    return base


@dataclass
class Chabu:
    """A ``chabu`` table with a GM and two players."""

    h: TableHarness
    pl1: str
    pl2: str

    @property
    def gm(self) -> str:
        return self.h.gm

    async def pc(self, owner: str, name: str, **kw: Any) -> str:
        (ev,) = await self.h.send(owner, CreateCharacter(name=name, sheet=sheet(**kw)))
        return ev.character_id  # type: ignore[attr-defined,no-any-return]

    async def npc(self, name: str, **kw: Any) -> str:
        (ev,) = await self.h.send(self.gm, CreateCharacter(name=name, sheet=sheet(**kw)))
        return ev.character_id  # type: ignore[attr-defined,no-any-return]

    def roll(self, *values: int) -> None:
        """Script 1d100 results."""
        self.h.roll(*d100_faces(*values))

    def d10(self, *faces: int) -> None:
        self.h.roll(*faces)

    def char(self, cid: str) -> Any:
        return self.h.game.chars[cid]


async def make_table(options: dict[str, Any] | None = None) -> Chabu:
    h = await TableHarness.create("chabu", options=options)
    return Chabu(h, await h.join("プレイヤー1"), await h.join("プレイヤー2"))


@pytest.fixture
async def t() -> Chabu:
    return await make_table()


@dataclass(frozen=True)
class Kit:
    """The helpers above, for test modules (conftest is not importable under importlib mode)."""

    d100_faces: Any = staticmethod(d100_faces)
    katana: Any = staticmethod(katana)
    shuriken: Any = staticmethod(shuriken)
    sheet: Any = staticmethod(sheet)
    make_table: Any = staticmethod(make_table)


@pytest.fixture
def kit() -> Kit:
    return Kit()
