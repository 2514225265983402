"""The terminal client: ``taku play URL --token TOKEN`` and ``taku new URL``.

A prompt (prompt_toolkit) for chat and dice commands; the table's events
printed above it as readable lines, coloured with rich (successes green,
failures red, criticals and fumbles highlighted, hidden events dimmed). Lines
that start with ``/`` are client commands (``/help`` lists them); anything
else is a chat line, in which the ruleset reads dice commands (``2D6>=7``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from taku.protocol import EventMsg
from taku_client.client import CommandError, TakuClient, TakuClientError, event_data
from taku_client.links import Link, invite_link, parse_link

__all__ = ["Terminal", "event_line", "main_new", "main_play", "parse_override", "state_summary"]

HELP = """\
コマンド（/ で始まる行）:
  /state            状態の要約（メンバー、キャラクター、ゲームの値）
  /who              参加者
  /secret 式        シークレットダイス（GM と自分だけに見える）  例: /secret 2D6>=8
  /char 名前 [JSON] キャラクターを作る                          例: /char ヤモト {"karate": 5}
  /as キャラID|-    そのキャラクターとして話す（- で自分に戻る）
  /cmd JSON         ルールセットのコマンドを送る                  例: /cmd {"type": "nstrpg.…", …}
  /override パス 値 [理由]  GM: 値を変更（値は JSON: 5, "文字列", true）  例: /override characters/c4/sheet/karate 5 負傷
  /invite           招待リンク（卓を作った GM のみ）
  /log [N]          最近の N 行をもう一度
  /help             この説明
  /quit             終了
それ以外はチャット。ダイスはそのまま: 2D6>=7, 1D100<=50, 4B6>=4, S2D6（シークレット）"""

# a word followed by ":" is a count (BCDice's "サツバツ！:1[6]" counts sixes), not the event itself
_CRIT = re.compile(
    r"(クリティカル|決定的成功|タツジン|6ゾロ|ゴウランガ|サツバツ|ナムアミダブツ|スペシャル)(?![！!]*:)"
)
_FUMBLE = re.compile(r"ファンブル|1ゾロ|ウカツ|大失敗|致命的失敗|自動失敗")
_ROLE = {"gm": "GM", "player": "PL", "spectator": "観戦"}


def parse_override(rest: str) -> tuple[list[str | int], Any, str]:
    """``(path, value, reason)`` of ``/override パス 値 [理由]``.

    The path is ``characters/c4/sheet/karate`` or a JSON array; the value is one JSON
    value (``5``, ``"ヤモト"``, ``true``, ``[1, 2]``); what follows it is the reason.

    Raises:
        ValueError: a Japanese message saying what is missing or not JSON.
    """
    rest = rest.strip()
    path: list[str | int]
    if rest.startswith("["):
        path, at = json.JSONDecoder().raw_decode(rest)
        tail = rest[at:].strip()
    else:
        path_s, _, tail = rest.partition(" ")
        path, tail = list(path_s.split("/")), tail.strip()
    if not path or not tail:
        raise ValueError(
            "使い方: /override パス 値 [理由]（例: /override characters/c4/sheet/karate 5 負傷）"
        )
    try:
        value, end = json.JSONDecoder().raw_decode(tail)
    except ValueError:
        raise ValueError(
            f'値は JSON で書きます（数 5、文字列 "…"、true、[…]）: {tail.split(" ")[0]}'
        ) from None
    reason = tail[end:]
    if reason and not reason[0].isspace():  # "7怪我": the value does not end where JSON does
        raise ValueError(f"値と理由の間に空白を入れます: {tail.split(' ')[0]}")
    return path, value, reason.strip()


def _rolls(data: Any, out: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    out = [] if out is None else out
    if isinstance(data, list):
        for d in data:
            _rolls(d, out)
    elif isinstance(data, dict):
        if isinstance(data.get("faces"), list) and isinstance(data.get("sides"), int):
            out.append(data)
        else:
            for d in data.values():
                _rolls(d, out)
    return out


def outcome(ev: EventMsg, data: dict[str, Any]) -> str:
    """``crit``, ``fumble``, ``success``, ``failure`` or ``""`` (as the web client reads it)."""
    text = ev.text
    for said in (data.get("comment"), data.get("label")):
        if isinstance(said, str) and said:
            text = text.replace(said, "")  # the player's words are not the result
    if data.get("critical") is True or _CRIT.search(text):
        return "crit"
    if data.get("fumble") is True or _FUMBLE.search(text):
        return "fumble"
    if data.get("success") is True:
        return "success"
    if data.get("success") is False or "失敗" in text:
        return "failure"
    return "success" if "成功" in text else ""


_STYLE = {
    "crit": "bold black on yellow",
    "fumble": "bold white on red",
    "success": "bold green",
    "failure": "bold red",
}


def event_line(ev: EventMsg) -> Text:
    """One coloured line for an event: ``#seq HH:MM text [faces]``."""
    data = event_data(ev)
    rolls = _rolls(data)
    oc = outcome(ev, data)
    line = Text()
    line.append(f"#{ev.seq:<4}", style="dim")
    line.append(ev.time.strftime("%H:%M") + " ", style="dim")
    if ev.redacted:
        line.append(ev.text, style="italic dim")
    elif data.get("type") == "chat_posted":
        line.append(ev.text)
    elif rolls:
        line.append(ev.text, style=_STYLE.get(oc, "bold"))
    else:
        line.append(ev.text, style="cyan")
    if rolls:
        line.append("  ")
        for r in rolls:
            for f in r["faces"]:
                line.append(f"[{f}]", style="bold yellow" if f == r["sides"] else "bold")
            line.append(" ")
    return line


def _scalar(v: Any) -> bool:
    return v is None or isinstance(v, str | int | float | bool)


def _compact(value: Any, limit: int = 160) -> str:
    s = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return s if len(s) <= limit else s[: limit - 1] + "…"


def state_summary(state: dict[str, Any]) -> Text:
    """A short summary of a table as a viewer sees it (``get_state``)."""
    out = Text()
    you = state.get("you", {})
    members = state.get("members", {})
    me = members.get(you.get("member_id"), {})
    out.append(f"{state.get('name', '')}", style="bold")
    out.append(f"  [{state.get('ruleset', '')}] seq {state.get('seq')}  ", style="dim")
    out.append(
        f"あなた: {me.get('name', '観戦')}（{_ROLE.get(you.get('role', ''), you.get('role'))}）\n"
    )
    out.append("参加者: ", style="bold")
    out.append(
        "、".join(
            f"{m['name']}({_ROLE.get(m['role'], m['role'])})"
            for m in members.values()
            if m.get("present", True)
        )
        + "\n"
    )
    game = state.get("game")
    chars = state.get("characters", {})
    for cid, ch in chars.items():
        owner = members.get(ch.get("owner") or "", {}).get("name", "NPC")
        out.append(f"◆ {ch['name']}", style="bold cyan")
        out.append(f" ({cid}, {owner})", style="dim")
        sheet = ch.get("sheet") or {}
        if sheet:
            out.append("  " + " ".join(f"{k}={_compact(v, 40)}" for k, v in sheet.items()))
        for path, value in _by_character(game, cid):
            out.append(f"\n    {'.'.join(path)}: ", style="dim")
            if isinstance(value, dict):
                out.append(
                    " ".join(
                        f"{k}={_compact(v, 40)}"
                        for k, v in value.items()
                        if v not in ({}, [], None, "")
                    )
                )
            else:
                out.append(_compact(value))
        out.append("\n")
    if isinstance(game, dict):
        scalars = {k: v for k, v in game.items() if _scalar(v) and v not in (None, "")}
        if scalars:
            out.append("ゲーム: ", style="bold")
            out.append(" ".join(f"{k}={v}" for k, v in scalars.items()) + "\n")
    return out


def _by_character(
    game: Any, cid: str, path: tuple[str, ...] = (), depth: int = 0
) -> list[tuple[tuple[str, ...], Any]]:
    found: list[tuple[tuple[str, ...], Any]] = []
    if not isinstance(game, dict) or depth > 3:
        return found
    for k, v in game.items():
        if k == cid:
            found.append((path, v))
        elif isinstance(v, dict):
            found.extend(_by_character(v, cid, (*path, k), depth + 1))
    return found


class Terminal:
    """One table in a terminal: events printed above a prompt, lines sent as chat or commands.

    Args:
        client: a connected :class:`TakuClient`, joined to ``table_id``.
        table_id: the table.
        invites: the invite links to show with ``/invite`` (the GM who created the table).
        plain: read lines from stdin without prompt_toolkit (pipes, dumb terminals).
    """

    def __init__(
        self,
        client: TakuClient,
        table_id: str,
        *,
        invites: dict[str, str] | None = None,
        plain: bool = False,
    ) -> None:
        self.client = client
        self.table_id = table_id
        self.invites = invites or {}
        self.plain = plain
        self.speak_as: str | None = None
        self.lines: list[Text] = []
        self.console = Console(
            force_terminal=not plain, color_system=None if plain else "standard", width=200
        )
        self._print: Callable[[str], None] = self._print_plain

    def _print_plain(self, s: str) -> None:
        sys.stdout.write(s + "\n")
        sys.stdout.flush()

    def show(self, text: Text | str) -> None:
        if isinstance(text, str):
            text = Text(text)
        with self.console.capture() as cap:
            self.console.print(text, end="", soft_wrap=True)
        self._print(cap.get())

    def error(self, e: Exception) -> None:
        if isinstance(e, CommandError):
            self.show(Text(f"✗ {e.code}: {e.message}", style="bold red"))
        else:
            self.show(Text(f"✗ {e}", style="bold red"))

    async def _pump(self) -> None:
        feed = await self.client.subscribe(self.table_id)
        async for ev in feed:
            line = event_line(ev)
            self.lines.append(line)
            self.show(line)

    async def handle(self, line: str) -> bool:
        """Act on one input line; ``False`` ends the session."""
        line = line.strip()
        if not line:
            return True
        c, tid = self.client, self.table_id
        try:
            if not line.startswith("/"):
                await c.chat(tid, line, character_id=self.speak_as)
                return True
            cmd, _, rest = line[1:].partition(" ")
            rest = rest.strip()
            match cmd:
                case "quit" | "exit" | "q":
                    return False
                case "help" | "h" | "?":
                    self.show(HELP)
                case "state" | "s":
                    self.show(state_summary((await c.get_state(tid)).state))
                case "who":
                    st = (await c.get_state(tid)).state
                    for m in st["members"].values():
                        self.show(
                            f"  {m['name']} ({_ROLE.get(m['role'], m['role'])}){'' if m['present'] else ' 退出'}"
                        )
                case "secret":
                    if not rest:
                        self.show("使い方: /secret 2D6>=8")
                    else:
                        await c.roll(tid, rest, secret=True)
                case "char":
                    name, _, sheet = rest.partition(" ")
                    await c.command(
                        tid,
                        {
                            "type": "create_character",
                            "name": name,
                            "sheet": json.loads(sheet) if sheet else {},
                        },
                    )
                case "as":
                    self.speak_as = None if rest in ("", "-") else rest
                    self.show(f"発言者: {self.speak_as or '自分'}")
                case "cmd":
                    command = json.loads(rest)
                    ack = await c.command(tid, command)
                    self.show(Text(f"✓ seq {ack.first_seq}–{ack.last_seq}", style="green"))
                case "override":
                    path, value, reason = parse_override(rest)
                    await c.command(
                        tid, {"type": "override", "path": path, "value": value, "reason": reason}
                    )
                case "invite":
                    if not self.invites:
                        self.show("招待リンクは卓を作った GM の端末にだけあります")
                    for label, url in self.invites.items():
                        self.show(f"{label}: {url}")
                case "log":
                    n = int(rest or 20)
                    for t in self.lines[-n:]:
                        self.show(t)
                case _:
                    self.show(Text(f"知らないコマンド /{cmd}（/help）", style="yellow"))
        except (CommandError, TakuClientError) as e:
            self.error(e)
        except (ValueError, json.JSONDecodeError) as e:
            self.show(Text(f"✗ 読めません: {e}", style="bold red"))
        return True

    async def run(self) -> int:
        """Print the table's events and read lines until ``/quit`` or end of input."""
        self.client.status_callbacks.append(
            lambda st: self.show(
                Text(
                    "… 接続が切れました。再接続しています"
                    if st == "reconnecting"
                    else "× 再接続できませんでした"
                    if st == "closed"
                    else "✓ 再接続しました",
                    style="yellow",
                )
            )
        )
        pump = asyncio.create_task(self._pump(), name="taku-terminal-feed")
        try:
            if self.plain:
                await self._run_plain()
            else:
                await self._run_prompt()
        finally:
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pump
        return 0

    async def _run_plain(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line or not await self.handle(line):
                return

    async def _run_prompt(self) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.formatted_text import ANSI
        from prompt_toolkit.history import InMemoryHistory
        from prompt_toolkit.patch_stdout import patch_stdout
        from prompt_toolkit.shortcuts import print_formatted_text

        session: PromptSession[str] = PromptSession(history=InMemoryHistory())
        self._print = lambda s: print_formatted_text(ANSI(s))
        with patch_stdout(raw=True):
            while True:
                try:
                    line = await session.prompt_async("卓> ")
                except (EOFError, KeyboardInterrupt):
                    return
                if not await self.handle(line):
                    return


# --------------------------------------------------------------------------- entry points (taku play / taku new)


def _plain(args: Any) -> bool:
    return bool(getattr(args, "plain", False)) or not sys.stdin.isatty()


def _members_file() -> Path:
    """Where ``taku play`` keeps the member tokens it was given (readable by the user only)."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "taku" / "members.json"


def _invite_key(base: str, table_id: str, invite: str) -> str:
    # keyed by a hash of the invite, so the file never holds an invite token
    return f"{base.rstrip('/')}|{table_id}|{hashlib.sha256(invite.encode()).hexdigest()[:16]}"


def remembered_token(base: str, table_id: str, invite: str) -> str | None:
    """The member token ``taku play`` got last time it joined with this invite, if any."""
    try:
        saved = json.loads(_members_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    token = saved.get(_invite_key(base, table_id, invite)) if isinstance(saved, dict) else None
    return token if isinstance(token, str) else None


def remember_token(base: str, table_id: str, invite: str, member_token: str) -> None:
    """Keep the member token, so running the same invite again comes back as the same member."""
    path = _members_file()
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(saved, dict):
            saved = {}
    except (OSError, ValueError):
        saved = {}
    saved[_invite_key(base, table_id, invite)] = member_token
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(saved, f)
    except OSError:
        pass  # not remembering is no reason to stop playing


def _link(command: str, url: str) -> Link | None:
    """The parsed ``url``, or ``None`` having said on stderr, in one line, why it is not one."""
    try:
        return parse_link(url)
    except ValueError:
        print(
            f"taku {command}: {url!r} is not a taku link: give the server's URL (http://host:8765/) "
            "or an invite link (http://host:8765/#table=…&token=…)",
            file=sys.stderr,
        )
        return None


async def main_play(args: Any) -> int:
    """``taku play URL [--token TOKEN] [--table ID] [--name NAME]``: join a table and play."""
    link = _link("play", args.url)
    if link is None:
        return 2
    table_id = args.table or link.table_id
    token = args.token or link.token
    if not table_id or not token:
        print(
            "taku play: the URL (an invite link) or --table and --token must name the table and token",
            file=sys.stderr,
        )
        return 2
    try:
        client = await TakuClient.connect(link.base, client_name="taku-terminal")
    except OSError as e:
        print(f"taku play: cannot reach {link.base}: {e.strerror or e}", file=sys.stderr)
        return 1
    try:
        remembered = remembered_token(link.base, table_id, token)
        try:
            try:
                joined = await client.join(table_id, remembered or token, name=args.name or "")
            except CommandError as e:
                if remembered is None or e.code != "auth/bad_token":
                    raise
                joined = await client.join(
                    table_id, token, name=args.name or ""
                )  # the table forgot us
        except CommandError as e:
            print(f"taku play: {e.code}: {e.message}", file=sys.stderr)
            return 1
        if joined.member_token:
            remember_token(link.base, table_id, token, joined.member_token)
            print(
                f"あなた専用のリンク（同じメンバーで戻るとき）: {invite_link(link.base, table_id, joined.member_token)}"
            )
        elif remembered:
            print("前回と同じメンバーとして参加しました")
        term = Terminal(client, table_id, plain=_plain(args))
        term.show("/help でコマンド一覧")
        return await term.run()
    finally:
        await client.close()


async def main_new(args: Any) -> int:
    """``taku new URL [--ruleset ID] [--name NAME] [--gm-name NAME] [--no-play]``: create a table."""
    link = _link("new", args.url)
    if link is None:
        return 2
    try:
        client = await TakuClient.connect(link.base, client_name="taku-terminal")
    except OSError as e:
        print(f"taku new: cannot reach {link.base}: {e.strerror or e}", file=sys.stderr)
        return 1
    try:
        try:
            c = await client.create_table(
                args.ruleset, name=args.name or "", gm_name=args.gm_name or "GM"
            )
        except CommandError as e:
            print(f"taku new: {e.code}: {e.message}", file=sys.stderr)
            return 1
        invites = {
            "プレイヤー招待": invite_link(link.base, c.table_id, c.player_token),
            "観戦招待": invite_link(link.base, c.table_id, c.spectator_token),
            "GM（自分用、他人に渡さない）": invite_link(link.base, c.table_id, c.gm_token),
        }
        print(f"卓 {c.table_id} を作りました（{args.ruleset}）")
        for label, url in invites.items():
            print(f"{label}: {url}")
        sys.stdout.flush()
        if args.no_play:
            return 0
        term = Terminal(client, c.table_id, invites=invites, plain=_plain(args))
        term.show("/help でコマンド一覧")
        return await term.run()
    finally:
        await client.close()
