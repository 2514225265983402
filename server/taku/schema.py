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

__all__ = ["BUILTIN_RULESETS", "render_schemas", "type_schema", "union_schema", "write_schemas"]

BUILTIN_RULESETS = frozenset({"generic", "nstrpg", "chabu", "yodomi", "hiden", "shadowjan"})
"""The rulesets that ship with taku, whose schemas live in docs/schema/."""


def _structs(types: tuple[type, ...]) -> dict[str, type]:
    """Every Struct reachable from ``types``, by the name msgspec gives its ``$defs`` entry."""
    import msgspec.inspect as mi

    found: dict[str, type] = {}

    def walk(t: mi.Type) -> None:
        if isinstance(t, mi.StructType):
            if t.cls.__name__ in found:
                return
            found[t.cls.__name__] = t.cls
            for f in t.fields:
                walk(f.type)
        elif isinstance(t, (mi.UnionType,)):
            for u in t.types:
                walk(u)
        elif isinstance(t, (mi.ListType, mi.SetType, mi.FrozenSetType, mi.VarTupleType)):
            walk(t.item_type)
        elif isinstance(t, mi.TupleType):
            for u in t.item_types:
                walk(u)
        elif isinstance(t, mi.DictType):
            walk(t.key_type)
            walk(t.value_type)
        elif isinstance(t, mi.Metadata):
            walk(t.type)

    for t in mi.multi_type_info(types):
        walk(t)
    return found


def _label(components: dict[str, Any], types: tuple[type, ...]) -> dict[str, Any]:
    """Set each Struct's ``title``/``description`` from its Japanese ``meta`` (the docstring stays for developers, as ``x-doc``)."""
    for name, cls in _structs(types).items():
        meta = getattr(cls, "meta", None)
        entry = components.get(name)
        if entry is None or not isinstance(meta, msgspec.Meta):
            continue
        if entry.get("description"):
            entry["x-doc"] = entry["description"]
        if meta.title:
            entry["title"] = meta.title
        if meta.description:
            entry["description"] = meta.description
        else:
            entry.pop("description", None)
    return components


def union_schema(title: str, types: tuple[type, ...]) -> dict[str, Any]:
    """The JSON Schema of a tagged union of Structs, with their Japanese titles."""
    (schema,), components = msgspec.json.schema_components(
        [Union[types]],  # noqa: UP007 - a Union of a tuple of Structs
        ref_template="#/$defs/{name}",
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": title,
        **schema,
        "$defs": _label(components, types),
    }


def type_schema(t: type) -> dict[str, Any]:
    """The JSON Schema of one Struct type (a sheet, the options, the game state), with Japanese titles."""
    (schema,), components = msgspec.json.schema_components([t], ref_template="#/$defs/{name}")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **schema,
        "$defs": _label(components, (t,)),
    }


def render_schemas() -> dict[str, str]:
    """File name -> JSON text, for every schema file."""
    from taku.plugins import load_registry

    docs: dict[str, dict[str, Any]] = {
        "client-messages.json": union_schema("taku/1 client messages", CLIENT_MESSAGES),
        "server-messages.json": union_schema("taku/1 server messages", SERVER_MESSAGES),
        "core-commands.json": union_schema(
            "core commands (the `command` of a command message)", CORE_COMMANDS
        ),
        "core-events.json": union_schema(
            "core events (the `event` of an event message)", CORE_EVENTS
        ),
    }
    for r in load_registry():
        if r.id not in BUILTIN_RULESETS:
            continue  # a third party's ruleset documents its own schema
        if r.commands:
            docs[f"{r.id}-commands.json"] = union_schema(f"{r.id} commands", tuple(r.commands))
        if r.events:
            docs[f"{r.id}-events.json"] = union_schema(f"{r.id} events", tuple(r.events))
        for part, t in (("sheet", r.sheet), ("options", r.options), ("state", r.state)):
            if t is not None:
                docs[f"{r.id}-{part}.json"] = type_schema(t)
    return {
        name: json.dumps(d, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
        for name, d in docs.items()
    }


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
