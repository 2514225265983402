"""One readable Japanese line per シャドー・ジャン2 event."""

from __future__ import annotations

from typing import Any

from taku.core import kit
from taku.core.events import Event
from taku.core.table import TableState
from taku_nstrpg.checks import difficulty_name
from taku_shadowjan import events as ev

__all__ = ["render"]

_ACTION = {
    "karate": "カラテ(ゴーモーパイ)",
    "wazamae": "ワザマエ(イカサマ)",
    "neuron": "ニューロン",
}
_STAT = {"karate": "カラテ", "wazamae": "ワザマエ", "neuron": "ニューロン"}
_DECL = {"riichi": "リーチ", "dama": "ダマテン"}
_KIND = {
    "melee": "近接攻撃",
    "shuriken": "スリケン",
    "jitsu": "ジツ",
    "gun": "銃撃",
    "stick": "リーチ棒",
    "counter": "カウンターカラテ",
}
_BATTLE = {
    "tenho": "テンホー・チーホー戦",
    "ikasama": "イカサマのチョンボ",
    "ron": "ロン回避判定",
    "stick": "リーチ棒",
    "ikusa": "イクサ",
}
_REASON = {
    "tenho": "ヤクマン(テンホー・チーホー)",
    "tsumo_riichi": "ツモ ハネマン(リーチ)",
    "tsumo_dama": "ツモ マンガン(ダマテン)",
    "ron_riichi": "ロン ハネマン(リーチ)",
    "ron_dama": "ロン マンガン(ダマテン)",
    "chombo": "チョンボ",
}
_END = {
    "hands": "4局終了",
    "one_left": "残り1人",
    "negative": "点数マイナス",
    "ninja_slayer": "ニンジャ殺すべし",
    "tiebreak": "同着1位のイクサ",
}


def _f(faces: tuple[int, ...]) -> str:
    return "[" + ",".join(map(str, faces)) + "]"


def render(event: Event, table: TableState, options: Any = None) -> str | None:
    """The line for ``event``, or ``None`` for events of other rulesets (``options`` unused)."""

    def n(cid: str) -> str:
        return kit.character_name(table, cid)

    def pts(d: dict[str, int]) -> str:
        return " ".join(f"{n(c)}{v:+d}" for c, v in d.items())

    match event:
        case ev.Seated():
            return f"{n(event.character_id)} が卓についた"
        case ev.GameStarted():
            rolls = " ".join(f"{n(r.character_id)}:{r.roll.faces[0]}" for r in event.rolls)
            return f"席順決め(1d100) {rolls} → {' → '.join(n(c) for c in event.seats)}。起家は{n(event.seats[0])}、持ち点{event.score}点"
        case ev.HandStarted():
            extra = f"(流局{event.draws}回・得点×{2**event.draws})" if event.draws else ""
            return f"第{event.hand}局{'(仕切りなおし)' if event.replay else ''} 開始 親:{n(event.dealer)}{extra}"
        case ev.EvasionDiceTaken():
            return "回避ダイスを握る: " + " ".join(f"{n(c)}{v}" for c, v in event.dice.items())
        case ev.MentsuDealt():
            extra = (
                " テンホー・チーホー宣言可能!"
                if event.mentsu == 5
                else (" リーチかダマテンを宣言せよ" if event.mentsu == 4 else "")
            )
            return f"配牌 {n(event.character_id)}: 6-{event.roll.faces[0]} = {event.mentsu}メンツ{extra}"
        case ev.TurnStarted():
            return f"{n(event.character_id)} の手番"
        case ev.TenhoDeclared():
            if event.declared:
                return (
                    f"{n(event.character_id)}「テンホー・チーホー!」 テンホー・チーホー戦が始まる"
                )
            return f"{n(event.character_id)} はテンホー・チーホーを宣言せず、メンツは2に"
        case ev.ActionRolled():
            checks = " ".join(
                f"{_f(r.faces)}({difficulty_name(d)}:{s})"
                for r, d, s in zip(event.rolls, event.difficulties, event.successes, strict=False)
            )
            if event.chombo:
                return f"{n(event.character_id)} {_ACTION[event.action]} {checks} 失敗! チョンボ! 全員の攻撃を受ける"
            tail = (
                f"メンツ+{event.gained} → {event.mentsu}"
                if event.gained
                else "失敗(何も起こらない)"
            )
            enh = f" 強化+{event.enhance}" if event.enhance else ""
            return f"{n(event.character_id)} {_ACTION[event.action]}{enh} {checks} {tail}"
        case ev.Betaoried():
            return (
                f"{n(event.character_id)} ベタオリ: メンツ-2 → {event.mentsu}、振り込み判定+2ダイス"
            )
        case ev.Declared():
            return f"{n(event.character_id)}「{_DECL.get(event.kind, event.kind)}!」"
        case ev.StickThrown():
            return f"{n(event.character_id)} がリーチ棒を {n(event.target)} へ投擲! 自動命中 ダメージ{event.hit.damage}{_f(event.roll.faces)} 回避難易度{difficulty_name(event.hit.evasion)}"
        case ev.TsumoRolled():
            res = "ツモ! アガリ!" if event.win else "アガれず"
            return f"{n(event.character_id)} ツモ判定({_STAT.get(event.stat, event.stat)}:UH) {_f(event.roll.faces)} 出目6×{event.sixes} 累計{event.total}/{event.needed} {res}"
        case ev.FurikomiRolled():
            res = (
                "成功"
                if event.success
                else f"失敗! {'・'.join(n(c) for c in event.ron_by)}「ロン!」"
            )
            bonus = f"(ベタオリ+{event.bonus})" if event.bonus else ""
            return f"{n(event.character_id)} 振り込み判定{bonus}({difficulty_name(event.difficulty)}) {_f(event.roll.faces)} {res}"
        case ev.TurnEnded():
            return f"{n(event.character_id)} の手番終了"
        case ev.TurnPassed():
            what = "ツモ判定" if event.step == "tsumo" else "行動"
            return f"時間切れ: {n(event.character_id)} の手番を飛ばす（{what}なし）"
        case ev.BattleStarted():
            b = event.battle
            who = "・".join(n(c) for c in (b.defenders or b.fighters))
            return f"{_BATTLE.get(b.kind, b.kind)} 開始: {who}"
        case ev.AttackRolled():
            parts = " ".join(
                f"→{n(r.target)} {r.dice}ダイス{_f(r.roll.faces)}({difficulty_name(r.difficulty)}){'命中' if r.success else '失敗'}"
                + (
                    "サツバツ!"
                    if r.critical == "satsubatsu"
                    else "ナムアミダブツ!"
                    if r.critical
                    else ""
                )
                for r in event.rolls
            )
            return f"{n(event.character_id)} の{_KIND.get(event.kind, event.kind)}{'(範囲)' if event.area else ''} {parts}"
        case ev.EvasionRolled():
            if event.roll is None:
                return f"{n(event.character_id)} は回避しない"
            return f"{n(event.character_id)} 回避判定({difficulty_name(event.difficulty)}) {event.dice}ダイス{_f(event.roll.faces)} {'回避!' if event.success else '失敗'}"
        case ev.CounterKarate():
            return f"{n(event.character_id)} のカウンターカラテ! {n(event.hit.target)} へ1ダメージ"
        case ev.DamageResolved():
            if not event.hit_id:
                return (
                    f"{n(event.target)} は爆発四散! サヨナラ!"
                    if event.status == "exploded"
                    else f"{n(event.target)} は倒れた"
                )
            row = f" サツバツ!({event.row})" if event.row else ""
            state = {"fainted": " 気絶!", "exploded": " 爆発四散!", "dead": " 即死!"}.get(
                event.status, ""
            )
            return f"{n(event.target)} に{event.amount}ダメージ{row} 体力{event.tairyoku}{state}"
        case ev.KnockedOut():
            return f"{n(event.character_id)} 戦闘不能で敗北。持ち点{event.points}を分配: {pts(event.shares)}"
        case ev.BattleEnded():
            if event.kind == "ikusa":
                return f"イクサ終了: 勝者 {n(event.winner)}" if event.winner else "イクサ終了"
            return f"{_BATTLE.get(event.kind, event.kind)} 終了" + (
                f"(ダメージ: {'・'.join(n(c) for c in event.damaged)})" if event.damaged else ""
            )
        case ev.Scored():
            mult = f" ×{event.multiplier}" if event.multiplier > 1 else ""
            return f"{n(event.who)} {_REASON.get(event.reason, event.reason)}{mult}: {pts(event.deltas)}"
        case ev.Ryukyoku():
            return f"流局! 仕切りなおし。次のアガリは×{2**event.draws}"
        case ev.NinjaSlayerChecked():
            if event.roll is None:
                return f"ニンジャ殺すべし判定: {n(event.character_id)} は点数{event.score}(マイナス) 自動成功!"
            res = "成立!" if event.triggered else "不成立"
            return f"ニンジャ殺すべし判定: {n(event.character_id)} 1d6[{event.roll.faces[0]}] > {event.score}/1000? {res}"
        case ev.NinjaSlayerRose():
            tail = "直ちにイクサ!" if event.fight else "イクサ省略"
            return f"「忍」「殺」! {n(event.character_id)} はニンジャスレイヤーとなった! 標的は{n(event.target)}。{tail}"
        case ev.DkkGained():
            return f"{n(event.character_id)} DKK+{event.gained} (1d3[{event.roll.faces[0]}]) → {event.dkk}"
        case ev.ToMove():
            step = {
                "action": "手番の行動",
                "tsumo": "ツモ判定",
                "declare": "リーチ/ダマテン宣言",
                "attack": "攻撃",
                "evade": "回避判定",
            }
            opts = "/".join(m.label for m in event.moves[:8]) + (
                "…" if len(event.moves) > 8 else ""
            )
            return f"▶ {n(event.character_id)} の{step.get(event.step, event.step)}: {opts}"
        case ev.GameEnded():
            rank = " ".join(
                f"{i + 1}位{n(c)}({event.scores.get(c, 0)})" for i, c in enumerate(event.ranking)
            )
            return f"対局終了({_END.get(event.reason, event.reason)}): {rank}"
        case _:
            return None
