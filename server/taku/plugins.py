"""Loading rulesets: pluggy, the ``taku.rulesets`` entry points, and a registry."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from types import ModuleType

import pluggy

from taku import hookspecs
from taku.core.ruleset import Ruleset
from taku.errors import UnknownRuleset

__all__ = ["ENTRY_POINT_GROUP", "Registry", "load_registry"]

ENTRY_POINT_GROUP = "taku.rulesets"


class Registry:
    """The rulesets a server offers, by id."""

    def __init__(self, rulesets: Iterable[Ruleset]) -> None:
        self._by_id: dict[str, Ruleset] = {}
        for r in rulesets:
            if r.id in self._by_id:
                raise ValueError(f"two plugins provide the ruleset id {r.id!r}")
            self._by_id[r.id] = r

    def get(self, ruleset_id: str) -> Ruleset:
        """The ruleset, or ``table/unknown_ruleset``."""
        try:
            return self._by_id[ruleset_id]
        except KeyError:
            raise UnknownRuleset(
                f"no ruleset {ruleset_id!r}; installed: {', '.join(sorted(self._by_id))}",
                ruleset=ruleset_id,
                installed=sorted(self._by_id),
            ) from None

    def __contains__(self, ruleset_id: object) -> bool:
        return ruleset_id in self._by_id

    def __iter__(self) -> Iterator[Ruleset]:
        return iter(sorted(self._by_id.values(), key=lambda r: r.id))

    def __len__(self) -> int:
        return len(self._by_id)


def load_registry(
    *, autoload: bool | None = None, plugins: Iterable[ModuleType | object] = ()
) -> Registry:
    """Load rulesets from the ``taku.rulesets`` entry points and ``plugins``.

    Args:
        autoload: read installed entry points; default True unless the
            environment sets ``TAKU_DISABLE_PLUGIN_AUTOLOAD=1``.
        plugins: more plugin objects (modules with hookimpls) to register.

    Raises:
        pluggy.PluginValidationError: a misspelt hookimpl (``check_pending``).
        ValueError: two rulesets with one id.
    """
    if autoload is None:
        autoload = os.environ.get("TAKU_DISABLE_PLUGIN_AUTOLOAD", "") not in ("1", "true")
    pm = pluggy.PluginManager("taku")
    pm.add_hookspecs(hookspecs)
    if autoload:
        pm.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
    for p in plugins:
        if not pm.is_registered(p):
            pm.register(p)
    pm.check_pending()
    return Registry(pm.hook.taku_ruleset())
