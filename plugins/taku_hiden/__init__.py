"""The `hiden` ruleset: 秘伝の声, chapter 5 (行動判定).

Public names: the ruleset value, its commands, events, state, options and
the chapter's tables. See docs/rulesets/hiden.md.
"""

from taku_hiden.commands import (
    COMMANDS,
    AwardZabuton,
    Check,
    CheckSpec,
    ConvertZabuton,
    Fatigue,
    Jump,
    KanCheck,
    Lift,
    Oppose,
    OpposedCheck,
    Reroll,
    Seizure,
    SeizureCheck,
    SetConditions,
    TraitUse,
    Visibility,
)
from taku_hiden.events import (
    EVENTS,
    CheckRerolled,
    CheckRolled,
    ConditionsSet,
    DifficultyComputed,
    Modifier,
    OpposedResolved,
    OpposedRolled,
    Side,
    Target,
    TraitApplied,
    ZabutonAwarded,
    ZabutonConverted,
)
from taku_hiden.options import HidenOptions
from taku_hiden.plugin import RULESET
from taku_hiden.state import CharState, HidenSheet, HidenState, OpenCheck, Tokugi, Trait

__all__ = [
    "COMMANDS",
    "EVENTS",
    "RULESET",
    "AwardZabuton",
    "CharState",
    "Check",
    "CheckRerolled",
    "CheckRolled",
    "CheckSpec",
    "ConditionsSet",
    "ConvertZabuton",
    "DifficultyComputed",
    "Fatigue",
    "HidenOptions",
    "HidenSheet",
    "HidenState",
    "Jump",
    "KanCheck",
    "Lift",
    "Modifier",
    "OpenCheck",
    "Oppose",
    "OpposedCheck",
    "OpposedResolved",
    "OpposedRolled",
    "Reroll",
    "Seizure",
    "SeizureCheck",
    "SetConditions",
    "Side",
    "Target",
    "Tokugi",
    "Trait",
    "TraitApplied",
    "TraitUse",
    "Visibility",
    "ZabutonAwarded",
    "ZabutonConverted",
]
