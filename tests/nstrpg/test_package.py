"""The nstrpg package's public surface (purity, tags and round trips are the conformance kit's,
tests/nstrpg/test_contract.py)."""

from __future__ import annotations

import inspect

import taku_nstrpg
from taku_nstrpg import checks, combat, damage, dkk, satsubatsu


def test_exports_exist() -> None:
    """Every name in ``__all__`` exists."""
    for name in taku_nstrpg.__all__:
        assert hasattr(taku_nstrpg, name)


def test_modules_other_rulesets_import_keep_their_names() -> None:
    """shadowjan builds on these (docs/rulesets/nstrpg.md, "Modules other rulesets import")."""
    for mod in (checks, combat, damage, dkk, satsubatsu):
        for name in mod.__all__:
            assert hasattr(mod, name), f"{mod.__name__}.{name}"
    assert list(inspect.signature(combat.initiative_order).parameters) == ["entries", "pc_rank"]
    assert list(inspect.signature(checks.roll_check).parameters)[:3] == [
        "dice",
        "pool",
        "difficulty",
    ]
