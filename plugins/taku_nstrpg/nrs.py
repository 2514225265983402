"""NRS判定 (ニンジャ・リアリティ・ショック) and its 発狂表, in BCDice's NinjaSlayer2 syntax.

Forms (read after the dice module's folding: NFKC, upper case, the comment cut off at the
first space; the core strips a leading ``S`` and makes the answer secret):

- ``NRS_E4`` / ``NRS_N4`` / ``NRS_H4`` / ``NRS_U4`` / ``NRS_UH4``: an NRS判定 of 4 dice at
  EASY 3+ / NORMAL 4+ / HARD 5+ / ULTRA-HARD 6 (``U`` and ``UH`` are the same). One success
  or more: ``NRS克服!!`` (success). None: ``NRS発症!!`` and the 発狂表 is rolled with the die
  of the difficulty: EASY 1D3, NORMAL 1D6, HARD and ULTRA-HARD 1D6+1 (rows 1–7).
- ``NRS_E4@7``: the same check, the 発狂表 row given (1–7) instead of rolled on failure.
- ``NRS@7``: no check, row 7 of the 発狂表 (flagged a failure, as BCDice does).

For the same faces the text and the success flag are BCDice's (``lib/bcdice/game_system/
NinjaSlayer2.rb``, ``proc_nrs``) byte for byte, with one departure, where BCDice's answer
is a slip rather than a rule: ``NRS_UH…`` rolls the 発狂表 as ``NRS_U…`` does (1D6+1);
BCDice reads no die for ``UH`` and prints row ``(0)`` with the text of row 7.

A check of 0 dice (``NRS_E0``) has no success, as in BCDice (its faces print empty:
``NRS判定(0B6>=3) ＞  ＞ 成功数:0 NRS発症!!``), and the 発狂表 is rolled. More than 200
dice: ``dice/too_many_dice``.

A malformed ``NRS_…`` / ``NRS@…`` line (``NRS@8``, ``NRS_K3``, ``NRS_E``) is refused with
``dice/invalid`` where BCDice would post it as chat. A bare ``NRS`` stays plain chat.

Every roll is one core ``dice_rolled`` event: ``rolls`` holds the check's d6 faces and then
the 発狂表 die (a d3 or a d6, its face before the +1), ``successes`` the 成功数 (``None``
without a check), ``total`` the 発狂表 row (``None`` when overcome), ``success`` BCDice's flag.
"""

from __future__ import annotations

import re

from taku.core.chatdice import MAX_DICE
from taku.core.dice import DiceSource, Roll
from taku.core.events import DiceRolled
from taku.errors import DiceError

__all__ = ["NRS_TABLE", "TABLE_DIE", "TARGET", "nrs_roll"]

_NRS = re.compile(r"^NRS(?:_(UH|[ENHU])(\d+))?(?:@([1-7]))?$")
_NRS_LIKE = re.compile(r"^NRS[_@]")

TARGET: dict[str, int] = {"E": 3, "N": 4, "H": 5, "U": 6, "UH": 6}
"""The face a die must reach for each difficulty letter (EASY 3+ … ULTRA-HARD 6)."""

TABLE_DIE: dict[str, tuple[int, int]] = {
    "E": (3, 0),
    "N": (6, 0),
    "H": (6, 1),
    "U": (6, 1),
    "UH": (6, 1),
}
"""The 発狂表 die of each difficulty: (sides, added), i.e. 1D3, 1D6, 1D6+1."""

NRS_TABLE: tuple[str, ...] = (
    "絶叫 \n恐怖のあまり、その場で絶叫を上げる。 \n探索中の場合、近くの敵に存在を気づかれる可能性がある（シナリオ次第）。 \n"
    "戦闘中の場合、恐怖のあまり足がガクガクと震え、このターン終了まで【脚力】が0となり、『崩れ状態』とみなされる。",
    "失禁 \n恐怖とトラウマのあまりその場で立ちすくみ、失禁する。自尊心を失い【精神力】が-1される。 \n"
    "戦闘中の場合、足がすくんで手がブルブルと震え、このターン終了まであらゆる自発的行動の難易度が＋１され、"
    "【脚力】が１となり、『崩れ状態』とみなされる。",
    "パニック逃走や異常行動 \n恐怖のあまり絶叫し、仲間を見捨ててその場から全速力で逃げ出そうとしたり、"
    "銃を持っている場合は見えない敵に向かって乱射しようとする。 \n"
    "あるいは仲間のことをニンジャだと思い込んで攻撃を仕掛けたり、理解不能な異常行動を取ったりする。 \n"
    "探索シーケンスの場合、直ちに戦闘シーケンスが発生してこのPCの手番となり、1ターンだけマスターがこのPCを操作する。"
    "このPCは常軌を逸した身体能力を発揮し、【脚力】6として行動する。"
    "マスターはこのPCに自傷行為以外のどんな行動を取らせてもよい。このPCにとっては、あらゆるキャラが敵とみなされる。"
    "このターンの終了時に、このPCは正気に戻る。 \n"
    "戦闘中の場合も同様で、次の手番にこの状態となる。手番開始時に攻撃できる相手がニンジャしか見えていない場合、逃走を優先する。",
    "ドゲザ \n失禁し【精神力】に1ダメージ。突然ドゲザによる命乞いを行うため、このターン終了時まで『麻痺状態』とみなされる。",
    "激しい嘔吐や鼻血 \n【体力】と【精神力】にそれぞれ１ダメージを受ける。 \n戦闘中の場合、このターンのあらゆる判定難易度が+1される。 \n"
    "しかし目の前の脅威に立ち向かおうとする意志は砕けていない。",
    "気絶 \n失禁し【精神力】に1ダメージ。さらに打ち上げられたマグロめいてその場で倒れて口をパクパクとさせ、『気絶状態』となる。 \n"
    "戦闘が終了するか、一定時間が経過するか、誰かに蘇生してもらうまで、この状態は解除されない。",
    "心臓発作や狂死 \n急激なニンジャリアリティショックに耐えきれず、PCは心臓発作やニューロン損傷を起こして【体力】0となり、"
    "その場に倒れ『気絶状態』となる。 \nZBRアドレナリンでなければ蘇生できない。処置を受けずに時間が経過すると死亡する。",
)
"""The NRS発狂表, rows 1–7, in BCDice's text (its `` \\n`` line breaks kept)."""


def nrs_roll(expr: str, dice: DiceSource, *, secret: bool, comment: str) -> DiceRolled | None:
    """The ``dice_rolled`` event of an NRS line, or ``None`` when ``expr`` is not one.

    Args:
        expr: the folded command (upper case, no comment, no ``S`` prefix).
        dice: the table's dice; the check rolls ``n`` d6, a failure then one table die.
        secret: the core's secret flag, copied to the event.
        comment: the text after the command, copied to the event.

    Raises:
        DiceError: ``dice/invalid`` for a malformed NRS line,
            ``dice/too_many_dice`` for more than 200 dice.
    """
    m = _NRS.match(expr)
    if m is None:
        if _NRS_LIKE.match(expr):
            raise DiceError(
                f"not an NRS command: {expr}",
                code="dice/invalid",
                reason=f"「{expr}」はNRS判定のコマンドとして読めません",
            )
        return None
    letter, count, row_given = m[1], m[2], m[3]
    if letter is None and row_given is None:
        return None  # a bare "NRS": plain chat, as in BCDice
    rolls: list[Roll] = []
    text = ""
    successes: int | None = None
    if letter is not None:
        n = int(count)
        if n > MAX_DICE:
            raise DiceError(f"at most {MAX_DICE} dice in one roll", code="dice/too_many_dice")
        target = TARGET[letter]
        faces: tuple[int, ...] = ()
        if n > 0:  # no dice (【精神力】 0 …): no success, the faces print empty, as in BCDice
            check = dice.roll(n, 6)
            rolls.append(check)
            faces = check.faces
        successes = sum(1 for f in faces if f >= target)
        text = f"NRS判定({n}B6>={target}) ＞ {','.join(map(str, faces))} ＞ 成功数:{successes}"
        if successes > 0:
            return DiceRolled(
                expression=expr,
                rolls=tuple(rolls),
                successes=successes,
                success=True,
                result=text + " NRS克服!!",
                secret=secret,
                comment=comment,
            )
        text += " NRS発症!! \n"
    if row_given is not None:
        row = int(row_given)
        text += f"NRS発狂({row}) ＞ {NRS_TABLE[row - 1]}"
    else:
        sides, added = TABLE_DIE[letter]
        r = dice.roll(1, sides)
        rolls.append(r)
        row = r.faces[0] + added
        head = f"1D{sides}" + (f"+{added}" if added else "")
        text += f"NRS発狂({head}) ＞ ({row}) ＞ {NRS_TABLE[row - 1]}"
    return DiceRolled(
        expression=expr,
        rolls=tuple(rolls),
        total=row,
        successes=successes,
        success=False,
        result=text,
        secret=secret,
        comment=comment,
    )
