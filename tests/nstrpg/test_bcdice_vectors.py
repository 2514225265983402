"""BCDice NinjaSlayer2 test vectors, replayed through taku's chat with the same faces.

Each row is one case of BCDice's ``test/data/NinjaSlayer2.toml`` (bcdice/BCDice, the
2版 commands; ``U2,3`` / ``N2,3,H2,N1`` / ``N5,3,U4[…]`` are from the revision of that file
that tests letter inheritance): the input, the scripted d6 faces, BCDice's ``output``
(our ``result``, byte for byte: full-width marks, `` \\n`` line ends included) and BCDice's
flag (``success = true`` -> ``True``, ``failure = true`` -> ``False``, neither -> ``None``).

The ``NRS…`` forms (NRS判定 / 発狂表) have their own vectors in ``test_nrs.py``. Not
replayed, because taku does not offer them: the 1版 forms ``NJ`` / ``EV`` / ``AT`` / ``EL`` (and their ``S`` secret variant ``SNJ4``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from taku.core.events import DiceRolled

Make = Callable[..., Awaitable[Any]]

_SB3 = (
    "サツバツ!!(D6) ＞ (3) ＞ 「苦しみ抜いて死ぬがいい！」急所や内臓を情け容赦なく破壊！ \n"
    "『痛打+1』。敵の【体力】を減らした場合、付属効果として『ニューロンダメージ1』と『精神力ダメージ2』と『●部位損傷：胴体』を与える。"
)
_SB6 = (
    "サツバツ!!(6) ＞ 「さらばだ！ イイイヤアアアアーーーーッ！」ヤリめいたチョップが敵の胸を貫通！ さらに心臓を掴み取り、握りつぶした！ ゴウランガ！ \n"
    "『即死！』。敵が『即死耐性』を持つ場合、この効果は『痛打＋2D6』に置き換えられる。"
)
_PANIC = "激しい恐怖や動揺により、次のターンの終了時まで、その場にいる【DKK】1以上のニンジャ全員は『連続側転判定』の難易度が"
_WSE4 = (
    "ニンジャスレイヤー=サンのエントリー!!(D6) ＞ (4) ＞ 天井破壊や床破砕、または垂直リフト射出により出現！ \n"
    f"標的ニンジャから2マス離れた任意の場所に【殺】コマを置くこと。 \n{_PANIC}+1される。"
)
_WSE6 = (
    "ニンジャスレイヤー=サンのエントリー!!(6) ＞ 「行き先はジゴクですよ」 \n"
    "マップ上にいるNPC1人（標的ニンジャから最も近くにいる者）が、実はニンジャスレイヤーの変装であった。"
    f"そのNPCのコマを【殺】に変更せよ（本物のNPCがどこにいったのかはニンジャマスターが後で考える）。 \n{_PANIC}+2される。"
)
_APPENDIX_LINES = (
    "(5B6>=4) ＞ 4,6,3,1,5 ＞ 成功数:3, 追加判定:4[6,5,4,3], サツバツ！:1[6], クリティカル！:4[6,5,4,3] \n"
    "(3B6>=4) ＞ 1,1,2 ＞ 成功数:0, 追加判定:1[2], サツバツ！:0, クリティカル！:1[2] \n"
)
_FACES_12 = (4, 6, 3, 1, 5, 1, 1, 2, 6, 6, 1, 2)

VECTORS: list[tuple[str, tuple[int, ...], str, bool | None]] = [
    ("K5", (4, 6, 3, 1, 5), "(5B6>=2) ＞ 4,6,3,1,5 ＞ 成功数:4 \n", True),
    ("E5", (4, 6, 3, 1, 5), "(5B6>=3) ＞ 4,6,3,1,5 ＞ 成功数:4 \n", True),
    ("N5", (4, 6, 3, 1, 5), "(5B6>=4) ＞ 4,6,3,1,5 ＞ 成功数:3 \n", True),
    ("H5", (4, 6, 3, 1, 5), "(5B6>=5) ＞ 4,6,3,1,5 ＞ 成功数:2 \n", True),
    ("U5", (4, 2, 3, 1, 5), "(5B6>=6) ＞ 4,2,3,1,5 ＞ 成功数:0 \n", False),
    (
        "U2,3",
        (4, 2, 3, 1, 6),
        "(2B6>=6) ＞ 4,2 ＞ 成功数:0 \n(3B6>=6) ＞ 3,1,6 ＞ 成功数:1 \n",
        True,
    ),
    (
        "N2,3,H2,N1",
        (4, 2, 3, 1, 6, 1, 5, 2),
        "(2B6>=4) ＞ 4,2 ＞ 成功数:1 \n(3B6>=4) ＞ 3,1,6 ＞ 成功数:1 \n(2B6>=5) ＞ 1,5 ＞ 成功数:1 \n(1B6>=4) ＞ 2 ＞ 成功数:0 \n",
        True,
    ),
    (
        "N5,3,4[!=1][s][c2]",
        _FACES_12,
        _APPENDIX_LINES
        + "(4B6>=4) ＞ 6,6,1,2 ＞ 成功数:2, 追加判定:3[6,6,2], サツバツ！:2[6,6], クリティカル！:3[6,6,2] \n",
        True,
    ),
    (
        "N5,3,U4[!=1][s][c2]",
        _FACES_12,
        _APPENDIX_LINES
        + "(4B6>=6) ＞ 6,6,1,2 ＞ 成功数:2, 追加判定:3[6,6,2], サツバツ！:2[6,6], クリティカル！:3[6,6,2] \n",
        True,
    ),
    ("SB", (3,), _SB3, None),
    ("SB@6", (), _SB6, None),
    ("WS8", (4, 5), "Wasshoi!判定(2D6) ＞ (4+5) ＞ 9(>8) 判定失敗", True),
    (
        "WS8",
        (3, 1),
        "Wasshoi!判定(2D6) ＞ (3+1) ＞ 4(<=8) 判定成功!! \nニンジャスレイヤー=サンのエントリーだ!!",
        False,
    ),
    ("WSE", (4,), _WSE4, None),
    ("WSE@6", (), _WSE6, None),
]


@pytest.mark.parametrize(("text", "faces", "output", "flag"), VECTORS)
async def test_bcdice_vector(
    ns: Make, text: str, faces: tuple[int, ...], output: str, flag: bool | None
) -> None:
    """Same faces, BCDice's output and success/failure flag; every scripted face used."""
    t = await ns()
    t.roll(*faces)
    (e,) = await t.h.chat(t.pl, text)
    assert isinstance(e, DiceRolled)
    assert (e.result, e.success, e.secret) == (output, flag, False)
    t.assert_dice_used()


@pytest.mark.parametrize(("text", "faces", "output", "flag"), VECTORS)
async def test_bcdice_vector_secret_and_comment(
    ns: Make, text: str, faces: tuple[int, ...], output: str, flag: bool | None
) -> None:
    """A leading ``S`` and a trailing comment change neither the line nor the flag (BCDice's ``secret = true``)."""
    t = await ns()
    t.roll(*faces)
    (e,) = await t.h.chat(t.pl, f"S{text.lower()} コメント")
    assert isinstance(e, DiceRolled)
    assert (e.result, e.success, e.secret, e.comment) == (output, flag, True, "コメント")
    t.assert_dice_used()
