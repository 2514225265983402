"""The built-in ``generic`` ruleset: chat and BCDice-style dice, nothing else.

It proves the plugin path: it is registered through the ``taku.rulesets``
entry point like any third-party ruleset.
"""

from __future__ import annotations

from taku.core.ruleset import Ruleset
from taku.hookspecs import hookimpl

__all__ = ["RULESET", "taku_ruleset"]

RULESET: Ruleset[None, None] = Ruleset(
    id="generic",
    name="汎用ダイス",
    version="1.0",
    summary="チャットとBCDice形式のダイス（2D6、3D6+2>=10、1D100<=50、D66、4B6>=4、先頭にSでシークレットダイス）",
)


@hookimpl
def taku_ruleset() -> Ruleset:
    return RULESET
