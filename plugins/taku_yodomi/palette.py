"""The チャットパレット a 澱み流れ character starts with (:attr:`taku.core.ruleset.Ruleset.palette`)."""

from __future__ import annotations

from typing import Any

__all__ = ["palette"]


def palette(sheet: dict[str, Any]) -> str:
    """A 2D9 check per 能力値 of ``sheet`` (``2D9+5 体判定``), the 回避 and 行動 checks by
    reference to the sheet (``{回避値}``, ``{行動値}``: the value when the line is sent),
    and a D99 check to fill in (YD-03, YD-11)."""
    abilities = sheet.get("abilities")
    lines = [
        f"2D9+{v} {name}判定"
        for name, v in (abilities.items() if isinstance(abilities, dict) else ())
        if isinstance(v, int) and not isinstance(v, bool)
    ]
    lines += [
        "2D9+{回避値} 回避判定",
        "2D9+{行動値} 行動判定",
        "D99<50 D99判定（目標値を書き換える）",
    ]
    return "\n".join(lines)
