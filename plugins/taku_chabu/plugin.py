"""Registration of the `chabu` ruleset (hookimpls only, no logic)."""

from __future__ import annotations

from taku.core.ruleset import Ruleset
from taku.hookspecs import hookimpl

RULESET = Ruleset(id="chabu", name="ニンジャスレイヤー：theチャブＲＰＧ", version="0.0.dev0", summary="(in progress)")


@hookimpl
def taku_ruleset() -> Ruleset:
    return RULESET
