"""The チャットパレット a チャブ character starts with (:attr:`taku.core.ruleset.Ruleset.palette`)."""

from __future__ import annotations

from typing import Any

__all__ = ["palette"]


def palette(sheet: dict[str, Any]) -> str:
    """A 1d100 判定 per 能力値 and 技能 of ``sheet`` (``CH<=40 肉体``, CH-01)."""
    lines: list[str] = []
    for key in ("abilities", "skills"):
        values = sheet.get(key)
        for name, v in values.items() if isinstance(values, dict) else ():
            if isinstance(v, int) and not isinstance(v, bool):
                lines.append(f"CH<={v} {name}")
    return "\n".join(lines)
