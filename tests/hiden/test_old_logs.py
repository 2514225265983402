"""A log written by hiden 1.0 (before the second edition of the ruleset contract) still
decodes, re-encodes byte for byte, renders, and replays to the state 1.0 had.

``data/log-1.0.jsonl`` is every event of a session recorded by that version (checks,
a two-step and a one-step 対抗判定, a 座布団 reroll, an award, 勘働き and 発作 checks,
conditions, every helper, a conversion); ``data/log-1.0-game.json`` is its game state
as 1.0 folded it. Fields that became ``Literal`` (kind, tie, helper, situation, trait,
conditions) kept their values, and the new ``secret_to`` is absent from old events.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec

from taku.core import table as core_table
from taku.core.events import Event
from taku.core.table import TableState
from taku_hiden import EVENTS, RULESET

DATA = Path(__file__).parent / "data"


def _without_secret_to(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_secret_to(v) for k, v in value.items() if k != "secret_to"}
    if isinstance(value, list):
        return [_without_secret_to(v) for v in value]
    return value


def test_a_1_0_log_replays_to_the_state_it_had() -> None:
    lines = (DATA / "log-1.0.jsonl").read_bytes().splitlines()
    decoder = core_table.event_decoder(RULESET)
    state = TableState(table_id="t1")
    seen: set[type[Event]] = set()
    for seq, raw in enumerate(lines, start=1):
        event = decoder.decode(raw)
        assert msgspec.json.encode(event) == raw, f"seq {seq} does not re-encode as written"
        state = msgspec.structs.replace(core_table.evolve(state, event, RULESET), seq=seq)
        if type(event) in EVENTS:
            seen.add(type(event))
            line = RULESET.render(event, state, state.rules)  # type: ignore[misc]
            assert line and line.strip(), f"seq {seq} renders to nothing"
    assert seen == set(EVENTS)
    expected = json.loads((DATA / "log-1.0-game.json").read_text(encoding="utf-8"))
    assert _without_secret_to(json.loads(msgspec.json.encode(state.game))) == expected
