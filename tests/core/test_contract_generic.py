"""The conformance kit on the built-in ``generic`` ruleset (chat and dice only)."""

from __future__ import annotations

from taku.testing.ruleset_contract import RulesetContract


class TestGenericContract(RulesetContract):
    ruleset_id = "generic"
    sheets = [("アリス", {}), ("ボブ", {}), ("NPC", {})]
    steps = 60
    package = "taku.generic"


def test_the_cores_own_commands_events_and_messages_are_labelled() -> None:
    """The core's commands, events, settings and the play Structs carry Japanese titles too."""
    from taku.core.commands import CORE_COMMANDS
    from taku.core.events import CORE_EVENTS, TableSettings
    from taku.core.play import Affordance, Turn
    from taku.schema import type_schema, union_schema
    from taku.testing.ruleset_contract import label_problems

    docs = [
        ("core commands", union_schema("core commands", CORE_COMMANDS)),
        ("core events", union_schema("core events", CORE_EVENTS)),
        ("settings", type_schema(TableSettings)),
        ("affordance", type_schema(Affordance)),
        ("turn", type_schema(Turn)),
    ]
    problems = label_problems(
        docs, open_fields=frozenset({"Turn.phase"})
    )  # each ruleset names its own phases
    assert not problems, problems
