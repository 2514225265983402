"""The conformance kit on the built-in ``generic`` ruleset (chat and dice only)."""

from __future__ import annotations

from taku.testing.ruleset_contract import RulesetContract


class TestGenericContract(RulesetContract):
    ruleset_id = "generic"
    sheets = [("アリス", {}), ("ボブ", {}), ("NPC", {})]
    steps = 60
    package = "taku.generic"
