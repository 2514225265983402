"""The core commands every table accepts, whatever its ruleset.

Commands are imperative (``RollDice``) with explicit snake_case tags; a
ruleset's tags take its id as a prefix (``nstrpg.roll_evasion``). They come from
clients, so they forbid unknown fields: a misspelt field is an error, not a
silent default.
"""

from __future__ import annotations

import hashlib
from typing import Any, ClassVar

import msgspec

__all__ = [
    "CORE_COMMANDS",
    "Chat",
    "Command",
    "CreateCharacter",
    "Leave",
    "Override",
    "RemoveCharacter",
    "RenameMember",
    "RevealSeed",
    "RollDice",
    "SetRole",
    "UpdateCharacter",
    "fingerprint",
]


class Command(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    """Base of every command, core and ruleset.

    A command only a GM may send sets the class variable ``gm_only = True``; clients
    learn it from ``list_rulesets`` (and hide such commands from players). The
    decider still checks the role: this is a description, not the permission.
    """

    gm_only: ClassVar[bool] = False


class Chat(Command, frozen=True, kw_only=True, tag="chat"):
    """A chat line. The ruleset may read a dice command in it (BCDice style, e.g.
    ``2D6>=7 attack`` or ``S1D100<=50``); otherwise it is posted as text.
    ``character_id`` speaks as one of the member's characters."""

    text: str
    character_id: str | None = None


class RollDice(Command, frozen=True, kw_only=True, tag="roll"):
    """A generic dice roll in BCDice notation (``3D6+2>=10``, ``D66``, ``4B6>=4``)."""

    expression: str
    secret: bool = False
    comment: str = ""


class RenameMember(Command, frozen=True, kw_only=True, tag="rename"):
    """Rename oneself, or (GM) ``member_id``."""

    name: str
    member_id: str | None = None


class SetRole(Command, frozen=True, kw_only=True, tag="set_role"):
    """GM only: make ``member_id`` a ``gm``, ``player`` or ``spectator``."""

    gm_only = True

    member_id: str
    role: str


class Leave(Command, frozen=True, kw_only=True, tag="leave"):
    """Leave the table. Characters stay; the member may come back with their token."""


class CreateCharacter(Command, frozen=True, kw_only=True, tag="create_character"):
    """Create a character. A player owns what they create; the GM may name an
    ``owner`` or none (an NPC). ``sheet`` is checked by the ruleset."""

    name: str
    owner: str | None = None
    sheet: dict[str, Any] = {}


class UpdateCharacter(Command, frozen=True, kw_only=True, tag="update_character"):
    """Change a character's name, owner (GM) or sheet keys (the ruleset checks them)."""

    character_id: str
    name: str | None = None
    owner: str | None = None
    sheet: dict[str, Any] = {}


class RemoveCharacter(Command, frozen=True, kw_only=True, tag="remove_character"):
    character_id: str


class Override(Command, frozen=True, kw_only=True, tag="override"):
    """GM only: set any value of the table state by path, with a reason.

    ``path`` starts with ``"characters"`` or ``"game"``, e.g.
    ``["characters", "ch4", "sheet", "karate"]`` or ``["game", "dkk", "ch4"]``.
    The result must still be a valid state; otherwise ``command/invalid``.
    """

    gm_only = True

    path: list[str | int]
    value: Any = None
    reason: str = ""


class RevealSeed(Command, frozen=True, kw_only=True, tag="reveal_seed"):
    """GM only: publish the table's dice seed so anyone can ``taku verify`` the log."""

    gm_only = True


CORE_COMMANDS: tuple[type[Command], ...] = (
    Chat,
    RollDice,
    RenameMember,
    SetRole,
    Leave,
    CreateCharacter,
    UpdateCharacter,
    RemoveCharacter,
    Override,
    RevealSeed,
)


_canonical = msgspec.json.Encoder(order="deterministic").encode


def fingerprint(command: Command) -> str:
    """What makes two commands "the same command": 32 hex digits of a BLAKE2b hash
    of the command's canonical JSON (its ``type`` tag and every field, defaults
    included, object keys sorted), so key order, whitespace and an omitted default
    do not count. The application service keeps it with the command's events and
    refuses a ``command_id`` sent again with a different fingerprint
    (``command/id_reused``)."""
    return hashlib.blake2b(_canonical(command), digest_size=16).hexdigest()
