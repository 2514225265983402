"""One readable Japanese line per ``chabu`` event (logs, exports, the terminal client)."""

from __future__ import annotations

from typing import Any

from taku.core import kit
from taku.core.events import Event
from taku_chabu.events import (
    ActionPassed,
    AttackDeclared,
    CheckDeclared,
    CheckRolled,
    CombatEnded,
    CombatStarted,
    CounterSpent,
    DamageRolled,
    DeclarationClosed,
    Died,
    EvasionDeclined,
    Moved,
    OpposedRolled,
    OrderAgreed,
    RangeSet,
    RoundEnded,
    RoundStarted,
    TokugiUsed,
    ValueAdjusted,
    Waited,
)
from taku_chabu.options import RANGE_JA, ChabuOptions
from taku_chabu.state import TIMING_JA

__all__ = ["render"]

KEY_JA = {
    "hp": "HP",
    "ingaoho": "インガオホー値",
    "tatsujin": "タツジンカウンター",
    "wazamae": "ワザマエカウンター",
}
PURPOSE_JA = {"check": "判定", "hit": "命中判定", "evasion": "回避判定"}
OUTCOME_JA = {
    "hit": "命中",
    "missed": "外れ",
    "evaded": "回避された",
    "self_hit": "ウカツ！自分に命中",
    "success": "成功",
    "failure": "失敗",
    "resolved": "解決",
    "void": "不発（攻撃者が倒れた）",
}
END_JA = {"victory": "勝利", "defeat": "敗北", "aborted": "中断"}


def _name(table: Any, cid: str | None) -> str:
    return kit.character_name(table, cid) if cid is not None else "誰か"


def _names(table: Any, ids: Any) -> str:
    return "、".join(_name(table, c) for c in ids) or "なし"


def _d100(value: int, success: bool, tatsujin: bool, ukatsu: bool) -> str:
    mark = " タツジン！" if tatsujin else " ウカツ！" if ukatsu else ""
    return f"{value}{mark} ＞ {'成功' if success else '失敗'}"


def render(event: Event, table: Any, options: ChabuOptions | None) -> str | None:
    """The line for a ``chabu`` event, ``None`` for others (the core renders those)."""
    n = lambda cid: _name(table, cid)  # noqa: E731
    match event:
        case CheckRolled():
            label = f"〈{event.label}〉" if event.label else ""
            who = n(event.character_id) if event.character_id else "ダイス"
            tail = "（タツジンカウンター+1）" if event.tatsujin and event.character_id else ""
            return (
                f"{who}: {PURPOSE_JA[event.purpose]}{label} (1D100<={event.target}) ＞ "
                f"{_d100(event.value, event.success, event.tatsujin, event.ukatsu)}{tail}"
            )
        case OpposedRolled():
            a = n(event.a) if event.a else "A"
            b = n(event.b) if event.b else "B"
            rolls = " / ".join(f"{r.a_value}対{r.b_value}" for r in event.rounds)
            win = {"a": f"{a}の勝利", "b": f"{b}の勝利", "draw": "決着つかず"}[event.winner]
            label = f"〈{event.label}〉" if event.label else ""
            return (
                f"対抗判定{label} {a}({event.a_target}) 対 {b}({event.b_target}): {rolls} ＞ {win}"
            )
        case DamageRolled():
            faces = ",".join(map(str, event.roll.faces))
            calc = f"{event.power}+{event.dl}D10[{faces}]" + ("×2" if event.doubled else "")
            if event.target is None:
                return f"ダメージ ({calc}) ＞ {event.total}"
            pre = "ウカツ！攻撃が自分に命中。" if event.self_hit else ""
            return (
                f"{pre}{n(event.target)}に{event.total}ダメージ ({calc}) "
                f"HP {event.hp_before}→{event.hp_after}"
            )
        case AttackDeclared():
            what = event.tokugi or event.equipment or "攻撃"
            if event.tokugi and event.equipment:
                what = f"{event.tokugi}（{event.equipment}）"
            power = f" 威力{event.power}" if event.power is not None else ""
            hold = "（刹那待ち）" if event.held else ""
            return f"{n(event.attacker)}の攻撃: {what} → {_names(table, event.targets)} 【判定値】{event.check}{power}{hold}"
        case CheckDeclared():
            return f"{n(event.character_id)}が判定を宣言〈{event.label}〉【判定値】{event.check}（刹那待ち）"
        case TokugiUsed():
            cost = []
            if event.ingaoho_after != event.ingaoho_before:
                cost.append(f"インガオホー値 {event.ingaoho_before}→{event.ingaoho_after}")
            if event.hp_after != event.hp_before:
                cost.append(f"HP {event.hp_before}→{event.hp_after}")
            if event.cost.wazamae - event.tatsujin_for_wazamae:
                cost.append(f"ワザマエカウンター-{event.cost.wazamae - event.tatsujin_for_wazamae}")
            if event.cost.tatsujin + event.tatsujin_for_wazamae:
                cost.append(
                    f"タツジンカウンター-{event.cost.tatsujin + event.tatsujin_for_wazamae}"
                )
            paid = f" コスト: {'、'.join(cost)}" if cost else ""
            targets = f" → {_names(table, event.targets)}" if event.targets else ""
            effect = f"「{event.effect}」" if event.effect and event.resolved else ""
            void = " 死亡したため効果は解決しない" if not event.resolved else ""
            return f"{n(event.character_id)}が{TIMING_JA.get(event.timing, event.timing)}特技「{event.tokugi}」{targets}{paid}{effect}{void}"
        case EvasionDeclined():
            return f"{n(event.character_id)}は回避せず攻撃を受ける"
        case DeclarationClosed():
            done = "（行動完了）" if event.is_action else ""
            return f"{n(event.character_id)}の宣言: {OUTCOME_JA.get(event.outcome, event.outcome)}{done}"
        case Died():
            why = "インガオホー値が100以上" if event.cause == "ingaoho" else "DL0でHP0"
            return f"{n(event.character_id)}は死亡した（{why}）"
        case ValueAdjusted():
            why = f"（{event.reason}）" if event.reason else ""
            return f"GM: {n(event.character_id)}の{KEY_JA.get(event.key, event.key)} {event.before}→{event.after}{why}"
        case CounterSpent():
            rise = (
                f" インガオホー値 {event.ingaoho_before}→{event.ingaoho_after}"
                if event.ingaoho_after != event.ingaoho_before
                else ""
            )
            revived = "、ディセンションして死亡を解除" if event.descension else ""
            return (
                f"{n(event.character_id)}が{KEY_JA[event.counter]}を使用{revived}{rise}"
                f"{' ' + event.note if event.note else ''}"
            )
        case RangeSet():
            both = "（相互）" if event.both else ""
            return f"射程: {n(event.a)}から見て{n(event.b)}は{RANGE_JA[event.range]}{both}"
        case CombatStarted():
            return (
                f"ラウンド進行開始 参加: {_names(table, event.participants)} "
                f"勝利条件「{event.victory.text}」 敗北条件「{event.defeat.text}」"
            )
        case OrderAgreed():
            return f"同順位の行動順（PL相談）: {_names(table, event.agreed_order)}"
        case RoundStarted():
            return f"第{event.number}ラウンド イニシアティヴ: {_names(table, event.order)}"
        case Waited():
            return f"{n(event.character_id)}は待機宣言"
        case Moved():
            return f"{n(event.character_id)}は移動した（行動完了）{' ' + event.note if event.note else ''}"
        case ActionPassed():
            return f"{n(event.character_id)}は行動放棄（行動完了）"
        case RoundEnded():
            cleared = f" 解除: {'、'.join(t for _, t in event.cleared)}" if event.cleared else ""
            return f"第{event.number}ラウンド エンドフェイズ{cleared}"
        case CombatEnded():
            why = f"「{event.reason}」" if event.reason else ""
            return f"ラウンド進行終了: {END_JA[event.outcome]}{why}"
        case _:
            return None
