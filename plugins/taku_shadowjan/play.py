"""The play surface of シャドー・ジャン2: what a viewer may do now and whose move it is.

``affordances(table, viewer, options)``: the legal moves of :func:`~taku_shadowjan.decider.moves`
that this viewer may send: those of their own characters (every one for a GM), and
``対局開始`` for a seated player. A spectator gets none.

``turn(table, options)``: whose move it is (the character the table waits for), the
step (``action`` 手番の行動, ``tsumo`` ツモ判定, ``declare`` リーチ/ダマテン宣言,
``attack`` 攻撃, ``evade`` 回避判定; ``sit`` 着席 in the lobby, ``ended`` 終局), the
hand (東1局 …, SJ-06) and the seat order with each seat's 1d100 (SJ-04).
"""

from __future__ import annotations

from taku.core import kit
from taku.core.play import Affordance, Turn, TurnSlot
from taku.core.ruleset import Role, Viewer
from taku.core.table import TableState
from taku_shadowjan.decider import moves, waiting_for
from taku_shadowjan.options import SjOptions
from taku_shadowjan.state import SjGame

__all__ = ["STEPS", "affordances", "hand_label", "turn"]

STEPS: dict[str, str] = {
    "sit": "着席",
    "action": "手番の行動",
    "tsumo": "ツモ判定",
    "declare": "リーチ/ダマテン宣言",
    "attack": "攻撃",
    "evade": "回避判定",
    "ended": "終局",
    "resolving": "処理中",
}
"""The steps of :func:`~taku_shadowjan.decider.waiting_for`, for people."""

_WINDS = "東南西北"


def _game(table: TableState) -> SjGame:
    return table.game if isinstance(table.game, SjGame) else SjGame()


def hand_label(hand: int, draws: int = 0) -> str:
    """``1`` -> ``"東1局"`` … ``5`` -> ``"南1局"`` (four hands a wind, SJ-06); a replay after
    流局 says so: ``"東2局（流局1回）"`` (SJ-27)."""
    if hand < 1:
        return ""
    wind = _WINDS[min((hand - 1) // 4, 3)]
    return f"{wind}{(hand - 1) % 4 + 1}局" + (f"（流局{draws}回）" if draws else "")


def affordances(table: TableState, viewer: Viewer, options: SjOptions) -> list[Affordance]:
    """The moves ``viewer`` may make now (see the module docstring); ``[]`` for a spectator."""
    if viewer.member_id is None or viewer.role == Role.SPECTATOR:
        return []
    game = _game(table)

    def mine(cid: str) -> bool:
        ch = table.characters.get(cid)
        return viewer.is_gm or (
            ch is not None and ch.owner is not None and ch.owner == viewer.member_id
        )

    out = []
    for a in moves(table, game, options):
        cid = a.args.get("character_id")
        if cid is not None:
            if mine(cid):
                out.append(a)
        elif viewer.is_gm or any(mine(c) for c in game.players):  # 対局開始: a seated player
            out.append(a)
    return out


def turn(table: TableState, options: SjOptions) -> Turn:
    """Whose move it is, the step, the hand and the seat order (see the module docstring)."""
    game = _game(table)
    try:
        who, step = waiting_for(game)
    except (AssertionError, KeyError, IndexError):
        who, step = "", "resolving"  # a replay stopped between two events of one command
    seats = game.seats or tuple(game.players)
    order = [
        TurnSlot(
            id=cid,
            label=kit.character_name(table, cid) + ("（親）" if cid == game.dealer else ""),
            value=game.players[cid].seat_roll if game.seats else None,
        )
        for cid in seats
        if cid in game.players
    ]
    return Turn(
        actor=who or None,
        actor_label=kit.character_name(table, who) if who else "",
        phase=step,
        phase_label=STEPS[step],
        round=game.hand or None,
        round_label=hand_label(game.hand, game.draws),
        order=order,
    )
