"""Test helpers shipped with taku, for its own tests and for third parties'.

- :class:`~taku.core.dice.ScriptedDice`: dice that return the faces a test gives.
- :class:`~taku.testing.store_contract.EventStoreContract`: the behaviour every
  event store backend must pass; subclass it and supply a ``store`` fixture.
- :class:`~taku.testing.harness.TableHarness`: drive a table through the
  application service without a socket (given events, when command, then events).
"""

from taku.core.dice import ScriptedDice

__all__ = ["ScriptedDice"]
