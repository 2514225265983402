"""The ruleset conformance kit on ``chabu`` (taku.testing.ruleset_contract), with ninja sheets to play with."""

from __future__ import annotations

from typing import Any

from taku.testing.ruleset_contract import RulesetContract


def _ninja(dl: int, hp: int, **kw: Any) -> dict[str, Any]:
    return {
        "abilities": {"肉体": 40, "反応": 30, "精神": 50},
        "skills": {"カラテ": 15, "射撃": 20},
        "dl": dl,
        "hp": hp,
        "tatsujin": 1,
        "wazamae": 1,
        "equipment": [
            {
                "name": "カタナ",
                "category": "カタナ",
                "check": {"ability": "肉体", "skill": "カラテ"},
                "power": 5,
            },
            {
                "name": "スリケン",
                "category": "スリケン",
                "check": {"ability": "肉体", "skill": "射撃"},
                "power": 3,
                "range": "long",
                "targets": 2,
            },
        ],
        "tokugi": [
            {
                "name": "ヒサツ・ワザ",
                "timing": "katsugeki",
                "range": "short",
                "targets": 1,
                "check": {"ability": "肉体", "skill": "カラテ"},
                "power": 8,
                "cost": {"ingaoho": 5},
            },
            {
                "name": "カラテ強化",
                "timing": "katsugeki",
                "until_end_phase": True,
                "cost": {"wazamae": 1},
            },
            {"name": "ブリッジ回避", "timing": "setsuna", "cost": {"ingaoho": 3}},
            {"name": "ニンジャ第六感", "timing": "joji"},
        ],
        **kw,
    }


class TestChabuContract(RulesetContract):
    ruleset_id = "chabu"
    sheets = [
        ("ニンジャスレイヤー", _ninja(3, 30)),
        ("ナンシー", _ninja(2, 25)),
        ("クローンヤクザ", _ninja(0, 12, tatsujin=0, wazamae=0)),
        ("ヤモト", _ninja(2, 20)),
        ("ソニックブーム", _ninja(3, 35)),
        ("ヤクザ", _ninja(0, 10)),
    ]
    options = {"always_hold": True}
    seeds = (1, 2, 3)
    # chabu's own closed sets: タイミング, 射程, カウンター, adjusted values, 死亡の原因, winners, stages
    closed_fields = frozenset(
        {"timing", "range", "default_range", "counter", "key", "cause", "winner", "stage"}
    )


class TestChabuContractAtOnce(RulesetContract):
    """The default options: declarations resolve at once, targets choose to evade."""

    ruleset_id = "chabu"
    sheets = TestChabuContract.sheets
    seeds = (4,)
