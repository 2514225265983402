"""Registration of the `shadowjan` ruleset (hookimpls only, no logic)."""

from __future__ import annotations

from taku.core.ruleset import Ruleset
from taku.hookspecs import hookimpl

RULESET = Ruleset(id="shadowjan", name="シャドー・ジャン2", version="0.0.dev0", summary="(in progress)")


@hookimpl
def taku_ruleset() -> Ruleset:
    return RULESET
