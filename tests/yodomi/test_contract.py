"""澱み流れ passes the ruleset conformance kit (taku.testing.ruleset_contract)."""

from __future__ import annotations

from tests.yodomi.conftest import ENEMY, PC_A, PC_B

from taku.testing.ruleset_contract import RulesetContract


class TestYodomiContract(RulesetContract):
    ruleset_id = "yodomi"
    sheets = [("アキラ", PC_A), ("ミナ", PC_B), ("澱みの獣", ENEMY), ("ユウ", PC_B)]
    closed_fields = frozenset(
        {
            "status",
            "choice",
            "winner",
            "outcome",
            "condition",
            "flag",
            "to",
            "action",
            "side",
            "cards",
            "card",
            "counted",
            "deck",
        }
    )


class TestYodomiContractGmSeesHands(TestYodomiContract):
    """The same, with the house rule that shows players' hands to the GM."""

    options = {"gm_sees_hands": True}
    seeds = (3,)
