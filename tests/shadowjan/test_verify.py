"""With the server's seeded dice, every face of a shadowjan table is in the log: ``taku verify`` passes."""

from __future__ import annotations

import random

import msgspec

from taku.app import Hub
from taku.core.commands import CreateCharacter, RevealSeed
from taku.plugins import load_registry
from taku.store.memory import MemoryEventStore
from taku.verify import LogEntry, lines_from_export, lines_from_records, verify, verify_log
from taku_shadowjan import commands as C
from taku_shadowjan.commands import COMMANDS

from .conftest import NAMES, ninja, spell

_CMD = {t.__struct_config__.tag: t for t in COMMANDS}


async def test_seeded_game_verifies() -> None:
    """Seat rolls, deals, actions, attacks, evasions and scoring all verify against the revealed seed."""
    store = MemoryEventStore()
    hub = Hub(store, load_registry())
    created = await hub.create_table(ruleset="shadowjan", name="検証卓")
    table = await hub.table(created.table_id)
    n = iter(range(10000))
    owner: dict[str, str] = {}
    for name in NAMES:
        m = (await hub.join(created.table_id, created.player_token, name)).member_id
        await table.execute(
            m, CreateCharacter(name=name, sheet=ninja(jitsu=1)), command_id=f"v{next(n)}"
        )
        cid = next(c for c, ch in table.state.characters.items() if ch.name == name)
        owner[cid] = m
        await table.execute(m, C.Sit(character_id=cid), command_id=f"v{next(n)}")
    await table.execute(owner[cid], C.Start(), command_id=f"v{next(n)}")
    pick = random.Random(7)
    from taku.core.table import affordances

    for _ in range(200):
        if table.state.game.phase == "ended":
            break
        m = pick.choice(
            spell(affordances(table.state, table.state.viewer(created.member_id), table.ruleset))
        )
        cmd = msgspec.convert(m["command"], _CMD[m["command"]["type"]])
        await table.execute(owner[m["character_id"]], cmd, command_id=f"v{next(n)}")
    await table.execute(created.member_id, RevealSeed(), command_id="reveal")
    recs = await store.read(created.table_id)
    entries = [LogEntry(r.seq, r.command_id, r.draws, msgspec.json.decode(r.data)) for r in recs]
    problems, counts = verify(entries)
    # the seed is the server's own (random), so the game's length varies: at least the seat
    # order (4), the first deal (4) and one move rolled
    assert problems == [] and counts["rolls"] >= 9
    # and the whole log: its chain, and every command decided again with the revealed seed
    report = verify_log(lines_from_records(recs), load_registry())
    assert report.ok, [str(x) for x in report.problems]
    assert report.counts["commands"] == len({r.command_id for r in recs}) - 1
    # the public's and the GM's exports too: what they hold checks, display fields included
    for who in (None, created.member_id):
        text = "\n".join(f.decode() for f in table.viewer_frames(recs, who))
        rep = verify_log(lines_from_export(text), load_registry())
        assert rep.ok, (who, [str(x) for x in rep.problems])
    await hub.close()
