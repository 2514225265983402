"""One readable Japanese line per 秘伝の声 event, for logs and the terminal client."""

from __future__ import annotations

from taku.core import kit
from taku.core.events import Event
from taku.core.table import TableState
from taku_hiden.events import (
    CheckRerolled,
    CheckRolled,
    ConditionsSet,
    DifficultyComputed,
    OpposedResolved,
    OpposedRolled,
    Side,
    Target,
    ZabutonAwarded,
    ZabutonConverted,
)
from taku_hiden.options import HidenOptions

__all__ = ["render"]

_HELPER = {
    "jump": "《跳躍》",
    "lift": "《持ち上げ》",
    "visibility": "視界の修正",
    "fatigue": "疲労などによる修正",
    "seizure": "発作・不治の病",
}
_KIND = {"check": "行動判定", "kan": "勘働き判定", "seizure": "〈気合い〉判定"}


def _faces(faces: tuple[int, ...]) -> str:
    return "[" + ",".join(map(str, faces)) + "]"


def _char(table: TableState, cid: str | None, fallback: str = "") -> str:
    """The character's name; ``fallback`` (the name in the event) when it is gone."""
    if cid is None or (fallback and cid not in table.characters):
        return fallback
    return kit.character_name(table, cid)


def side_text(side: Side) -> str:
    """``甲 《姿隠し》2+〈器用〉1+2D[4,3] = 10``."""
    parts = []
    if side.skill is not None:
        parts.append(f"《{side.skill}》{side.level}")
    elif side.skill_kind is not None:
        parts.append(f"技能{side.level}")
    clamp = f"(→{side.ability_used})" if side.ability_used != side.ability_value else ""
    if side.ability is not None:
        parts.append(f"〈{side.ability}〉{side.ability_value}{clamp}")
    elif side.ability_value:
        parts.append(
            f"能力値{side.ability_value}{clamp}"
        )  # a check without a sheet (an NPC's bare numbers)
    parts += [f"「{t.name}」{t.value:+d}" for t in side.traits]
    if side.modifier or not parts:
        parts.append(f"{side.modifier:+d}" if parts else str(side.modifier))
    dice = f"2D{_faces(side.roll.faces)}"
    if side.effect == "critical" and side.bonus is not None:
        dice += f" 6ゾロ!+2D{_faces(side.bonus.faces)}"
    elif side.effect == "fumble":
        dice += " 1ゾロ"
    fixed = "+".join(parts).replace("+-", "-").replace("++", "+")
    lacking = (
        f"（《{side.missing_skill}》なし: 能力値のみ）" if side.missing_skill is not None else ""
    )
    return f"{side.name}{lacking} {fixed}+{dice} = {side.value}"


def target_text(target: Target) -> str:
    if target.mode == "fixed":
        return f"目標値{target.value}"
    mods = "".join(f"+{m.label}{m.value}" for m in target.modifiers)
    if target.mode == "simple":
        return f"目標値{target.value}（難易度{target.difficulty}{mods}の簡易目標値）"
    assert target.roll is not None  # a rolled target records its 2D
    return f"目標値{target.value}（難易度{target.difficulty}{mods}+2D{_faces(target.roll.faces)}）"


def _outcome(success: bool | None, side: Side) -> str:
    if success is None:
        return ""
    if side.effect == "fumble":
        return " ＞ 失敗（1ゾロ: 失敗効果）"
    return " ＞ 成功" if success else " ＞ 失敗"


def _winner(
    event_first: Side, event_second: Side, winner: int, compared: tuple[int, int], both: bool
) -> str:
    who = event_second.name if winner == 1 else event_first.name
    note = f"（両者1ゾロ: 2Dを2として {compared[0]} 対 {compared[1]}）" if both else ""
    return f" ＞ {who}の勝ち{note}"


def render(event: Event, table: TableState, options: HidenOptions) -> str | None:
    """The line for a 秘伝の声 event; ``None`` for events of the core (options unused:
    every event records its outcome)."""
    match event:
        case CheckRolled():
            head = _KIND.get(event.kind, "行動判定")
            label = f"「{event.label}」" if event.label else ""
            goal = f" ＞ {target_text(event.target)}" if event.target is not None else ""
            line = (
                f"{head}{label}: {side_text(event.side)}{goal}{_outcome(event.success, event.side)}"
            )
            if event.kind == "seizure":
                turn = f"（第{event.turn}ターン）" if event.turn else ""
                line += turn + (" ＞ 行動不能" if event.incapacitated else "")
            return line
        case OpposedRolled():
            label = f"「{event.label}」" if event.label else ""
            return (
                f"対抗判定{label}: {side_text(event.first)} 対 {side_text(event.second)}"
                + _winner(
                    event.first, event.second, event.winner, event.compared, event.both_fumble
                )
            )
        case OpposedResolved():
            label = f"「{event.label}」" if event.label else ""
            effect = {"critical": "（6ゾロ）", "fumble": "（1ゾロ）"}.get(event.first_effect, "")
            who = event.second.name if event.winner == 1 else event.first_name
            note = (
                f"（両者1ゾロ: 2Dを2として {event.compared[0]} 対 {event.compared[1]}）"
                if event.both_fumble
                else ""
            )
            return (
                f"対抗判定{label}: {event.first_name}の判定値{event.first_value}{effect}（{event.against}）に "
                f"{side_text(event.second)} ＞ {who}の勝ち{note}"
            )
        case CheckRerolled():
            who = _char(table, event.character_id, event.side.name)
            if event.winner is not None and event.compared is not None:
                result = f" ＞ 判定値{event.compared[event.side_index]}、{'後手' if event.winner else '先手'}の勝ち"
            else:
                result = _outcome(event.success, event.side)
                if event.incapacitated:
                    result += " ＞ 行動不能"
            return (
                f"座布団で振り直し（{who}、残り{event.zabuton_left}枚）: {_faces(event.previous)}→ "
                f"{side_text(event.side)}{result}"
            )
        case ZabutonAwarded():
            n = "一枚" if event.count == 1 else f"{event.count}枚"
            why = f"（{event.reason}）" if event.reason else ""
            return f"座布団{n}！ {_char(table, event.character_id)}{why} ＞ 計{event.zabuton}枚"
        case ZabutonConverted():
            return (
                f"{_char(table, event.character_id)}の座布団{event.zabuton}枚をCP{event.cp}に変換"
                f"（座布団由来のCP計{event.cp_total}）"
            )
        case ConditionsSet():
            conds = "、".join(event.conditions) or "なし"
            return f"{_char(table, event.character_id)}の状態: {conds}（すべての判定の難易度{event.modifier:+d}）"
        case DifficultyComputed():
            who = f"（{_char(table, event.character_id)}）" if event.character_id else ""
            parts = "、".join(f"{p.label} {p.value:+d}" for p in event.parts)
            note = f" ※{event.note}" if event.note else ""
            return (
                f"{_HELPER.get(event.helper, event.helper)}{who}: {parts} ＞ 難易度{event.difficulty}"
                f"（簡易目標値{event.simple_target}）{note}"
            )
        case _:
            return None
