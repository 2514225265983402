"""The チャットパレット a シャドー・ジャン character starts with
(:attr:`taku.core.ruleset.Ruleset.palette`): NinjaSlayer2 dice with ``{カラテ}``-style
references to the sheet (the moves of the hand are buttons, not chat lines here)."""

from __future__ import annotations

from typing import Any

__all__ = ["palette"]

_LINES = (
    ("karate", "N{カラテ} 【カラテ】判定"),
    ("wazamae", "N{ワザマエ} 【ワザマエ】判定"),
    ("neuron", "N{ニューロン} 【ニューロン】判定"),
    ("karate", "H{カラテ} 【カラテ】判定:HARD"),
)


def palette(sheet: dict[str, Any]) -> str:
    """The attribute checks of ``sheet`` (an attribute of 0 rolls no pool: no line)."""
    return "\n".join(
        line
        for key, line in _LINES
        if isinstance(v := sheet.get(key), int) and not isinstance(v, bool) and v > 0
    )
