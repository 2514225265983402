"""A whole hand of シャドー・ジャン2 over WebSocket, played by following the affordances alone.

Three players and a spectator connect to a real server whose dice are seeded. The
players make their characters and then send only commands built from the
``affordances`` of their own ``state`` message: the affordance's ``command`` and
``args``, one value picked among its ``choices`` for each open argument. Only the
player whose move ``turn`` names is offered anything; the spectator never is. The
hand ends (the table has one hand: the game ends with it), and the log replayed from
its events alone gives the state, the turn and the moves the server showed."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest

from taku.core import table as core
from taku.core.dice import SeededDice
from taku.core.table import TableState
from taku.plugins import load_registry
from taku.store import MemoryEventStore
from taku.testing.peer import Raw
from taku.testing.server import RunningServer, start_server, stop_server

from .conftest import ninja

NAMES = ("アキラ", "ボブ", "チカ")


@pytest.fixture
async def seeded_server() -> AsyncIterator[RunningServer]:
    """A server whose every table rolls the same seeded faces (a reproducible game)."""
    running = await start_server(
        MemoryEventStore(),
        dice=lambda tid, seed, cursor: SeededDice(b"shadowjan-affordances" * 2, cursor),
    )
    yield running
    await stop_server(running)


class Player:
    """One connection; sends only what its state message affords."""

    def __init__(self, peer: Raw, table_id: str) -> None:
        self.peer = peer
        self.tid = table_id
        self.n = 0

    async def message(self) -> dict[str, Any]:
        reply = await self.peer.request({"type": "get_state", "table_id": self.tid})
        assert reply["type"] == "state", reply
        return reply

    async def send(self, command: dict[str, Any]) -> None:
        self.n += 1
        reply = await self.peer.request(
            {
                "type": "command",
                "table_id": self.tid,
                "command_id": f"{id(self)}-{self.n}",
                "command": command,
            }
        )
        assert reply["type"] == "ack", (command, reply)


def build(aff: dict[str, Any], rng: random.Random, **free: Any) -> dict[str, Any]:
    """The command of an affordance: its args, one offered value per choice key, and the
    free input the rules leave to the player (a character's name and sheet)."""
    command = {"type": aff["command"], **aff.get("args", {}), **free}
    for key, choices in aff.get("choices", {}).items():
        assert choices, (aff, key)
        command[key] = rng.choice(choices)["value"]
    return command


def as_json(value: Any) -> Any:
    """``value`` as it travels (tuples become lists)."""
    return msgspec.json.decode(msgspec.json.encode(value))


def ruleset_moves(msg: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for a in msg.get("affordances", []) if a["command"].startswith("shadowjan.")]


async def test_one_hand_played_by_following_the_affordances(seeded_server: RunningServer) -> None:
    rng = random.Random(4)  # the players' picks (with these dice: actions, declarations, a ツモ)
    url = seeded_server.ws_url
    gm = await Raw.connect(url)
    peers = [await Raw.connect(url) for _ in NAMES]
    watcher = await Raw.connect(url)
    try:
        created = await gm.request(
            {
                "type": "create_table",
                "ruleset": "shadowjan",
                "name": "雀荘",
                "gm_name": "店主",
                "options": {"hands": 1},
            }
        )
        tid = created["table_id"]
        players = [Player(p, tid) for p in peers]
        for p, name in zip(players, NAMES, strict=True):
            assert (
                await p.peer.request(
                    {
                        "type": "join",
                        "table_id": tid,
                        "token": created["player_token"],
                        "name": name,
                    }
                )
            )["type"] == "joined"
        await watcher.request(
            {"type": "join", "table_id": tid, "token": created["spectator_token"], "name": "見物"}
        )
        spectator = Player(watcher, tid)

        # each player makes a character through the core's affordance (name and sheet are free input)
        for p, name in zip(players, NAMES, strict=True):
            (make,) = [
                a
                for a in (await p.message()).get("affordances", [])
                if a["command"] == "create_character"
            ]
            await p.send(build(make, rng, name=name, sheet=ninja()))

        seen_steps: set[str] = set()
        moves = 0
        while True:
            msgs = [await p.message() for p in players]
            game = msgs[0]["state"]["game"]
            if game["phase"] == "ended":
                break
            assert ruleset_moves(await spectator.message()) == [], "a spectator is offered a move"
            offered = [(p, m, ruleset_moves(m)) for p, m in zip(players, msgs, strict=True)]
            movers = [(p, m, affs) for p, m, affs in offered if affs]
            assert movers, f"nobody is offered a move at {msgs[0]['turn']}"
            turn = msgs[0]["turn"]
            assert all(m["turn"] == turn for m in msgs), "every player is told the same turn"
            if turn["phase"] != "sit":
                # during the game only the player whose move it is is offered anything
                assert len(movers) == 1, [m["turn"] for _, m, _ in movers]
                p, m, affs = movers[0]
                mine = {
                    cid
                    for cid, ch in m["state"]["characters"].items()
                    if ch["owner"] == m["state"]["you"]["member_id"]
                }
                assert turn["actor"] in mine and all(
                    a["args"]["character_id"] == turn["actor"] for a in affs
                )
                assert turn["round_label"].startswith(
                    "東1局"
                )  # a 流局 replays the same hand (G-SJ-10)
            else:
                # everyone sits before anyone starts the game
                sitting = [
                    (p, m, [a for a in affs if a["command"] == "shadowjan.sit"])
                    for p, m, affs in movers
                ]
                p, m, affs = next(((p, m, s) for p, m, s in sitting if s), movers[0])
            seen_steps.add(turn["phase"])
            aff = rng.choice(affs)
            assert aff["primary"] and aff["label"]
            await p.send(build(aff, rng))
            moves += 1
            assert moves < 300, "the hand does not end"

        final = await gm.request({"type": "get_state", "table_id": tid})
        game = final["state"]["game"]
        assert game["phase"] == "ended" and game["hand"] == 1 and len(game["ranking"]) == 3
        assert final["turn"]["phase"] == "ended" and final["turn"]["phase_label"] == "終局"
        assert {"sit", "action", "declare", "tsumo"} <= seen_steps and moves >= 10

        # the log replays, from its events alone, to the state, turn and moves the server shows
        log = await gm.request({"type": "get_log", "table_id": tid, "after_seq": 0, "limit": 5000})
        rs = load_registry().get("shadowjan")
        decoder = core.event_decoder(rs)
        state = TableState(table_id=tid)
        for e in log["events"]:
            state = core.evolve(state, decoder.decode(msgspec.json.encode(e["event"])), rs)
        assert [e["seq"] for e in log["events"]] == list(range(1, final["seq"] + 1))
        types = [e["event"]["type"] for e in log["events"]]
        assert "shadowjan.scored" in types and types[-1] == "shadowjan.game_ended"
        viewer = state.viewer(created["member_id"])
        assert as_json(core.view(state, viewer, rs)["game"]) == game
        assert as_json(core.turn(state, rs)) == final["turn"]
        assert as_json(core.affordances(state, viewer, rs)) == final.get("affordances", [])
    finally:
        for peer in (gm, *peers, watcher):
            await peer.close()
