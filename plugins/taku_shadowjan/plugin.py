"""Registration of the `shadowjan` ruleset (hookimpls only, no logic)."""

from __future__ import annotations

from taku.core.ruleset import Ruleset
from taku.hookspecs import hookimpl
from taku_nstrpg.dice import dice_chat
from taku_nstrpg.templates import TEMPLATES as NS_TEMPLATES
from taku_shadowjan._evolve import evolve
from taku_shadowjan._render import render
from taku_shadowjan.commands import COMMANDS
from taku_shadowjan.decider import decide, on_timer
from taku_shadowjan.dice import chat
from taku_shadowjan.events import EVENTS
from taku_shadowjan.options import SjOptions
from taku_shadowjan.palette import palette
from taku_shadowjan.play import affordances, turn
from taku_shadowjan.state import SjGame, SjSheet
from taku_shadowjan.view import view

__all__ = ["ERRORS", "RULESET", "taku_ruleset"]

ERRORS: dict[str, str] = {
    "secret_move": "対局の手はシークレットにできない（全員に見える手番の進行）",
    "not_started": "対局はまだ始まっていない",
    "game_over": "対局は終了している",
    "not_your_move": "いまはそのキャラクターの番ではない",
    "expected_action": "いまは手番の行動の番",
    "expected_tsumo": "いまはツモ判定の番（宣言した者の手番はツモ判定だけ）",
    "expected_declare": "いまはリーチ/ダマテン宣言の番",
    "expected_attack": "いまは攻撃の番",
    "expected_evade": "いまは回避判定の番",
    "already_started": "対局はもう始まっている",
    "already_seated": "すでに着席している",
    "table_full": "卓は4人まで",
    "bad_sheet": "ニンジャスレイヤーTRPGのキャラクターシートが必要",
    "forbidden_equipment": "基本ルールで禁じられた装備・スキルがある",
    "not_enough_players": "2人以上で遊ぶ",
    "not_seated": "着席したプレイヤーだけが開始できる",
    "no_tenho": "テンホー・チーホーは配牌で5メンツの者が最初の手番にだけ宣言できる",
    "betaori_below_zero": "メンツが0を下回るベタオリはできない",
    "bad_split": "ダイスの分け方が判定の回数に合わない",
    "pool_too_small": "ダイスが足りず判定に分けられない",
    "too_many_dice": "ダイスが足りない",
    "ikasama_cap": "強化イカサマの難易度はUH3まで",
    "stick_needs_riichi": "リーチ棒を投げられるのはリーチ宣言の時だけ",
    "bad_stick_target": "リーチ棒は卓についている他のキャラクターへ",
    "no_guns": "銃火器はロン回避判定でだけ、持っていれば使える",
    "no_jitsu": "ジツを持っていない",
    "forbidden_weapon": "近接武器は使えない（バイオサイバネのみ）",
    "weapon_not_carried": "その武器を持っていない",
    "area_jitsu_only": "範囲攻撃はジツで",
    "no_target": "攻撃の対象がない",
    "bad_target": "攻撃の対象ではない",
    "no_attack": "攻撃がない",
    "empty_attack": "ダイスのない攻撃がある",
    "too_many_attacks": "攻撃回数が多すぎる",
    "single_target": "複数の対象に割り振れない",
    "no_evasion_dice": "回避ダイスが足りない",
    "timeout_pass_off": "時間切れで手番を飛ばすオプションがオフ（時間切れは記録だけ）",
    "nothing_to_pass": "飛ばせる手番がない（宣言やイクサの途中は待つ）",
    "not_their_turn": "タイマーのキャラクターの手番ではない",
}
"""Every ``rule/shadowjan/<reason>`` the ruleset raises, with its meaning."""

RULESET = Ruleset[SjGame, SjOptions](
    id="shadowjan",
    name="シャドー・ジャン2",
    version="1.0",
    commands=COMMANDS,
    events=EVENTS,
    initial_state=lambda options: SjGame(),
    decide=decide,
    evolve=evolve,
    view=view,
    options=SjOptions,
    sheet=SjSheet,
    state=SjGame,
    chat=chat,
    chat_dice=dice_chat,  # its NinjaSlayer2 dice lines, read again by taku verify
    render=render,
    affordances=affordances,
    turn=turn,
    summary="ニンジャスレイヤーTRPGの判定と攻撃で打つ麻雀。配牌からテンホー・チーホー戦、リーチ棒、振り込み、ロン回避判定、流局、ニンジャ殺すべし、最終順位までサーバーが進める",
    errors=ERRORS,
    sheet_templates=NS_TEMPLATES,
    on_timer=on_timer,
    palette=palette,
)


@hookimpl
def taku_ruleset() -> Ruleset[SjGame, SjOptions]:
    return RULESET
