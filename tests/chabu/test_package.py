"""The package: pure modules, complete exports, fresh schemas (STYLE §1, §2; DESIGN Protocol)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import taku_chabu
from taku.schema import render_schemas

PKG = Path(taku_chabu.__file__).parent
IMPURE = {"asyncio", "time", "random", "secrets", "sqlite3", "websockets", "structlog", "asyncpg"}


def test_plugin_modules_import_no_io() -> None:
    """No ruleset module imports a clock, randomness, I/O or logging module."""
    for path in PKG.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in IMPURE, f"{path.name} imports {name}"


def test_exports_are_unique_and_resolve() -> None:
    """``taku_chabu.__all__`` names each public name once, and each exists."""
    assert len(taku_chabu.__all__) == len(set(taku_chabu.__all__))
    for name in taku_chabu.__all__:
        assert hasattr(taku_chabu, name), name


def test_schema_files_are_fresh() -> None:
    """docs/schema/chabu-*.json match the Structs (regenerate with ``taku schema``)."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "schema"
    for name, text in render_schemas().items():
        if name.startswith("chabu-"):
            assert json.loads((docs / name).read_text(encoding="utf-8")) == json.loads(text), name
