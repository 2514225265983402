"""Pure rules of チンチロリン: reading three dice as a hand, and comparing hands."""

from __future__ import annotations

from collections import Counter
from typing import Annotated, ClassVar

import msgspec

__all__ = ["Hand", "read_hand"]


class Hand(msgspec.Struct, frozen=True, kw_only=True):
    """A hand: ``name`` for people, ``rank`` to compare (higher wins), ``final`` if it ends the turn."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(title="役")

    name: Annotated[str, msgspec.Meta(title="役の名前")]
    rank: Annotated[int, msgspec.Meta(title="強さ", description="大きいほど強い")]
    final: Annotated[
        bool, msgspec.Meta(title="決まり", description="役が決まり、この回はもう振らない")
    ]


def read_hand(faces: tuple[int, int, int]) -> Hand:
    """The hand three dice make.

    Ranks: ピンゾロ 100 > アラシ 90+n > シゴロ 80 > 目 n (1..6) > 目なし 0 > ヒフミ -10.
    """
    s = sorted(faces)
    if s[0] == s[2]:
        return Hand(
            name="ピンゾロ" if s[0] == 1 else f"{s[0]}のアラシ",
            rank=100 if s[0] == 1 else 90 + s[0],
            final=True,
        )
    if s == [4, 5, 6]:
        return Hand(name="シゴロ", rank=80, final=True)
    if s == [1, 2, 3]:
        return Hand(name="ヒフミ", rank=-10, final=True)
    counts = Counter(s)
    if 2 in counts.values():
        point = next(f for f, n in counts.items() if n == 1)
        return Hand(name=f"{point}の目", rank=point, final=True)
    return Hand(name="目なし", rank=0, final=False)
