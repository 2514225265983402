"""With the server's seeded dice, every face and shuffle of a yodomi table is in the log: ``taku verify`` passes."""

from __future__ import annotations

import msgspec

from taku.app import Hub
from taku.core.commands import CreateCharacter, RevealSeed
from taku.plugins import load_registry
from taku.store.memory import MemoryEventStore
from taku.verify import LogEntry, lines_from_records, verify, verify_log
from taku_yodomi import commands as C


async def test_seeded_table_verifies() -> None:
    """Deals (with the hidden shuffle), checks, rerolls, 舞台裏 and reshuffles all verify against the seed."""
    store = MemoryEventStore()
    hub = Hub(store, load_registry())
    created = await hub.create_table(ruleset="yodomi", name="検証卓")
    table = await hub.table(created.table_id)
    gm = created.member_id
    pl = (await hub.join(created.table_id, created.player_token, "P")).member_id
    n = iter(range(1000))

    async def send(member: str, cmd: object) -> None:
        await table.execute(member, cmd, command_id=f"v{next(n)}")  # type: ignore[arg-type]

    await send(pl, CreateCharacter(name="アキラ", sheet={"pp": 40}))
    cid = next(iter(table.state.characters))
    await send(pl, C.RollKeyNumber(character_id=cid))
    await send(pl, C.ChooseSuit(character_id=cid, suit="♦"))
    for _ in range(3):
        await send(gm, C.DealCards(character_id=cid, count=20))
        hand = table.state.game.hands[cid]
        await send(
            pl,
            C.RollCheck(
                character_id=cid, key_reroll=True, cards=[c for c in hand if c[0] != "♦"][:15]
            ),
        )
        await send(pl, C.RollCheck(character_id=cid, kind="d99", value=50, key_reroll=True))
    await send(gm, CreateCharacter(name="語り部", sheet={}))
    npc = [c for c in table.state.characters if c != cid][0]
    await send(gm, C.StartScene(kind="middle", scene_player=npc))
    await send(gm, C.EndScene())
    await send(pl, C.Backstage(character_id=cid))
    await send(gm, RevealSeed())
    recs = await store.read(created.table_id)
    assert any(
        r.type == "yodomi.deck_shuffled" and b'"reshuffle":true' in bytes(r.data) for r in recs
    )
    entries = [LogEntry(r.seq, r.command_id, r.draws, msgspec.json.decode(r.data)) for r in recs]
    problems, counts = verify(entries)
    assert problems == [] and counts["rolls"] > 8
    # and the whole log: its chain, and every command decided again with the revealed seed
    report = verify_log(lines_from_records(recs), load_registry())
    assert report.ok, [str(x) for x in report.problems]
    assert report.counts["commands"] == len({r.command_id for r in recs}) - 1
    await hub.close()
