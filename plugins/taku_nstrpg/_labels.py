"""Field types shared by the nstrpg Structs, with their Japanese titles (the rulebook's terms).

Closed sets are ``Literal`` where every value ever stored is one of them. A few
fields of stored events and sheets were open strings in earlier versions (a GM's
``inflict.kind``, a weapon's ``kind``): they stay ``str`` so old logs still
decode, and their JSON Schema lists the values the rules use now
(``extra_json_schema``).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from taku.core.commands import field

__all__ = [
    "ATTACK_KINDS",
    "Atmosphere",
    "AttackKind",
    "CharacterId",
    "DamageKind",
    "Difficulty",
    "DifficultyLevel",
    "HIT_KINDS",
    "HitId",
    "Purpose",
    "Reason",
    "RollStat",
    "StatName",
    "Status",
    "StyleId",
    "open_set",
]


def open_set(title: str, description: str, values: tuple[str, ...]) -> msgspec.Meta:
    """A ``str`` field stored open in earlier logs, documented with the values the rules use now."""
    return msgspec.Meta(
        title=title, description=description, extra_json_schema={"enum": list(values)}
    )


CharacterId = Annotated[str, field("キャラクター", "キャラクターのID")]
HitId = Annotated[str, field("回避待ちの攻撃", "回避待ちの攻撃（ヒット）のID")]
Reason = Annotated[str, field("理由", "GMが記録する理由", max_length=500)]

StatName = Literal["karate", "neuron", "wazamae", "jitsu", "kyakuryoku", "tairyoku", "seishin"]
_STAT_DESC = (
    "karate（【カラテ】）/ neuron（【ニューロン】）/ wazamae（【ワザマエ】）/ jitsu（ジツ発動: 【ニューロン】+【ジツ】）/ "
    "kyakuryoku（【脚力】）/ tairyoku（現在の【体力】）/ seishin（現在の【精神力】）"
)
RollStat = Annotated[
    Literal["karate", "neuron", "wazamae", "jitsu", "kyakuryoku", "tairyoku", "seishin", "dice"],
    field("能力値", _STAT_DESC + " / dice（固定ダイス数: 追加ダイスのみ）"),
]

Difficulty = Annotated[
    Literal["KIDS", "EASY", "NORMAL", "HARD", "ULTRA-HARD", "UH2", "UH3", "UH4", "UH5", "UH6"],
    field(
        "難易度",
        "KIDS（2以上）/ EASY（3以上）/ NORMAL（4以上）/ HARD（5以上）/ ULTRA-HARD（6）/ UH2…UH6（ウルトラハード: 6の出目が2…6個で成功1）",
    ),
]
DifficultyLevel = Annotated[
    int,
    field(
        "難易度",
        "難易度の段階: 2=KIDS、3=EASY、4=NORMAL、5=HARD、6=ULTRA-HARD、7=UH2、8=UH3 …",
        ge=2,
    ),
]

Purpose = Literal["check", "resistance", "sokuten", "attack_phase"]
PURPOSE_DESC = "check（判定）/ resistance（抵抗判定: 行動できなくても振る）/ sokuten（連続側転判定）/ attack_phase（攻撃フェイズの判定: 集中状態が効く）"

AttackKind = Literal["melee", "shoot"]
ATTACK_KINDS = "melee（近接攻撃）/ shoot（射撃・スリケン投擲）"
HIT_KINDS = ("melee", "shoot", "counter", "knockback", "other")
HIT_KIND_DESC = "melee（近接）/ shoot（射撃）/ counter（カウンターカラテ）/ knockback（弾き飛ばしの衝突）/ other（その他）"
DAMAGE_KINDS = ("melee", "shuriken", "jitsu", "hacking", "gun", "mob", "environment")
DamageKind = Literal["melee", "shuriken", "jitsu", "hacking", "gun", "mob", "environment"]
DAMAGE_KIND_DESC = (
    "アトモスフィアの区分: melee（近接）/ shuriken（スリケン）/ jitsu（ジツ）/ hacking（ハッキング）/ gun（銃）/ "
    "mob（モブ敵）/ environment（環境）"
)
StyleId = Literal["kyougeki", "seimitsu", "setsudan"]
STYLE_DESC = "kyougeki（強攻撃）/ seimitsu（精密攻撃）/ setsudan（切断攻撃）"
Atmosphere = Literal["normal", "hard", "ultra_hard"]
ATMOSPHERE_DESC = "normal（通常）/ hard（ハードモード）/ ultra_hard（ウルトラハードモード）"
STATUSES = ("active", "fainted", "exploded", "removed", "dead")
STATUS_DESC = "active（行動可能）/ fainted（気絶状態）/ exploded（爆発四散）/ removed（戦闘不能）/ dead（即死）"
Status = Annotated[str, open_set("状態", STATUS_DESC, STATUSES)]
CRITICAL_DESC = '""（なし）/ satsubatsu（サツバツ!）/ namuamidabutsu（ナムアミダブツ!）'

FighterField = Literal[
    "tairyoku",
    "seishin",
    "status",
    "ability_damage",
    "injuries",
    "injury_penalty",
    "quick_dice",
    "emergency_dice",
    "evasion_dice",
    "dkk",
    "kuzure",
    "shuchu",
    "sokuten",
    "adrenaline_used",
    "adrenaline_evasion",
    "sixth_sense_used",
    "equipped",
    "looted",
    "boosts",
]
FIGHTER_FIELD_DESC = (
    "tairyoku（【体力】）/ seishin（【精神力】）/ status（状態）/ ability_damage（能力値ダメージ）/ injuries（●部位損傷）/ "
    "injury_penalty（部位損傷の修正）/ quick_dice（即応ダイス）/ emergency_dice（緊急回避ダイス）/ evasion_dice（回避ダイス）/ "
    "dkk（【DKK】）/ kuzure（崩れ状態）/ shuchu（集中状態）/ sokuten（連続側転済み）/ adrenaline_used（アドレナリン使用済み）/ "
    "adrenaline_evasion（アドレナリンの回避修正中）/ sixth_sense_used（第六感使用済み）/ equipped（装備中の武器）/ looted（万札回収済み）/ "
    "boosts（一時的な能力値修正）"
)
FIGHTER_FIELDS: tuple[str, ...] = FighterField.__args__  # type: ignore[attr-defined]
