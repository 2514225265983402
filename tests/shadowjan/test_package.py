"""The package: complete exports, fresh schemas, built on nstrpg by import (STYLE §1, §2;
DESIGN Rulesets). Purity, tags, labels, errors and permits are the conformance kit's
(test_contract.py)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import msgspec

import taku_shadowjan
from taku.plugins import load_registry
from taku.schema import render_schemas
from taku_shadowjan.commands import COMMANDS
from taku_shadowjan.events import EVENTS

PKG = Path(taku_shadowjan.__file__).parent


def _imports(path: Path) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append(node.module)
            out += [f"{node.module}.{a.name}" for a in node.names]
    return out


def test_builds_on_nstrpg_by_import() -> None:
    """SJ-01: the checks, attacks, evasion, counters, サツバツ! and damage come from taku_nstrpg."""
    used = {
        name
        for path in PKG.glob("*.py")
        for name in _imports(path)
        if name.startswith("taku_nstrpg")
    }
    assert {
        "taku_nstrpg.checks",
        "taku_nstrpg.combat",
        "taku_nstrpg.damage",
        "taku_nstrpg.satsubatsu",
        "taku_nstrpg.dkk",
    } <= used


def test_exports_are_unique_and_resolve() -> None:
    """``taku_shadowjan.__all__`` names each public name once, and each exists."""
    assert len(taku_shadowjan.__all__) == len(set(taku_shadowjan.__all__))
    for name in taku_shadowjan.__all__:
        assert hasattr(taku_shadowjan, name), name


def test_registered_through_the_entry_point() -> None:
    """The ruleset loads through ``taku.rulesets`` with its commands, events and options."""
    rs = load_registry().get("shadowjan")
    assert rs.id == "shadowjan" and rs.commands == COMMANDS and rs.events == EVENTS
    assert rs.make_options({}).tsumo_sixes == 3


def test_commands_and_events_are_frozen() -> None:
    """Every command and event is immutable (STYLE §1)."""
    for t in (*COMMANDS, *EVENTS):
        assert t.__struct_config__.frozen, t.__name__


def test_schema_files_are_fresh() -> None:
    """docs/schema/shadowjan-*.json match the Structs (regenerate with ``taku schema``)."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "schema"
    found = 0
    for name, text in render_schemas().items():
        if name.startswith("shadowjan-"):
            found += 1
            assert json.loads((docs / name).read_text(encoding="utf-8")) == json.loads(text), name
    assert found >= 2


def test_bad_options_are_rejected() -> None:
    """Options are checked when a table is created (``command/invalid_options``)."""
    rs = load_registry().get("shadowjan")
    try:
        rs.make_options({"tsumo_sixes": 0})
    except Exception as e:  # noqa: BLE001
        assert getattr(e, "code", "") == "command/invalid_options"
    else:
        raise AssertionError("tsumo_sixes 0 accepted")
    assert msgspec.convert({"ninja_slayer": False}, type(rs.make_options({}))).ninja_slayer is False
