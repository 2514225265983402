"""The error-code catalogue (taku.codes) is complete, Japanese, and the docs' table is it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from taku import codes
from taku.errors import TakuError

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "server", ROOT / "plugins", ROOT / "clients" / "python", ROOT / "examples"]


def _raised_codes() -> dict[str, str]:
    """Every code literal in the source: ``code="…"`` arguments and ``code = "…"`` class attributes."""
    found: dict[str, str] = {}
    for folder in SOURCES:
        for path in folder.rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                value = None
                if (
                    isinstance(node, ast.keyword)
                    and node.arg == "code"
                    and isinstance(node.value, ast.Constant)
                ):
                    value = node.value.value
                elif isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "code" for t in node.targets
                ):
                    if isinstance(node.value, ast.Constant):
                        value = node.value.value
                if isinstance(value, str) and "/" in value:
                    found.setdefault(value, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_every_code_raised_anywhere_is_in_the_catalogue() -> None:
    missing = {
        c: where
        for c, where in _raised_codes().items()
        if c not in codes.CATALOGUE and not c.startswith("rule/")
    }
    assert not missing, f"codes raised but not in taku.codes.CATALOGUE: {missing}"


def test_every_error_class_code_is_in_the_catalogue() -> None:
    def walk(cls: type[TakuError]) -> list[type[TakuError]]:
        return [cls, *(c for sub in cls.__subclasses__() for c in walk(sub))]

    for cls in walk(TakuError):
        if cls.__name__ != "Rejected":
            assert cls.code in codes.CATALOGUE, cls


def test_every_message_is_japanese() -> None:
    for code, entry in codes.CATALOGUE.items():
        if code.startswith("rule/"):
            continue
        assert any("\u3040" <= ch <= "\u9fff" for ch in entry.template), code


@pytest.mark.parametrize(
    ("code", "params", "expected"),
    [
        ("command/unknown_character", {"character_id": "c9"}, "キャラクター「c9」はいません"),
        ("command/unknown_character", {}, "キャラクターはいません"),
        (
            "command/forbidden",
            {"reason": "GMだけができる操作です"},
            "この操作はできません: GMだけができる操作です",
        ),
        ("command/invalid_sheet", {}, "キャラクターシートが正しくありません"),
    ],
)
def test_messages_are_made_from_the_template_and_params(
    code: str, params: dict[str, str], expected: str
) -> None:
    assert codes.message(code, params) == expected


def test_a_rule_code_keeps_the_rulesets_own_message() -> None:
    assert (
        codes.message(
            "rule/nstrpg/no_evasion_dice", {"section": "2-11"}, fallback="回避ダイスがない"
        )
        == "回避ダイスがない"
    )


def test_the_protocol_docs_table_is_the_catalogue() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert codes.with_table(text) == text, (
        "docs/protocol.md's error table is stale: run `taku schema`"
    )
