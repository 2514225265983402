"""Chat dice commands, compatible with BCDice's NinjaSlayer2 system, and a little more.

Forms (case-insensitive, full-width folded; text after a space is a comment;
a leading ``S`` makes any of them secret):

- ``N5`` … a pool of 5 dice at NORMAL; letters ``K`` (KIDS 2+), ``E`` (EASY 3+),
  ``N`` (NORMAL 4+), ``H`` (HARD 5+), ``U`` / ``UH`` (ULTRA-HARD 6), and beyond
  BCDice ``UH2:6``, ``UH3:6`` … (difficulty, a colon, the dice) with the
  rulebook's success counting (NS-07).
- ``E1,N2,H3``: several pools; a pool without a letter takes the previous one (``N4,3``).
- appendices, each in brackets, applied to every pool:
  ``[>=5]`` ``[>5]`` ``[<=2]`` ``[<2]`` ``[=6]`` ``[!=1]``: count the dice that meet it (追加判定);
  ``[665+]`` / ``[6,6,5+]``: a 【】 pattern (all of it, each element its own die);
  ``[S]``: サツバツ! at 【6,6】, ナムアミダブツ! at 【6,6,6】; ``[S666]`` another サツバツ!
  pattern (ナムアミダブツ! stays 【6,6,6】, NS-89); ``[S65/665+]`` both patterns;
  ``[C]`` / ``[C66]``: クリティカル! at a pattern (default 【6,6】).
- ``SB`` / ``SB@n``: the サツバツ・クリティカル表 (d6, or row n).
- ``WS8``: the Wasshoi! check (2D6 ≤ 8).
- ``WSE`` / ``WSE@n``: the 死神のエントリー決定表.
- ``カラテ判定``, ``カラテ判定:HARD``, ``ワザマエ:UH2``, ``ニューロン+2:H``: a check of
  one's character (the pool from its current attribute, its ●部位損傷 penalty).

Every roll is a core ``dice_rolled`` event (or ``nstrpg.check_rolled`` for a
character's check) whose ``result`` line follows BCDice's format.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from taku.core.chatdice import COMPARATORS, MAX_DICE, split_comment
from taku.core.dice import DiceSource, Roll
from taku.core.events import GM, DiceRolled, Private, Redacted
from taku.core.ruleset import Context, Emitted
from taku.core.table import TableState
from taku.errors import DiceError, InvalidCommand
from taku_nstrpg import checks as ck
from taku_nstrpg import dkk as dk
from taku_nstrpg import satsubatsu as sb

__all__ = ["PoolCommand", "chat", "parse_pools", "satsubatsu_line", "wasshoi_line", "entry_line"]

_LETTER = r"(?:UH\d+:|UH|[KENHU])"
_POOLS = re.compile(rf"^(?P<pools>{_LETTER}\d+(?:,{_LETTER}?\d+)*)(?P<app>(?:\[[^\[\]]*\])*)$")
_POOL = re.compile(rf"^(?P<letter>{_LETTER})?(?P<n>\d+)$")
_CMP = re.compile(r"^(>=|<=|!=|<>|>|<|=)([1-6])$")
_SB = re.compile(r"^SB(?:@([1-6]))?$")
_WS = re.compile(r"^WS(\d{1,2})$")
_WSE = re.compile(r"^WSE(?:@([1-6]))?$")
_STAT_WORDS = {
    "カラテ": "karate",
    "ニューロン": "neuron",
    "ワザマエ": "wazamae",
    "ジツ": "jitsu",
    "脚力": "kyakuryoku",
    "体力": "tairyoku",
    "精神力": "seishin",
}
_CHAR_CHECK = re.compile(r"^(?P<stat>カラテ|ニューロン|ワザマエ|ジツ|脚力|体力|精神力)(?:判定)?(?:\+(?P<bonus>\d+))?(?::(?P<diff>.+))?$")


def _letter_level(letter: str) -> int:
    letter = letter.rstrip(":")
    if letter == "U":
        return ck.UH
    return ck.parse_difficulty(letter)


@dataclass(frozen=True)
class Appendix:
    kind: str  # "cmp" | "pattern" | "satsubatsu" | "critical"
    op: str = ""
    value: int = 0
    pattern: ck.Pattern | None = None
    namu: ck.Pattern | None = None


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
        return Appendix("cmp", op=m[1], value=int(m[2]))
    if t.startswith("S"):
        rest = t[1:]
        if not rest:
            return Appendix("satsubatsu", pattern=ck.SATSUBATSU_DEFAULT, namu=ck.NAMU_DEFAULT)
        sat, _, namu = rest.partition("/")
        plus = rest.endswith("+")
        if plus and not sat.endswith("+"):
            sat += "+"
        return Appendix(
            "satsubatsu",
            pattern=ck.Pattern.parse(sat),
            namu=ck.Pattern.parse(namu) if namu else ck.NAMU_DEFAULT,
        )
    if t.startswith("C"):
        rest = t[1:]
        return Appendix("critical", pattern=ck.Pattern.parse(rest) if rest else ck.SATSUBATSU_DEFAULT)
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
    apps = []
    for a in re.findall(r"\[([^\[\]]*)\]", m["app"] or ""):
        try:
            apps.append(_appendix(a))
        except ValueError:
            raise DiceError(f"not an appendix: [{a}]", code="dice/invalid") from None
    return PoolCommand(tuple(pools), tuple(apps), expr, secret, comment)


def _count_line(faces: tuple[int, ...], op: str, value: int) -> str:
    cmp = COMPARATORS[op]
    hits = sorted((f for f in faces if cmp(f, value)), reverse=True)
    shown = f"[{','.join(map(str, hits))}]" if hits else ""
    return f", 追加判定:{len(hits)}{shown}"


def pool_line(n: int, level: int, faces: tuple[int, ...], apps: tuple[Appendix, ...]) -> tuple[str, int]:
    """One BCDice-style line ``(5B6>=4) ＞ 4,6,3,1,5 ＞ 成功数:3`` and the success count."""
    succ = ck.count_successes(faces, level)
    head = f"({n}B6>={ck.target_face(level)})" if level <= ck.UH else f"({n}B6 {ck.difficulty_name(level)})"
    line = f"{head} ＞ {','.join(map(str, faces))} ＞ 成功数:{succ}"
    tail = ""
    for a in apps:
        if a.kind == "cmp":
            line += _count_line(faces, a.op, a.value)
        elif a.kind == "pattern":
            assert a.pattern is not None
            line += f", {a.pattern}:{'成立' if a.pattern.matches(faces) else '不成立'}"
        elif a.kind == "satsubatsu":
            crit = sb.critical_of(faces, success=succ > 0, satsubatsu=a.pattern, namu=a.namu)
            if crit == sb.NAMU:
                tail += " ＞ ナムアミダブツ!!"
            elif crit == sb.SATSUBATSU:
                tail += " ＞ サツバツ!!"
        elif a.kind == "critical":
            assert a.pattern is not None
            if a.pattern.matches(faces):
                tail += " ＞ クリティカル!!"
    return line + tail, succ


def satsubatsu_line(number: int, rolled: bool) -> str:
    r = sb.row(number)
    head = f"サツバツ!!(D6) ＞ ({number})" if rolled else f"サツバツ!!({number})"
    return f"{head} ＞ {r.line} \n{r.effect}"


def wasshoi_line(a: int, b: int, dkk: int) -> str:
    total = a + b
    if total > dkk:
        return f"Wasshoi!判定(2D6) ＞ ({a}+{b}) ＞ {total}(>{dkk}) 判定失敗"
    return f"Wasshoi!判定(2D6) ＞ ({a}+{b}) ＞ {total}(<={dkk}) 判定成功!! \nニンジャスレイヤー=サンのエントリーだ!!"


def entry_line(number: int, rolled: bool) -> str:
    r = dk.ENTRY_TABLE[number - 1]
    head = f"ニンジャスレイヤー=サンのエントリー!!(D6) ＞ ({number})" if rolled else f"ニンジャスレイヤー=サンのエントリー!!({number})"
    line = f"{head} ＞ {r.title} \n{r.placement}"
    if r.sokuten_penalty:
        line += f" \n激しい恐怖や動揺により、次のターンの終了時まで、その場にいる【DKK】1以上のニンジャ全員は『連続側転判定』の難易度が+{r.sokuten_penalty}される。"
    return line


def _event(expr: str, rolls: tuple[Roll, ...], result: str, *, secret: bool, comment: str, **kw: object) -> DiceRolled:
    return DiceRolled(expression=expr, rolls=rolls, result=result, secret=secret, comment=comment, **kw)  # type: ignore[arg-type]


def _roll_fixed(expr: str, dice: DiceSource, secret: bool, comment: str) -> DiceRolled | None:
    if m := _SB.match(expr):
        if m[1]:
            return _event(expr, (), satsubatsu_line(int(m[1]), False), secret=secret, comment=comment, total=int(m[1]))
        r = dice.roll(1, 6)
        return _event(expr, (r,), satsubatsu_line(r.faces[0], True), secret=secret, comment=comment, total=r.faces[0])
    if m := _WSE.match(expr):
        if m[1]:
            return _event(expr, (), entry_line(int(m[1]), False), secret=secret, comment=comment, total=int(m[1]))
        r = dice.roll(1, 6)
        return _event(expr, (r,), entry_line(r.faces[0], True), secret=secret, comment=comment, total=r.faces[0])
    if m := _WS.match(expr):
        target = int(m[1])
        if not 1 <= target <= dk.DKK_MAX:
            raise DiceError("WS takes a DKK of 1 to 12", code="dice/invalid")
        r = dice.roll(2, 6)
        a, b = r.faces
        return _event(expr, (r,), wasshoi_line(a, b, target), secret=secret, comment=comment, total=a + b, success=a + b <= target)
    return None


def roll_pools(cmd: PoolCommand, dice: DiceSource, character_id: str | None = None) -> DiceRolled:
    rolls = []
    lines = []
    total = 0
    for n, level in cmd.pools:
        r = dice.roll(n, 6)
        rolls.append(r)
        line, succ = pool_line(n, level, r.faces, cmd.appendices)
        lines.append(line)
        total += succ
    return _event(
        cmd.expression, tuple(rolls), "\n".join(lines), secret=cmd.secret, comment=cmd.comment,
        successes=total, success=total > 0, character_id=character_id,
    )


def _private(event: DiceRolled, ctx: Context) -> Emitted:
    if not event.secret:
        return event
    assert ctx.actor is not None
    return Private(event=event, audience=(ctx.actor, GM), redacted=Redacted(of="dice_rolled", note="シークレットダイス"))


def chat(text: str, table: TableState, ctx: Context) -> list[Emitted] | None:
    """The ruleset's chat commands; ``None`` when the line is not one of them."""
    head, comment = split_comment(text)
    expr = unicodedata.normalize("NFKC", head).upper()
    for secret, body in ((False, expr), (True, expr[1:] if expr.startswith("S") else None)):
        if body is None or not body:
            continue
        fixed = _roll_fixed(body, ctx.dice, secret, comment)
        if fixed is not None:
            return [_private(fixed, ctx)]
        pools = parse_pools(body, secret=secret, comment=comment)
        if pools is not None:
            return [_private(roll_pools(pools, ctx.dice), ctx)]
    m = _CHAR_CHECK.match(unicodedata.normalize("NFKC", head))
    if m is not None:
        return _character_check(m, comment, table, ctx)
    return None


def _character_check(m: re.Match[str], comment: str, table: TableState, ctx: Context) -> list[Emitted]:
    from taku_nstrpg.commands import Check
    from taku_nstrpg.decider import decide

    owned = [c for c in table.characters.values() if c.owner == ctx.actor and c.owner is not None]
    named = [c for c in table.characters.values() if comment and comment.split(" ")[0] == c.name]
    if named:
        cid = named[0].id
        comment = comment[len(named[0].name):].strip()
    elif ctx.character_id is not None:  # the chat line is spoken as this character
        cid = ctx.character_id
    elif len(owned) == 1:
        cid = owned[0].id
    else:
        raise InvalidCommand("どのキャラクターの判定か、名前を続けて書くこと(例: カラテ判定:HARD ボブ)", code="command/which_character")
    diff = m["diff"] or "NORMAL"
    cmd = Check(character_id=cid, stat=_STAT_WORDS[m["stat"]], difficulty=diff, bonus_dice=int(m["bonus"] or 0), label=comment or f"{m['stat']}判定")
    return decide(table, cmd, ctx)
