"""taku (卓): an event-sourced session server for Japanese tabletop RPGs."""

from taku.core.ruleset import Context, Role, Ruleset, Viewer
from taku.errors import Rejected, TakuError
from taku.hookspecs import hookimpl

__all__ = [
    "Context",
    "Rejected",
    "Role",
    "Ruleset",
    "TakuError",
    "Viewer",
    "__version__",
    "hookimpl",
]

__version__ = "0.1.0"
