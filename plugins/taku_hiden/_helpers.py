"""The helpers of 五ノ七 さまざまな判定 as decisions: each returns one ``hiden.difficulty_computed``.

《跳躍》, 《持ち上げ》, 視界の修正, 疲労などによる修正 and the 発作 / 不治の病
table (HD-15 … HD-21). The GM may accept the difficulty or use another one.
"""

from __future__ import annotations

from fractions import Fraction
from typing import cast

from taku.core.ruleset import Context
from taku.core.table import TableState
from taku_hiden import tables as T
from taku_hiden._common import (
    S_VARIOUS,
    _anshi_level,
    _condition_label,
    _find,
    _optional_sheet,
    _reject,
    _sake_tolerance,
)
from taku_hiden.commands import Fatigue, Jump, Lift, Visibility
from taku_hiden.events import DifficultyComputed, Modifier
from taku_hiden.options import HidenOptions
from taku_hiden.state import strip_brackets

__all__ = ["condition_key", "fatigue", "jump", "lift", "seizure_for", "situation_key", "visibility"]


def _fraction(x: float) -> Fraction:
    return Fraction(x).limit_denominator(10000)


def jump(table: TableState, command: Jump, ctx: Context[HidenOptions]) -> DifficultyComputed:
    """《跳躍》 (五ノ七; HD-15): distance beyond the difficulty-0 distance, in units of 1 or 2 尺."""
    _optional_sheet(table, command.character_id)
    options = ctx.options
    dist = T.to_shaku(
        ken=_fraction(command.ken), jo=_fraction(command.jo), shaku=_fraction(command.shaku)
    )
    if dist <= 0:
        _reject("no_distance", "跳ぶ距離（間・丈・尺）を指定してください", S_VARIOUS)
    row = T.JUMP[command.kind]
    base = row["run_up" if command.run_up else "standing"]
    core = T.jump_difficulty(command.kind, command.run_up, dist, rounding=options.jump_rounding)
    what = ("高跳び" if command.kind == "high" else "幅跳び") + (
        "（助走あり）" if command.run_up else "（助走なし）"
    )
    parts = [
        Modifier(
            label=f"{what} {_num(dist)}尺: 難易度0は{base}尺、{row['unit']}尺ごとに+1", value=core
        )
    ]
    if command.risky:
        parts.append(Modifier(label="失敗が許されない", value=command.risky))
    notes = []
    if (dist - base) % row["unit"]:
        notes.append(
            "端数は1単位に切り上げ（G-HD-05）"
            if options.jump_rounding == "up"
            else "端数は切り捨て"
        )
    if command.kind == "long" and command.run_up and dist == 18:
        notes.append("本文の例は難易度5としていますが、表によれば6です（G-HD-04）")
    difficulty = core + command.risky
    return DifficultyComputed(
        helper="jump",
        character_id=command.character_id,
        parts=tuple(parts),
        difficulty=difficulty,
        simple_target=T.simple_target(difficulty),
        detail={"kind": command.kind, "run_up": command.run_up, "shaku": float(dist)},
        note=" / ".join(notes),
    )


def _num(x: Fraction) -> str:
    return str(int(x)) if x.denominator == 1 else f"{float(x):.2f}".rstrip("0").rstrip(".")


def lift(table: TableState, command: Lift, ctx: Context[HidenOptions]) -> DifficultyComputed:
    """《持ち上げ》 (五ノ七; HD-16): 15 貫 is 0, +1 per 貫, fractions dropped; kg / 3.75 = 貫."""
    _optional_sheet(table, command.character_id)
    options = ctx.options
    if (command.kan is None) == (command.kg is None):
        _reject(
            "kan_or_kg", "重さを貫（kan）かキロ（kg）のどちらか一方で指定してください", S_VARIOUS
        )
    kan = (
        _fraction(command.kan) if command.kan is not None else _fraction(command.kg or 0) / T.KAN_KG
    )
    if kan <= 0:
        _reject("no_weight", "持ち上げる物の重さ（貫かキロ）を指定してください", S_VARIOUS)
    core = T.lift_difficulty(kan)
    shown = (
        f"{command.kg:g}キロ = {float(kan):.2f}貫" if command.kg is not None else f"{_num(kan)}貫"
    )
    parts = [Modifier(label=f"{shown}（{T.LIFT_BASE_KAN}貫が難易度0、端数切り捨て）", value=core)]
    if command.sword_grip:
        parts.append(
            Modifier(label="棒状のものを剣のように握って持つ", value=options.sword_grip_modifier)
        )
    difficulty = sum(p.value for p in parts)
    return DifficultyComputed(
        helper="lift",
        character_id=command.character_id,
        parts=tuple(parts),
        difficulty=difficulty,
        simple_target=T.simple_target(difficulty),
        detail={"kan": round(float(kan), 2), "kg": round(float(kan * T.KAN_KG), 2)},
    )


def visibility(table: TableState, command: Visibility) -> DifficultyComputed:
    """視界の修正 (五ノ七; HD-17): 〈暗視〉 cancels up to its level, never more than the modifiers."""
    sheet = _optional_sheet(table, command.character_id)
    keys = []
    for c in command.conditions:
        key = T.lookup(T.VISIBILITY, c)
        if key is None:
            _reject("unknown_visibility", f"視界の修正「{c}」は表にありません", S_VARIOUS)
        if key not in keys:  # the same weather named twice counts once
            keys.append(key)
    level = command.anshi_level if command.anshi_level is not None else _anshi_level(sheet)
    mods = [T.VISIBILITY[k][1] for k in keys]
    cancelled, remaining = T.visibility_modifier(mods, level)
    parts = [Modifier(label="距離・大きさ", value=command.base)] if command.base else []
    parts += [Modifier(label=T.VISIBILITY[k][0], value=m) for k, m in zip(keys, mods, strict=True)]
    if sum(cancelled):
        parts.append(Modifier(label=f"〈暗視〉{level}", value=-sum(cancelled)))
    difficulty = command.base + remaining
    return DifficultyComputed(
        helper="visibility",
        character_id=command.character_id,
        parts=tuple(parts),
        difficulty=difficulty,
        simple_target=T.simple_target(difficulty),
        detail={
            "conditions": keys,
            "anshi_level": level,
            "cancelled": sum(cancelled),
            "modifier": remaining,
        },
    )


def condition_key(name: str) -> T.ConditionKey:
    key = T.lookup(T.FATIGUE, name) or T.lookup(T.DRINK, name)
    if key is None:
        _reject("unknown_condition", f"疲労などによる修正「{name}」は表にありません", S_VARIOUS)
    return cast(T.ConditionKey, key)  # a key of FATIGUE or DRINK


def fatigue(table: TableState, command: Fatigue) -> DifficultyComputed:
    """疲労などによる修正 (五ノ七; HD-18, HD-19): they add up; 酒の耐性 lowers drink, never below 0."""
    sheet = _optional_sheet(table, command.character_id)
    keys = list(
        dict.fromkeys(condition_key(c) for c in command.conditions)
    )  # once each, as set_conditions
    tol = command.sake_tolerance if command.sake_tolerance is not None else _sake_tolerance(sheet)
    parts = [Modifier(label="元の難易度", value=command.base)] if command.base else []
    for k in keys:
        value = T.fatigue_modifier(k, tol)
        label = _condition_label(k)
        if k in T.DRINK and tol:
            label += f"（酒の耐性{tol}: {T.DRINK[k][1]}-{tol}、0未満は0）"
        parts.append(Modifier(label=label, value=value))
    difficulty = sum(p.value for p in parts)
    return DifficultyComputed(
        helper="fatigue",
        character_id=command.character_id,
        parts=tuple(parts),
        difficulty=difficulty,
        simple_target=T.simple_target(difficulty),
        detail={"conditions": keys, "sake_tolerance": tol, "modifier": difficulty - command.base},
    )


def situation_key(name: str) -> str:
    key = T.lookup(T.SEIZURE, name)
    if key is None:
        _reject("unknown_situation", f"状況「{name}」は発作の難易度表にありません", S_VARIOUS)
    return key


def seizure_for(
    table: TableState, character_id: str | None, trait: str | None, situation: str
) -> tuple[str, int]:
    """Which of 発作 / 不治の病 applies, and its difficulty (HD-21); with both, the harder."""
    if trait is not None:
        trait = strip_brackets(trait)
        if trait not in T.SEIZURE_TRAITS:
            _reject("unknown_seizure_trait", "特徴は「発作」か「不治の病」です", S_VARIOUS)
        return trait, T.seizure_difficulty(trait, situation)
    sheet = _optional_sheet(table, character_id)
    held = [t for t in T.SEIZURE_TRAITS if sheet is not None and _find(sheet.traits, t)]
    if not held:
        _reject("no_seizure_trait", "「発作」も「不治の病」も持たないキャラクターです", S_VARIOUS)
    return max(((t, T.seizure_difficulty(t, situation)) for t in held), key=lambda p: p[1])
