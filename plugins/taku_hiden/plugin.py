"""Registration of the `hiden` ruleset (hookimpls only, no logic)."""

from __future__ import annotations

from taku.core.ruleset import Ruleset
from taku.hookspecs import hookimpl

RULESET = Ruleset(id="hiden", name="秘伝の声", version="0.0.dev0", summary="(in progress)")


@hookimpl
def taku_ruleset() -> Ruleset:
    return RULESET
