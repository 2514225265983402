"""What clients see of a 秘伝の声 table: the game state plus the chapter's tables.

Nothing in chapter 5 is hidden (the GM's target 2D is rolled in the open),
except what a member rolls as secret dice (``S`` chat commands): such a check
stays in the open checks for its roller and the GM only. ``tables`` carries
the difficulty table (五ノ二) and the helper tables of 五ノ七 for clients to show.
"""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core.ruleset import Viewer
from taku.core.table import TableState
from taku_hiden.options import HidenOptions
from taku_hiden.state import HidenState, OpenCheck
from taku_hiden.tables import tables

__all__ = ["sees", "view"]


def sees(viewer: Viewer, check: OpenCheck) -> bool:
    """Whether ``viewer`` may see ``check``: an open one, or a secret one of theirs (or as GM)."""
    return check.secret_to is None or viewer.is_gm or check.secret_to == viewer.member_id


def view(table: TableState, viewer: Viewer, options: HidenOptions) -> dict[str, Any]:
    """The game as ``viewer`` sees it: ``{"characters": {id: CharState}, "checks": {id: OpenCheck},
    "tables": …}`` (JSON data), without the secret checks of other members (``secret_to``
    appears only on a secret check)."""
    game = table.game if isinstance(table.game, HidenState) else HidenState()
    out: dict[str, Any] = msgspec.to_builtins(game)
    # a secret check names its roller; an open one shows as it always has (no ``secret_to``)
    out["checks"] = {
        k: {f: v for f, v in c.items() if f != "secret_to" or v is not None}
        for k, c in out["checks"].items()
        if sees(viewer, game.checks[k])
    }
    return {**out, "tables": tables()}
