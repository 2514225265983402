"""``view`` of the ``chabu`` ruleset: nothing in it is hidden.

The text has no secret information (no hands, no hidden rolls), so every
viewer sees the whole game state, plus each character's 状態 (CH-11) and whose
turn it is, derived for clients.
"""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core.ruleset import Viewer
from taku_chabu._rules import current_actor, status_of
from taku_chabu.options import ChabuOptions
from taku_chabu.state import ChabuState

__all__ = ["view"]


def view(table: Any, viewer: Viewer, options: ChabuOptions | None) -> dict[str, Any]:
    """The game as JSON data (:class:`ChabuState`), plus ``status`` per character
    (``mikoudou`` 未行動 / ``koudoukanryou`` 行動完了 / ``sentoufunou`` 戦闘不能 /
    ``shibou`` 死亡, CH-11) and ``turn`` (the character id whose turn it is, or ``None``).
    The same for every viewer: nothing in the game is hidden."""
    game = table.game if isinstance(table.game, ChabuState) else ChabuState()
    data: dict[str, Any] = msgspec.to_builtins(game)
    data["status"] = {cid: status_of(game, cid) for cid in game.chars}
    data["turn"] = current_actor(game, table)
    return data
