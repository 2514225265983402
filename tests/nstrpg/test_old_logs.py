"""Logs and sheets written before the fields got closed sets still decode and replay: values the
old code stored unchecked (a GM's ``inflict.kind``, a weapon's ``kind``, an option) stay readable."""

from __future__ import annotations

import msgspec

from taku.core.table import event_decoder
from taku_nstrpg import events as ev
from taku_nstrpg._evolve import sheet_of
from taku_nstrpg.plugin import RULESET


def test_an_old_hit_with_a_free_kind_still_decodes() -> None:
    raw = {
        "type": "nstrpg.hit_inflicted",
        "hit": {
            "id": "h1",
            "attack_id": "g1",
            "attacker": None,
            "target": "c1",
            "kind": "jitsu",
            "damage_kind": "jitsu",
        },
        "reason": "カトン",
    }
    e = event_decoder(RULESET).decode(msgspec.json.encode(raw))
    assert isinstance(e, ev.HitInflicted) and e.hit.kind == "jitsu"


def test_an_old_sheet_with_a_free_weapon_kind_still_loads() -> None:
    sheet = sheet_of(
        {
            "karate": 4,
            "weapons": [{"id": "yumi", "name": "ナガユミ", "kind": "bow"}],
            "equipped": "yumi",
        }
    )
    assert sheet.karate == 4 and sheet.weapon("yumi") is not None


def test_old_options_with_a_free_counter_compare_still_parse() -> None:
    assert RULESET.make_options({"counter_compare": "sum"}).counter_compare == "sum"
    assert RULESET.make_options({"counter_compare": "合計"}).counter_compare == "合計"
