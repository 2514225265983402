"""Undo on a 澱み流れ table (issue #20): a deal of 流れ undone puts the cards back on the deck."""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core.commands import Redo, Undo
from taku_yodomi import commands as C


async def test_a_deal_undone_puts_the_cards_back_on_the_deck(new_table: Any, order: Any) -> None:
    yd = await new_table(shuffles=[order("♦10", "♠9", "♥3", "♣Q", "♠A")])
    h = yd.h
    await h.send(h.gm, C.DealCards(character_id=yd.a, count=2))
    deck, hands = list(yd.game.deck), {k: list(v) for k, v in yd.game.hands.items()}
    cursor = h.state.dice_cursor
    await h.send(h.gm, C.DealCards(character_id=yd.b, count=3))
    assert yd.game.hands[yd.b] == ["♥3", "♣Q", "♠A"] and len(yd.game.deck) == len(deck) - 3
    (undone,) = await h.send(h.gm, Undo())
    assert undone.command == "yodomi.deal_cards"  # type: ignore[attr-defined]
    # the three cards are on the top of the deck again, in their order; A's hand untouched
    assert yd.game.deck == deck and yd.game.deck[:3] == ["♥3", "♣Q", "♠A"]
    assert {k: list(v) for k, v in yd.game.hands.items()} == hands
    assert h.state.dice_cursor == cursor  # a deal from a shuffled deck draws nothing new
    # the deck's order stays hidden: the public gets the undo without the restored state
    frame = (await h.frames(None, after_seq=h.state.seq - 1))[0]
    assert frame["event"]["type"] == "undone" and "restore" not in frame["event"]
    assert "♥3" not in str(h.spectator_view())
    await h.send(h.gm, Redo())
    assert yd.game.hands[yd.b] == ["♥3", "♣Q", "♠A"]
    await h.assert_replay_matches()


async def test_the_first_deal_undone_leaves_its_shuffle_drawn(new_table: Any, order: Any) -> None:
    """Undoing the deal that shuffled the deck: the deck is as before, the shuffle's draws stay."""
    yd = await new_table(shuffles=[order("♦10", "♠9")])
    h = yd.h
    before = yd.game.deck
    await h.send(h.gm, C.DealCards(character_id=yd.a, count=2))
    cursor = h.state.dice_cursor
    await h.send(h.gm, Undo())
    assert yd.game.deck == before and not yd.game.hands.get(yd.a)
    assert h.state.dice_cursor == cursor
    await h.assert_replay_matches()


async def test_a_fork_carries_the_deck_and_hands_without_showing_them(
    new_table: Any, order: Any
) -> None:
    yd = await new_table(shuffles=[order("♦10", "♠9", "♥3")])
    h = yd.h
    await h.send(h.gm, C.DealCards(character_id=yd.a, count=2))
    f = await h.hub.fork_table(h.table.table_id, h.gm)
    fork = await h.hub.table(f.created.table_id)
    assert fork.state.game == h.state.game  # the same deck order and hands
    await h.hub.join(fork.table_id, f.member_tokens[yd.pa])
    frames = [msgspec.json.decode(x) for x in await fork.log_frames(yd.pa, 0, 10)]
    forked = frames[1]
    assert forked["redacted"] and forked["event"].get("state") in (None, {})
    assert "♥3" not in msgspec.json.encode(frames).decode()
    # the GM's own deal goes on from the carried deck
    await fork.execute(h.gm, C.DealCards(character_id=yd.b, count=1), command_id="f1")
    assert fork.state.game.hands[yd.b] == ["♥3"]
    # the hidden carried state is committed to and chained: the GM's full log verifies
    from taku.plugins import load_registry
    from taku.verify import check_fork, lines_from_records, verify_log

    reg = load_registry()
    lines = lines_from_records(await h.hub.store.read(fork.table_id))
    rep = verify_log(lines, reg)
    check_fork(lines, lines_from_records(await h.hub.store.read(h.table.table_id)), reg, rep)
    assert rep.ok and rep.counts["fork_prefix"] == f.source_seq, [str(p) for p in rep.problems]
