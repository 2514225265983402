"""Line of sight for the view: what the acting character sees on the map (NS-60).

The browser map draws a line from the character whose 手番 it is to every enemy on the
map, solid where the line of sight is clear and dashed where a wall, an obstacle, a closed
door or another enemy blocks it; the attack itself is validated by the attack phase. The
geometry is :func:`taku_nstrpg.board.line_of_sight` (centre to centre, G-NS-13).
"""

from __future__ import annotations

from taku.core.table import TableState
from taku_nstrpg import board as bd
from taku_nstrpg._evolve import sheet_of
from taku_nstrpg.damage import ACTIVE
from taku_nstrpg.moves import enemies_of, side
from taku_nstrpg.state import NsGame

__all__ = ["sight_view"]


def sight_view(table: TableState, game: NsGame) -> dict[str, dict[str, bool]]:
    """``{acting: {enemy: sees}}`` for the character whose 手番 it is, when it stands on
    the map; ``{}`` otherwise (no map, between 手番, off the map).

    ``sees`` is NS-60's line of sight from the actor's square to the enemy's: walls,
    obstacles, closed doors and the actor's other enemies block it, allies and open doors
    do not. Enemies that are 爆発四散 or off the map are left out.
    """
    b = game.board
    cid = game.acting
    if b is None or b.map is None or cid is None or cid not in b.positions:
        return {}
    if cid not in table.characters:
        return {}
    here = b.positions[cid]
    foes, _ = enemies_of(table, game, cid)
    mine = side(sheet_of(table.characters[cid].sheet))
    seen: dict[str, bool] = {}
    for k, p in sorted(b.positions.items()):
        if k == cid or k not in table.characters:
            continue
        f = game.fighters.get(k)
        if f is not None and f.status not in (ACTIVE, "fainted"):
            continue
        if side(sheet_of(table.characters[k].sheet)) == mine:
            continue
        seen[k] = bd.line_of_sight(b.map, here, p, foes)
    return {cid: seen}
