"""The チャットパレット a ニンジャスレイヤーTRPG character starts with
(:attr:`taku.core.ruleset.Ruleset.palette`): the ruleset's dice forms with ``{カラテ}``-style
references to the sheet, replaced by the value when a line is sent as the character."""

from __future__ import annotations

from typing import Any

__all__ = ["palette"]

_LINES = (
    ("karate", "N{カラテ} 近接攻撃判定（【カラテ】）"),
    ("wazamae", "N{ワザマエ} 射撃判定（【ワザマエ】）"),
    ("neuron", "N{ニューロン} 【ニューロン】判定"),
    ("jitsu", "N{ジツ} 【ジツ】判定"),
    ("karate", "H{カラテ} 【カラテ】判定:HARD"),
)


def palette(sheet: dict[str, Any]) -> str:
    """The attribute checks of ``sheet`` at NORMAL (近接攻撃 with 【カラテ】, 射撃 with
    【ワザマエ】, NS-05), one at HARD, and the サツバツ・クリティカル表; an attribute of 0 rolls
    no pool and gets no line."""
    lines = [line for key, line in _LINES if _positive(sheet.get(key))]
    lines.append("SB サツバツ・クリティカル表")
    return "\n".join(lines)


def _positive(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v > 0
