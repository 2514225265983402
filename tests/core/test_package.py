"""Package hygiene: the pure core stays pure, exports are complete, schemas are fresh, codecs round-trip."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import msgspec
import pytest

import taku
from taku.core.commands import CORE_COMMANDS
from taku.core.events import CORE_EVENTS
from taku.plugins import load_registry
from taku.protocol import CLIENT_MESSAGES, SERVER_MESSAGES

ROOT = Path(__file__).resolve().parents[2]
IMPURE = {
    "asyncio",
    "websockets",
    "sqlite3",
    "asyncpg",
    "time",
    "random",
    "secrets",
    "structlog",
    "socket",
    "threading",
}


def _pure_modules() -> list[Path]:
    files = sorted((ROOT / "server" / "taku" / "core").glob("*.py"))
    for plugin in sorted((ROOT / "plugins").glob("taku_*")):
        files += sorted(plugin.rglob("*.py"))
    return files


@pytest.mark.parametrize("path", _pure_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_core_and_rulesets_import_no_io(path: Path) -> None:
    """taku.core and every ruleset import no I/O, clock or randomness module (STYLE §1)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            imported.add(node.module.split(".")[0])
    assert not imported & IMPURE, f"{path.name} imports {sorted(imported & IMPURE)}"


def test_public_names_are_exported_once() -> None:
    """Every package's __all__ names exist and appear once (websockets test_exports)."""
    for mod in pkgutil.walk_packages(taku.__path__, "taku."):
        m = importlib.import_module(mod.name)
        names = getattr(m, "__all__", None)
        if names is None:
            continue
        assert len(names) == len(set(names)), f"{mod.name}: duplicate names in __all__"
        for n in names:
            assert hasattr(m, n), f"{mod.name}.__all__ names missing {n!r}"


def test_json_schemas_in_docs_are_fresh() -> None:
    """docs/schema/ matches the Structs; regenerate with `taku schema` when this fails."""
    from taku.schema import render_schemas

    expected = render_schemas()
    folder = ROOT / "docs" / "schema"
    stale = [
        n
        for n, text in expected.items()
        if not (folder / n).exists() or (folder / n).read_text("utf-8") != text
    ]
    extra = sorted(p.name for p in folder.glob("*.json") if p.name not in expected)
    assert not stale and not extra, f"stale: {stale}, unexpected: {extra}; run `taku schema`"


def _all_structs() -> list[type]:
    types = list(CORE_EVENTS + CORE_COMMANDS + CLIENT_MESSAGES + SERVER_MESSAGES)
    for r in load_registry():
        types += list(r.events) + list(r.commands)
    return types


@pytest.mark.parametrize("cls", _all_structs(), ids=lambda t: t.__struct_config__.tag)
def test_every_struct_has_a_unique_explicit_tag(cls: type) -> None:
    """Tags are explicit strings (renaming a class never changes the wire or the log)."""
    tag = cls.__struct_config__.tag
    assert isinstance(tag, str) and tag != cls.__name__


def test_tags_are_unique_per_union() -> None:
    for group in (CORE_EVENTS, CORE_COMMANDS, CLIENT_MESSAGES, SERVER_MESSAGES):
        tags = [t.__struct_config__.tag for t in group]
        assert len(tags) == len(set(tags))
    for r in load_registry():
        for group in (CORE_EVENTS + tuple(r.events), CORE_COMMANDS + tuple(r.commands)):
            tags = [t.__struct_config__.tag for t in group]
            assert len(tags) == len(set(tags)), r.id


def test_core_events_round_trip() -> None:
    """Every core event survives encode/decode through the table's union decoder."""
    from taku.core.dice import Roll
    from taku.core.events import (
        CharacterCreated,
        DiceRolled,
        GMOverridden,
        MemberJoined,
        Redacted,
        TableCreated,
    )
    from taku.core.table import event_decoder
    from taku.generic import RULESET

    dec = event_decoder(RULESET)
    samples = [
        TableCreated(
            name="卓",
            ruleset="generic",
            ruleset_version="1",
            options={"a": 1},
            seed_hash="sha256:00",
        ),
        MemberJoined(member_id="m2", name="GM", role="gm"),
        DiceRolled(
            expression="2D6",
            rolls=(Roll(sides=6, faces=(1, 6), at=3),),
            total=7,
            result="x",
            secret=True,
        ),
        Redacted(of="dice_rolled", note="n"),
        CharacterCreated(character_id="c4", name="忍", owner="m3", sheet={"karate": 4}),
        GMOverridden(path=("characters", "c4", "sheet", "karate"), value=5, previous=4, reason="r"),
    ]
    for ev in samples:
        assert dec.decode(msgspec.json.encode(ev)) == ev
