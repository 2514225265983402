"""Pre-play, scenes, 舞台裏, パス, the 流れ adjustment and purchases.

澱み流れ シーンルール, “流れ”ルール ▼パスとパス上限, アイテム・サービスの購入
(CHECKLIST YD-22, YD-24, YD-71 … YD-77, G-YD-02, G-YD-05, G-YD-14, G-YD-16).
"""

from __future__ import annotations

from taku.core.ruleset import Context, Emitted
from taku.core.table import TableState
from taku_yodomi import commands as C
from taku_yodomi._checks import d9
from taku_yodomi._common import (
    char,
    check,
    discard,
    game_of,
    name,
    parse_cards,
    reject,
    require_in_hand,
    sheet,
    suit_ok,
)
from taku_yodomi.events import (
    BackstageRecovered,
    BackstageSkillUsed,
    CharacterIntroduced,
    CombatEnded,
    EmotionChanged,
    HandoutGiven,
    KeyNumberRolled,
    PathGained,
    PurchaseRolled,
    SceneEndClosed,
    SceneEnded,
    SceneEntered,
    SceneLeft,
    SceneStarted,
    SuitChosen,
    TopicNoted,
    TrailerRead,
)
from taku_yodomi.state import CharState, Condition, Game, Path, Phase, Scene, SceneKind

S_PRE = "澱み流れ ＜プリプレイ＞"
S_SCENE = "澱み流れ シーンルール"
S_BACK = "澱み流れ ▼舞台裏"
S_PATH = "澱み流れ ▼パスとパス上限"
S_BUY = "澱み流れ アイテム・サービスの購入"
MAX_TEXT = 2000


def _text(t: str) -> str:
    t = t.strip()
    if not t or len(t) > MAX_TEXT:
        reject("bad_text", f"1〜{MAX_TEXT}文字で書いてください", "澱み流れ")
    return t


def pcs(table: TableState, game: Game) -> list[str]:
    return [cid for cid, c in game.chars.items() if c.side == "pc" and cid in table.characters]


# --------------------------------------------------------------------------- pre-play


def read_trailer(table: TableState, cmd: C.ReadTrailer, ctx: Context) -> list[Emitted]:
    return [TrailerRead(text=_text(cmd.text))]


def give_handout(table: TableState, cmd: C.GiveHandout, ctx: Context) -> list[Emitted]:
    char(table, cmd.character_id)
    return [HandoutGiven(character_id=cmd.character_id, text=_text(cmd.text))]


def introduce(table: TableState, cmd: C.Introduce, ctx: Context) -> list[Emitted]:
    char(table, cmd.character_id)
    return [CharacterIntroduced(character_id=cmd.character_id, text=_text(cmd.text))]


def roll_key_number(table: TableState, cmd: C.RollKeyNumber, ctx: Context) -> list[Emitted]:
    """1D9 moved by the 変動値; a result that is no key number (not 1-9) is rolled again (YD-71)."""
    c = char(table, cmd.character_id)
    if c.key_number is not None:
        reject(
            "key_number_set",
            "キーナンバーはもう決まっています（GMは override で変えられます）",
            S_PRE,
        )
    v = int(table.characters[cmd.character_id].sheet.get("variation", 0) or 0)
    if not -8 <= v <= 9:
        reject("bad_variation", f"変動値 {v} ではキーナンバーが1〜9になりません", S_PRE)
    rolls = []
    while True:
        r = ctx.dice.roll(1, 10)
        rolls.append(r)
        key = d9(r.faces[0]) + v
        if 1 <= key <= 9:
            break
    return [
        KeyNumberRolled(
            character_id=cmd.character_id, rolls=tuple(rolls), variation=v, key_number=key
        )
    ]


def choose_suit(table: TableState, cmd: C.ChooseSuit, ctx: Context) -> list[Emitted]:
    """Each PC's 流れ suit; shared suits only with five or more PCs (YD-71)."""
    c = char(table, cmd.character_id)
    game = game_of(table)
    suit = suit_ok(cmd.suit)
    if c.suit is not None:
        reject("suit_set", "スートはもう決まっています", S_PRE)
    players = pcs(table, game)
    if len(players) < ctx.options.shared_suits_from:
        for other in players:
            if other != cmd.character_id and game.chars[other].suit == suit:
                reject(
                    "suit_taken",
                    f"{suit} は {name(table, other)} のスートです（5人以上なら重複できます）",
                    S_PRE,
                )
    return [SuitChosen(character_id=cmd.character_id, suit=suit)]


# --------------------------------------------------------------------------- scenes


def start_scene(table: TableState, cmd: C.StartScene, ctx: Context) -> list[Emitted]:
    """A scene and its scene player (YD-72, YD-73). An opening shows one PC only.
    Characters 戦闘不能 at the end of the last scene come back with 【PP】1 (YD-48)."""
    game = game_of(table)
    if game.phase not in (Phase.PREPLAY, Phase.BETWEEN):
        reject("scene_running", "前のシーンが終わっていません", S_SCENE)
    char(table, cmd.scene_player)
    present = list(dict.fromkeys([cmd.scene_player, *cmd.present]))
    for cid in present:
        c = char(table, cid)
        if c.condition in (Condition.VANISHED, Condition.FLOW_DEATH):
            reject("not_in_play", f"{name(table, cid)} はもう登場できません", S_SCENE)
    kind = SceneKind(cmd.kind)
    if kind == SceneKind.OPENING and sum(1 for cid in present if game.chars[cid].side == "pc") > 1:
        reject("opening_one_pc", "オープニングシーンに登場するPCは一人です", S_SCENE)
    recovered = tuple(
        cid
        for cid, c in game.chars.items()
        if c.recover_next_scene and c.condition == Condition.INCAPACITATED
    )
    scene = Scene(
        number=game.scene_count + 1, kind=kind, scene_player=cmd.scene_player, present=present
    )
    return [SceneStarted(scene=scene, recovered=recovered)]


def _scene(game: Game) -> Scene:
    if game.phase != Phase.SCENE or game.scene is None:
        reject("no_scene", "シーン中ではありません", S_SCENE)
    return game.scene


def _path_targets_present(table: TableState, game: Game, cid: str, scene: Scene) -> bool:
    here = set(scene.present) | {
        table.characters[p].name for p in scene.present if p in table.characters
    }
    return any(p.target in here for p in game.chars[cid].paths)


def enter_scene(table: TableState, cmd: C.EnterScene, ctx: Context) -> list[Emitted]:
    """登場判定: D99 against current 【PP】 (no equipment modifiers); +20 when a パス
    target is in the scene (YD-74). 流れ may raise the target (YD-26). 転倒/放心/極技
    still take 10 each (あらゆる判定, YD-55, YD-58, YD-61); 水中's armour value does not."""
    cid = cmd.character_id
    c = char(table, cid)
    game = game_of(table)
    scene = _scene(game)
    if cid in scene.present:
        reject("already_present", "もう登場しています", S_SCENE)
    if scene.kind == SceneKind.OPENING and c.side == "pc":
        reject("opening_one_pc", "オープニングシーンには他のPCは登場しません", S_SCENE)
    if c.condition in (Condition.VANISHED, Condition.FLOW_DEATH, Condition.DEAD):
        reject("not_in_play", "登場できません", S_SCENE)
    bonus = ctx.options.entry_path_bonus if _path_targets_present(table, game, cid, scene) else 0
    k, out = check(
        table,
        ctx,
        cid,
        kind="d99",
        base=c.pp + bonus,
        modifier=cmd.modifier,
        key_reroll=cmd.key_reroll,
        purpose="entry",
        label="登場判定",
        cards=cmd.cards,
        armour_penalty=False,
    )
    if k.success:
        out.append(SceneEntered(character_id=cid, check_id=k.check_id))
    return out


def leave_scene(table: TableState, cmd: C.LeaveScene, ctx: Context) -> list[Emitted]:
    """Leaving; when the scene player leaves, the scene ends (YD-73)."""
    char(table, cmd.character_id)
    game = game_of(table)
    scene = _scene(game)
    if cmd.character_id not in scene.present:
        reject("not_present", "シーンに登場していません", S_SCENE)
    out: list[Emitted] = [SceneLeft(character_id=cmd.character_id)]
    if cmd.character_id == scene.scene_player:
        out += _end(table, game, ctx)
    return out


def note_topic(table: TableState, cmd: C.NoteTopic, ctx: Context) -> list[Emitted]:
    _scene(game_of(table))
    return [TopicNoted(text=_text(cmd.text)[:200])]


def end_scene(table: TableState, cmd: C.EndScene, ctx: Context) -> list[Emitted]:
    game = game_of(table)
    _scene(game)
    return _end(table, game, ctx)


def _end(table: TableState, game: Game, ctx: Context) -> list[Emitted]:
    """The scene ends: 毒 ends (YD-56), the dead vanish (YD-50) and drop their 流れ (YD-53)."""
    assert game.scene is not None, "_end is called inside a scene"
    out: list[Emitted] = []
    if game.combat is not None:
        out.append(CombatEnded(rounds=game.combat.round))
    vanished = tuple(cid for cid, c in game.chars.items() if c.condition == Condition.DEAD)
    for cid in vanished:
        if game.hands.get(cid):
            out.append(discard(table, ctx, cid, game.hands[cid], "完全消滅"))
    poisoned = tuple(cid for cid, c in game.chars.items() if "毒" in c.statuses)
    out.append(SceneEnded(number=game.scene.number, vanished=vanished, poison_cleared=poisoned))
    return out


def _scene_end(game: Game) -> None:
    if game.phase != Phase.SCENE_END:
        reject("not_scene_end", "シーン終了時の処理ではありません", S_SCENE)


def backstage(table: TableState, cmd: C.Backstage, ctx: Context) -> list[Emitted]:
    """舞台裏: 【PP】 +2D10 (faces 1-10, G-YD-02) for a PC absent from the scene (YD-75)."""
    cid = cmd.character_id
    c = char(table, cid)
    game = game_of(table)
    _backstage_ok(game, c, "recover")
    r = ctx.dice.roll(2, 10)
    pp = c.pp + r.total
    if ctx.options.backstage_cap:
        pp = min(pp, max(c.max_pp, c.pp))
    return [BackstageRecovered(character_id=cid, roll=r, pp=pp)]


def _backstage_ok(game: Game, c: CharState, what: str) -> None:
    """舞台裏 is for PCs absent from the scene, before the パス step (YD-75, YD-76)."""
    _scene_end(game)
    if c.in_scene or c.appeared:
        # YD-75: a PC that appeared and left (the scene player too) did appear in the scene
        reject("was_in_scene", "舞台裏はシーンに登場しなかったPCが行います", S_BACK)
    if c.side != "pc" or c.condition in (Condition.DEAD, Condition.VANISHED, Condition.FLOW_DEATH):
        reject("no_backstage", "このキャラクターは舞台裏を行えません", S_BACK)
    if c.path_done or c.emotion_done or c.cut_done:
        reject("too_late", "舞台裏はパスの獲得より前に行います", S_BACK)
    if what == "recover" and c.backstage_recovered:
        reject("backstage_done", "舞台裏での【PP】回復はもう行いました", S_BACK)


def backstage_skill(table: TableState, cmd: C.BackstageSkill, ctx: Context) -> list[Emitted]:
    c = char(table, cmd.character_id)
    game = game_of(table)
    _backstage_ok(game, c, "skill")
    if c.backstage_skill_done:
        reject("skill_used", "舞台裏での特技の使用は一度だけです", S_BACK)
    return [BackstageSkillUsed(character_id=cmd.character_id, skill=_text(cmd.skill)[:200])]


def gain_path(table: TableState, cmd: C.GainPath, ctx: Context) -> list[Emitted]:
    """A new パス at scene end, after 舞台裏 (YD-22): one per scene end, at most 7; a
    thing or idea only if it was talked about in the scene."""
    cid = cmd.character_id
    c = char(table, cid)
    game = game_of(table)
    _scene_end(game)
    if c.path_done:
        reject("path_done", "このシーンではもうパスを結びました", S_PATH)
    if c.cut_done:
        reject("too_late", "パスは「流れ」の調整より前に結びます", S_PATH)
    if len(c.paths) >= ctx.options.max_paths:
        reject("too_many_paths", f"パスは{ctx.options.max_paths}つまでです", S_PATH)
    target = cmd.target.strip()
    is_char = target in table.characters or any(
        ch.name == target for ch in table.characters.values()
    )
    if not is_char:
        topics = game.scene.topics if game.scene is not None else []
        if target not in topics:
            reject(
                "not_talked_about",
                "キャラクター以外にパスを結ぶには、シーン中に話題に出ている必要があります",
                S_PATH,
            )
    if any(p.target == target for p in c.paths):
        reject("path_exists", "その対象とはもうパスを結んでいます", S_PATH)
    return [
        PathGained(
            character_id=cid,
            path=Path(target=target, emotion=_text(cmd.emotion)[:100], character=is_char),
        )
    ]


def change_emotion(table: TableState, cmd: C.ChangeEmotion, ctx: Context) -> list[Emitted]:
    c = char(table, cmd.character_id)
    game = game_of(table)
    _scene_end(game)
    if c.emotion_done:
        reject("emotion_done", "感情の変更は一回のパス獲得タイミングに一つだけです", S_PATH)
    if c.cut_done:
        reject("too_late", "感情は「流れ」の調整より前に変えます", S_PATH)
    if not any(p.target == cmd.target for p in c.paths):
        reject("no_path", "その対象とはパスを結んでいません", S_PATH)
    return [
        EmotionChanged(
            character_id=cmd.character_id, target=cmd.target, emotion=_text(cmd.emotion)[:100]
        )
    ]


def cut_hand(table: TableState, cmd: C.CutHand, ctx: Context) -> list[Emitted]:
    """After the パス step, a hand over the number of パス drops the excess, chosen by
    the player (YD-24, G-YD-14)."""
    cid = cmd.character_id
    c = char(table, cid)
    game = game_of(table)
    _scene_end(game)
    cards = parse_cards(cmd.cards)
    require_in_hand(game, cid, cards)
    hand = game.hands.get(cid, [])
    excess = len(hand) - len(c.paths)
    if excess <= 0:
        reject("within_limit", "手札はパスの数以内です", S_PATH)
    if len(cards) != excess:
        reject("wrong_count", f"パスの数を超えた{excess}枚を選んで捨ててください", S_PATH)
    return [discard(table, ctx, cid, cards, "手札調整")]


def close_scene_end(table: TableState, cmd: C.CloseSceneEnd, ctx: Context) -> list[Emitted]:
    game = game_of(table)
    _scene_end(game)
    over = [
        cid
        for cid in pcs(table, game)
        if game.chars[cid].condition not in (Condition.FLOW_DEATH,)
        and len(game.hands.get(cid, [])) > len(game.chars[cid].paths)
    ]
    if over:
        names = "、".join(name(table, cid) for cid in over)
        reject("hand_over_limit", f"手札がパスの数を超えています: {names}", S_PATH)
    return [SceneEndClosed(number=game.scene_count, final=cmd.final)]


# --------------------------------------------------------------------------- purchases


def purchase(table: TableState, cmd: C.Purchase, ctx: Context) -> list[Emitted]:
    """購入判定 (YD-77, G-YD-16): a 2D9 【社会】 check; 財産点 raise the 達成値, at most
    【社会】 per check; once a scene, and once in 舞台裏."""
    cid = cmd.character_id
    c = char(table, cid)
    game = game_of(table)
    social = int(sheet(table, cid).get("social", 0) or 0)  # YodomiSheet: 【社会】 defaults to 0
    if cmd.backstage:
        _backstage_ok(game, c, "purchase")
        if c.backstage_purchase_done:
            reject("purchase_done", "舞台裏での購入判定は一回だけです", S_BUY)
    else:
        scene = _scene(game)
        if cid not in scene.present:
            reject("not_present", "シーンに登場していません", S_BUY)
        if c.last_purchase_scene == game.scene_count:
            reject("purchase_done", "購入判定は1シーンにつき1回です", S_BUY)
    if cmd.wealth < 0:
        reject("bad_wealth", "使う財産点は0以上です", S_BUY)
    if cmd.wealth > social:
        reject("too_much_wealth", f"一度に使える財産点は【社会】({social})までです", S_BUY)
    if cmd.wealth > c.wealth:
        reject("not_enough_wealth", f"財産点が足りません（{c.wealth}点）", S_BUY)
    k, out = check(
        table,
        ctx,
        cid,
        kind="2d9",
        base=social,
        modifier=cmd.modifier,
        key_reroll=cmd.key_reroll,
        purpose="purchase",
        label="購入判定",
        cards=cmd.cards,
    )
    total = 0 if k.fumble else k.value + cmd.wealth
    out.append(
        PurchaseRolled(
            character_id=cid,
            check_id=k.check_id,
            wealth_spent=cmd.wealth,
            wealth=c.wealth - cmd.wealth,
            total=total,
            backstage=cmd.backstage,
        )
    )
    return out
