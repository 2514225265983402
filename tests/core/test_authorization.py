"""The authorization matrix: every role × every command of every installed ruleset.

Who may send a command is declared once, on the command (``permit``), and
enforced by the core. This test sends every command (core and ruleset, with
plausible fields) as every kind of sender and checks that the server's answer
agrees with the declaration: a sender the declaration excludes gets
``command/forbidden``, and a sender it includes does not (the rules may still
refuse for their own reasons). The senders:

- the GM;
- a player acting for their own character;
- a player acting for another player's character;
- a spectator;
- a former player the GM demoted to spectator, acting for the character they still own.
"""

from __future__ import annotations

from typing import Any

import pytest

from taku.app import Hub
from taku.core.commands import (
    CORE_COMMANDS,
    Chat,
    Command,
    CreateCharacter,
    RemoveCharacter,
    RollDice,
    SetRole,
    UpdateCharacter,
)
from taku.core.ruleset import Role
from taku.errors import TakuError
from taku.plugins import load_registry
from taku.store.memory import MemoryEventStore
from taku.testing.ruleset_contract import placeholder_command

RULESETS = sorted(r.id for r in load_registry())

SHEETS: dict[str, dict[str, Any]] = {}
"""Sheets a ruleset needs to create a character at all (empty: its defaults are enough)."""


class _Table:
    async def open(self, ruleset: str) -> _Table:
        self.hub = Hub(MemoryEventStore(), load_registry())
        c = await self.hub.create_table(ruleset=ruleset, name="権限の卓", gm_name="GM")
        self.tid = c.table_id
        self.table = await self.hub.table(c.table_id)
        self.gm = c.member_id
        self.a = (await self.hub.join(c.table_id, c.player_token, "A")).member_id
        self.b = (await self.hub.join(c.table_id, c.player_token, "B")).member_id
        self.demoted = (await self.hub.join(c.table_id, c.player_token, "D")).member_id
        self.spectator = (await self.hub.join(c.table_id, c.spectator_token, "S")).member_id
        self.a_char = await self.character(self.a, "Aのキャラ")
        self.b_char = await self.character(self.b, "Bのキャラ")
        self.d_char = await self.character(self.demoted, "Dのキャラ")
        await self.send(self.gm, SetRole(member_id=self.demoted, role=Role.SPECTATOR))
        return self

    n = 0

    async def send(self, member: str, command: Command) -> str | None:
        self.n += 1
        try:
            await self.table.execute(member, command, command_id=f"z{self.n}")
        except TakuError as e:
            return e.code
        return None

    async def character(self, owner: str, name: str) -> str:
        code = await self.send(
            owner, CreateCharacter(name=name, sheet=SHEETS.get(self.table.ruleset.id, {}))
        )
        assert code is None, f"could not create a character: {code}"
        return max(self.table.state.characters, key=lambda c: int(c[1:].split("-")[0]))


SENDERS = [
    ("GM", lambda t: t.gm, Role.GM, lambda t: t.a_char, True),
    ("own character's player", lambda t: t.a, Role.PLAYER, lambda t: t.a_char, True),
    ("another's character's player", lambda t: t.a, Role.PLAYER, lambda t: t.b_char, False),
    ("spectator", lambda t: t.spectator, Role.SPECTATOR, lambda t: t.a_char, False),
    ("demoted player", lambda t: t.demoted, Role.SPECTATOR, lambda t: t.d_char, True),
]


def _allowed(cls: type[Command], role: str, owns: bool) -> bool:
    p = cls.permit
    if role not in p.roles:
        return False
    return not p.owner_fields or role == Role.GM or owns


@pytest.mark.parametrize("ruleset", RULESETS)
async def test_every_role_and_command_agrees_with_the_declarations(ruleset: str) -> None:
    rs = load_registry().get(ruleset)
    wrong: list[str] = []
    for cls in (*CORE_COMMANDS, *rs.commands):
        tag = cls.__struct_config__.tag
        if cls is SetRole:
            continue  # changing roles would change the senders; checked below
        for label, who_of, role, char_of, owns in SENDERS:
            t = await _Table().open(
                ruleset
            )  # a fresh table: a command may change the senders (leave)
            who, char = who_of(t), char_of(t)
            cmd = placeholder_command(cls, char)
            code = await t.send(who, cmd)
            expected = _allowed(cls, role, owns)
            if not expected and code != "command/forbidden":
                wrong.append(
                    f"{tag} by a {label}: {code or 'accepted'}, but its permit is {cls.permit.label}"
                )
            if expected and code == "command/forbidden":
                wrong.append(
                    f"{tag} by a {label}: forbidden beyond its declared permit ({cls.permit.label})"
                )
    assert not wrong, f"{ruleset}:\n  " + "\n  ".join(wrong)


async def test_the_cases_found_from_outside_are_refused() -> None:
    """A player demoted to spectator can no longer touch their character; spectators
    neither chat nor roll (the web client hid it, the server accepted it)."""
    t = await _Table().open("generic")
    for cmd in (
        UpdateCharacter(character_id=t.d_char, name="新しい名前"),
        RemoveCharacter(character_id=t.d_char),
        Chat(text="こんにちは"),
        Chat(text="2D6"),
        Chat(text="2D6", character_id=t.d_char),
        RollDice(expression="2D6"),
    ):
        for who in (t.demoted, t.spectator):
            assert await t.send(who, cmd) == "command/forbidden", (cmd, who)
    assert t.d_char in t.table.state.characters


async def test_only_a_gm_changes_roles() -> None:
    t = await _Table().open("generic")
    assert await t.send(t.a, SetRole(member_id=t.b, role=Role.GM)) == "command/forbidden"
    assert (
        await t.send(t.spectator, SetRole(member_id=t.spectator, role=Role.PLAYER))
        == "command/forbidden"
    )
    assert await t.send(t.gm, SetRole(member_id=t.b, role=Role.SPECTATOR)) is None


async def test_spectators_chat_in_their_own_channel_when_the_table_allows_it() -> None:
    from taku.core.events import ChatPosted, TableSettings

    hub = Hub(MemoryEventStore(), load_registry())
    c = await hub.create_table(ruleset="generic", settings=TableSettings(spectator_chat=True))
    table = await hub.table(c.table_id)
    s = (await hub.join(c.table_id, c.spectator_token, "観客")).member_id
    first, last, _ = await table.execute(s, Chat(text="2D6 がんばれ"), command_id="s1")
    (rec,) = await hub.store.read(c.table_id, after_seq=first - 1, to_seq=last)
    event = table.decoder.decode(rec.data)
    assert (
        isinstance(event, ChatPosted) and event.channel == "観戦" and event.text == "2D6 がんばれ"
    )  # never rolled
    try:
        await table.execute(s, RollDice(expression="2D6"), command_id="s2")
    except TakuError as e:
        assert e.code == "command/forbidden"
    else:
        raise AssertionError("a spectator rolled")
