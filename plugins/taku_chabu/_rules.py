"""Shared readings of the state: sheets, 状態, initiative order, whose turn it is.

Pure functions used by the decider, ``evolve`` and ``view``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from taku.core.ruleset import Role
from taku_chabu.state import ChabuSheet, ChabuState, CharState, Combat, RoundState

__all__ = [
    "current_actor",
    "initiative_order",
    "is_down",
    "is_pc",
    "sheet_of",
    "should_die",
    "status_of",
]

_EMPTY = ChabuSheet()


def sheet_of(table: Any, character_id: str) -> ChabuSheet:
    """The character's sheet as a :class:`ChabuSheet` (an empty one for an unknown id)."""
    ch = table.characters.get(character_id)
    if ch is None:
        return _EMPTY
    try:
        return msgspec.convert(ch.sheet, ChabuSheet)
    except msgspec.ValidationError:  # a sheet stored by an older version: read what fits
        return _EMPTY


def should_die(dl: int, cs: CharState, *, hp: bool = True) -> str | None:
    """Why the character is 死亡 now, or ``None`` (チャブ ■キャラクターの状態, CH-25).

    A DL 0 character at HP 0 dies; any character whose インガオホー値 is 100 or
    more dies (G-CH-09: each character on its own). With ``hp=False`` (the
    change at hand did not touch HP) only インガオホー値 counts: a DL 0
    character brought back by ディセンション stays alive at HP 0 until its HP
    changes again ("ＨＰ０になった場合").
    """
    if cs.ingaoho >= 100:
        return "ingaoho"
    if hp and dl == 0 and cs.hp <= 0:
        return "hp"
    return None


def is_down(cs: CharState | None) -> bool:
    """戦闘不能 (HP 0, CH-24) or 死亡: no active actions."""
    return cs is None or cs.dead or cs.hp <= 0


def is_pc(table: Any, character_id: str) -> bool:
    """A PC for the initiative tie (CH-12): the sheet's ``pc``, else owned by a player."""
    sheet = sheet_of(table, character_id)
    if sheet.pc is not None:
        return sheet.pc
    ch = table.characters.get(character_id)
    return ch is not None and ch.owner is not None and table.role_of(ch.owner) == Role.PLAYER


def initiative_order(table: Any, game: ChabuState, combat: Combat, ids: Iterable[str]) -> list[str]:
    """``ids`` in acting order (チャブ ▼イニシアティヴ決定フェイズ▼, CH-12).

    Higher DL first; then higher current インガオホー値; then PCs before NPCs;
    then the order the players agreed (``combat.agreed_order``), and the GM's
    (participant order) for the rest (G-CH-07).
    """
    agreed = {cid: i for i, cid in enumerate(combat.agreed_order)}
    listed = {cid: i for i, cid in enumerate(combat.participants)}

    def key(cid: str) -> tuple[int, int, int, int, int]:
        cs = game.chars.get(cid, CharState())
        return (
            -sheet_of(table, cid).dl,
            -cs.ingaoho,
            0 if is_pc(table, cid) else 1,
            agreed.get(cid, len(agreed)),
            listed.get(cid, len(listed)),
        )

    return sorted(ids, key=key)


def current_actor(game: ChabuState, table: Any = None) -> str | None:
    """Whose turn it is in the メインフェイズ, or ``None`` (all 行動完了 or no round).

    Those who did not wait act in the order of the イニシアティヴ決定フェイズ;
    then the waiters, ordered among themselves "イニシアティヴ決定フェイズと同様の
    基準で" (CH-14): DL, then the インガオホー値 they have NOW, then PCs first,
    then the agreed order (with ``table``; without it, the round's order).
    戦闘不能 and 死亡 characters are skipped (CH-24).
    """
    combat = game.combat
    if combat is None or combat.round is None:
        return None
    rnd: RoundState = combat.round
    able = [c for c in rnd.order if c not in rnd.done and not is_down(game.chars.get(c))]
    for cid in able:
        if cid not in rnd.waiting:
            return cid
    if not able:
        return None
    return initiative_order(table, game, combat, able)[0] if table is not None else able[0]


def status_of(game: ChabuState, character_id: str) -> str:
    """The character's 状態 (CH-11): ``shibou`` (死亡), ``sentoufunou`` (戦闘不能),
    ``koudoukanryou`` (行動完了) or ``mikoudou`` (未行動)."""
    cs = game.chars.get(character_id)
    if cs is not None and cs.dead:
        return "shibou"
    if cs is None or cs.hp <= 0:
        return "sentoufunou"
    rnd = game.combat.round if game.combat is not None else None
    if rnd is not None and game.combat is not None and character_id in game.combat.participants:
        if character_id in rnd.done or character_id not in rnd.order:
            return "koudoukanryou"
    return "mikoudou"
