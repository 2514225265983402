"""Characters to start from in the sheet form (``Ruleset.sheet_templates``).

Starting points to adjust, not rulebook data; each passes
:class:`~taku_yodomi.options.YodomiSheet` (tests/yodomi/test_templates.py).
"""

from __future__ import annotations

from taku.core.ruleset import SheetTemplate

__all__ = ["TEMPLATES"]

TEMPLATES: tuple[SheetTemplate, ...] = (
    SheetTemplate(
        title="PCのひな形",
        name="流れの者",
        description="【PP】30・【SP】60、基本能力値 体・知",
        sheet={
            "side": "pc",
            "pp": 30,
            "sp": 60,
            "action": 5,
            "evasion": 5,
            "social": 3,
            "abilities": {"体": 5, "知": 3},
        },
    ),
    SheetTemplate(
        title="エネミーのひな形",
        name="澱みの獣",
        sheet={"side": "enemy", "pp": 40, "sp": 0, "action": 4, "abilities": {"体": 6}},
    ),
)
