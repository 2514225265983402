"""The pure core of taku: events, commands, dice, the ruleset API and the table decider.

Nothing under ``taku.core`` does I/O, reads the clock or draws global randomness.
"""

from taku.core.commands import CORE_COMMANDS, Command
from taku.core.dice import DiceSource, Roll, ScriptedDice, SeededDice, Shuffle
from taku.core.events import CORE_EVENTS, GM, Event, Private, Recorded
from taku.core.ruleset import Context, Role, Ruleset, Viewer
from taku.core.table import TableState, decide, evolve, fold, view

__all__ = [
    "CORE_COMMANDS",
    "CORE_EVENTS",
    "GM",
    "Command",
    "Context",
    "DiceSource",
    "Event",
    "Private",
    "Recorded",
    "Role",
    "Roll",
    "Ruleset",
    "ScriptedDice",
    "SeededDice",
    "Shuffle",
    "TableState",
    "Viewer",
    "decide",
    "evolve",
    "fold",
    "view",
]
