"""What each viewer may see of a 澱み流れ table (DESIGN.md "Visibility").

The deck is a count only, for everybody: its order lives in the state the
server folds and in ``yodomi.deck_shuffled`` events whose audience is empty.
A hand's faces go to its character's player only, and to the GMs when the
table option ``gm_sees_hands`` is set (default: off); everyone else sees counts.
The discards are face down: a count. Cards played on a check were shown to
everyone and stay visible in ``last_check``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core.ruleset import Viewer
from taku.core.table import TableState
from taku_yodomi.options import YodomiOptions
from taku_yodomi.state import Game

__all__ = ["view"]


def sees_hand(table: TableState, viewer: Viewer, character_id: str, options: YodomiOptions) -> bool:
    """Whether ``viewer`` sees the faces of ``character_id``'s hand: its player; a GM for an
    NPC (no owner), or for everyone with ``gm_sees_hands``."""
    ch = table.characters.get(character_id)
    if viewer.is_gm and (options.gm_sees_hands or ch is None or ch.owner is None):
        return True
    return ch is not None and viewer.member_id is not None and ch.owner == viewer.member_id


def view(table: TableState, viewer: Viewer, options: YodomiOptions) -> Any:
    """The game as ``viewer`` may see it: ``deck`` and ``discards`` as counts, hands
    as ``{"count": n, "cards": [...]}`` with ``cards`` only for those who may see them."""
    game = table.game
    if not isinstance(game, Game):
        return game
    data = msgspec.to_builtins(game)
    data["deck"] = {"count": len(game.deck)}
    data["discards"] = {"count": len(game.discards)}
    hands: dict[str, Any] = {}
    for cid, hand in game.hands.items():
        shown: dict[str, Any] = {"count": len(hand)}
        if sees_hand(table, viewer, cid, options):
            shown["cards"] = list(hand)
        hands[cid] = shown
    data["hands"] = hands
    return data


def _faces(data: Any) -> set[str]:
    """Every card code written anywhere in ``data`` (builtins: dicts, lists, strings)."""
    from taku_yodomi._cards import is_card

    if isinstance(data, str):
        return {data} if is_card(data) else set()
    if isinstance(data, dict):
        return {f for v in data.values() for f in _faces(v)}
    if isinstance(data, list | tuple):
        return {f for v in data for f in _faces(v)}
    return set()


def hides_command(command: Any, emitted: Any) -> bool:
    """Whether ``command`` names cards (from a hand, face down) that its public events do
    not show face up: a check that could take no cards (a fumble, YD-25), a cut or a cost
    paid in cards. Its record is then for its sender only
    (:attr:`taku.core.ruleset.Ruleset.hides_command`)."""
    from taku.core.events import Private

    named = _faces(msgspec.to_builtins(command))
    if not named:
        return False
    shown = _faces([msgspec.to_builtins(e) for e in emitted if not isinstance(e, Private)])
    return not named <= shown
