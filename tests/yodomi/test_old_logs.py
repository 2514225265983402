"""Logs written by 澱み流れ 1.0 before the contract's second edition (free strings where the
Structs now have closed sets: cards, suits, statuses, outcomes …) still decode, re-encode to
the very same JSON, and replay. The logs in data/ were recorded with that version's code."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from taku.core.table import TableState, event_decoder, evolve
from taku_yodomi.plugin import RULESET
from taku_yodomi.state import Game

LOGS = sorted((Path(__file__).parent / "data").glob("log-1.0-*.jsonl"))


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_log_of_version_1_0_decodes_and_replays(path: Path) -> None:
    dec = event_decoder(RULESET)
    state = TableState(table_id="t")
    for line in path.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        ev = dec.decode(json.dumps(rec["data"], ensure_ascii=False).encode())
        assert msgspec.json.decode(msgspec.json.encode(ev)) == rec["data"], (
            f"seq {rec['seq']} {rec['type']}"
        )
        state = evolve(state, ev, RULESET)
    assert isinstance(state.game, Game) and state.game.chars
    cards = [
        *state.game.deck,
        *state.game.discards,
        *(c for h in state.game.hands.values() for c in h),
    ]
    assert not state.game.shuffled or sorted(cards) == sorted(set(cards)) and len(cards) == 54


def test_old_table_options_still_load() -> None:
    """``table_created`` is parsed again on replay: options an earlier version accepted load."""
    from taku.core.events import TableCreated

    opts = {"max_paths": 0, "accident_dice": 12, "called_shot_penalty": 100, "gm_sees_hands": True}
    ev = TableCreated(name="古い卓", ruleset="yodomi", ruleset_version="1.0", options=opts)
    state = evolve(
        TableState(table_id="t"), event_decoder(RULESET).decode(msgspec.json.encode(ev)), RULESET
    )
    assert state.rules.max_paths == 0 and state.rules.accident_dice == 12
