"""What each viewer may do now at a 澱み流れ table, and whose turn it is (taku.core.play)."""

from __future__ import annotations

from taku.core.play import Affordance, Turn
from taku.core.ruleset import Viewer
from taku.core.table import TableState

from taku_yodomi.options import YodomiOptions

__all__ = ["affordances", "turn"]


def affordances(table: TableState, viewer: Viewer, options: YodomiOptions) -> list[Affordance]:
    return []


def turn(table: TableState, options: YodomiOptions) -> Turn | None:
    return None
