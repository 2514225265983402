"""A whole combat on a map, played over WebSocket by following the affordances to its end.

Three PCs (one player) against a boss and a group of three mobs, on a map with doors and a
window; nobody placed, so the combat starts with the sudden-combat placement (NS-33). Each
step is the first ``primary`` affordance of the player's, else the GM's state message, sent
with one offered value per choice: the player's side places on the west, the enemies on the
east; a move goes to the offered square nearest an enemy; everything else is a seeded random
pick. When no step is primary the GM starts the next turn or ends the combat, whichever is
offered as primary. The log, replayed from scratch, gives the live state and view.
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

from .test_affordance_play import gm_member, open_table

SEED = b"nstrpg-map-combat-0000000000000"

MAP = "\n".join(
    (
        "##############",
        "#......#.....#",
        "#......d.....W",
        "#......#.....#",
        "###D####.....#",
        "#............#",
        "##############",
    )
)
PC = {"karate": 6, "neuron": 4, "wazamae": 5, "kyakuryoku": 5, "tairyoku": 10, "seishin": 4}
BOSS = {"kind": "boss", "karate": 4, "neuron": 5, "wazamae": 3, "kyakuryoku": 4, "tairyoku": 4}
MOB = {"kind": "mob", "karate": 2, "neuron": 1, "wazamae": 2, "kyakuryoku": 3, "tairyoku": 1}


@pytest.fixture
async def server() -> AsyncIterator[RunningServer]:
    running = await start_server(
        MemoryEventStore(),
        dice=lambda tid, seed, cursor: SeededDice(SEED, cursor),
        rate_per_s=10_000.0,  # a scripted client, not a person: no flood limit
        rate_burst=10_000,
    )
    yield running
    await stop_server(running)


def pick(aff: dict[str, Any], game: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The command of ``aff`` with one offered value per choice (see the module docstring)."""
    cmd = {"type": aff["command"], **aff.get("args", {})}
    board = game.get("board") or {}
    pos = board.get("positions", {})
    for key, options in aff.get("choices", {}).items():
        values = [o["value"] for o in options]
        assert values, aff
        if key == "at" and aff["command"] == "nstrpg.place":
            pc = game["kinds"][aff["args"]["character_id"]] == "pc"
            side = [v for v in values if (v[0] <= 5) == pc and (v[0] >= 9 or pc)]
            cmd[key] = rng.choice(side or values)
        elif key == "to":
            me = aff["args"]["character_id"]
            foes = [
                p
                for k, p in pos.items()
                if game["fighters"][k]["status"] == "active"
                and (game["kinds"][k] == "pc") != (game["kinds"][me] == "pc")
            ]
            cmd[key] = min(
                values,
                key=lambda v: (
                    min((max(abs(v[0] - f[0]), abs(v[1] - f[1])) for f in foes), default=0),
                    rng.random(),
                ),
            )
        elif key == "shuchu":
            cmd[key] = False
        else:
            cmd[key] = rng.choice(values)
    return cmd


async def test_a_whole_combat_on_a_map_by_affordances(server: RunningServer) -> None:
    gm_peer, pl_peer = await Raw.connect(server.ws_url), await Raw.connect(server.ws_url)
    try:
        gm, pl = await open_table(gm_peer, pl_peer, "オフィス")
        tid = gm.tid
        kinds: dict[str, str] = {}
        for name in ("ヤモト", "シルバーカラス", "ナンシー"):
            await pl.send({"type": "create_character", "name": name, "sheet": PC})
        await gm.send({"type": "create_character", "name": "ソニックブーム", "sheet": BOSS})
        await gm.send(
            {"type": "nstrpg.create_mobs", "name": "クローンヤクザ", "count": 3, "sheet": MOB}
        )
        await gm.send({"type": "nstrpg.set_map", "text": MAP, "name": "オフィス"})
        for cid, ch in (await gm.state())["state"]["characters"].items():
            kinds[cid] = ch["sheet"].get("kind", "pc")

        rng = random.Random(11)
        played: list[tuple[str, str]] = []
        for _ in range(600):
            step = None
            for seat in (pl, gm):
                msg = await seat.state()
                primary = [a for a in msg["affordances"] if a.get("primary")]
                if primary:
                    step = (seat, primary[0], msg)
                    break
            if step is None:
                break
            seat, aff, msg = step
            game = {**msg["state"]["game"], "kinds": kinds}
            await seat.send(pick(aff, game, rng))
            played.append((seat.name, aff["command"]))
            if aff["command"] == "nstrpg.end_combat":
                break
        else:
            pytest.fail(f"the combat did not end: {played[-40:]}")

        commands = [c for _, c in played]
        assert commands[0] == "nstrpg.start_combat" and commands[-1] == "nstrpg.end_combat"
        # the sudden-combat placement came first: 7 fighters, lowest イニシアチブ first (NS-33)
        assert commands[1:8] == ["nstrpg.place"] * 7 and commands[8] == "nstrpg.start_turn"
        assert "nstrpg.move" in commands and "nstrpg.attack" in commands
        assert commands.count("nstrpg.start_turn") >= 2
        final = await gm.state()
        game = final["state"]["game"]
        assert not game["combat"]
        enemies = [k for k, kind in kinds.items() if kind != "pc"]
        assert all(game["fighters"][k]["status"] != "active" for k in enemies)

        # every move on the log was a legal one, and the log replays to the same state
        table = await server.hub.table(tid)
        recs = await server.store.read(tid)
        moves = [r for r in recs if r.type == "nstrpg.moved"]
        assert moves
        replayed = fold(TableState(table_id=tid), recs, table.ruleset, table.decoder)
        assert msgspec.to_builtins(replayed) == msgspec.to_builtins(table.state)
        seen = view(replayed, replayed.viewer(gm_member(final)), table.ruleset)["game"]
        assert msgspec.json.decode(msgspec.json.encode(seen)) == game
    finally:
        await gm_peer.close()
        await pl_peer.close()
