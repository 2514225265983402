"""The hooks a taku plugin may implement (pluggy project name ``taku``).

A ruleset package registers a module under the entry-point group
``taku.rulesets``; that module implements :func:`taku_ruleset` with
``@taku.hookimpl``. The built-in rulesets load the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from taku.core.ruleset import Ruleset

hookspec = pluggy.HookspecMarker("taku")
hookimpl = pluggy.HookimplMarker("taku")

__all__ = ["hookimpl", "hookspec", "taku_ruleset"]

# --------------------------------------------------------------------------- registration


@hookspec
def taku_ruleset() -> Ruleset:  # type: ignore[empty-body]
    """Return the :class:`~taku.core.ruleset.Ruleset` this plugin provides.

    Called once per plugin when the server (or ``taku rulesets``) loads its
    plugins; every plugin's answer is collected (not ``firstresult``). Ids must
    be unique across the installed plugins, or loading fails.
    """
