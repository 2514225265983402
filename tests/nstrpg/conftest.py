"""Fixtures for nstrpg tests: a table over the real command path with scripted dice."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from taku.core.commands import Command, CreateCharacter
from taku.core.events import Event
from taku.testing.harness import TableHarness
from taku_nstrpg.commands import BeginTurnOf, CreateMobs, EndTurnOf
from taku_nstrpg.state import Fighter, Hit


class Ns:
    """A harness table with shortcuts: PCs owned by one player, GM NPCs and mob groups."""

    def __init__(self, h: TableHarness, player: str) -> None:
        self.h = h
        self.gm = h.gm
        self.pl = player

    async def pc(self, name: str, **sheet: Any) -> str:
        (ev,) = await self.h.send(self.pl, CreateCharacter(name=name, sheet=sheet))
        return ev.character_id  # type: ignore[attr-defined, no-any-return]

    async def npc(self, name: str, **sheet: Any) -> str:
        (ev,) = await self.h.send(self.gm, CreateCharacter(name=name, sheet=sheet))
        return ev.character_id  # type: ignore[attr-defined, no-any-return]

    async def mobs(self, name: str, count: int, **sheet: Any) -> list[str]:
        evs = await self.h.send(self.gm, CreateMobs(name=name, count=count, sheet=sheet))
        return [e.character_id for e in evs]  # type: ignore[attr-defined]

    async def gm_do(self, cmd: Command) -> list[Event]:
        return await self.h.send(self.gm, cmd)

    async def do(self, cmd: Command) -> list[Event]:
        return await self.h.send(self.pl, cmd)

    async def pass_turns(self) -> None:
        """The 手番 still due this turn ended by the GM in order (NS-30: the turn ends only
        after every 手番), so that ``end_turn`` is accepted."""
        from taku.core.table import turn

        while (tr := turn(self.h.table.state, self.h.table.ruleset)) is not None:
            if tr.actor is None or tr.phase not in ("turn_begin", "move", "attack"):
                return
            if tr.phase == "turn_begin":
                await self.gm_do(BeginTurnOf(character_id=tr.actor))
            await self.gm_do(EndTurnOf(character_id=tr.actor))

    def roll(self, *faces: int) -> None:
        self.h.roll(*faces)

    def f(self, cid: str) -> Fighter:
        return self.h.game.fighters[cid]  # type: ignore[no-any-return]

    @property
    def pending(self) -> dict[str, Hit]:
        return self.h.game.pending  # type: ignore[no-any-return]

    async def rejected(self, member: str, cmd: Command) -> str:
        err = await self.h.rejected(member, cmd)
        return err.code

    def assert_dice_used(self) -> None:
        assert self.h.dice.remaining == [], f"unused scripted dice {self.h.dice.remaining}"


@pytest.fixture
async def ns() -> AsyncIterator[Callable[..., Awaitable[Ns]]]:
    """Make tables; at the end each one's log, folded from scratch, must give its live state."""
    made: list[Ns] = []

    async def make(options: dict[str, Any] | None = None) -> Ns:
        h = await TableHarness.create("nstrpg", options=options)
        pl = await h.join("プレイヤー")
        made.append(Ns(h, pl))
        return made[-1]

    yield make
    for t in made:
        await t.h.assert_replay_matches()
