"""The `shadowjan` ruleset: シャドー・ジャン2, mahjong played with ニンジャスレイヤーTRPG checks.

Built on :mod:`taku_nstrpg` by importing it (checks, attack profiles, evasion,
counter karate, サツバツ!, damage, Ninja Slayer's stat block). With no GM the
server runs the whole game; ``turn`` says whose move it is and ``affordances`` the
legal moves.

- :mod:`taku_shadowjan.decider`: ``decide``, ``moves``, ``waiting_for``.
- :mod:`taku_shadowjan.play`: ``affordances``, ``turn``.
- :mod:`taku_shadowjan._rules`: scoring tables, equipment restrictions, the knock-out split.
"""

from taku_shadowjan._rules import (
    CHOMBO,
    RON,
    TSUMO,
    chombo_deltas,
    equipment_problem,
    ron_deltas,
    split_points,
    tsumo_deltas,
)
from taku_shadowjan.decider import decide, moves, waiting_for
from taku_shadowjan.options import SjOptions
from taku_shadowjan.state import SjGame

__all__ = [
    "CHOMBO",
    "RON",
    "TSUMO",
    "SjGame",
    "SjOptions",
    "chombo_deltas",
    "decide",
    "equipment_problem",
    "moves",
    "ron_deltas",
    "split_points",
    "tsumo_deltas",
    "waiting_for",
]
