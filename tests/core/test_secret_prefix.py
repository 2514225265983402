"""The ``S`` secret prefix is one core mechanism wrapping every ruleset's chat commands.

The core strips ``S`` (half- or full-width), asks the ruleset about the rest
with ``ctx.secret`` set, and makes every event of the answer secret: the roller
and the GM see it, everyone else a redacted stand-in at the same seq. A line the
ruleset does not read without the ``S`` is read as it is.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
import pytest

from taku.core.events import ChatPosted, DiceRolled, Event
from taku.core.ruleset import Context, Ruleset
from taku.plugins import Registry, load_registry
from taku.testing.harness import TableHarness


class Fortune(Event, frozen=True, kw_only=True, tag="oracle.fortune"):
    meta = msgspec.Meta(title="占い")

    face: Annotated[int, msgspec.Meta(title="出目")]
    asked_secretly: Annotated[bool, msgspec.Meta(title="こっそり")] = False


def _chat(text: str, table: Any, ctx: Context[None]) -> list[Event] | None:
    """A third party's chat command: ``ORACLE`` rolls a d6."""
    if text.strip().upper() != "ORACLE":
        return None
    return [Fortune(face=ctx.dice.roll(1, 6).faces[0], asked_secretly=ctx.secret)]


ORACLE: Ruleset[None, None] = Ruleset(
    id="oracle", name="占い", version="1", events=(Fortune,), chat=_chat
)


async def _table(faces: list[int]) -> tuple[TableHarness, str, str, str]:
    registry = Registry([*load_registry(), ORACLE])
    h = await TableHarness.create("oracle", faces=faces, registry=registry)
    a, b = await h.join("A"), await h.join("B")
    s = await h.join("観客", role="spectator")
    return h, a, b, s


async def _seen(h: TableHarness, member: str | None, seq: int) -> dict[str, Any]:
    return next(f for f in await h.frames(member) if f["seq"] == seq)


async def test_a_third_partys_chat_command_is_made_secret_by_the_prefix() -> None:
    h, a, b, s = await _table([4])
    (public,) = await h.chat(a, "oracle")
    assert isinstance(public, Fortune) and public.face == 4 and not public.asked_secretly
    for text in ("Soracle", "Ｓoracle", "S oracle"):
        h.roll(2)
        (secret,) = await h.chat(a, text)
        assert isinstance(secret, Fortune) and secret.asked_secretly, text
        seq = h.state.seq
        assert (await _seen(h, a, seq))["event"]["face"] == 2
        assert (await _seen(h, h.gm, seq))["event"]["face"] == 2
        for other in (b, s, None):
            frame = await _seen(h, other, seq)
            assert (
                frame["redacted"]
                and frame["event"]["type"] == "redacted"
                and "face" not in frame["event"]
            ), (text, other)


async def test_a_line_the_ruleset_does_not_read_stays_as_it_is() -> None:
    h, a, _, _ = await _table([])
    (line,) = await h.chat(a, "Sorry, 遅れました")
    assert isinstance(line, ChatPosted) and line.text == "Sorry, 遅れました"


async def test_the_generic_dice_use_the_same_prefix() -> None:
    h, a, b, _ = await _table([3, 6])
    (roll,) = await h.chat(a, "S2D6>=7 こっそり")
    assert isinstance(roll, DiceRolled) and roll.secret and roll.total == 9
    assert (await _seen(h, b, h.state.seq))["redacted"]


@pytest.mark.parametrize("command", ["2D6+1>=8", "1D100<=50", "D66", "4B6>=4", "3D6+2>=10", "2D6"])
async def test_every_generic_dice_command_the_readme_lists_is_secret_with_s(command: str) -> None:
    """The README's generic dice: plain, everyone sees the roll; with ``S``, only the roller and the GM."""
    h = await TableHarness.create("generic", faces=[3] * 20)
    a, b = await h.join("A"), await h.join("B")
    (public,) = await h.chat(a, command)
    assert isinstance(public, DiceRolled) and not public.secret
    assert not (await _seen(h, b, h.state.seq)).get("redacted")
    (secret,) = await h.chat(a, "S" + command)
    assert isinstance(secret, DiceRolled) and secret.secret
    assert (await _seen(h, b, h.state.seq))["redacted"]
    assert (await _seen(h, None, h.state.seq))["redacted"]
    assert not (await _seen(h, h.gm, h.state.seq)).get("redacted") and not (
        await _seen(h, a, h.state.seq)
    ).get("redacted")
