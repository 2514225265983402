"""The core table decider: members, roles, characters, overrides, through the command path."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taku.core.commands import (
    Chat,
    CreateCharacter,
    Leave,
    Override,
    RemoveCharacter,
    RenameMember,
    RevealSeed,
    SetRole,
    UpdateCharacter,
)
from taku.core.events import ChatPosted, GMOverridden, SeedRevealed
from taku.core.ruleset import Role
from taku.errors import TakuError
from taku.testing.harness import TableHarness


async def test_players_own_what_they_create_and_only_that() -> None:
    """A player's character is theirs; another player may not change it; the GM may."""
    h = await TableHarness.create("generic")
    a, b = await h.join("A"), await h.join("B")
    (ev,) = await h.send(a, CreateCharacter(name="忍者A", sheet={"hp": 10}))
    cid = ev.character_id
    assert h.state.characters[cid].owner == a
    err = await h.rejected(b, UpdateCharacter(character_id=cid, sheet={"hp": 0}))
    assert err.code == "command/forbidden"
    await h.send(h.gm, UpdateCharacter(character_id=cid, sheet={"hp": 7}))
    assert h.state.characters[cid].sheet == {"hp": 7}
    err = await h.rejected(a, CreateCharacter(name="x", owner=b))
    assert err.code == "command/forbidden"
    (npc,) = await h.send(h.gm, CreateCharacter(name="ヤクザ"))
    assert h.state.characters[npc.character_id].owner is None
    err = await h.rejected(a, RemoveCharacter(character_id=npc.character_id))
    assert err.code == "command/forbidden"
    err = await h.rejected(a, RemoveCharacter(character_id="c999"))
    assert err.code == "command/unknown_character"


async def test_roles_and_the_last_gm() -> None:
    """Only a GM changes roles; the last GM cannot step down; a promoted player can act as GM."""
    h = await TableHarness.create("generic")
    pl = await h.join("P")
    assert (await h.rejected(pl, SetRole(member_id=pl, role=Role.GM))).code == "command/forbidden"
    assert (
        await h.rejected(h.gm, SetRole(member_id=h.gm, role=Role.PLAYER))
    ).code == "command/last_gm"
    await h.send(h.gm, SetRole(member_id=pl, role=Role.GM))
    assert h.state.members[pl].role == Role.GM
    await h.send(pl, SetRole(member_id=h.gm, role=Role.PLAYER))
    assert h.state.members[h.gm].role == Role.PLAYER


async def test_rename_and_leave() -> None:
    """Members rename themselves (the GM renames anyone); one who left cannot act."""
    h = await TableHarness.create("generic")
    pl = await h.join("P")
    await h.send(pl, RenameMember(name="たろう"))
    assert h.state.members[pl].name == "たろう"
    assert (
        await h.rejected(pl, RenameMember(name="x", member_id=h.gm))
    ).code == "command/forbidden"
    await h.send(pl, Leave())
    assert h.state.members[pl].present is False
    assert (await h.rejected(pl, Chat(text="hi"))).code == "command/forbidden"


async def test_gm_override_is_an_event_with_reason_and_previous_value() -> None:
    """An override records path, value, previous value and reason; a bad path changes nothing."""
    h = await TableHarness.create("generic")
    pl = await h.join("P")
    (ev,) = await h.send(pl, CreateCharacter(name="忍者", sheet={"karate": 3}))
    path = ["characters", ev.character_id, "sheet", "karate"]
    (ov,) = await h.send(h.gm, Override(path=path, value=6, reason="GM裁定"))
    assert isinstance(ov, GMOverridden)
    assert (ov.previous, ov.value, ov.reason) == (3, 6, "GM裁定")
    assert h.state.characters[ev.character_id].sheet["karate"] == 6
    assert (await h.rejected(pl, Override(path=path, value=9))).code == "command/forbidden"
    assert (
        await h.rejected(h.gm, Override(path=["members"], value=1))
    ).code == "command/invalid_path"
    assert (
        await h.rejected(h.gm, Override(path=["characters", "c404", "sheet", "x"], value=1))
    ).code == "command/invalid_path"
    await h.assert_replay_matches()


async def test_reveal_seed_is_gm_only_and_once() -> None:
    h = await TableHarness.create("generic")
    pl = await h.join("P")
    assert (await h.rejected(pl, RevealSeed())).code == "command/forbidden"
    (ev,) = await h.send(h.gm, RevealSeed())
    assert isinstance(ev, SeedRevealed) and bytes.fromhex(ev.seed) == h.table.record.seed
    assert (await h.rejected(h.gm, RevealSeed())).code == "command/seed_revealed"


async def test_chat_as_a_character_needs_control() -> None:
    h = await TableHarness.create("generic")
    a, b = await h.join("A"), await h.join("B")
    (ev,) = await h.send(a, CreateCharacter(name="忍者"))
    (line,) = await h.chat(a, "ドーモ", character_id=ev.character_id)
    assert isinstance(line, ChatPosted) and line.character_id == ev.character_id
    assert (
        await h.rejected(b, Chat(text="ドーモ", character_id=ev.character_id))
    ).code == "command/forbidden"


_steps = st.lists(
    st.one_of(
        st.builds(
            lambda t: ("chat", t),
            st.text(
                st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=20
            ).filter(str.strip),
        ),
        st.builds(lambda n: ("char", n), st.text(alphabet="あいうえおabc", min_size=1, max_size=8)),
        st.builds(
            lambda n: ("rename", n), st.text(alphabet="かきくけこxyz", min_size=1, max_size=8)
        ),
        st.just(("roll", "2D6")),
    ),
    max_size=15,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=_steps)
async def test_folding_the_log_equals_the_live_state(steps: list[tuple[str, str]]) -> None:
    """Whatever the commands, folding the whole stored log gives the live state, and
    the state at every seq replays the same as when it was live."""
    h = await TableHarness.create("generic", faces=[3, 4] * 20)
    pl = await h.join("P")
    seen = {h.state.seq: msgspec.to_builtins(h.state)}
    for kind, arg in steps:
        before = h.state.seq
        try:
            if kind == "chat":
                await h.send(
                    pl, Chat(text=arg)
                )  # a line such as "D0" is a bad dice command: refused
            elif kind == "char":
                await h.send(pl, CreateCharacter(name=arg))
            elif kind == "rename":
                await h.send(pl, RenameMember(name=arg))
            else:
                await h.chat(pl, arg)
        except TakuError:
            assert h.state.seq == before  # refused, nothing written
        seen[h.state.seq] = msgspec.to_builtins(h.state)
    await h.assert_replay_matches()
    for seq, state in seen.items():
        assert msgspec.to_builtins(await h.replay(seq)) == state


@pytest.mark.parametrize("role", ["player", "spectator"])
async def test_view_hides_the_seed_until_revealed(role: str) -> None:
    h = await TableHarness.create("generic")
    m = await h.join("X", role=role)
    view = h.view(m)
    assert view["seed"] is None and view["seed_hash"].startswith("sha256:")
    assert view["you"] == {"member_id": m, "role": role}


async def test_no_dice_after_the_seed_is_revealed() -> None:
    """Once the seed is public every later face is predictable: rolls are refused, chat goes on."""
    h = await TableHarness.create("generic", faces=[1, 2, 3, 4])
    pl = await h.join("P")
    await h.chat(pl, "2D6")
    await h.send(h.gm, RevealSeed())
    assert (await h.rejected(pl, Chat(text="2D6"))).code == "command/seed_revealed"
    (line,) = await h.chat(pl, "おつかれさまでした")
    assert isinstance(line, ChatPosted)


async def test_a_command_id_of_another_member_is_refused_not_swallowed() -> None:
    """Two members reusing one command id: the second gets command/id_taken, not a silent duplicate."""
    h = await TableHarness.create("generic")
    a, b = await h.join("A"), await h.join("B")
    await h.table.execute(a, Chat(text="from A"), command_id="1")
    with pytest.raises(Exception) as e:
        await h.table.execute(b, Chat(text="from B"), command_id="1")
    assert getattr(e.value, "code", None) == "command/id_taken"
    assert await h.table.execute(a, Chat(text="from A"), command_id="1") == (5, 5, True)


async def test_names_refuse_control_characters_and_chat_drops_them() -> None:
    """A name with a newline or a direction override could forge log lines: refused. Chat keeps
    newlines but loses other control characters."""
    h = await TableHarness.create("generic")
    pl = await h.join("P")
    for bad in ("X\n[3] GM", "A\u202eB", "N\x00"):
        assert (await h.rejected(pl, RenameMember(name=bad))).code == "command/invalid_name"
    (line,) = await h.chat(pl, "一行目\n二行目\x00\u202e")
    assert line.text == "一行目\n二行目"


async def test_an_override_follows_the_same_rules_and_never_logs_a_change_that_did_not_happen() -> (
    None
):
    """A GM override cannot give a character a name other commands refuse, nor set a key
    the state does not keep (it would be logged but change nothing)."""
    h = await TableHarness.create("generic")
    (ev,) = await h.send(h.gm, CreateCharacter(name="忍者"))
    path = ["characters", ev.character_id, "name"]
    for bad in ("", "\u202eevil", "x\x1b[31mred"):
        assert (
            await h.rejected(h.gm, Override(path=path, value=bad))
        ).code == "command/invalid_name"
    err = await h.rejected(h.gm, Override(path=["characters", ev.character_id, "bogus"], value=3))
    assert err.code == "command/invalid_path"
    (ok,) = await h.send(h.gm, Override(path=path, value="ニンジャ", reason="改名"))
    assert h.state.characters[ev.character_id].name == "ニンジャ"
