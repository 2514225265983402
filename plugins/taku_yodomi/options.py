"""Table options of 澱み流れ: house rules and the defaults for gaps in the text (CHECKLIST 2.YD).

Every field has a default; the GM sets others when creating the table
(``create_table.options``). docs/rulesets/yodomi.md lists them.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec

from taku.core.commands import field

__all__ = ["YodomiOptions", "YodomiSheet"]


class YodomiOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """House rules and gap defaults.

    No bounds beyond the types: ``table_created`` is parsed again on every replay, so
    a value an earlier version accepted must still load.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="澱み流れの卓のオプション",
        description="ハウスルールと、ルールブックに書かれていない点の既定値",
    )

    gm_sees_hands: Annotated[
        bool,
        field("GMが手札を見る", "GMにもプレイヤーの「流れ」の手札の表を見せる（既定: 枚数だけ）"),
    ] = False
    """Whether GMs see the faces of players' 流れ hands. Default: no, the GM sees counts only."""
    key_critical: Annotated[
        Literal["key_double", "rerolled"],
        field(
            "キーナンバー・クリティカル",
            "key_double（キーナンバーのゾロ目がダイス目30）/ rerolled（キーナンバーの振り直しで出たゾロ目がダイス目30）",
        ),
    ] = "key_double"
    """G-YD-04: which doubles count as a roll of 30. ``key_double``: a double of the
    key number itself (key 7, 7-7); ``rerolled``: any double made by the key-number reroll."""
    key_critical_bonus: Annotated[
        bool, field("クリティカルの+10も加える", "ダイス目30にさらにクリティカルの+10を加える")
    ] = False
    """G-YD-04: whether the critical +10 is added on top of the 30 (default: no)."""
    accident_dice: Annotated[
        int, field("アクシデントのダイス数", "継続判定の既定のアクシデントで失うポイント（このD9）")
    ] = 1
    """YD-18: the default accident of a 継続判定 loses ``accident_dice``D9 points (G-YD-19: floor 0)."""
    backstage_cap: Annotated[
        bool, field("舞台裏の回復上限", "舞台裏での【PP】回復をシートの【PP】までにする")
    ] = True
    """YD-75: 舞台裏 recovery stops at the sheet's 【PP】 (the character's maximum)."""
    max_paths: Annotated[int, field("パスの上限")] = 7
    """YD-22: at most 7 パス."""
    shared_suits_from: Annotated[
        int, field("スートを重複できる人数", "PCがこの人数以上ならスートを重複できる")
    ] = 5
    """YD-71: suits may be shared once this many PCs play."""
    flow_death_cards: Annotated[
        int, field("流れとしての死の「流れ」", "流れとしての死で配られる枚数")
    ] = 5
    """YD-51: 流れとしての死 gives this many 流れ."""
    yodomi_life_sp: Annotated[
        int, field("澱みとしての生の【SP】", "澱みとしての生で得る【SP】")
    ] = 200
    """YD-52, G-YD-21: 澱みとしての生 gains this much 【SP】."""
    entry_path_bonus: Annotated[
        int, field("登場判定のパス修正", "パスの対象がシーンにいるときの登場判定の修正")
    ] = 20
    """YD-74: +20 to 登場判定 when a パス target is in the scene."""
    called_shot_penalty: Annotated[int, field("武器狙いの修正", "武器狙いで命中判定から引く値")] = (
        20
    )
    """YD-70: 武器狙い -20."""
    ambush_reaction_penalty: Annotated[
        int, field("不意打ちの修正", "不意打ちへのリアクションから引く値")
    ] = 3
    """YD-67: reactions to a 不意打ち take -3."""


class YodomiSheet(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A character sheet as 澱み流れ reads it (G-YD-15: integers on the sheet).

    Unknown keys are refused (``command/invalid_sheet``) when a sheet is created or
    updated. Stored sheets are never checked again on replay.

    Attributes:
        pp: 【PP】 at the start and the 舞台裏 recovery cap.
        sp: 【SP】 at the start.
        action: 【行動値】 (initiative order, 封鎖 対決).
        evasion: 【回避値】 (the default defence 判定値).
        social: 【社会】 (purchase checks; the 財産点 cap).
        wealth: 財産点.
        abilities: 基本能力値 and 戦闘値 by name (``{"体": 5, "知": 3}``).
        defense: 防御修正 by attack attribute (``{"体": 3, "澱み": 2}``).
        defense_attributes: 防御属性 (damage of these attributes is halved).
        variation: 変動値 for the key number (G-YD-05, default 0).
        armor_requirement: the armour's 必要能力値 (水中).
        items: equipment and its 【PP】 (武器狙い).
        side: ``"pc"`` or ``"enemy"``; default: ``pc`` when the character has an owner.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="澱み流れのキャラクターシート", description="能力値・【PP】・【SP】・装備など（整数）"
    )

    pp: Annotated[int, field("開始時の【PP】", "舞台裏の回復上限にもなる", ge=0, le=9999)] = 30
    sp: Annotated[int, field("開始時の【SP】", ge=0, le=9999)] = 60
    action: Annotated[int, field("【行動値】", "行動順と封鎖の対決に使う", ge=-99, le=999)] = 0
    evasion: Annotated[int, field("【回避値】", "回避の判定値", ge=-99, le=999)] = 0
    social: Annotated[
        int, field("【社会】", "購入判定の判定値、一度に使える財産点の上限", ge=-99, le=999)
    ] = 0
    wealth: Annotated[int, field("財産点", ge=0, le=9999)] = 0
    abilities: Annotated[
        dict[str, int], field("能力値", "基本能力値と戦闘値（名前→値。例: 体 5、知 3）")
    ] = {}
    defense: Annotated[
        dict[str, int], field("防御修正", "攻撃属性ごとの防御修正（例: 体 3、澱み 2）")
    ] = {}
    defense_attributes: Annotated[list[str], field("防御属性", "この攻撃属性のダメージは半減")] = []
    variation: Annotated[int, field("変動値", "キーナンバーの1D9に加える値", ge=-8, le=9)] = 0
    armor_requirement: Annotated[
        int, field("防具の必要能力値", "水中で判定値から引く値", ge=0, le=99)
    ] = 0
    items: Annotated[dict[str, int], field("アイテム", "装備とその【PP】（武器狙いの目標）")] = {}
    side: Annotated[
        Literal["pc", "enemy"] | None,
        field("陣営", "pc（PC）/ enemy（エネミー）。空なら持ち主がいればPC"),
    ] = None
