"""A log written by ``chabu`` 0.1.0 before the ruleset contract (tests/chabu/data/log_0_1_0.jsonl)
still decodes, renders and replays to the state that version had (log_0_1_0.state.json).

The log was written by the commit before the contract (239e70d) playing a
scripted session that writes every ``chabu`` event type; the contract only
labelled the events and narrowed ``str`` fields to the ``Literal`` of the
values they always held, so nothing may change on replay.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import msgspec

from taku.core.events import Recorded
from taku.core.render import render
from taku.core.table import TableState, event_decoder, fold
from taku_chabu.events import EVENTS
from taku_chabu.plugin import RULESET

DATA = Path(__file__).parent / "data"


def _records() -> list[Recorded]:
    out = []
    for line in (DATA / "log_0_1_0.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        out.append(
            Recorded(
                table_id=d["table_id"],
                seq=d["seq"],
                type=d["type"],
                data=msgspec.Raw(d["data"].encode()),
                actor=d["actor"],
                time=dt.datetime.fromisoformat(d["time"]),
                command_id=d["command_id"],
                audience=tuple(d["audience"]) if d["audience"] is not None else None,
                redacted=msgspec.Raw(d["redacted"].encode()),
                draws=d["draws"],
            )
        )
    return out


def test_every_event_type_is_in_the_old_log() -> None:
    assert {t.__struct_config__.tag for t in EVENTS} <= {r.type for r in _records()}


def test_the_old_log_replays_to_the_state_it_had() -> None:
    recs = _records()
    expected = json.loads((DATA / "log_0_1_0.state.json").read_text(encoding="utf-8"))
    state = fold(TableState(table_id=recs[0].table_id), recs, RULESET, event_decoder(RULESET))
    assert state.seq == expected["seq"] == len(recs)
    assert msgspec.to_builtins(state.game) == expected["game"]


def test_each_old_event_decodes_to_the_same_bytes_and_renders() -> None:
    recs = _records()
    decoder = event_decoder(RULESET)
    state = fold(TableState(table_id=recs[0].table_id), recs, RULESET, decoder)
    for rec in recs:
        ev = decoder.decode(rec.data)
        assert msgspec.json.encode(ev) == bytes(rec.data), rec.seq
        if type(ev) in EVENTS:
            line = render(ev, state, RULESET, None)
            assert line and "chabu." not in line, (rec.seq, line)
