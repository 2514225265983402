"""Registration of the `nstrpg` ruleset (hookimpls only, no logic)."""

from __future__ import annotations

from taku.core.ruleset import Ruleset
from taku.hookspecs import hookimpl

RULESET = Ruleset(id="nstrpg", name="ニンジャスレイヤーTRPG 2版 コアルール", version="0.0.dev0", summary="(in progress)")


@hookimpl
def taku_ruleset() -> Ruleset:
    return RULESET
