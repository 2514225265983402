"""Chat dice commands, compatible with BCDice's NinjaSlayer2 system, and a little more.

For the same faces every BCDice form below gives BCDice's text byte for byte (full-width
marks, each pool line ended by `` \n``) and BCDice's success/failure flag; BCDice's own
test vectors are replayed in ``tests/nstrpg/test_bcdice_vectors.py``.

Forms (case-insensitive, full-width folded; text after a space is a comment;
a leading ``S`` makes any of them secret: the core's prefix, stripped before this module reads the line):

- ``N5`` … a pool of 5 dice at NORMAL; letters ``K`` (KIDS 2+), ``E`` (EASY 3+),
  ``N`` (NORMAL 4+), ``H`` (HARD 5+), ``U`` / ``UH`` (ULTRA-HARD 6).
- ``E1,N2,H3``: several pools; a pool without a letter takes the previous one (``N4,3``).
- appendices, each in brackets, applied to every pool:
  ``[>=5]`` ``[>5]`` ``[<=2]`` ``[<2]`` ``[=6]`` ``[!=1]``: count the dice that meet it
  (``, 追加判定:4[6,5,4,3]``); ``[S]`` / ``[S5]`` and ``[C]`` / ``[C5]``: count the dice of
  6 (or 5) and more (``, サツバツ！:1[6]``, ``, クリティカル！:…``). As in BCDice these
  counts join 成功数 in deciding the success flag.
  ``[>=665+]``, ``[C66+]``, ``[S66+]``, ``[S65/665+]``: BCDice's all-of forms (every digit
  its own die): ``, 追加判定成功！[>=665+]``, ``, クリティカル！[C66+]``,
  ``, サツバツ！[S65/665+]`` or, when the part after ``/`` holds, ``, ナムアミダブツ！[…]``;
  nothing when it does not hold.
- ``SB`` / ``SB@n``: the サツバツ・クリティカル表 (d6, or row n).
- ``WS8``: the Wasshoi! check (2D6 ≤ 8, 1–12); flagged, like BCDice, from the ninjas'
  side: Ninja Slayer entering is the failure.
- ``WSE`` / ``WSE@n``: the 死神のエントリー決定表.
- ``NRS_E4`` … ``NRS_UH4``, ``NRS_E4@n``, ``NRS@n``: NRS判定 and its 発狂表
  (:mod:`taku_nstrpg.nrs`).

Beyond BCDice: ``UH2:6``, ``UH3:6`` … (difficulty, a colon, the dice) with the rulebook's
success counting (NS-07); a bare 【】 pattern ``[665+]`` / ``[6,5+]`` reported 成立 / 不成立;
``[S666]`` / ``[S666/6666]`` (no ``+``) as the ``+`` form; ``[<>1]`` as ``[!=1]``; a bad
appendix is an error (``dice/invalid``) where BCDice would post the line as chat; and
``カラテ判定``, ``カラテ判定:HARD``, ``ワザマエ:UH2``, ``ニューロン+2:H``: a check of one's
character (the pool from its current attribute, its ●部位損傷 penalty).

Every roll is a core ``dice_rolled`` event (or ``nstrpg.check_rolled`` for a
character's check); ``successes`` is the sum of 成功数, ``success`` BCDice's flag.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, cast

from taku.core.chatdice import COMPARATORS, MAX_DICE, split_comment
from taku.core.dice import DiceSource, Roll
from taku.core.events import DiceRolled
from taku.core.ruleset import Context, Emitted
from taku.core.table import TableState
from taku.errors import DiceError, Forbidden, InvalidCommand
from taku_nstrpg import checks as ck
from taku_nstrpg import dkk as dk
from taku_nstrpg import satsubatsu as sb
from taku_nstrpg._labels import Difficulty, StatName
from taku_nstrpg.nrs import nrs_roll

__all__ = [
    "PoolCommand",
    "chat",
    "dice_chat",
    "parse_pools",
    "satsubatsu_line",
    "wasshoi_line",
    "entry_line",
]

_LETTER = r"(?:UH\d+:|UH|[KENHU])"
_POOLS = re.compile(rf"^(?P<pools>{_LETTER}\d+(?:,{_LETTER}?\d+)*)(?P<app>(?:\[[^\[\]]*\])*)$")
_POOL = re.compile(rf"^(?P<letter>{_LETTER})?(?P<n>\d+)$")
_OPS = r"(>=|<=|!=|<>|>|<|=)"
_CMP = re.compile(rf"^{_OPS}([1-6])$")
_CMP_ALL = re.compile(rf"^{_OPS}([1-6]+)\+$")
_COUNT = re.compile(r"^([SC])([1-6])?$")
_S_ALL = re.compile(r"^S([1-6]+)(?:/([1-6]+))?(\+?)$")
_C_ALL = re.compile(r"^C([1-6]+)(\+?)$")
_SB = re.compile(r"^SB(?:@([1-6]))?$")
_WS = re.compile(r"^WS([1-9]|1[0-2])$")
_WSE = re.compile(r"^WSE(?:@([1-6]))?$")
_STAT_WORDS: dict[str, StatName] = {
    "カラテ": "karate",
    "ニューロン": "neuron",
    "ワザマエ": "wazamae",
    "ジツ": "jitsu",
    "脚力": "kyakuryoku",
    "体力": "tairyoku",
    "精神力": "seishin",
}
_CHAR_CHECK = re.compile(
    r"^(?P<stat>カラテ|ニューロン|ワザマエ|ジツ|脚力|体力|精神力)(?:判定)?(?:\+(?P<bonus>\d+))?(?::(?P<diff>.+))?$"
)

_COUNT_LABEL = {"S": "サツバツ！", "C": "クリティカル！"}


def _letter_level(letter: str) -> int:
    letter = letter.rstrip(":")
    if letter == "U":
        return ck.UH
    return ck.parse_difficulty(letter)


@dataclass(frozen=True)
class Appendix:
    """One bracketed appendix of a pool command.

    ``kind``:

    - ``"count"``: count the dice meeting ``op value`` (``[>=5]`` 追加判定, ``[S]`` / ``[S5]``
      サツバツ！, ``[C]`` / ``[C2]`` クリティカル!; ``label`` says which); BCDice adds the
      count to the figure that decides success or failure.
    - ``"all"``: BCDice's all-of form (``[>=665+]``, ``[C66+]``, ``[S66+]``, ``[S65/665+]``):
      every digit needs its own die meeting ``op`` digit; ``targets`` is the サツバツ！
      (or only) pattern, ``namu`` the ナムアミダブツ！ one; ``text`` is echoed.
    - ``"pattern"``: beyond BCDice, a 【】 pattern (``[665+]``, ``[6,5+]``) reported 成立 / 不成立.
    """

    kind: str
    op: str = ">="
    value: int = 0
    label: str = ""
    targets: str = ""
    namu: str = ""
    text: str = ""
    pattern: ck.Pattern | None = None


@dataclass(frozen=True)
class PoolCommand:
    """A parsed pool command: ``pools`` as (dice, difficulty level), appendices, secret, comment."""

    pools: tuple[tuple[int, int], ...]
    appendices: tuple[Appendix, ...]
    expression: str
    secret: bool = False
    comment: str = ""


def _appendix(text: str) -> Appendix:
    t = text.strip()
    if m := _CMP.match(t):
        return Appendix("count", op=m[1], value=int(m[2]), label="追加判定")
    if m := _COUNT.match(t):
        return Appendix("count", value=int(m[2] or 6), label=_COUNT_LABEL[m[1]])
    if m := _CMP_ALL.match(t):
        return Appendix("all", op=m[1], targets=m[2], label="追加判定成功！", text=t)
    if m := _S_ALL.match(t):
        # ``[S666]`` / ``[S666/6666]`` without the ``+`` are taku's older spelling of the same.
        return Appendix("all", targets=m[1], namu=m[2] or "", label="サツバツ！", text=t)
    if m := _C_ALL.match(t):
        return Appendix("all", targets=m[1], label="クリティカル！", text=t)
    if t[:1] in ("S", "C"):
        raise ValueError(t)
    return Appendix("pattern", pattern=ck.Pattern.parse(t))


def parse_pools(expr: str, *, secret: bool = False, comment: str = "") -> PoolCommand | None:
    """Read ``E1,N2,H3[...]``; ``None`` when it is not a pool command.

    Raises:
        DiceError: a pool command past the limits or with a bad appendix.
    """
    m = _POOLS.match(expr)
    if m is None:
        return None
    pools: list[tuple[int, int]] = []
    level = ck.NORMAL
    for part in m["pools"].split(","):
        pm = _POOL.match(part)
        assert pm is not None, "the whole expression matched"
        if pm["letter"]:
            level = _letter_level(pm["letter"])
        pools.append((int(pm["n"]), level))
    if sum(n for n, _ in pools) > MAX_DICE:
        raise DiceError(f"at most {MAX_DICE} dice in one roll", code="dice/too_many_dice")
    if any(n == 0 for n, _ in pools):
        raise DiceError(
            "a pool rolls at least one die",
            code="dice/invalid",
            reason="ダイスは1個以上振ってください（例: N4、5d6>=4）",
        )
    apps = []
    for a in re.findall(r"\[([^\[\]]*)\]", m["app"] or ""):
        try:
            apps.append(_appendix(a))
        except ValueError:
            raise DiceError(
                f"not an appendix: [{a}]",
                code="dice/invalid",
                reason=f"[{a}] は読めない付記です",
            ) from None
    return PoolCommand(tuple(pools), tuple(apps), expr, secret, comment)


def _counted(faces: tuple[int, ...], op: str, value: int) -> list[int]:
    cmp = COMPARATORS[op]
    return sorted((f for f in faces if cmp(f, value)), reverse=True)


def all_of(faces: tuple[int, ...], op: str, targets: str) -> bool:
    """BCDice's all-of check: dice ascending against the target digits ascending.

    Each die that meets the next digit (``die op digit``) uses that digit up; the check
    holds when every digit is used. For ``>=`` that is "each digit has its own die of at
    least it"; for the other operators it is BCDice's greedy reading, kept as is.
    """
    if not faces or not targets:
        return False
    cmp = COMPARATORS[op]
    want = sorted(int(c) for c in targets)
    used = 0
    for face in sorted(faces):
        if cmp(face, want[used] if used < len(want) else 0):
            used += 1
    return used >= len(want)


def pool_line(
    n: int, level: int, faces: tuple[int, ...], apps: tuple[Appendix, ...]
) -> tuple[str, int, int]:
    """One BCDice line ``(5B6>=4) ＞ 4,6,3,1,5 ＞ 成功数:3 \\n``, its 成功数, and the figure
    BCDice judges success by (成功数 plus every counting appendix's count)."""
    succ = ck.count_successes(faces, level)
    head = (
        f"({n}B6>={ck.target_face(level)})"
        if level <= ck.UH
        else f"({n}B6 {ck.difficulty_name(level)})"
    )
    line = f"{head} ＞ {','.join(map(str, faces))} ＞ 成功数:{succ}"
    judged = succ
    for a in apps:
        if a.kind == "count":
            hits = _counted(faces, a.op, a.value)
            shown = f"[{','.join(map(str, hits))}]" if hits else ""
            line += f", {a.label}:{len(hits)}{shown}"
            judged += len(hits)
        elif a.kind == "all":
            if a.namu and all_of(faces, a.op, a.namu):
                line += f", ナムアミダブツ！[{a.text}]"
            elif all_of(faces, a.op, a.targets):
                line += f", {a.label}[{a.text}]"
        else:
            assert a.pattern is not None
            line += f", {a.pattern}:{'成立' if a.pattern.matches(faces) else '不成立'}"
    return line + " \n", succ, judged


_FULLWIDTH = str.maketrans({"!": "！", ":": "：", "(": "（", ")": "）"})

_ENTRY_TEXT: tuple[str, ...] = (
    "高所からの回転着地！ タタミ四枚の距離で睨み合った！ \n標的ニンジャから3または4マス離れた任意のマスに、【殺】コマを置くこと。",
    "ドアを蹴破って出現！ \n標的ニンジャがいる部屋の任意のドアの隣に【殺】コマを置くこと。 \nなお、ドアにあらかじめ鍵をかけるなどの行為は全て無駄である。",
    "KRAAAAASH！ 窓を突き破り出現！ \n標的ニンジャがいる部屋の任意の窓の隣に【殺】コマを置くこと。 \n【殺】コマが隣接している間、その窓は脱出用として使用できなくなる。",
    "天井破壊や床破砕、または垂直リフト射出により出現！ \n標的ニンジャから2マス離れた任意の場所に【殺】コマを置くこと。",
    "冷蔵庫や金庫から突如出現！ \nそのマップ上に存在するトレジャーボックス内に、ニンジャスレイヤーが潜んでいた。"
    "標的ニンジャから最も近いトレジャーボックス1個（もしくは適切な障害物や爆発物）の隣に【殺】コマを置くこと。",
    "「行き先はジゴクですよ」 \nマップ上にいるNPC1人（標的ニンジャから最も近くにいる者）が、実はニンジャスレイヤーの変装であった。"
    "そのNPCのコマを【殺】に変更せよ（本物のNPCがどこにいったのかはニンジャマスターが後で考える）。",
)
"""The 死神のエントリー決定表 as BCDice prints it (the rulebook's full text, full-width marks)."""


def satsubatsu_line(number: int, rolled: bool) -> str:
    """``サツバツ!!(D6) ＞ (3) ＞ …`` (rolled) or ``サツバツ!!(6) ＞ …`` (named), BCDice's text."""
    r = sb.row(number)
    effect = r.effect.translate(_FULLWIDTH).replace("痛打+2D6", "痛打＋2D6")
    head = f"サツバツ!!(D6) ＞ ({number})" if rolled else f"サツバツ!!({number})"
    return f"{head} ＞ {r.line.translate(_FULLWIDTH)} \n{effect}"


def wasshoi_line(a: int, b: int, dkk: int) -> str:
    total = a + b
    if total > dkk:
        return f"Wasshoi!判定(2D6) ＞ ({a}+{b}) ＞ {total}(>{dkk}) 判定失敗"
    return f"Wasshoi!判定(2D6) ＞ ({a}+{b}) ＞ {total}(<={dkk}) 判定成功!! \nニンジャスレイヤー=サンのエントリーだ!!"


def entry_line(number: int, rolled: bool) -> str:
    r = dk.ENTRY_TABLE[number - 1]
    head = (
        f"ニンジャスレイヤー=サンのエントリー!!(D6) ＞ ({number})"
        if rolled
        else f"ニンジャスレイヤー=サンのエントリー!!({number})"
    )
    line = f"{head} ＞ {_ENTRY_TEXT[number - 1]}"
    if r.sokuten_penalty:
        line += f" \n激しい恐怖や動揺により、次のターンの終了時まで、その場にいる【DKK】1以上のニンジャ全員は『連続側転判定』の難易度が+{r.sokuten_penalty}される。"
    return line


def _event(
    expr: str, rolls: tuple[Roll, ...], result: str, *, secret: bool, comment: str, **kw: Any
) -> DiceRolled:
    return DiceRolled(
        expression=expr, rolls=rolls, result=result, secret=secret, comment=comment, **kw
    )


def _roll_fixed(expr: str, dice: DiceSource, secret: bool, comment: str) -> DiceRolled | None:
    if m := _SB.match(expr):
        if m[1]:
            return _event(
                expr,
                (),
                satsubatsu_line(int(m[1]), False),
                secret=secret,
                comment=comment,
                total=int(m[1]),
            )
        r = dice.roll(1, 6)
        return _event(
            expr,
            (r,),
            satsubatsu_line(r.faces[0], True),
            secret=secret,
            comment=comment,
            total=r.faces[0],
        )
    if m := _WSE.match(expr):
        if m[1]:
            return _event(
                expr,
                (),
                entry_line(int(m[1]), False),
                secret=secret,
                comment=comment,
                total=int(m[1]),
            )
        r = dice.roll(1, 6)
        return _event(
            expr,
            (r,),
            entry_line(r.faces[0], True),
            secret=secret,
            comment=comment,
            total=r.faces[0],
        )
    if m := _WS.match(expr):
        target = int(m[1])
        r = dice.roll(2, 6)
        a, b = r.faces
        # BCDice's flags are the ninjas': Ninja Slayer staying away (2D6 > DKK) is the success.
        return _event(
            expr,
            (r,),
            wasshoi_line(a, b, target),
            secret=secret,
            comment=comment,
            total=a + b,
            success=a + b > target,
            outcome="failure" if a + b > target else "success",  # as the line reads it
        )
    return None


def roll_pools(cmd: PoolCommand, dice: DiceSource, character_id: str | None = None) -> DiceRolled:
    rolls = []
    lines = []
    total = 0
    judged = 0
    for n, level in cmd.pools:
        r = dice.roll(n, 6)
        rolls.append(r)
        line, succ, judge = pool_line(n, level, r.faces, cmd.appendices)
        lines.append(line)
        total += succ
        judged += judge
    return _event(
        cmd.expression,
        tuple(rolls),
        "".join(lines),
        secret=cmd.secret,
        comment=cmd.comment,
        successes=total,
        success=judged > 0,
        character_id=character_id,
    )


def dice_chat(text: str, ctx: Context) -> list[Emitted] | None:
    """The NinjaSlayer2 dice forms of the module docstring alone (pools, ``SB``,
    ``WS``, ``WSE``, ``NRS``; not a character's check, which needs an nstrpg game): one
    ``dice_rolled`` event, or ``None`` when the line is not one of them. Any table
    played on NSTRPG dice may offer them (シャドー・ジャン2 does).

    The secret prefix ``S`` is the core's: it strips it, sets ``ctx.secret`` and
    makes the answer secret; the events here only carry ``secret=ctx.secret``.

    Raises:
        DiceError: ``dice/invalid`` for a bad appendix or NRS line, ``dice/too_many_dice``.
    """
    head, comment = split_comment(text)
    expr = unicodedata.normalize("NFKC", head).upper()
    if expr:
        fixed = _roll_fixed(expr, ctx.dice, ctx.secret, comment)
        if fixed is not None:
            return [fixed]
        shock = nrs_roll(expr, ctx.dice, secret=ctx.secret, comment=comment)
        if shock is not None:
            return [shock]
        pools = parse_pools(expr, secret=ctx.secret, comment=comment)
        if pools is not None:
            return [roll_pools(pools, ctx.dice)]
    return None


def chat(text: str, table: TableState, ctx: Context) -> list[Emitted] | None:
    """The ruleset's chat commands (its dice forms and a character's check);
    ``None`` when the line is not one of them. The core handles the ``S`` prefix."""
    rolled = dice_chat(text, ctx)
    if rolled is not None:
        return rolled
    head, comment = split_comment(text)
    m = _CHAR_CHECK.match(unicodedata.normalize("NFKC", head))
    if m is not None:
        return _character_check(m, comment, table, ctx)
    return None


def _character_check(
    m: re.Match[str], comment: str, table: TableState, ctx: Context
) -> list[Emitted]:
    from taku_nstrpg.commands import Check
    from taku_nstrpg.decider import decide

    owned = [c for c in table.characters.values() if c.owner == ctx.actor and c.owner is not None]
    named = [c for c in table.characters.values() if comment and comment.split(" ")[0] == c.name]
    if named:
        cid = named[0].id
        comment = comment[len(named[0].name) :].strip()
    elif ctx.character_id is not None:  # the chat line is spoken as this character
        cid = ctx.character_id
    elif len(owned) == 1:
        cid = owned[0].id
    else:
        raise InvalidCommand(
            "どのキャラクターの判定か、名前を続けて書くこと(例: カラテ判定:HARD ボブ)",
            code="command/which_character",
        )
    if not ctx.controls(table, cid):
        # the chat line bypasses the core's permit check of nstrpg.check (owner_of character_id)
        name = table.characters[cid].name
        raise Forbidden(
            f"{cid} is not the sender's",
            command=Check.__struct_config__.tag,
            role=ctx.role,
            reason=f"{name}はあなたのキャラクターではありません",
        )
    diff = m["diff"] or "NORMAL"
    cmd = Check(
        character_id=cid,
        stat=_STAT_WORDS[m["stat"]],
        difficulty=cast(Difficulty, diff),  # the decider parses it (command/invalid_difficulty)
        bonus_dice=int(m["bonus"] or 0),
        label=comment or f"{m['stat']}判定",
    )
    return decide(table, cmd, ctx)
