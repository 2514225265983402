"""With the server's seeded dice, every face and shuffle of a yodomi table is in the log: ``taku verify`` passes."""

from __future__ import annotations

import msgspec
import pytest

from taku.app import Hub
from taku.core.commands import CreateCharacter, RevealSeed
from taku.plugins import load_registry
from taku.store.memory import MemoryEventStore
from taku.verify import LogEntry, lines_from_export, lines_from_records, verify, verify_log
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
    # the public's and the GM's exports too: what they hold checks, display fields included
    for who in (None, created.member_id):
        text = "\n".join(f.decode() for f in table.viewer_frames(recs, who))
        rep = verify_log(lines_from_export(text), load_registry())
        assert rep.ok, (who, [str(x) for x in rep.problems])
    await hub.close()


async def test_after_the_reveal_no_hand_can_be_computed_from_the_seed() -> None:
    """The leak of issue 17: once the seed is public, the pile's order follows from it and
    the public deal counts. The first deal after reveal_seed cuts the pile again with the
    new epoch's seed (face 0 of its stream), so the cards dealt are not the ones the old
    order puts on top; a table without epochs deals no more at all."""
    from taku.core.dice import face_at, fisher_yates
    from taku.core.events import SeedRevealed
    from taku_yodomi._cards import deck_from_order

    store = MemoryEventStore()
    hub = Hub(store, load_registry())
    created = await hub.create_table(ruleset="yodomi", name="漏れない卓")
    table = await hub.table(created.table_id)
    gm = created.member_id
    pl = (await hub.join(created.table_id, created.player_token, "P")).member_id
    n = iter(range(100))

    async def send(member: str, cmd: object) -> None:
        await table.execute(member, cmd, command_id=f"v{next(n)}")  # type: ignore[arg-type]

    await send(pl, CreateCharacter(name="アキラ", sheet={"pp": 40}))
    cid = next(iter(table.state.characters))
    await send(gm, C.DealCards(character_id=cid, count=5))
    await send(gm, RevealSeed())
    recs = await store.read(created.table_id)
    revealed = msgspec.json.decode(recs[-1].data, type=SeedRevealed)
    seed = bytes.fromhex(revealed.seed)
    # what anybody can compute now: the first shuffle (at 0 of epoch 0), minus the 5 dealt
    order = fisher_yates(54, [face_at(seed, j, 54 - j) for j in range(53)])
    predicted = list(deck_from_order(order))[5:8]
    await send(gm, C.DealCards(character_id=cid, count=3))
    new = await store.read(created.table_id, after_seq=recs[-1].seq)
    cut = msgspec.json.decode(new[0].data)
    assert cut["type"] == "yodomi.deck_shuffled" and cut["new_seed"] and new[0].audience == ()
    assert cut["shuffle"]["at"] == 0 and cut["shuffle"]["size"] == 49
    dealt = msgspec.json.decode(new[1].data)["cards"]
    assert dealt == cut["deck"][:3] and dealt != predicted
    report = verify_log(lines_from_records(await store.read(created.table_id)), load_registry())
    assert report.ok, [str(p) for p in report.problems]
    await hub.close()

    # a table from before epochs: its one seed is public, so its pile is too
    old = await hub.create_table(ruleset="yodomi", name="古い卓")
    t2 = await hub.table(old.table_id)
    await t2.execute(old.member_id, CreateCharacter(name="A", sheet={"pp": 40}), command_id="a")
    c2 = next(iter(t2.state.characters))
    await t2.execute(old.member_id, C.DealCards(character_id=c2, count=2), command_id="b")
    t2.state = t2._decided = msgspec.structs.replace(t2.state, epochs=False)
    await t2.execute(old.member_id, RevealSeed(), command_id="c")
    with pytest.raises(Exception) as e:
        await t2.execute(old.member_id, C.DealCards(character_id=c2, count=1), command_id="d")
    assert getattr(e.value, "code", "") == "rule/yodomi/seed_revealed"
