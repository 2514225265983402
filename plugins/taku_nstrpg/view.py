"""What a viewer sees of the nstrpg state: everything (the rules hide nothing but secret
rolls, which the core redacts), plus the derived values of every character."""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core.ruleset import Viewer
from taku.core.table import TableState
from taku_nstrpg._evolve import sheet_of
from taku_nstrpg.options import NsOptions
from taku_nstrpg.sight import sight_view
from taku_nstrpg.state import NsGame, current, evasion_per_turn, initiative

__all__ = ["derived", "view"]

_NOT_SHOWN = (
    "acted",
    "step",
    "turn_over",
    "secret_rolls",
    "joined",
    "turn_initiative",
    "turn_duel",
)  # turn bookkeeping (see ``turn``: its order's values), and who may see a secret check


def derived(table: TableState, cid: str) -> dict[str, Any]:
    """回避 per turn, イニシアチブ (and its place in the order: ≤ 0 acts as 1), current
    attributes and ● skills of one character (NS-17, NS-18, NS-23, NS-32)."""
    game: NsGame = table.game or NsGame()
    sheet = sheet_of(table.characters[cid].sheet)
    f = game.fighters.get(cid)
    init = initiative(sheet, f)
    return {
        "evasion_per_turn": evasion_per_turn(sheet, f),
        "initiative": init,
        "initiative_order": max(init, 1),
        "current": {s: current(sheet, f, s) for s in ("karate", "neuron", "wazamae", "kyakuryoku")},
        "auto_skills": sheet.auto().names(),
    }


def view(table: TableState, viewer: Viewer, options: NsOptions | None = None) -> dict[str, Any]:
    """The game state as builtins, with ``derived`` values per character (nothing is hidden).

    The 手番 bookkeeping (``acted``, ``step``, ``turn_over``, ``joined``, ``turn_initiative``)
    is left out: the state
    message's ``turn`` presents it (:func:`taku_nstrpg.play.turn`), and the view stays
    what earlier versions showed.
    """
    game = table.game or NsGame()
    out: dict[str, Any] = msgspec.to_builtins(game)
    for key in _NOT_SHOWN:
        out.pop(key, None)  # the state message's ``turn`` shows them (order, done, phase)
    if game.board is None:
        out.pop("board", None)  # no map: the view earlier versions showed
    else:
        out["board"]["sight"] = sight_view(table, game)  # the acting character's NS-60 sight
    if not game.pc_rank:
        out.pop("pc_rank", None)
    for cid, audience in game.secret_rolls.items():
        if not viewer.sees(audience):
            out["last_roll"].pop(cid, None)  # a secret check's result: the roller and the GM only
    out["derived"] = {cid: derived(table, cid) for cid in game.fighters if cid in table.characters}
    return out
