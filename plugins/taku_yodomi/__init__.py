"""The `yodomi` ruleset: 澱み流れ (2D9 / D99 checks, the 流れ deck, scenes, engagement combat)."""

from taku_yodomi.options import YodomiOptions, YodomiSheet
from taku_yodomi.plugin import RULESET

__all__ = ["RULESET", "YodomiOptions", "YodomiSheet"]
