"""What people read is Japanese: validation details, ruleset names and summaries."""

from __future__ import annotations

import re

import pytest

from taku.core.commands import CreateCharacter
from taku.errors import japanese_detail
from taku.plugins import load_registry
from taku.testing.harness import TableHarness

_JA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.mark.parametrize(
    ("english", "japanese"),
    [
        ("Object contains unknown field `カラテ`", "「カラテ」という項目はありません"),
        ("Object missing required field `text`", "項目「text」が必要です"),
        (
            "Expected `int`, got `str` - at `$.karate`",
            "整数が必要です（文字列が来ました）（場所: karate）",
        ),
        ("Expected `int` >= 0 - at `$.dkk`", "0以上の整数が必要です（場所: dkk）"),
        ("Expected `str` of length <= 64", "長さ64までの文字列にしてください"),
        ("Invalid enum value 'q' - at `$.kind`", "'q' は選べる値ではありません（場所: kind）"),
    ],
)
def test_msgspec_details_read_in_japanese(english: str, japanese: str) -> None:
    assert japanese_detail(english) == japanese


async def test_a_bad_sheet_is_explained_in_japanese() -> None:
    h = await TableHarness.create("nstrpg")
    err = await h.rejected(h.gm, CreateCharacter(name="x", sheet={"カラテ": 5}))
    assert err.code == "command/invalid_sheet"
    assert err.details["detail"] == "「カラテ」という項目はありません"


@pytest.mark.parametrize("ruleset", [r.id for r in load_registry()])
def test_every_ruleset_is_named_and_summarised_in_japanese(ruleset: str) -> None:
    r = load_registry().get(ruleset)
    assert _JA.search(r.name) and _JA.search(r.summary), (r.name, r.summary)
    assert f"({r.id})" not in r.name  # the picker adds the id itself
