"""The チャットパレット a 秘伝の声 character starts with (:attr:`taku.core.ruleset.Ruleset.palette`)."""

from __future__ import annotations

from typing import Any

__all__ = ["palette"]


def palette(sheet: dict[str, Any]) -> str:
    """A 2D6 行為判定 per 〈能力値〉 and 《技能》 of ``sheet`` with its value as the
    modifier (``HD+2 〈器用〉``), then 座布団 (``ZR``) and the difficulty table (``HDT``)."""
    lines: list[str] = []
    for key, (a, b) in (("abilities", ("〈", "〉")), ("skills", ("《", "》"))):
        values = sheet.get(key)
        for name, v in values.items() if isinstance(values, dict) else ():
            if isinstance(v, int) and not isinstance(v, bool):
                lines.append(f"HD{v:+d} {a}{name}{b}")
    lines += ["ZR 座布団で振り直す", "HDT 難易度の程度"]
    return "\n".join(lines)
