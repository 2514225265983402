"""Chat beyond one line: channels, whispers, colours and チャットパレット (pure).

- Channels: every table has メイン (stored as ``""``, as before channels existed),
  情報 and 雑談; the GM adds more (``add_channel`` → ``channel_added``). Spectators'
  lines, when the table allows them, go to 観戦 (:data:`SPECTATOR`).
- Whispers: a ``chat`` with ``to`` (member ids) is hidden information like a secret
  roll: its events are :class:`~taku.core.events.Private` to the sender, the
  recipients and the GM; everyone else gets a ``redacted`` stand-in at the same seq
  (live, ``get_log``, replay and every export go through that one redaction).
- Colours and palettes: ``set_chat_palette`` (the owner or a GM) →
  ``chat_palette_set``. A palette is lines of chat; ``{カラテ}`` in a line sent as a
  character is replaced by that sheet value (by the sheet's key or by its Japanese
  title in the ruleset's sheet schema), as ココフォリア does.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable
from typing import Any

import msgspec

from taku.errors import InvalidCommand

__all__ = [
    "DEFAULT_CHANNELS",
    "MAIN",
    "MAX_CHANNELS",
    "SPECTATOR",
    "ChatProfile",
    "ChatState",
    "channel_of",
    "color_of",
    "default_palette",
    "new_channel",
    "resolve_refs",
    "sheet_titles",
    "view",
]

MAIN = "メイン"
"""The main channel's name for people; stored as ``""`` in ``chat_posted.channel``."""
DEFAULT_CHANNELS: tuple[str, ...] = (MAIN, "情報", "雑談")
SPECTATOR = "観戦"
"""The spectators' channel (``settings.spectator_chat``); no one else posts there."""
MAX_CHANNELS = 20
MAX_CHANNEL_NAME = 16

COLORS: tuple[str, ...] = (
    "#b03a2e",
    "#1f618d",
    "#196f3d",
    "#8a5a00",
    "#6c3483",
    "#0e6655",
    "#873600",
    "#2e4053",
)
"""Default character colours: each at least 5:1 against white and the whisper tint (WCAG AA)."""


class ChatProfile(msgspec.Struct, frozen=True, kw_only=True):
    """A character's chat colour (``""``: the default) and palette (lines)."""

    color: str = ""
    palette: str = ""


class ChatState(msgspec.Struct, frozen=True, kw_only=True):
    """The chat part of a table's state."""

    channels: tuple[str, ...] = DEFAULT_CHANNELS
    profiles: dict[str, ChatProfile] = {}


def _key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).strip().casefold()


_MARKS = re.compile(r"[\s【】〔〕［］\[\]●○◆◇〈〉《》「」]")


def _bare(name: str) -> str:
    """A title as a player types it: ``【カラテ】`` and ``●連射`` are ``カラテ`` and ``連射``."""
    return _MARKS.sub("", _key(name))


def channel_of(chat: ChatState, name: str) -> str:
    """The stored channel for ``name`` (``""`` for メイン), as the table's channels spell it.

    Raises:
        InvalidCommand: ``command/unknown_channel`` (params ``channel``).
    """
    if not name.strip() or _key(name) == _key(MAIN):
        return ""
    for c in chat.channels:
        if _key(c) == _key(name):
            return c
    raise InvalidCommand(
        f"no channel {name!r}", code="command/unknown_channel", channel=name[:MAX_CHANNEL_NAME]
    )


def new_channel(chat: ChatState, name: str) -> str:
    """``name`` checked as a new channel (trimmed).

    Raises:
        InvalidCommand: ``command/invalid_name`` (empty, too long, control characters),
            ``command/channel_exists`` (also for 観戦), ``command/invalid`` past
            :data:`MAX_CHANNELS`.
    """
    name = name.strip()
    if (
        not name
        or len(name) > MAX_CHANNEL_NAME
        or any(unicodedata.category(c) in ("Cc", "Cf") for c in name)
    ):
        raise InvalidCommand(
            f"a channel name has 1 to {MAX_CHANNEL_NAME} visible characters",
            code="command/invalid_name",
        )
    if any(_key(c) == _key(name) for c in (*chat.channels, SPECTATOR)):
        raise InvalidCommand(
            f"channel {name!r} exists", code="command/channel_exists", channel=name
        )
    if len(chat.channels) >= MAX_CHANNELS:
        raise InvalidCommand(
            "too many channels",
            code="command/invalid",
            detail=f"チャンネルは{MAX_CHANNELS}個までです",
        )
    return name


def color_of(chat: ChatState, character_id: str) -> str:
    """The character's colour: its own, else one of :data:`COLORS` chosen by its id."""
    p = chat.profiles.get(character_id)
    if p is not None and p.color:
        return p.color
    return COLORS[hashlib.sha256(character_id.encode()).digest()[0] % len(COLORS)]


_REF = re.compile(r"\{([^{}\n]{1,40})\}")


def resolve_refs(text: str, sheet: dict[str, Any], titles: dict[str, str]) -> str:
    """``text`` with each ``{name}`` replaced by the sheet's value, ココフォリア style.

    ``name`` is a sheet key (``{karate}``) or a Japanese title of one (``{カラテ}``,
    from :func:`sheet_titles`); only numbers and strings are replaced, anything else
    (an unknown name, a list) stays as written.
    """

    def one(m: re.Match[str]) -> str:
        name = m.group(1).strip()
        key = name if name in sheet else titles.get(_bare(name))
        value = sheet.get(key) if key is not None else None
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            return m.group(0)
        return str(value)

    return _REF.sub(one, text)


_titles_cache: dict[int, dict[str, str]] = {}


def sheet_titles(sheet_type: type | None) -> dict[str, str]:
    """``{bare title or key: key}`` (:func:`_bare`) of a ruleset's sheet Struct's top-level fields."""
    if sheet_type is None:
        return {}
    cached = _titles_cache.get(id(sheet_type))
    if cached is not None:
        return cached
    schema = msgspec.json.schema(sheet_type)
    root = schema
    if "$ref" in schema:
        root = schema.get("$defs", {}).get(schema["$ref"].rsplit("/", 1)[-1], {})
    out: dict[str, str] = {}
    for key, prop in root.get("properties", {}).items():
        out.setdefault(_bare(key), key)
        title = prop.get("title") if isinstance(prop, dict) else None
        if title:
            out.setdefault(_bare(title), key)
    _titles_cache[id(sheet_type)] = out
    return out


Palette = str | Callable[[dict[str, Any]], str]
"""A ruleset's starting チャットパレット: text, or a function of a sheet giving it."""


def default_palette(palette: Palette, sheet: dict[str, Any]) -> str:
    """The ruleset's starting palette for ``sheet`` (``""`` when it gives none, or when its
    function fails on an odd sheet: a palette must never stop the state reaching anyone)."""
    if isinstance(palette, str):
        return palette
    try:
        text = palette(sheet)
    except Exception:  # noqa: BLE001 - a ruleset's palette bug leaves the palette empty
        return ""
    return text if isinstance(text, str) else ""


def view(chat: ChatState, characters: dict[str, Any], palette: Palette = "") -> dict[str, Any]:
    """The ``chat`` part of the ``state`` message: ``{channels, palettes}``;
    ``palettes`` maps every character id to ``{color, palette, default?}``: the colour
    filled in, the palette its owner saved (``""`` for none) and, when the ruleset has
    one (:attr:`taku.core.ruleset.Ruleset.palette`), ``default``: the ruleset's starting
    palette from the character's sheet, which a client shows (and offers to edit) while
    ``palette`` is empty, as ココフォリア does."""
    out: dict[str, Any] = {}
    for cid, ch in characters.items():
        entry: dict[str, Any] = {
            "color": color_of(chat, cid),
            "palette": chat.profiles[cid].palette if cid in chat.profiles else "",
        }
        sheet = getattr(ch, "sheet", None)
        default = default_palette(palette, sheet if isinstance(sheet, dict) else {})
        if default:
            entry["default"] = default
        out[cid] = entry
    return {"channels": list(chat.channels), "palettes": out}
