"""Logs written by taku 0.1 (before the ruleset contract's second edition) still replay.

tests/fixtures/logs-0.1/ holds tables recorded by the 0.1 code from the rulesets'
own tests (chosen so that, together, they hold every event type each ruleset
had), each with the GM's and the public's view as 0.1 computed them. Today's
code must fold every one of them without error and show the same game,
characters and members; a deliberate change of a view is listed in
``VIEW_CHANGES`` with its reason.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from taku.core.events import Recorded
from taku.core.ruleset import Viewer
from taku.core.table import TableState, event_decoder, fold, view
from taku.plugins import load_registry

FIXTURES = sorted((Path(__file__).resolve().parents[1] / "fixtures" / "logs-0.1").glob("*.json"))

VIEW_CHANGES: dict[str, set[str]] = {
    # legal moves moved to the state message's affordances; whose move and the step to its turn
    # and the count of turns passed by timeouts in a row (issue 20, turn_seconds): new, 0 before
    "shadowjan": {"legal_moves", "all_moves", "to_move", "step", "idle_passes"},
    # the seed epoch of the deck's order (issue 17): new, 0 for every older table
    "yodomi": {"deck_epoch"},
    # the ターン終了フェイズ's continuing-effects step (issue 15, NS-42): new, False in every older table
    "nstrpg": {"effects_done"},
}


def _drop(game: Any, keys: set[str]) -> Any:
    game = json.loads(
        json.dumps(game, ensure_ascii=False)
    )  # as JSON: tuples are lists, as in the fixture
    return {k: v for k, v in game.items() if k not in keys} if isinstance(game, dict) else game


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_a_01_log_replays_to_the_same_views(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    rs = load_registry().get(data["ruleset"])
    recs = [msgspec.json.decode(json.dumps(r), type=Recorded) for r in data["records"]]
    state = fold(TableState(table_id=recs[0].table_id), recs, rs, event_decoder(rs))
    assert state.seq == recs[-1].seq
    gm = next(m for m in state.members.values() if m.role == "gm")
    changed = VIEW_CHANGES.get(rs.id, set())
    for now, then in (
        (view(state, state.viewer(gm.id), rs), data["gm_view"]),
        (view(state, Viewer(None), rs), data["public_view"]),
    ):
        assert _drop(now["game"], changed) == _drop(then["game"], changed), (
            f"{path.stem}: the game replays differently"
        )
        assert _drop(now["characters"], set()) == then["characters"], (
            f"{path.stem}: characters replay differently"
        )
        assert _drop(now["members"], set()) == then["members"], (
            f"{path.stem}: members replay differently"
        )


def test_the_fixtures_cover_every_ruleset() -> None:
    assert {json.loads(p.read_text(encoding="utf-8"))["ruleset"] for p in FIXTURES} >= {
        "nstrpg",
        "chabu",
        "yodomi",
        "hiden",
        "shadowjan",
    }


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_a_01_log_verifies_with_its_unchained_part_marked(path: Path) -> None:
    """``taku verify`` reads a log from before the hash chain and the logged commands: it
    finds nothing wrong but the seed no GM revealed, and says which seqs are unchained
    and which commands it could not decide again."""
    from taku.verify import lines_from_records, verify_log

    data = json.loads(path.read_text(encoding="utf-8"))
    recs = [msgspec.json.decode(json.dumps(r), type=Recorded) for r in data["records"]]
    report = verify_log(lines_from_records(recs), load_registry())
    assert {p.code for p in report.problems} <= {"verify/unrevealed"}, [
        str(p) for p in report.problems
    ]
    last = recs[-1].seq
    assert any(
        why.startswith(f"seq 1..{last} は鎖なし（unchained）") for _, why in report.unchecked
    )
    assert report.counts["chained"] == report.counts["commands"] == 0
    if len({r.command_id for r in recs}) > 1:
        assert any("コマンドの記録なし" in why for _, why in report.unchecked)


async def test_an_01_table_played_on_chains_its_new_events() -> None:
    """A table from before the chain, played on after the upgrade: its new events chain
    from the table id, seed hash and its last unchained seq; verify checks them and marks
    the old part as unchained."""
    from taku.app import Hub
    from taku.core.commands import Chat
    from taku.store.base import TableRecord
    from taku.store.memory import MemoryEventStore
    from taku.verify import lines_from_records, verify_log

    data = json.loads((FIXTURES[0]).read_text(encoding="utf-8"))
    recs = [msgspec.json.decode(json.dumps(r), type=Recorded) for r in data["records"]]
    tid = recs[0].table_id
    store = MemoryEventStore()
    record = TableRecord(
        table_id=tid, ruleset=data["ruleset"], name="古い卓", created="2026", seed=b"\x01" * 32
    )
    await store.create_table(record, recs, recs[0].command_id)
    hub = Hub(store, load_registry())
    table = await hub.table(tid)
    gm = next(m for m in table.state.members.values() if m.role == "gm").id
    await table.execute(gm, Chat(text="続きです"), command_id="after-upgrade")
    stored = await store.read(tid)
    assert stored[-1].hash and all(r.hash is None for r in stored[:-1])
    report = verify_log(lines_from_records(stored), load_registry())
    assert [p.code for p in report.problems] == ["verify/unrevealed"]  # its dice: never revealed
    assert report.counts["chained"] == 1 and report.counts["commands"] == 1
    assert any(f"seq 1..{len(recs)} は鎖なし（unchained）" in why for _, why in report.unchecked)
    await hub.close()
