"""Characters to start from in the sheet form (``Ruleset.sheet_templates``).

Starting points for a GM or player to adjust, not rulebook data: every value
passes :class:`~taku_nstrpg.state.NsSheet` (tests/nstrpg/test_templates.py).
"""

from __future__ import annotations

from taku.core.ruleset import SheetTemplate

__all__ = ["TEMPLATES"]

TEMPLATES: tuple[SheetTemplate, ...] = (
    SheetTemplate(
        title="駆け出しのニンジャ（PC）",
        name="新人ニンジャ",
        description="素手とスリケン、カタナを持つPCのひな形",
        sheet={
            "kind": "pc",
            "karate": 5,
            "neuron": 4,
            "wazamae": 4,
            "jitsu": 0,
            "tairyoku": 5,
            "seishin": 4,
            "kyakuryoku": 3,
            "manken": 3,
            "weapons": ["katana"],
            "equipped": "katana",
        },
    ),
    SheetTemplate(
        title="クローンヤクザ（モブ）",
        name="クローンヤクザ",
        description="同じ種類でまとめて回避するモブ敵",
        sheet={
            "kind": "mob",
            "karate": 2,
            "neuron": 1,
            "wazamae": 2,
            "tairyoku": 1,
            "kyakuryoku": 2,
            "mob_type": "クローンヤクザ",
        },
    ),
    SheetTemplate(
        title="敵のニンジャ（ボス）",
        name="ボスニンジャ",
        description="ボス級の敵のひな形",
        sheet={
            "kind": "boss",
            "karate": 7,
            "neuron": 6,
            "wazamae": 5,
            "jitsu": 2,
            "tairyoku": 10,
            "seishin": 6,
            "kyakuryoku": 4,
        },
    ),
)
