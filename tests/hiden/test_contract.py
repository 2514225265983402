"""秘伝の声 passes the ruleset conformance kit (taku.testing.ruleset_contract)."""

from __future__ import annotations

from taku.testing.ruleset_contract import RulesetContract

from .conftest import KOU, OTSU

HEI = {
    "abilities": {"器用": 2, "知識": 1, "知覚": 1, "知恵": -1, "気合い": 0, "勘働き": 1},
    "skills": {"剣術": 2, "探索": 1},
    "tokugi": {"暗視": {"level": 4, "ability": "知覚"}},
    "traits": {"不治の病": {"cp": -5}, "声": {"cp": -1}, "片手": {"cp": -4, "modifier": -3}},
    "zabuton": 1,
}
"""丙: a 《技能》 user with 〈暗視〉 and 不治の病 (for the 勘働き, 発作 and helper affordances)."""


class TestHidenContract(RulesetContract):
    ruleset_id = "hiden"
    sheets = [("甲", KOU), ("乙", OTSU), ("丙", HEI), ("丁", KOU)]
