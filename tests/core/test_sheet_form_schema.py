"""What the sheet and command forms are built from: Japanese labels of closed sets
(``x-labels``) and the rulesets' character templates (list_rulesets)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
import pytest

from taku.core.commands import field
from taku.net import ruleset_info
from taku.plugins import load_registry
from taku.schema import enum_labels, type_schema

BUILTIN = ("nstrpg", "chabu", "hiden", "yodomi", "shadowjan")


def _registry():
    return {r.id: r for r in load_registry()}


def test_labels_read_from_the_description_convention():
    assert enum_labels(["pc", "boss", "mob"], "pc（PC）/ boss（ボス級の敵）/ mob（モブ敵）") == {
        "pc": "PC",
        "boss": "ボス級の敵",
        "mob": "モブ敵",
    }
    # a rulebook term in capitals keeps itself; a value not written so has no label
    assert enum_labels(["KIDS", "UH2"], "KIDS（2以上）/ UH2…UH6（ウルトラハード）") == {
        "KIDS": "KIDS（2以上）"
    }
    # a value in Japanese is its own label; a word inside another is not a match
    assert enum_labels(["発作", "up"], "発作（持病）/ setup（設定）") == {}


def test_explicit_labels_win_over_the_description():
    class S(msgspec.Struct):
        side: Annotated[
            Literal["a", "b"], field("陣営", "a（甲）/ b（乙）", labels={"a": "味方", "b": "敵"})
        ] = "a"

    prop = type_schema(S)["$defs"]["S"]["properties"]["side"]
    assert prop["x-labels"] == {"a": "味方", "b": "敵"}
    assert prop["title"] == "陣営"


@pytest.mark.parametrize("rid", ["nstrpg", "chabu", "yodomi"])
def test_every_closed_set_of_a_sheet_is_labelled(rid):
    """A select in the sheet form shows a Japanese name for each ASCII value."""
    schema = ruleset_info(_registry()[rid]).sheet_schema
    seen = 0
    for d in schema["$defs"].values():
        for name, prop in d.get("properties", {}).items():
            nodes = [prop, *prop.get("anyOf", ()), prop.get("items") or {}]
            enum = next((n["enum"] for n in nodes if isinstance(n, dict) and "enum" in n), None)
            if enum is None:
                continue
            seen += 1
            assert set(map(str, enum)) <= set(prop.get("x-labels", {})), (rid, name)
    assert seen


def test_nstrpg_sheet_kind_labels():
    props = ruleset_info(_registry()["nstrpg"]).sheet_schema["$defs"]["NsSheet"]["properties"]
    assert props["kind"]["x-labels"] == {"pc": "PC", "boss": "ボス級の敵", "mob": "モブ敵"}


@pytest.mark.parametrize("rid", BUILTIN)
def test_templates_are_offered_and_pass_the_sheet(rid):
    r = _registry()[rid]
    info = msgspec.to_builtins(ruleset_info(r))
    templates = info["sheet_templates"]
    assert templates, rid
    for t in templates:
        assert t["title"] and t["name"]
        r.check_sheet(t["sheet"])  # raises command/invalid_sheet when a template is stale
