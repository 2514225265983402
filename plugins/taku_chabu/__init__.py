"""The `chabu` ruleset: ニンジャスレイヤー：theチャブＲＰＧ (rule section, 001_67a5484b32916552.txt).

Public names: the commands, events, state and options; the ``Ruleset`` value
is :data:`taku_chabu.plugin.RULESET`.
"""

from taku_chabu.commands import *  # noqa: F403
from taku_chabu.commands import __all__ as _commands
from taku_chabu.events import *  # noqa: F403
from taku_chabu.events import __all__ as _events
from taku_chabu.options import *  # noqa: F403
from taku_chabu.options import __all__ as _options
from taku_chabu.state import *  # noqa: F403
from taku_chabu.state import __all__ as _state

__all__ = [*_commands, *_events, *_options, *_state]  # noqa: PLE0604
