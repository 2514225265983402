"""JSON Schemas of the protocol, generated from the Structs (``taku schema``).

docs/schema/ holds one file per union: client messages, server messages, and
for the core and each installed ruleset its commands and events. A test fails
when the files are stale; regenerate with ``taku schema``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Union

import msgspec

from taku.core.commands import CORE_COMMANDS
from taku.core.events import CORE_EVENTS
from taku.protocol import CLIENT_MESSAGES, SERVER_MESSAGES

__all__ = ["BUILTIN_RULESETS", "render_schemas", "union_schema", "write_schemas"]

BUILTIN_RULESETS = frozenset({"generic", "nstrpg", "chabu", "yodomi", "hiden", "shadowjan"})
"""The rulesets that ship with taku, whose schemas live in docs/schema/."""


def union_schema(title: str, types: tuple[type, ...]) -> dict[str, Any]:
    (schema,), components = msgspec.json.schema_components([Union[types]], ref_template="#/$defs/{name}")  # type: ignore[valid-type]
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title, **schema, "$defs": components}


def render_schemas() -> dict[str, str]:
    """File name -> JSON text, for every schema file."""
    from taku.plugins import load_registry

    docs: dict[str, dict[str, Any]] = {
        "client-messages.json": union_schema("taku/1 client messages", CLIENT_MESSAGES),
        "server-messages.json": union_schema("taku/1 server messages", SERVER_MESSAGES),
        "core-commands.json": union_schema("core commands (the `command` of a command message)", CORE_COMMANDS),
        "core-events.json": union_schema("core events (the `event` of an event message)", CORE_EVENTS),
    }
    for r in load_registry():
        if r.id not in BUILTIN_RULESETS:
            continue  # a third party's ruleset documents its own schema
        if r.commands:
            docs[f"{r.id}-commands.json"] = union_schema(f"{r.id} commands", tuple(r.commands))
        if r.events:
            docs[f"{r.id}-events.json"] = union_schema(f"{r.id} events", tuple(r.events))
    return {name: json.dumps(d, ensure_ascii=False, indent=2, sort_keys=True) + "\n" for name, d in docs.items()}


def write_schemas(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in render_schemas().items():
        p = out / name
        p.write_text(text, encoding="utf-8")
        written.append(p)
    for old in out.glob("*.json"):
        if old not in written:
            old.unlink()
    return written
