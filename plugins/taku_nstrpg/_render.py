"""Readable Japanese lines for nstrpg events (logs, exports, the terminal client)."""

from __future__ import annotations

from taku.core.events import Event
from taku.core.kit import character_name
from taku.core.table import TableState
from taku_nstrpg import events as ev
from taku_nstrpg._evolve import sheet_of
from taku_nstrpg.checks import difficulty_name
from taku_nstrpg.combat import BUILTIN_WEAPONS, STYLES
from taku_nstrpg.map_render import render_map
from taku_nstrpg.options import NsOptions
from taku_nstrpg.satsubatsu import NAMU, SATSUBATSU
from taku_nstrpg.state import STAT_NAMES
from taku_nstrpg.turn_end import EffectsResolved

__all__ = ["render"]

_STATUS = {
    "active": "",
    "fainted": "気絶状態",
    "exploded": "爆発四散!",
    "removed": "戦闘不能",
    "dead": "即死!",
}
_CRIT = {SATSUBATSU: "サツバツ!", NAMU: "ナムアミダブツ!", "": ""}
_FIELDS = {
    "status": "状態",
    "ability_damage": "能力値ダメージ",
    "injuries": "●部位損傷",
    "injury_penalty": "部位損傷ペナルティ",
    "quick_dice": "即応ダイス",
    "emergency_dice": "緊急回避ダイス",
    "evasion_dice": "回避ダイス",
    "kuzure": "崩れ状態",
    "shuchu": "集中状態",
    "sokuten": "連続側転",
    "adrenaline_used": "アドレナリン・ブースト使用済み",
    "adrenaline_evasion": "アドレナリン・ブースト(回避)",
    "sixth_sense_used": "ニンジャ第六感使用済み",
    "equipped": "装備",
    "looted": "回収済み",
    "boosts": "一時的な能力値修正",
}
_ATM = {"normal": "通常", "hard": "ハードモード", "ultra_hard": "ウルトラハードモード"}


def _n(table: TableState, cid: str | None) -> str:
    return "環境" if cid is None else character_name(table, cid)


def _weapon_name(table: TableState, cid: str, weapon: str) -> str:
    """A weapon's name (カタナ, or a sheet's own weapon's), not its id; the id when unknown."""
    ch = table.characters.get(cid)
    carried = sheet_of(ch.sheet).carried() if ch is not None else []
    for w in (*carried, *BUILTIN_WEAPONS.values()):
        if w.id == weapon:
            return w.name or weapon
    return weapon


def _faces(faces: tuple[int, ...]) -> str:
    return ",".join(map(str, faces)) or "-"


def render(event: Event, table: TableState, options: NsOptions | None = None) -> str | None:
    """One Japanese line for an nstrpg event, ``None`` for others (``options`` unused: no rule changes a line)."""
    n = lambda cid: _n(table, cid)  # noqa: E731
    match event:
        case ev.CheckRolled():
            what = event.label or f"{STAT_NAMES.get(event.stat, event.stat)}判定"
            quick = f" 即応ダイス{event.quick_dice}" if event.quick_dice else ""
            re = "[第六感で振り直し] " if event.reroll_of else ""
            pats = "".join(f" {p}:{'成立' if ok else '不成立'}" for p, ok in event.patterns.items())
            return (
                f"{re}{n(event.character_id)} {what}:{difficulty_name(event.difficulty)} "
                f"({event.pool}個{quick}) ＞ {_faces(event.roll.faces)} ＞ 成功数{event.successes} "
                f"{'成功' if event.success else '失敗'}{pats}"
            )
        case ev.OpposedRolled():
            sides = " / ".join(
                f"{n(s.character_id)} {_faces(s.roll.faces)}={s.successes}成功" for s in event.sides
            )
            win = f"{n(event.winner)}の勝ち(差{event.margin})" if event.winner else "引き分け"
            return f"対抗判定:{difficulty_name(event.difficulty)} {sides} ＞ {win}"
        case ev.AttackRolled():
            kind = "近接攻撃" if event.kind == "melee" else "射撃"
            style = f"『{STYLES[event.style].name}』" if event.style in STYLES else ""
            parts = []
            # an area attack names everyone in the area, on a failed roll too (``area``;
            # logs before it carry only the hits)
            area = list(event.area) or [h.target for h in event.hits if h.area]
            for r in event.rolls:
                if area or r.target == event.attacker:  # ◉ヘルタツマキ: everyone in the area
                    faces = _faces(r.roll.faces) if r.roll else "-"
                    who = "、".join(dict.fromkeys(n(k) for k in area)) or "対象なし"
                    parts.append(
                        f"→範囲内（{who}） {r.dice}個:{difficulty_name(r.difficulty)} {faces} "
                        f"成功数{r.successes} {'成功' if r.success else '失敗'}"
                    )
                    continue
                if r.auto:
                    parts.append(f"→{n(r.target)} 自動成功(気絶)")
                    continue
                faces = _faces(r.roll.faces) if r.roll else "-"
                crit = f" {_CRIT[r.critical]}" if r.critical else ""
                parts.append(
                    f"→{n(r.target)} {r.dice}個:{difficulty_name(r.difficulty)} {faces} 成功数{r.successes}"
                    f" {'命中' if r.success else '失敗'}{crit}"
                )
            return f"{n(event.attacker)} の{kind}{style}: " + " / ".join(parts)
        case ev.AttackRerolled(roll=r):
            faces = _faces(r.roll.faces) if r.roll else "-"
            return f"[第六感] {n(event.attacker)} の攻撃{r.index + 1}を振り直し ＞ {faces} 成功数{r.successes} {'命中' if r.success else '失敗'}"
        case ev.EvasionRolled():
            if event.roll is None:
                return f"{n(event.defender)} は回避せずに受ける"
            em = f" 緊急回避ダイス{event.emergency_dice}" if event.emergency_dice else ""
            ad = " アドレナリン・ブースト!" if event.adrenaline else ""
            group = f"(まとめて{len(event.hits)}発)" if len(event.hits) > 1 else ""
            if event.first is not None:
                ad += f" ＞ {_faces(event.first.faces)} 失敗 ＞ [第六感で振り直し]"
            return (
                f"{n(event.defender)} の回避判定{group}:{difficulty_name(event.difficulty)} {event.dice}個{em}{ad} "
                f"＞ {_faces(event.roll.faces)} ＞ 成功数{event.successes} {'回避成功!' if event.success else '回避失敗'}"
            )
        case ev.CounterKarate():
            return f"カウンターカラテ! {n(event.defender)} → {n(event.target)} に1ダメージ(回避:NORMAL)"
        case ev.DamageResolved():
            bits = []
            if event.critical:
                bits.append(_CRIT[event.critical])
            if event.row:
                bits.append(f"サツバツ表{event.row}")
            if event.instant_death:
                return f"{n(event.target)} に『即死!』 " + " ".join(bits)
            tsuda = f"+痛打{event.tsuda}" if event.tsuda else ""
            red = f"-軽減{event.reduction}" if event.reduction else ""
            extra = []
            for k, v in event.ability_damage.items():
                extra.append(f"{STAT_NAMES.get(k, k)}ダメージ{v}")
            if event.injury:
                extra.append(f"●部位損傷:{event.injury}")
            if event.knockback:
                extra.append(f"弾き飛ばし{event.knockback}マス")
            if event.seishin_spent:
                extra.append(f"ニンジャ耐久力で精神力{event.seishin_spent}消費")
            state = _STATUS.get(event.status, event.status)
            note = f"({event.note})" if event.note else ""
            return (
                f"{n(event.target)} に{event.amount}ダメージ({event.base}{tsuda}{red}) {' '.join(bits)} "
                f"{' '.join(extra)} ＞ 体力{event.tairyoku} 精神力{event.seishin} {state}{note}"
            ).replace("  ", " ")
        case ev.BarrageDeclared():
            return f"弾幕発生! {event.total}ダメージ ÷{event.divisor} ＞ {event.hit.damage}ダメージ1発(回避難易度+{event.hit.evasion_plus})"
        case ev.HitInflicted(hit=h):
            dodge = f"回避:{difficulty_name(h.evasion_base)}" if h.evadable else "回避不可"
            return f"{n(h.target)} に{h.damage}ダメージが迫る({dodge}){' ' + event.reason if event.reason else ''}"
        case ev.HitOverridden():
            return f"GM: 攻撃{event.hit_id}を{'取り消し' if event.hit is None else '変更'}{'(' + event.reason + ')' if event.reason else ''}"
        case ev.TurnBegan():
            held = (
                f" 武器:{_weapon_name(table, event.character_id, event.equip)}"
                if event.equip
                else ""
            )
            return f"{n(event.character_id)} の手番開始{' 集中状態!' if event.shuchu else ''}{held}"
        case ev.TurnEndedFor():
            return f"{n(event.character_id)} の手番終了"
        case ev.PhaseEnded():
            return "フェイズ終了"
        case ev.CombatStarted():
            return "戦闘シーケンス開始!"
        case ev.TurnStarted(turn=t):
            return f"ターン{t} 開始: 回避ダイスをリセット"
        case EffectsResolved(turn=t, ended=ended):
            done = "、".join(ended)
            return f"ターン{t} 終了フェイズ: 継続系の効果を処理{'（終了: ' + done + '）' if done else ''}"
        case ev.TurnEnded(turn=t, atmosphere=a, wasshoi_due=due):
            return f"ターン{t} 終了(アトモスフィア:{_ATM.get(a, a)}){' Wasshoi!判定の時だ' if due else ''}"
        case ev.CombatEnded(revived=revived, money=money):
            rv = "、".join(n(c) for c in revived)
            return f"戦闘終了。{('蘇生: ' + rv + ' ') if rv else ''}万札プール+{money}"
        case ev.ScenarioStarted(scenario=s):
            return f"シナリオ{s} 開始"
        case ev.ScenarioEnded(scenario=s, shares=shares):
            return f"シナリオ{s} 終了: 能力値ダメージ回復、即応ダイスと緊急回避ダイスはリセット" + (
                f"、万札山分け{sum(shares.values())}" if shares else ""
            )
        case ev.DkkGained():
            return f"{n(event.character_id)} 【DKK】{event.amount:+d} ＞ {event.after}{' ' + event.reason if event.reason else ''}"
        case ev.WasshoiRolled():
            d1, d2 = event.roll.faces
            if not event.success:
                return (
                    f"Wasshoi!判定(2D6) ＞ ({d1}+{d2}) ＞ {event.total}(>{event.target}) 判定失敗"
                )
            return f"Wasshoi!判定(2D6) ＞ ({d1}+{d2}) ＞ {event.total}(<={event.target}) 判定成功!! ニンジャスレイヤー=サンのエントリーだ!! エントリー表{event.entry_row}"
        case ev.EntryRerolled(row=row, chosen=chosen):
            return f"死神のエントリー決定表: {'マスターが決定' if chosen else '振り直し'} ＞ {row}"
        case ev.ValueAdjusted():
            return f"GM変更: {n(event.character_id)} {_FIELDS.get(event.field, STAT_NAMES.get(event.field, event.field))} {event.previous} → {event.value}{'(理由: ' + event.reason + ')' if event.reason else ''}"
        case _:
            return render_map(event, n)
