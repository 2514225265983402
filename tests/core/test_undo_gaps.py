"""The last gaps of issue #20: a member's fork never shows them hidden state, undo
compensates the armed timers, and the small ones (the reviewer's list)."""

from __future__ import annotations

import pytest

from taku.codes import message
from taku.core.commands import CreateCharacter
from taku.core.events import HistorySettings
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


async def test_a_players_fork_of_a_public_state_is_made() -> None:
    """Forking before anything hidden exists (no hands dealt) is the player's right."""
    h = await TableHarness.create("generic", history=HistorySettings(fork_by_members=True))
    pl = await h.join("はなこ")
    await h.send(pl, CreateCharacter(name="PC", sheet={}))
    f = await h.hub.fork_table(h.table.table_id, pl)
    fork = await h.hub.table(f.created.table_id)
    assert fork.state.members[pl].role == "gm"
    await h.hub.close()
