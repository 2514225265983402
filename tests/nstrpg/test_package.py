"""The nstrpg package: pure modules, complete exports, every event and command round-trips."""

from __future__ import annotations

import ast
from pathlib import Path

import msgspec
import pytest

import taku_nstrpg
from taku_nstrpg.commands import COMMANDS
from taku_nstrpg.events import EVENTS
from taku_nstrpg.plugin import RULESET

PKG = Path(taku_nstrpg.__file__).parent
FORBIDDEN = {"asyncio", "time", "random", "secrets", "sqlite3", "websockets", "structlog", "asyncpg"}


@pytest.mark.parametrize("module", sorted(p.name for p in PKG.glob("*.py")))
def test_modules_are_pure(module: str) -> None:
    """STYLE §1: no I/O, clock or global randomness in a ruleset module."""
    tree = ast.parse((PKG / module).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        for n in names:
            assert n.split(".")[0] not in FORBIDDEN, f"{module} imports {n}"


def test_exports_exist() -> None:
    """Every name in ``__all__`` exists."""
    for name in taku_nstrpg.__all__:
        assert hasattr(taku_nstrpg, name)


def test_tags_and_round_trip() -> None:
    """Every tag carries the ruleset prefix; a default-built event survives JSON."""
    assert {t.__struct_config__.tag for t in COMMANDS} == {t.__struct_config__.tag for t in RULESET.commands}
    for t in (*COMMANDS, *EVENTS):
        assert str(t.__struct_config__.tag).startswith("nstrpg.")
    sample = EVENTS[-1](character_id="c1", field="tairyoku", value=3, previous=5, reason="GM")  # type: ignore[call-arg]
    assert msgspec.json.decode(msgspec.json.encode(sample), type=type(sample)) == sample
