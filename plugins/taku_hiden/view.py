"""What clients see of a 秘伝の声 table: the whole game state plus the chapter's tables.

Nothing in chapter 5 is hidden (the GM's target 2D is rolled in the open), so
every viewer sees the same state. ``tables`` carries the difficulty table
(五ノ二) and the helper tables of 五ノ七 for clients to show.
"""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core.ruleset import Viewer
from taku.core.table import TableState
from taku_hiden.state import HidenState
from taku_hiden.tables import tables

__all__ = ["view"]


def view(table: TableState, viewer: Viewer) -> dict[str, Any]:
    """The game as ``viewer`` sees it: characters' 座布団 and conditions, open checks, tables."""
    game = table.game if isinstance(table.game, HidenState) else HidenState()
    return {**msgspec.to_builtins(game), "tables": tables()}
