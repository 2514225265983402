"""Readable Japanese lines for the map events (see :mod:`taku_nstrpg.mapping`)."""

from __future__ import annotations

from collections.abc import Callable

from taku.core.events import Event
from taku_nstrpg import mapping as mp
from taku_nstrpg.board import square_name

__all__ = ["render_map"]


def _sq(p: tuple[int, int] | None) -> str:
    return "マップの外" if p is None else square_name(p)  # 1-based, as the map labels


def _why(reason: str) -> str:
    return f"（理由: {reason}）" if reason else ""


def render_map(event: Event, name: Callable[[str | None], str]) -> str | None:
    """The line of a map event, ``None`` for any other event."""
    match event:
        case mp.MapSet(map=m, reason=r):
            if m is None:
                return "マップをなくした" + _why(r)
            return f"マップ「{m.name or '無題'}」（{m.width}×{m.height}マス）を設定した" + _why(r)
        case mp.MapEdited(cells=cells, reason=r):
            return f"マップを編集した（{len(cells)}マス）" + _why(r)
        case mp.Placed(character_id=cid, at=at, previous=prev, reason=r):
            if prev is None:
                return f"{name(cid)}を{_sq(at)}に配置した" + _why(r)
            return f"{name(cid)}を{_sq(prev)}から{_sq(at)}へ動かした" + _why(r)
        case mp.Moved(character_id=cid, start=start, path=path, style=style):
            kind = {"normal": "通常移動", "sokuten": "連続側転移動", "full": "全力移動"}[style]
            return f"{name(cid)} {kind}: {_sq(start)} → {_sq(path[-1])}（{len(path)}マス）"
        case mp.FullMoveRolled(character_id=cid, roll=r, squares=n):
            return f"{name(cid)} 全力移動(D3) ＞ {r.faces[0]} ＞ {n}マス"
        case mp.KnockedBack(character_id=cid, start=start, end=end, wall=wall):
            hit = "。壁に激突!" if wall else ""
            return f"{name(cid)}は弾き飛ばされた: {_sq(start)} → {_sq(end)}{hit}"
        case mp.AbilityUsed(character_id=cid, ability=a):
            return f"{name(cid)} {a}"
    return None
