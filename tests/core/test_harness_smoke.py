"""The harness drives a table through the application service with scripted dice."""

from taku.core.commands import CreateCharacter, RollDice
from taku.core.events import DiceRolled
from taku.testing.harness import TableHarness


async def test_scripted_roll_through_the_service() -> None:
    """A player's roll uses the scripted faces and lands in the log."""
    h = await TableHarness.create("generic", faces=[3, 5])
    pl = await h.join("たろう")
    (ev,) = await h.send(pl, RollDice(expression="2D6>=7"))
    assert isinstance(ev, DiceRolled)
    assert ev.rolls[0].faces == (3, 5) and ev.total == 8 and ev.success is True
    (created,) = await h.send(pl, CreateCharacter(name="ニンジャ"))
    assert h.state.characters[created.character_id].owner == pl
    await h.assert_replay_matches()
