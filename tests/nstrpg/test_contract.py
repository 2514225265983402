"""The conformance kit on nstrpg: purity, tags, Japanese labels and closed sets, declared errors
and permits, and random play driven only by ``affordances()`` (PCs, an enemy ninja, mobs)."""

from __future__ import annotations

from taku.testing.ruleset_contract import RulesetContract


class TestNstrpgContract(RulesetContract):
    ruleset_id = "nstrpg"
    sheets = [
        (
            "ヤモト・コキ",
            {
                "karate": 5,
                "neuron": 4,
                "wazamae": 4,
                "jitsu": 2,
                "tairyoku": 10,
                "seishin": 4,
                "weapons": ["katana"],
            },
        ),
        (
            "ニンジャスレイヤーのファン",
            {"karate": 4, "neuron": 13, "wazamae": 5, "tairyoku": 8, "seishin": 3},
        ),
        (
            "ソニックブーム",
            {"kind": "boss", "karate": 6, "neuron": 5, "wazamae": 3, "tairyoku": 9, "seishin": 3},
        ),
        (
            "フジキド",
            {
                "karate": 6,
                "neuron": 5,
                "wazamae": 5,
                "tairyoku": 12,
                "seishin": 5,
                "weapons": ["chakagun"],
            },
        ),
        ("ナンシー", {"karate": 3, "neuron": 6, "wazamae": 4, "tairyoku": 7, "seishin": 4}),
        (
            "クローンヤクザ",
            {
                "kind": "mob",
                "karate": 2,
                "neuron": 1,
                "wazamae": 2,
                "tairyoku": 1,
                "weapons": ["chakagun"],
                "equipped": "chakagun",
            },
        ),
    ]
    steps = 300
    closed_fields = frozenset(
        {"damage_kind", "status", "atmosphere", "field", "guide", "style", "critical"}
    )
