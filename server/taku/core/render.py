"""Readable Japanese lines for events: for logs, exports and the terminal client."""

from __future__ import annotations

import json
from typing import Any

from taku.core.events import (
    CharacterCreated,
    CharacterRemoved,
    CharacterUpdated,
    ChatPosted,
    DiceRolled,
    Event,
    GMOverridden,
    MemberJoined,
    MemberLeft,
    MemberRenamed,
    Redacted,
    RoleChanged,
    SeedRevealed,
    TableCreated,
)
from taku.core.ruleset import Ruleset
from taku.core.table import TableState

__all__ = ["render"]

_ROLE = {"gm": "GM", "player": "PL", "spectator": "観戦"}


def _who(state: TableState, member_id: str | None) -> str:
    if member_id is None:
        return "システム"
    m = state.members.get(member_id)
    return m.name if m else member_id


def _char(state: TableState, character_id: str | None) -> str | None:
    if character_id is None:
        return None
    ch = state.characters.get(character_id)
    return ch.name if ch else character_id


def _shown(value: object) -> str:
    """A value as JSON (not a Python repr), for lines people read."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def render(event: Event, state: TableState, ruleset: Ruleset[Any, Any], actor: str | None) -> str:
    """One line for ``event`` as of ``state`` (names are looked up there).

    The ruleset's ``render`` is asked first for every event; core events fall
    back to the lines below.
    """
    if ruleset.render is not None:
        line = ruleset.render(event, state, state.rules)
        if line is not None:
            return line
    who = _who(state, actor)
    match event:
        case ChatPosted(text=text, character_id=cid):
            return f"{_char(state, cid) or who}: {text}"
        case DiceRolled(result=result, comment=comment, secret=secret, character_id=cid):
            head = "[シークレット] " if secret else ""
            tail = f" {comment}" if comment else ""
            return f"{head}{_char(state, cid) or who}: {result.rstrip()}{tail}"
        case Redacted(note=note):
            return f"{who}: （非公開{': ' + note if note else ''}）"
        case TableCreated(name=name, ruleset=rid):
            return f"卓「{name}」が作られました（{rid}）"
        case MemberJoined(name=name, role=role):
            return f"{name} が{_ROLE.get(role, role)}として参加しました"
        case MemberLeft(member_id=mid):
            return f"{_who(state, mid)} が退出しました"
        case MemberRenamed(name=name):
            return f"{who} の名前が {name} になりました"
        case RoleChanged(member_id=mid, role=role):
            return f"{_who(state, mid)} は{_ROLE.get(role, role)}になりました"
        case CharacterCreated(name=name):
            return f"キャラクター「{name}」が作られました"
        case CharacterUpdated(character_id=cid, sheet=sheet, name=name):
            changes = ", ".join(f"{k}={_shown(v)}" for k, v in sheet.items())
            return f"「{_char(state, cid)}」を更新: {name or ''}{changes}"
        case CharacterRemoved(character_id=cid):
            return f"キャラクター「{_char(state, cid)}」が削除されました"
        case GMOverridden(path=path, value=value, previous=previous, reason=reason):
            because = f"（理由: {reason}）" if reason else ""
            where = "/".join(map(str, path))
            if value is None and previous is None:  # the redacted form of a hidden override
                return f"GM変更: {where}（値は非公開）{because}"
            return f"GM変更: {where} {_shown(previous)} → {_shown(value)}{because}"
        case SeedRevealed(seed=seed):
            return f"ダイスのシードが公開されました: {seed}（taku verify で検証できます）"
        case _:
            return f"{who}: {type(event).__struct_config__.tag}"
