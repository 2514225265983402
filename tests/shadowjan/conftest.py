"""Helpers for the シャドー・ジャン2 tests: a table of 2-4 NSTRPG ninjas driven through
the server's command path (TableHarness) with scripted dice."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from taku.core.commands import Command, CreateCharacter
from taku.core.events import HistorySettings
from taku.core.play import Affordance
from taku.core.ruleset import Viewer
from taku.testing.harness import TableHarness
from taku_shadowjan import commands as C

NAMES = ("ジョン", "スティファニー", "ケン", "ユミ")


def ninja(**over: Any) -> dict[str, Any]:
    """A plain ninja: カラテ/ニューロン/ワザマエ 4, 体力 10, 精神力 3."""
    base: dict[str, Any] = {
        "karate": 4,
        "neuron": 4,
        "wazamae": 4,
        "jitsu": 0,
        "tairyoku": 10,
        "seishin": 3,
    }
    base.update(over)
    return base


@dataclass
class Game:
    """A harness with its players: ``cids[i]`` is the character of ``members[i]``."""

    h: TableHarness
    members: list[str]
    cids: list[str]
    by_cid: dict[str, str] = field(default_factory=dict)

    async def send(self, cid: str, cmd: Command) -> list[Any]:
        return await self.h.send(self.by_cid[cid], cmd)

    async def rejected(self, cid: str, cmd: Command) -> Any:
        return await self.h.rejected(self.by_cid[cid], cmd)

    @property
    def g(self) -> Any:
        return self.h.game

    def p(self, cid: str) -> Any:
        return self.h.game.players[cid]

    def scores(self) -> dict[str, int]:
        return {c: p.score for c, p in self.h.game.players.items()}

    def waiting(self) -> tuple[str, str]:
        from taku_shadowjan.decider import waiting_for

        return waiting_for(self.h.game)


async def make_game(
    n: int = 4,
    *,
    sheets: Sequence[dict[str, Any]] | None = None,
    seat: Sequence[int] | None = None,
    deal: Sequence[int] | None = None,
    options: dict[str, Any] | None = None,
    start: bool = True,
    history: HistorySettings | None = None,
) -> Game:
    """Seat ``n`` ninjas in creation order; ``seat`` are their 1d100 (default 90, 80, 70, 60:
    the first created is the first dealer); ``deal`` the 1d6 of the deal from the dealer on
    (default all 4: 2 メンツ each)."""
    h = await TableHarness.create("shadowjan", options=options, history=history)
    members, cids = [], []
    for i in range(n):
        m = await h.join(NAMES[i])
        (ev,) = await h.send(
            m, CreateCharacter(name=NAMES[i], sheet=(sheets[i] if sheets else ninja()))
        )
        members.append(m)
        cids.append(ev.character_id)
        await h.send(m, C.Sit(character_id=ev.character_id))
    game = Game(h, members, cids, dict(zip(cids, members, strict=True)))
    if start:
        h.roll(*(seat or (90, 80, 70, 60)[:n]))
        h.roll(*(deal or (4,) * n))
        await h.send(members[0], C.Start())
    return game


def moves(h: TableHarness, member: str | None) -> list[dict[str, Any]]:
    """The ruleset's affordances for ``member`` (``None``: the public), spelt out by :func:`spell`."""
    from taku.core.table import affordances

    return spell(
        affordances(h.state, h.state.viewer(member) if member else Viewer(None), h.table.ruleset)
    )


def spell(affordances: Sequence[Affordance]) -> list[dict[str, Any]]:
    """The shadowjan affordances spelt out one per choice as ``{"label", "character_id",
    "command"}`` (the command a client would send)."""
    out: list[dict[str, Any]] = []
    for a in affordances:
        if not a.command.startswith("shadowjan."):
            continue
        combos: list[tuple[str, dict[str, Any]]] = [("", {})]
        for key, choices in a.choices.items():
            combos = [
                (f"{lab} {ch.label}".strip(), {**args, key: ch.value})
                for lab, args in combos
                for ch in choices
            ]
        for lab, args in combos:
            command = {"type": a.command, **a.args, **args}
            out.append(
                {
                    "label": f"{a.label} {lab}".strip(),
                    "character_id": a.args.get("character_id", ""),
                    "command": command,
                }
            )
    return out


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
