"""Readable Japanese lines for events: for logs, exports and the terminal client."""

from __future__ import annotations

import json
from typing import Any, Literal

from taku.core import kit
from taku.core.events import (
    ChannelAdded,
    CharacterCreated,
    CharacterRemoved,
    CharacterUpdated,
    ChatPaletteSet,
    ChatPosted,
    CommandRedone,
    CommandUndone,
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
    TableForked,
    TimerCancelled,
    TimerExpired,
    TimerSet,
)
from taku.core.ruleset import Ruleset
from taku.core.table import TableState

__all__ = ["outcome", "render"]

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


def outcome(event: Event) -> Literal["success", "failure"] | None:
    """``"success"`` / ``"failure"`` for a roll's badge, from the event's own fields:
    its ``outcome`` when it has one (the line's reading when ``success`` follows
    BCDice's other way round), else its ``success``, else its ``check``'s ``success``
    (a ruleset's check result); ``None`` when it has none (a table roll, chat)."""
    told = getattr(event, "outcome", None)
    if told == "success" or told == "failure":
        return "success" if told == "success" else "failure"
    success = getattr(event, "success", None)
    if success is None:
        success = getattr(getattr(event, "check", None), "success", None)
    return None if not isinstance(success, bool) else "success" if success else "failure"


def _place(state: TableState, channel: str, to: tuple[str, ...]) -> str:
    """``[雑談] `` / ``[内緒話→フジキド] `` in front of a line outside メイン or whispered."""
    head = f"[{channel}] " if channel else ""
    if to:
        head += f"[内緒話→{'、'.join(_who(state, m) for m in to)}] "
    return head


def render(event: Event, state: TableState, ruleset: Ruleset[Any, Any], actor: str | None) -> str:
    """One line for ``event`` as of ``state`` (names are looked up there).

    The ruleset's ``render`` is asked first for every event; core events fall
    back to the lines below. :data:`taku.core.kit.ROLLER` in a ruleset's line
    (a roll spoken as no character) becomes the name of the member who caused it,
    so every roll line says who rolled.
    """
    if ruleset.render is not None:
        line = ruleset.render(event, state, state.rules)
        if line is not None:
            line = line.replace(kit.ROLLER, _who(state, actor)) if kit.ROLLER in line else line
            channel = getattr(event, "channel", "")
            if isinstance(channel, str) and channel and f"[{channel}]" not in line:
                line = f"[{channel}] {line}"  # a ruleset's roll typed in 情報
            return line
    who = _who(state, actor)
    match event:
        case ChatPosted(text=text, character_id=cid, channel=channel, to=to):
            return f"{_place(state, channel, to)}{_char(state, cid) or who}: {text}"
        case DiceRolled(
            result=result, comment=comment, secret=secret, character_id=cid, channel=ch, to=to
        ):
            head = "[シークレット] " if secret else ""
            tail = f" {comment}" if comment else ""
            return (
                f"{head}{_place(state, ch, to)}{_char(state, cid) or who}: {result.rstrip()}{tail}"
            )
        case ChannelAdded(name=name):
            return f"チャンネル「{name}」が追加されました"
        case ChatPaletteSet(character_id=cid):
            return f"「{_char(state, cid)}」のチャットパレットが変わりました"
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
        case CommandUndone(seq=seq, reason=reason, forced=forced):
            how = "（強制）" if forced else ""
            return f"{who} が #{seq} の操作を取り消しました{how}{'：' + reason if reason else ''}"
        case CommandRedone(seq=seq, reason=reason, forced=forced):
            how = "（強制）" if forced else ""
            return f"{who} が #{seq} の操作をやり直しました{how}{'：' + reason if reason else ''}"
        case TableForked(source_table=src, source_seq=seq, source_name=src_name):
            if src_name:
                return f"卓「{src_name}」（{src}）の #{seq} から分岐しました"
            return f"卓 {src} の #{seq} から分岐しました"
        case TimerSet(label=label, duration_s=secs, character_id=cid):
            name = f"「{label}」" if label else ""
            whose = f"（{_char(state, cid)}の手番）" if cid else ""
            # the length only: the line is read in every time zone (the event keeps the
            # UTC deadline; the web client counts down to it in the browser's time)
            return f"タイマー{name}{whose}を設定しました: {_duration(secs)}"
        case TimerCancelled(label=label):
            return f"タイマー{f'「{label}」' if label else ''}を止めました"
        case TimerExpired(label=label, character_id=cid):
            name = f"「{label}」" if label else ""
            whose = f"（{_char(state, cid)}の手番）" if cid else ""
            return f"時間切れ: タイマー{name}{whose}"
        case _:
            return f"{who}: {type(event).__struct_config__.tag}"


def _duration(seconds: int) -> str:
    """``90`` -> ``"1分30秒"``; ``3600`` -> ``"1時間"``."""
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    parts = [f"{h}時間" if h else "", f"{m}分" if m else "", f"{s}秒" if s else ""]
    return "".join(parts) or "0秒"
