"""GM-only commands: shadowjan has none (every player acts for their own seat; the GM may
act for anyone), so ``gm_commands`` lists only the core's."""

from __future__ import annotations

from taku.plugins import load_registry


def test_no_shadowjan_command_is_gm_only() -> None:
    assert [t.__struct_config__.tag for t in load_registry().get("shadowjan").commands if getattr(t, "gm_only", False)] == []
