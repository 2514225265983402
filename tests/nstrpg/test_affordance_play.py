"""One nstrpg combat round played over WebSocket by following the server's affordances alone.

A GM and a player connect to a real server, make a PC and an enemy ninja, and
then every command sent is built from an ``affordances`` entry of a ``state``
message (its ``command``, its ``args`` and one value of each of its
``choices``, picked by a seeded random): 戦闘開始, ターン開始, each 手番 in the
イニシアチブ order (手番開始, the attack, the defender's 回避, 手番終了), ターン終了.
The dice are the server's seeded dice; the stored log, replayed, gives the
live state.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest

from taku.core.dice import SeededDice
from taku.core.table import TableState, fold, view
from taku.store.memory import MemoryEventStore
from taku.testing.peer import Raw
from taku.testing.server import RunningServer, start_server, stop_server

SEED = b"nstrpg-affordance-play-000000000"


@pytest.fixture
async def server() -> AsyncIterator[RunningServer]:
    running = await start_server(
        MemoryEventStore(), dice=lambda tid, seed, cursor: SeededDice(SEED, cursor)
    )
    yield running
    await stop_server(running)


class Seat:
    """One member's connection to the table."""

    def __init__(self, peer: Raw, table_id: str, name: str) -> None:
        self.peer, self.tid, self.name, self.n = peer, table_id, name, 0

    async def state(self) -> dict[str, Any]:
        reply = await self.peer.request({"type": "get_state", "table_id": self.tid})
        assert reply["type"] == "state", reply
        return reply

    async def send(self, command: dict[str, Any]) -> dict[str, Any]:
        self.n += 1
        reply = await self.peer.request(
            {
                "type": "command",
                "table_id": self.tid,
                "command_id": f"{self.name}-{self.n}",
                "command": command,
            }
        )
        assert reply["type"] == "ack", (command, reply)
        return reply


async def open_table(gm_peer: Raw, pl_peer: Raw, name: str) -> tuple[Seat, Seat]:
    """A new nstrpg table: the GM's seat and a joined player's."""
    created = await gm_peer.request(
        {"type": "create_table", "ruleset": "nstrpg", "name": name, "gm_name": "GM"}
    )
    assert created["type"] == "created"
    tid = created["table_id"]
    joined = await pl_peer.request(
        {"type": "join", "table_id": tid, "token": created["player_token"], "name": "PL"}
    )
    assert joined["type"] == "joined"
    return Seat(gm_peer, tid, "gm"), Seat(pl_peer, tid, "pl")


def build(aff: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The command an affordance describes: its args and one offered value per choice."""
    cmd = {"type": aff["command"], **aff.get("args", {})}
    for key, options in aff.get("choices", {}).items():
        assert options, aff
        cmd[key] = rng.choice(options)["value"]
    return cmd


async def test_one_combat_round_by_affordances_alone(server: RunningServer) -> None:
    gm_peer, pl_peer = await Raw.connect(server.ws_url), await Raw.connect(server.ws_url)
    try:
        gm, pl = await open_table(gm_peer, pl_peer, "ネオサイタマ")
        tid = gm.tid
        await pl.send(
            {
                "type": "create_character",
                "name": "ヤモト・コキ",
                "sheet": {"karate": 5, "neuron": 4, "wazamae": 4, "tairyoku": 10, "seishin": 4},
            }
        )
        await gm.send(
            {
                "type": "create_character",
                "name": "ソニックブーム",
                "sheet": {
                    "kind": "boss",
                    "karate": 6,
                    "neuron": 5,
                    "wazamae": 3,
                    "tairyoku": 9,
                    "seishin": 3,
                },
            }
        )

        rng = random.Random(7)
        played: list[tuple[str, str]] = []
        for _ in range(60):
            # the player acts for the PC first; then the GM (for the enemy and the sequence)
            step = None
            for seat in (pl, gm):
                msg = await seat.state()
                primary = [a for a in msg["affordances"] if a.get("primary")]
                if primary:
                    step = (seat, primary[0])
                    break
            if step is None:
                break
            seat, aff = step
            await seat.send(build(aff, rng))
            played.append((seat.name, aff["command"]))
            if aff["command"] == "nstrpg.end_turn":
                break  # one round (the next start_turn is offered as the next step)
        else:
            pytest.fail(f"the round did not end: {played}")

        final = await gm.state()
        turn = final["turn"]
        # the round is over: every fighter on the map acted, the GM ended turn 1
        assert turn["round"] == 1 and turn["phase"] == "turn_end" and turn.get("actor") is None
        assert turn["phase_label"] == "ターン終了（次のターン開始待ち）"
        assert all(slot["done"] for slot in turn["order"])
        values = [slot["value"] for slot in turn["order"]]
        assert values == sorted(values, reverse=True)  # by イニシアチブ値, highest first (2-3)
        commands = [c for _, c in played]
        assert (
            commands[:2] == ["nstrpg.start_combat", "nstrpg.start_turn"]
            and commands[-1] == "nstrpg.end_turn"
        )
        assert commands.count("nstrpg.begin_turn_of") == commands.count("nstrpg.end_turn_of") >= 1
        assert "nstrpg.attack" in commands
        # each side began its own 手番: the enemy (イニシアチブ 5) first, by the GM; then the PC, by its player
        assert [who for who, c in played if c == "nstrpg.begin_turn_of"] == ["gm", "pl"]
        assert [slot["label"] for slot in turn["order"]] == ["ソニックブーム", "ヤモト・コキ"]
        assert ("pl", "nstrpg.evade") in played and ("gm", "nstrpg.evade") in played
        # the next step is the GM's (a new turn), not an automatic one
        assert [a["command"] for a in final["affordances"] if a.get("primary")] == [
            "nstrpg.start_turn"
        ]

        # the stored log, replayed from scratch, gives the live state and the same view
        table = await server.hub.table(tid)
        recs = await server.store.read(tid)
        replayed = fold(TableState(table_id=tid), recs, table.ruleset, table.decoder)
        assert msgspec.to_builtins(replayed) == msgspec.to_builtins(table.state)
        seen = view(replayed, replayed.viewer(gm_member(final)), table.ruleset)["game"]
        assert msgspec.json.decode(msgspec.json.encode(seen)) == final["state"]["game"]
    finally:
        await gm_peer.close()
        await pl_peer.close()


def gm_member(msg: dict[str, Any]) -> str:
    return str(msg["state"]["you"]["member_id"])
