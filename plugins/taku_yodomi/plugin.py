"""Registration of the `yodomi` ruleset (hookimpls only, no logic)."""

from __future__ import annotations

from taku.core.ruleset import Ruleset
from taku.hookspecs import hookimpl

RULESET = Ruleset(id="yodomi", name="澱み流れ", version="0.0.dev0", summary="(in progress)")


@hookimpl
def taku_ruleset() -> Ruleset:
    return RULESET
