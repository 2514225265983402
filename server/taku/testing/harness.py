"""Drive a table through the real application service, without a socket.

The harness is the way ruleset tests run the rulebook's worked examples "over
the server's command path": commands go through :class:`taku.app.Hub` (decide,
append to a :class:`~taku.store.memory.MemoryEventStore`, fold, publish) with
:class:`~taku.core.dice.ScriptedDice`. Example::

    async def test_karate_check():
        h = await TableHarness.create("nstrpg", faces=[5, 2, 1, 6])
        pl = await h.join("たろう")
        events = await h.send(pl, SomeCommand(...))
        assert events[0].successes == 2
        h.assert_replay_matches()
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from taku.app import Hub, TableService
from taku.core.commands import Chat, Command
from taku.core.dice import ScriptedDice
from taku.core.events import Event, HistorySettings
from taku.core.ruleset import Viewer
from taku.core.table import TableState, fold, view
from taku.errors import TakuError
from taku.plugins import Registry, load_registry
from taku.store.memory import MemoryEventStore

__all__ = ["TableHarness"]


class TableHarness:
    """One table on an in-memory store, with scripted dice. Create with :meth:`create`."""

    def __init__(self, hub: Hub, table: TableService, dice: ScriptedDice, gm: str) -> None:
        self.hub = hub
        self.table = table
        self.dice = dice
        self.gm = gm
        """The GM's member id."""
        self._cid = 0
        self._invite: dict[str, str] = {}

    @classmethod
    async def create(
        cls,
        ruleset: str,
        *,
        options: dict[str, Any] | None = None,
        faces: Iterable[int] = (),
        shuffles: Iterable[Sequence[int]] = (),
        registry: Registry | None = None,
        gm_name: str = "GM",
        history: HistorySettings | None = None,
    ) -> TableHarness:
        dice = ScriptedDice(faces, shuffles=shuffles)
        store = MemoryEventStore()
        hub = Hub(store, registry or load_registry(), dice=lambda tid, seed, cursor: dice)
        created = await hub.create_table(
            ruleset=ruleset,
            name="テスト卓",
            options=options or {},
            gm_name=gm_name,
            history=history,
        )
        h = cls(hub, await hub.table(created.table_id), dice, created.member_id)
        h._invite = {"player": created.player_token, "spectator": created.spectator_token}
        return h

    @property
    def state(self) -> TableState:
        return self.table.state

    @property
    def game(self) -> Any:
        """The ruleset's state (unredacted)."""
        return self.table.state.game

    def roll(self, *faces: int) -> None:
        """Script more dice faces."""
        self.dice.extend(faces)

    async def join(self, name: str, role: str = "player") -> str:
        """A new member; returns the member id."""
        joined = await self.hub.join(self.table.table_id, self._invite[role], name)
        return joined.member_id

    async def send(
        self, member: str, command: Command, *, expected_seq: int | None = None
    ) -> list[Event]:
        """Run ``command`` as ``member``; returns the events it appended (full, unredacted).

        Raises whatever the command path raises (``Rejected``, ``Forbidden`` …).
        """
        self._cid += 1
        first, last, _ = await self.table.execute(
            member, command, command_id=f"h{self._cid}", expected_seq=expected_seq
        )
        return await self.events(after_seq=first - 1, to_seq=last)

    async def chat(self, member: str, text: str, character_id: str | None = None) -> list[Event]:
        """A chat line (ruleset chat commands and generic dice are read from it)."""
        return await self.send(member, Chat(text=text, character_id=character_id))

    async def rejected(self, member: str, command: Command) -> TakuError:
        """Run ``command`` expecting a rejection; returns it. Asserts nothing was written."""
        before = self.table.state.seq
        try:
            await self.send(member, command)
        except TakuError as e:
            assert self.table.state.seq == before, "a rejected command wrote events"
            return e
        raise AssertionError(f"{type(command).__name__} was not rejected")

    async def events(self, *, after_seq: int = 0, to_seq: int | None = None) -> list[Event]:
        """The table's events, decoded (full, as the GM and the server see them)."""
        recs = await self.hub.store.read(self.table.table_id, after_seq=after_seq, to_seq=to_seq)
        return [self.table.decoder.decode(r.data) for r in recs]

    async def frames(self, member: str | None, *, after_seq: int = 0) -> list[dict[str, Any]]:
        """The ``event`` messages ``member`` would receive (redacted where they may not see)."""
        return [
            msgspec.json.decode(f) for f in await self.table.log_frames(member, after_seq, 5000)
        ]

    def view(self, member: str | None) -> dict[str, Any]:
        """The state as ``member`` may see it."""
        return view(self.table.state, self.table.state.viewer(member), self.table.ruleset)

    async def replay(self, to_seq: int | None = None) -> TableState:
        """The state folded from the stored log alone (up to ``to_seq``)."""
        recs = await self.hub.store.read(self.table.table_id, to_seq=to_seq)
        return fold(
            TableState(table_id=self.table.table_id), recs, self.table.ruleset, self.table.decoder
        )

    async def assert_replay_matches(self) -> None:
        """Folding the stored log from scratch gives the live state, exactly; and the
        state at every seq on the way (where a replay may stop) can be viewed by the
        GM, every member and the public."""
        recs = await self.hub.store.read(self.table.table_id)
        state = TableState(table_id=self.table.table_id)
        for rec in recs:
            state = fold(state, [rec], self.table.ruleset, self.table.decoder)
            for member in (None, *state.members):
                view(state, state.viewer(member), self.table.ruleset)
        assert msgspec.to_builtins(state) == msgspec.to_builtins(self.table.state)

    def spectator_view(self) -> dict[str, Any]:
        return view(self.table.state, Viewer(None), self.table.ruleset)
