"""GM-only commands: every command marked ``gm_only`` (what ``list_rulesets`` gives
clients as ``gm_commands``) is refused for a player with ``command/forbidden``."""

from __future__ import annotations

from typing import Any

import msgspec

from taku.plugins import load_registry
from taku.testing.harness import TableHarness

# plausible fields for the GM-only commands that need some (the others have none required)
FIELDS: dict[str, dict[str, Any]] = {
    "yodomi.add_status": {"character_id": "c1", "status": "放心"},
    "yodomi.advance_continuous": {"continuous_id": "k1"},
    "yodomi.deal_cards": {"character_id": "c1"},
    "yodomi.give_handout": {"character_id": "c1", "text": "秘密"},
    "yodomi.read_trailer": {"text": "予告"},
    "yodomi.start_combat": {"engagements": [["c1"]]},
    "yodomi.start_continuous": {"target_points": 10, "ability": "知性", "round_limit": 3},
    "yodomi.start_scene": {"kind": "middle", "scene_player": "c1"},
}


async def test_gm_only_commands_are_refused_for_players() -> None:
    gm_only = [t for t in load_registry().get("yodomi").commands if getattr(t, "gm_only", False)]
    assert gm_only
    h = await TableHarness.create("yodomi")
    pl = await h.join("プレイヤー")
    for t in gm_only:
        tag = t.__struct_config__.tag
        cmd = msgspec.convert({"type": tag, **FIELDS.get(tag, {})}, t)
        assert (await h.rejected(pl, cmd)).code == "command/forbidden", tag
