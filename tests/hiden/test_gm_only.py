"""GM-only commands: every command marked ``gm_only`` (what ``list_rulesets`` gives
clients as ``gm_commands``) is refused for a player with ``command/forbidden``."""

from __future__ import annotations

from typing import Any

import msgspec

from taku.plugins import load_registry
from taku.testing.harness import TableHarness

# plausible fields for the GM-only commands that need some (the others have none required)
FIELDS: dict[str, dict[str, Any]] = {
    "hiden.award_zabuton": {"character_id": "c1", "count": 1},
    "hiden.set_conditions": {"character_id": "c1", "conditions": []},
}


async def test_gm_only_commands_are_refused_for_players() -> None:
    gm_only = [t for t in load_registry().get("hiden").commands if getattr(t, "gm_only", False)]
    assert gm_only
    h = await TableHarness.create("hiden")
    pl = await h.join("プレイヤー")
    for t in gm_only:
        tag = t.__struct_config__.tag
        cmd = msgspec.convert({"type": tag, **FIELDS.get(tag, {})}, t)
        assert (await h.rejected(pl, cmd)).code == "command/forbidden", tag
