"""Characters to start from in the sheet form (``Ruleset.sheet_templates``).

Starting points to adjust, not rulebook data; each passes
:class:`~taku_hiden.state.HidenSheet` (tests/hiden/test_templates.py).
"""

from __future__ import annotations

from taku.core.ruleset import SheetTemplate

__all__ = ["TEMPLATES"]

TEMPLATES: tuple[SheetTemplate, ...] = (
    SheetTemplate(
        title="個人設定用紙のひな形",
        name="旅の者",
        description="五つの〈能力値〉と勘働き、座布団1枚",
        sheet={
            "abilities": {"器用": 3, "知識": 3, "知覚": 3, "知恵": 3, "気合い": 3, "勘働き": 1},
            "skills": {"探索": 1},
            "zabuton": 1,
        },
    ),
)
