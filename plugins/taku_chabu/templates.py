"""Characters to start from in the sheet form (``Ruleset.sheet_templates``).

Starting points to adjust, not rulebook data; each passes
:class:`~taku_chabu.state.ChabuSheet` (tests/chabu/test_templates.py).
"""

from __future__ import annotations

from taku.core.ruleset import SheetTemplate

__all__ = ["TEMPLATES"]

TEMPLATES: tuple[SheetTemplate, ...] = (
    SheetTemplate(
        title="PCのひな形",
        name="新人",
        description="肉体・反応（回避判定）と技能ひとつ",
        sheet={
            "abilities": {"肉体": 40, "反応": 30},
            "skills": {"運転": 10},
            "hp": 10,
            "dl": 1,
            "pc": True,
        },
    ),
    SheetTemplate(
        title="ザコ敵",
        name="ヤクザ",
        sheet={"abilities": {"肉体": 30, "反応": 20}, "hp": 5, "dl": 1, "pc": False},
    ),
)
