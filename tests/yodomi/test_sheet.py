"""The 澱み流れ character sheet: unknown keys and out-of-range values are refused when a
sheet is created or updated; sheets stored by earlier versions (which dropped or kept
keys they did not know) still replay."""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core.commands import CreateCharacter, UpdateCharacter
from taku.core.events import CharacterCreated, CharacterUpdated, TableCreated
from taku.core.table import TableState, event_decoder, evolve
from taku_yodomi.plugin import RULESET


async def test_unknown_sheet_keys_are_refused(yd: Any) -> None:
    err = await yd.h.rejected(yd.pa, CreateCharacter(name="カイ", sheet={"pp": 30, "karate": 5}))
    assert err.code == "command/invalid_sheet" and "karate" in str(err.details.get("detail", ""))
    err = await yd.h.rejected(yd.pa, UpdateCharacter(character_id=yd.a, sheet={"evasoin": 3}))
    assert err.code == "command/invalid_sheet"
    err = await yd.h.rejected(yd.pa, CreateCharacter(name="カイ", sheet={"variation": 12}))
    assert err.code == "command/invalid_sheet"  # 変動値 -8..9: the key number must be reachable


async def test_a_checked_sheet_is_stored_with_its_defaults(yd: Any) -> None:
    (ev,) = await yd.h.send(
        yd.pa, CreateCharacter(name="カイ", sheet={"pp": 35, "abilities": {"体": 4}})
    )
    assert ev.sheet["pp"] == 35 and ev.sheet["sp"] == 60 and ev.sheet["side"] is None


def test_old_sheets_with_extra_keys_still_replay() -> None:
    """An earlier version stored ``update_character`` keys unchecked: replay never checks them."""
    dec = event_decoder(RULESET)
    raw = [
        TableCreated(name="古い卓", ruleset="yodomi", ruleset_version="1.0"),
        CharacterCreated(
            character_id="c2", name="アキラ", owner="m1", sheet={"pp": 40, "sp": 60, "memo": "古い"}
        ),
        CharacterUpdated(character_id="c2", sheet={"karate": 3, "side": "pc"}),
    ]
    state = TableState(table_id="t")
    for ev in raw:
        state = evolve(state, dec.decode(msgspec.json.encode(ev)), RULESET)
    assert state.characters["c2"].sheet["karate"] == 3
    assert state.game.chars["c2"].pp == 40 and state.game.chars["c2"].side == "pc"
