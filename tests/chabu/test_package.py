"""The package's public names (STYLE §2). Purity, tags, labels and schemas are the
conformance kit's (test_contract.py) and the core's (tests/core/test_package.py)."""

from __future__ import annotations

import taku_chabu


def test_exports_are_unique_and_resolve() -> None:
    """``taku_chabu.__all__`` names each public name once, and each exists."""
    assert len(taku_chabu.__all__) == len(set(taku_chabu.__all__))
    for name in taku_chabu.__all__:
        assert hasattr(taku_chabu, name), name
