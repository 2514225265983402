"""One readable Japanese line per 澱み流れ event (logs, exports, the terminal client).

A hidden event is rendered from what the viewer received: the ``…Notice``
forms name counts only, so no card face reaches a line someone may not see.
"""

from __future__ import annotations

from taku.core import kit
from taku.core.events import Event
from taku.core.table import TableState
from taku_yodomi import events as E
from taku_yodomi.options import YodomiOptions
from taku_yodomi.state import Check

__all__ = ["render"]

_CONDITION = {
    "active": "通常",
    "incapacitated": "戦闘不能",
    "dead": "死亡",
    "flow_death": "流れとしての死",
    "yodomi_life": "澱みとしての生",
    "vanished": "完全消滅",
}
_SCENE = {
    "opening": "オープニング",
    "middle": "ミドル",
    "climax": "クライマックス",
    "ending": "エンディング",
}
_CONVERSION = {
    "success": "成功",
    "full": "完全転換",
    "failure": "失敗",
    "complete_failure": "完全失敗（死亡）",
}


def _n(table: TableState, cid: str | None) -> str:
    return kit.character_name(table, cid) if cid is not None else "—"


def check_line(table: TableState, k: Check) -> str:
    """``名前 命中判定 2D9[3,4]+7 ＞ 14 (難易度12) ＞ 成功``."""
    who = _n(table, k.character_id) if k.character_id else kit.ROLLER
    label = k.label or ("2D9判定" if k.kind == "2d9" else "D99判定")
    if k.no_roll:
        dice = "（振らない）"
    else:
        shown = "→".join(f"[{','.join(str(f % 10) for f in r.faces)}]" for r in k.rolls)
        dice = (
            ("2D9" if k.kind == "2d9" else "D99")
            + shown
            + ("（キーナンバー振り直し）" if k.rerolled else "")
        )
    if k.kind == "2d9":
        parts = f"判定値{k.base}"
        if k.modifier:
            parts += f"{k.modifier:+d}"
        if k.penalty:
            parts += f"-{k.penalty}"
        if k.card_bonus:
            parts += f" 流れ+{k.card_bonus}"
        line = f"{who} {label} {dice} {parts} ＞ 達成値{k.value}"
        if k.difficulty is not None:
            line += f"（難易度{k.difficulty}）"
    else:
        line = f"{who} {label} {dice} ＞ {k.value:02d} (目標値{k.target}未満"
        if k.card_bonus:
            line += f", 流れ+{k.card_bonus}"
        line += ")"
    if k.fumble:
        line += " ＞ ファンブル（自動失敗）"
    elif k.key_critical:
        line += " ＞ キーナンバー・クリティカル（ダイス目30）"
    elif k.critical:
        line += " ＞ クリティカル（自動成功）"
    elif k.success is True:
        line += " ＞ 成功"
    elif k.success is False:
        line += " ＞ 失敗"
    return line


def render(event: Event, table: TableState, options: YodomiOptions | None = None) -> str | None:
    """One Japanese line for a 澱み流れ event (``None`` for events of other kinds); ``options`` unused."""
    n = lambda cid: _n(table, cid)  # noqa: E731
    match event:
        case E.TrailerRead(text=t):
            return f"【トレーラー】{t}"
        case E.HandoutGiven(character_id=c, text=t):
            return f"【ハンドアウト】{n(c)}: {t}"
        case E.CharacterIntroduced(character_id=c, text=t):
            return f"【キャラクター紹介】{n(c)}: {t}"
        case E.KeyNumberRolled(character_id=c, rolls=rolls, variation=v, key_number=k):
            faces = ",".join(str(r.faces[0] % 10) for r in rolls)
            return f"{n(c)} のキーナンバー: 1D9[{faces}] 変動値{v:+d} ＞ {k}"
        case E.SuitChosen(character_id=c, suit=s):
            return f"{n(c)} の「流れ」のスートは {s}"
        case E.DeckShuffled(new_seed=True) | E.DeckShuffledNotice(new_seed=True):
            return "シードが公開されたので、残りの山札を新しいシードで切り直しました"
        case E.DeckShuffled(reshuffle=r) | E.DeckShuffledNotice(reshuffle=r):
            return "捨て札を切り直して山札にしました" if r else "「流れ」の山札（54枚）を切りました"
        case E.CardsDealt(character_id=c, cards=cards):
            return f"{n(c)} に「流れ」{' '.join(cards)} が配られました"
        case E.CardsDealtNotice(character_id=c, count=k):
            return f"{n(c)} に「流れ」が{k}枚配られました"
        case E.CardsGiven(from_character=a, to_character=b, cards=cards):
            return f"{n(a)} が {n(b)} に「流れ」{' '.join(cards)} を渡しました"
        case E.CardsGivenNotice(from_character=a, to_character=b, count=k):
            return f"{n(a)} が {n(b)} に「流れ」を{k}枚渡しました"
        case E.CardsDiscarded(character_id=c, cards=cards, reason=r):
            return f"{n(c)} は「流れ」{' '.join(cards)} を捨てました（{r}）"
        case E.CardsDiscardedNotice(character_id=c, count=k, reason=r):
            return f"{n(c)} は「流れ」を{k}枚捨てました（{r}）"
        case E.CardsPlayed(character_id=c, cards=cards, bonus=b):
            return f"{n(c)} は「流れ」{' '.join(cards)} を使いました（+{b}）"
        case E.CardsPassed(character_id=c):
            return f"{n(c)} はパスしました（「流れ」を出さず、判定の結果が確定）"
        case E.CheckRolled(check=k):
            return check_line(table, k)
        case E.CheckBoosted(check=k):
            return "（流れ適用）" + check_line(table, k)
        case E.ContestResolved(action_value=a, reaction_value=r, winner=w):
            return f"対決: アクション側{a} 対 リアクション側{r} ＞ {'アクション側' if w == 'action' else 'リアクション側'}の勝利"
        case E.ContinuousStarted(continuous=q):
            return (
                f"継続判定開始: 目標ポイント{q.target_points} 能力値【{q.ability}】 制限{q.round_limit}ラウンド"
                + (f" アクシデント: {q.accident}" if q.accident else "")
            )
        case E.ContinuousRolled(
            character_id=c,
            gained=g,
            points=p,
            next_target=t,
            accident_points=lost,
            accident_roll=ar,
            finished=f,
            accident=acc,
        ):
            line = f"継続判定 {n(c)}: +{g}点 ＞ {p}点"
            if ar is not None:
                line += f"（アクシデント: {lost}点減少）"
            elif acc:
                line += f"（ファンブル アクシデント: {acc}）"
            elif t is not None:
                line += f"（続けるなら目標値{t}）"
            return line + (" ＞ 継続判定成功" if f else "")
        case E.ContinuousRoundAdvanced(round=r, finished=f):
            return "継続判定は制限ラウンドを超えて失敗しました" if f else f"継続判定 ラウンド{r}"
        case E.SceneStarted(scene=s, recovered=rec):
            line = f"シーン{s.number}（{_SCENE.get(s.kind, s.kind)}）開始 シーンプレイヤー: {n(s.scene_player)}"
            return line + (f" 【PP】1で復帰: {'、'.join(n(c) for c in rec)}" if rec else "")
        case E.SceneEntered(character_id=c):
            return f"{n(c)} がシーンに登場しました"
        case E.SceneLeft(character_id=c):
            return f"{n(c)} がシーンから退場しました"
        case E.TopicNoted(text=t):
            return f"話題: {t}"
        case E.SceneEnded(number=num, vanished=v):
            return f"シーン{num}終了" + (f" 完全消滅: {'、'.join(n(c) for c in v)}" if v else "")
        case E.BackstageRecovered(character_id=c, roll=r, pp=pp):
            return f"舞台裏 {n(c)}: 2D10[{','.join(map(str, r.faces))}] 【PP】回復 ＞ {pp}"
        case E.BackstageSkillUsed(character_id=c, skill=s):
            return f"舞台裏 {n(c)}: 特技《{s}》"
        case E.PathGained(character_id=c, path=p):
            return f"{n(c)} は「{p.target}」にパスを結びました（感情: {p.emotion}）"
        case E.EmotionChanged(character_id=c, target=t, emotion=e):
            return f"{n(c)} の「{t}」への感情が {e} になりました"
        case E.SceneEndClosed(number=num, final=f):
            return "セッション終了" if f else f"シーン{num}の終了処理が終わりました"
        case E.PurchaseRolled(character_id=c, wealth_spent=w, total=t):
            return f"購入判定 {n(c)}: 財産点{w}点使用 ＞ 購入値{t}まで"
        case E.Damaged(
            character_id=c,
            amount=a,
            attribute=attr,
            halved=h,
            to=to,
            item=item,
            pp=pp,
            sp=sp,
            item_pp=ip,
        ):
            where = f"「{item}」" if to == "item" else ("【SP】" if to == "sp" else "【PP】")
            tail = f"残り{ip}" if to == "item" else f"【PP】{pp} 【SP】{sp}"
            return f"{n(c)} に{a}点のダメージ{'（' + attr + '属性）' if attr else ''}{'（半減）' if h else ''} → {where} {tail}"
        case E.ConditionChanged(character_id=c, condition=s, reason=r):
            return f"{n(c)} は{_CONDITION.get(s, s)}{'（' + r + '）' if r else ''}"
        case E.StatusAdded(character_id=c, status=s, x=x, item=item):
            return f"{n(c)}{'の' + item if item else ''} に[{s}{x or ''}]"
        case E.StatusRemoved(character_id=c, status=s, reason=r):
            return f"{n(c)} の[{s}]が解除されました{'（' + r + '）' if r else ''}"
        case E.ConversionResolved(character_id=c, outcome=o, pp=pp, sp=sp):
            return f"強制転換 {n(c)}: {_CONVERSION.get(o, o)} 【PP】{pp} 【SP】{sp}"
        case E.CostPaid(
            character_id=c,
            pp_paid=pp_paid,
            sp_paid=sp_paid,
            flow_cards=fc,
            pp=pp,
            sp=sp,
            what=w,
            intuition_due=due,
        ):
            paid = "、".join(
                x
                for x in (
                    f"【PP】{pp_paid}" if pp_paid else "",
                    f"【SP】{sp_paid}" if sp_paid else "",
                    f"流れ{fc}枚" if fc else "",
                )
                if x
            )
            return (
                f"{n(c)} は代償{'（' + w + '）' if w else ''}を支払いました: {paid} → 【PP】{pp} 【SP】{sp}"
                + ("（直感把握を行うこと）" if due else "")
            )
        case E.FullConversionDone(character_id=c, amount=a, pp=pp, sp=sp):
            return f"完全転換 {n(c)}: 【SP】を{a}減らし【PP】{pp} 【SP】{sp}"
        case E.DeathChosen(character_id=c, choice=ch):
            return f"{n(c)} は{'流れとしての死' if ch == 'flow' else '澱みとしての生'}を選びました"
        case E.FlagChanged(character_id=c, flag=f, value=v):
            if f == "passenger_of":
                return f"{n(c)} は{n(v) + 'に同乗しました' if isinstance(v, str) else '同乗をやめました'}"
            label = {"flying": "飛行状態", "stealth": "隠密状態"}.get(f, f)
            return f"{n(c)} は{label}{'になりました' if v else 'ではなくなりました'}"
        case E.CombatStarted(combat=cb):
            engs = " / ".join("・".join(n(c) for c in ms) for ms in cb.engagements.values())
            return f"戦闘開始（エンゲージ: {engs}）"
        case E.SetupDone(round=r):
            return f"ラウンド{r} セットアッププロセス"
        case E.ActorChosen(character_id=c):
            return f"メインプロセス: {n(c)}" if c else "クリンナッププロセス"
        case E.Waited(character_id=c):
            return f"{n(c)} は待機しました"
        case E.ActionUsed(character_id=c, action=a, what=w):
            return f"{n(c)} の{'マイナー' if a == 'minor' else 'メジャー'}アクション{': ' + w if w else ''}"
        case E.CleanupDone(round=r):
            return f"ラウンド{r} 終了"
        case E.CombatEnded(rounds=r):
            return f"戦闘終了（{r}ラウンド）"
        case E.Moved(character_id=c, engagement=eid, disengage=d):
            return f"{n(c)} は{'離脱しました' if d else f'エンゲージ{eid}に移動しました'}"
        case E.DisengageFailed(character_id=c, blocker=b):
            return f"{n(c)} は {n(b)} の封鎖を抜けられませんでした"
        case E.Blocked(character_id=c):
            return f"{n(c)} はエンゲージを封鎖しました"
        case E.AttackDeclared(attack=a):
            return f"{n(a.attacker)} が {n(a.target)} を攻撃（達成値{a.hit.value}）"
        case E.Covered(character_id=c):
            return f"{n(c)} がかばいました"
        case E.AttackResolved(winner=w, countered=ct, fumble=f):
            if f:
                return "攻撃はファンブル（命中せず）"
            return (
                "命中しました"
                if w == "attacker"
                else ("突き返しました" if ct else "攻撃を防ぎました")
            )
        case _:
            return None
