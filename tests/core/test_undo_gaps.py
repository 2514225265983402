"""The last gaps of issue #20: a member's fork never shows them hidden state, and the
small ones (the reviewer's list); undo and the timers: tests/shadowjan/test_undo_timers.py."""

from __future__ import annotations

import msgspec
import pytest

from taku.codes import message
from taku.core.commands import Chat, CreateCharacter, Redo, SetTimer, Undo
from taku.core.events import HistorySettings
from taku.core.render import render
from taku.errors import TakuError
from taku.testing.harness import TableHarness
from taku_yodomi import commands as Y


async def _yodomi_with_npc_hand() -> tuple[TableHarness, str, int]:
    """A yodomi table (members may fork) with a player and an NPC; returns the harness,
    the player and the seq before the GM deals the NPC 3 cards (the last command)."""
    h = await TableHarness.create(
        "yodomi", shuffles=[list(range(54))], history=HistorySettings(fork_by_members=True)
    )
    pl = await h.join("はなこ")
    (pc,) = await h.send(pl, CreateCharacter(name="PC", sheet={"pp": 50, "sp": 60, "social": 3}))
    await h.send(pl, Y.ChooseSuit(character_id=pc.character_id, suit="♠"))
    (npc,) = await h.send(h.gm, CreateCharacter(name="NPC", sheet={"pp": 50}))
    before = h.state.seq
    await h.send(h.gm, Y.DealCards(character_id=npc.character_id, count=3))
    assert len(h.game.hands[npc.character_id]) == 3
    return h, pl, before


async def test_a_players_fork_is_refused_where_the_gm_sees_more() -> None:
    """After the GM dealt an NPC 3 cards, a player's fork (which would make her its GM,
    seeing the NPC's hand) is refused with ``fork/hidden_state``; the GM's own fork of
    the same seq is made."""
    h, pl, _ = await _yodomi_with_npc_hand()
    with pytest.raises(TakuError) as e:
        await h.hub.fork_table(h.table.table_id, pl)
    assert e.value.code == "fork/hidden_state"
    assert "GMに分岐を頼んで" in message(e.value.code, e.value.details)
    f = await h.hub.fork_table(h.table.table_id, h.gm)
    fork = await h.hub.table(f.created.table_id)
    assert fork.state.game == h.game
    await h.hub.close()


async def test_a_players_fork_before_the_deal_is_made() -> None:
    """Before the NPC holds a card (every hand empty) the same player may fork."""
    h, pl, before = await _yodomi_with_npc_hand()
    f = await h.hub.fork_table(h.table.table_id, pl, at_seq=before)
    fork = await h.hub.table(f.created.table_id)
    assert fork.state.members[pl].role == "gm"
    assert not any(fork.state.game.hands.values())
    await h.hub.close()


async def test_a_players_fork_of_a_public_state_is_made() -> None:
    """Forking before anything hidden exists (no hands dealt) is the player's right."""
    h = await TableHarness.create("generic", history=HistorySettings(fork_by_members=True))
    pl = await h.join("はなこ")
    await h.send(pl, CreateCharacter(name="PC", sheet={}))
    f = await h.hub.fork_table(h.table.table_id, pl)
    fork = await h.hub.table(f.created.table_id)
    assert fork.state.members[pl].role == "gm"
    await h.hub.close()


async def test_a_players_refused_redo_says_redo() -> None:
    """``undo/not_last`` names what was refused: やり直し for a redo, 取り消し for an undo."""
    h = await TableHarness.create("generic", history=HistorySettings(player_undo=True))
    pl = await h.join("はなこ")
    await h.send(pl, Chat(text="わたし"))
    await h.send(pl, Undo())
    await h.send(h.gm, Chat(text="GM"))
    e = await h.rejected(pl, Redo())
    assert e.code == "undo/not_last"
    assert message(e.code, e.details).startswith("プレイヤーがやり直しできるのは")
    e = await h.rejected(pl, Undo())  # the GM's line
    assert message(e.code, e.details).startswith("プレイヤーが取り消しできるのは")
    await h.hub.close()


async def test_a_forks_first_line_names_the_source_table() -> None:
    """The fork's 「分岐しました」 line gives the source's name (and its id)."""
    h = await TableHarness.create("generic")
    await h.send(h.gm, Chat(text="ここまで"))
    f = await h.hub.fork_table(h.table.table_id, h.gm)
    fork = await h.hub.table(f.created.table_id)
    recs = await h.hub.store.read(fork.table_id)
    forked = fork.reader.event(recs[1])
    text = render(forked, fork.state, fork.ruleset, h.gm)
    assert text == f"卓「テスト卓」（{h.table.table_id}）の #{f.source_seq} から分岐しました"
    await h.hub.close()


async def test_a_timer_too_long_or_too_short_is_timer_invalid_duration() -> None:
    """A ``set_timer`` frame with 0 s or more than a day is refused with its own code (and
    the schema still tells forms the bounds)."""
    h = await TableHarness.create("generic")
    for bad in (0, 86_401):
        raw = msgspec.json.encode({"type": "set_timer", "duration_s": bad})
        e = await h.rejected(h.gm, h.table.decode_command(raw))
        assert e.code == "timer/invalid_duration"
    assert not h.state.timers
    schema = msgspec.json.schema(SetTimer)
    (props,) = [
        d["properties"] for d in schema["$defs"].values() if "duration_s" in d.get("properties", {})
    ]
    assert (props["duration_s"]["minimum"], props["duration_s"]["maximum"]) == (1, 86_400)
    await h.hub.close()


async def test_a_players_fork_after_the_shuffle_is_refused() -> None:
    """rv2: after the deck is shuffled (seq of the GM's deal, before the cards land), the
    GM's view shows no more than the player's, but the fork would carry the deck's order:
    its GM (the player) deals an NPC there and sees the source's next cards. Refused."""
    h, pl, _ = await _yodomi_with_npc_hand()
    shuffled = next(
        r.seq
        for r in await h.hub.store.read(h.table.table_id)
        if r.type.endswith("deck_shuffled") or "shuffle" in r.type
    )
    with pytest.raises(TakuError) as e:
        await h.hub.fork_table(h.table.table_id, pl, at_seq=shuffled)
    assert e.value.code == "fork/hidden_state"
    await h.hub.close()
