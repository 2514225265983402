"""The ターン終了フェイズ in its order (NSTRPG 2-9, CHECKLIST NS-42), enforced.

The steps, top to bottom (2-9 ◆ターン終了フェイズでマスターがすること; 2-15: Wasshoi! at the
very end of the phase in a combat), each an id of :data:`STEPS`:

1. ``effects`` — continuing effects [継続系] end or apply: ``resolve_effects`` (GM), or
   first inside ``end_turn`` when the GM did not call it. The core rules' own continuing
   effect is the 死神のエントリー's 連続側転判定 +1/+2 "次のターンの終了時まで" (2-15, NS-99):
   it ends here, in the turn after the entry. Others are the GM's (G-NS-24).
2. ``abilities`` — abilities usable in this phase (``use_ability``; players may declare too).
3. (the ``abilities`` step too) ``end_turn`` declares the atmosphere from the next turn
   (2-17); it closes the abilities.
4. ``placement`` — new characters (not yet on the map) placed with ``place``, only now.
5. ``wasshoi`` — when 3 or more 【DKK】 were gained this turn, the Wasshoi! check (then
   ``place_entry`` of 【殺】); the due step as soon as the atmosphere is declared, new
   characters may still be placed before it (and are not refused after it).
6. the turn end is declared by starting the next turn (``start_turn``) or ending the combat,
   both refused while Wasshoi! is due.

A command out of this order is refused as ``rule/nstrpg/turn_end_order``, naming the
step due. Outside the ターン終了フェイズ (a 手番 running, or no combat) only
``resolve_effects`` is refused.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from taku.core import kit
from taku.core.commands import GM, Command, field
from taku.core.events import Event
from taku.core.table import TableState
from taku_nstrpg import mapping as mp
from taku_nstrpg.state import NsGame

__all__ = [
    "STEPS",
    "EffectsResolved",
    "ResolveEffects",
    "check_order",
    "effects_due",
    "step",
]

reject = kit.rejecter("nstrpg")
_S = "NSTRPG 2-9 ターン終了フェイズ"

STEPS: dict[str, str] = {
    "effects": "継続系の効果の処理",
    "abilities": "このフェイズで使える能力の使用とアトモスフィアの宣言",
    "placement": "新たなキャラクターの配置",
    "wasshoi": "Wasshoi!判定",
}
"""Step id -> its name (2-9, 2-15)."""


class ResolveEffects(Command, frozen=True, kw_only=True, tag="nstrpg.resolve_effects"):
    """GM: the ターン終了フェイズ's first step, continuing effects (NS-42, 2-9)."""

    permit = GM
    meta = msgspec.Meta(
        title="継続系の効果を処理する",
        description="ターン終了フェイズの最初：継続系の効果を受ける・終える（2-9）",
    )


class EffectsResolved(Event, frozen=True, kw_only=True, tag="nstrpg.effects_resolved"):
    """The ターン終了フェイズ's continuing effects resolved (2-9); ``ended`` names the effects
    the core rules end here (the entry's 連続側転判定 modifier, 2-15)."""

    meta = msgspec.Meta(
        title="継続系の効果を処理した", description="ターン終了フェイズの継続系の効果（2-9）"
    )

    turn: Annotated[int, field("ターン")]
    ended: Annotated[tuple[str, ...], field("終了した効果")] = ()


def effects_due(game: NsGame) -> EffectsResolved:
    """The event of step 1 for ``game`` (its turn and the effects that end now)."""
    ended: list[str] = []
    if game.entry_sokuten and game.turn >= game.entry_until:
        ended.append(f"死神のエントリーによる連続側転判定の難易度+{game.entry_sokuten}")
    return EffectsResolved(turn=game.turn, ended=tuple(ended))


def evolve_effects(game: NsGame, e: EffectsResolved) -> NsGame:
    """``game`` after step 1: the effects that end now ended."""
    changes: dict[str, Any] = {"effects_done": True}
    if game.entry_sokuten and e.turn >= game.entry_until:
        changes["entry_sokuten"] = 0  # "次のターンの終了時まで" (NS-99)
    return msgspec.structs.replace(game, **changes)


def _in_turn_end(table: TableState, game: NsGame) -> bool:
    from taku_nstrpg.play import _phase

    return game.combat and game.turn > 0 and _phase(table, game)[0] == "turn_end"


def step(table: TableState, game: NsGame) -> str | None:
    """The step of the ターン終了フェイズ due now (an id of :data:`STEPS`), ``None`` outside it."""
    if not _in_turn_end(table, game):
        return None
    if not game.turn_over:
        return "abilities" if game.effects_done else "effects"
    return "wasshoi" if game.wasshoi_due else "placement"


def _refuse(due: str, what: str) -> None:
    reject("turn_end_order", f"{what}より先に{STEPS[due]}を行う", _S, step=due)


def check_order(table: TableState, game: NsGame, cmd: Any) -> None:
    """Refuse ``cmd`` when it comes before (or after) its step of the ターン終了フェイズ."""
    from taku_nstrpg import commands as c

    if not isinstance(
        cmd, (ResolveEffects, mp.UseAbility, mp.Place, c.Wasshoi, c.StartTurn, c.EndCombat)
    ):
        return
    now = step(table, game)
    if now is None:
        if isinstance(cmd, ResolveEffects):
            reject("turn_end_order", "継続系の効果の処理はターン終了フェイズに行う", _S)
        return
    match cmd:
        case ResolveEffects():
            if now != "effects":
                reject("turn_end_order", "継続系の効果は処理済み", _S, step=now)
        case mp.UseAbility():
            if now == "effects":
                _refuse(now, "能力の使用")
            if now in ("placement", "wasshoi"):
                reject(
                    "turn_end_order",
                    "アトモスフィアの宣言の後は能力を使えない（新たなキャラクターの配置へ）",
                    _S,
                    step=now,
                )
        case mp.Place(character_id=cid, at=at):
            b = game.board
            new = at is not None and (b is None or cid not in b.positions)
            if new and now in ("effects", "abilities"):
                reject(
                    "turn_end_order",
                    "新たなキャラクターの配置は最後（先にアトモスフィアを宣言してターンを終える）",
                    _S,
                    step=now,
                )
        case c.Wasshoi():
            if now in ("effects", "abilities"):
                reject(
                    "turn_end_order",
                    "Wasshoi!判定はターン終了フェイズの最後（先にアトモスフィアを宣言してターンを終える）",
                    _S,
                    step=now,
                )
        case c.StartTurn() | c.EndCombat():
            if now == "wasshoi":
                _refuse(now, "ターン終了の宣言")
        case _:
            pass
