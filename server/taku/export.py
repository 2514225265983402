"""A table's log for people to keep: text, JSON lines or an HTML page like ココフォリア's.

One implementation for every way out: ``taku export --format text|jsonl|html`` and
the ``export_log`` message the web client's download buttons send. Every format is
the public's view: hidden events (secret rolls, whispers, a hand of cards) come as
the ``redacted`` stand-in a spectator got at the same seq, so nothing hidden leaves
the server this way, whoever asks.

The HTML page is one self-contained file (no script, no external resource): one
line per event with its seq, time (UTC, labelled), speaker in the character's chat
colour, channel label and dice faces; a tab per channel (CSS only); the table's
seed hash (and the seed, once revealed) and last seq in the footer, so a reader can
run ``taku verify`` on the matching JSON lines. The lines of a command undone at the
end of the log (``undone`` with no ``redone`` after it) are struck through, in the
text export with combining strokes and 「（取り消し）」.
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from taku.core import chat as chat_core

if TYPE_CHECKING:
    from taku.app import TableService
    from taku.core.events import Recorded

__all__ = ["FORMATS", "MEDIA_TYPES", "Format", "export", "filename", "undone_commands"]

Format = Literal["text", "jsonl", "html"]
FORMATS: tuple[str, ...] = ("text", "jsonl", "html")
_MEDIA = {"text": "txt", "jsonl": "jsonl", "html": "html"}
MEDIA_TYPES: dict[str, str] = {
    "text": "text/plain;charset=utf-8",
    "jsonl": "application/jsonl;charset=utf-8",
    "html": "text/html;charset=utf-8",
}


def filename(table_id: str, fmt: Format) -> str:
    """The download's file name: ``<table_id>.txt|jsonl|html``."""
    return f"{table_id}.{_MEDIA[fmt]}"


def export(
    table: TableService, recs: Sequence[Recorded], fmt: Format, *, member_id: str | None = None
) -> str:
    """The log ``recs`` of ``table`` as ``fmt``, in the public's view (nothing hidden),
    or as the member ``member_id`` received it (their own hidden events in full:
    ``taku export --as`` and the ``export_log`` download of a member).

    Returns the whole document as text (UTF-8 when written out). ``text`` is one
    ``[seq] YYYY-MM-DD HH:MM:SS line`` per event (UTC), ``jsonl`` the ``event``
    messages a spectator received (what ``taku verify`` reads), ``html`` the page
    described in the module docstring.
    """
    raw = table.viewer_frames(recs, member_id)
    if fmt == "jsonl":
        return "".join(f.decode() + "\n" for f in raw)
    frames = [msgspec.json.decode(f) for f in raw]
    undone = undone_commands(frames)
    if fmt == "text":
        return "".join(_text_line(f, f.get("command_id") in undone) for f in frames)
    return _html(table, frames, undone)


def undone_commands(frames: Sequence[dict[str, Any]]) -> frozenset[str]:
    """The command ids undone at the end of ``frames`` (``undone`` events not followed
    by a ``redone`` of the same command): their lines are shown struck through."""
    out: dict[str, None] = {}
    for f in frames:
        ev = f.get("event") or {}
        if ev.get("type") == "undone":
            out[str(ev.get("command_id"))] = None
        elif ev.get("type") == "redone":
            out.pop(str(ev.get("command_id")), None)
    return frozenset(out)


def _text_line(msg: dict[str, Any], undone: bool = False) -> str:
    text = msg["text"].replace("\n", "\n    ")  # a continuation never looks like an entry
    if undone:
        text = "".join(c + "\u0336" for c in text) + "（取り消し）"  # struck through, in plain text
    return f"[{msg['seq']}] {msg['time'][:19].replace('T', ' ')} {text}\n"


def _rolls(node: Any) -> Iterator[dict[str, Any]]:
    """Every ``{sides, faces}`` roll inside an event's data."""
    if isinstance(node, dict):
        if isinstance(node.get("faces"), list) and isinstance(node.get("sides"), int):
            yield node
            return
        for v in node.values():
            yield from _rolls(v)
    elif isinstance(node, list):
        for v in node:
            yield from _rolls(v)


_OUTCOME = {"success": "成功", "failure": "失敗"}

_STYLE = """
body{font-family:system-ui,"Hiragino Sans","Noto Sans JP",sans-serif;margin:0;background:#fafafa;color:#1a1a1a}
header,footer{padding:12px 20px;background:#222;color:#fff}
footer{background:#eee;color:#333;font-size:13px;word-break:break-all}
h1{font-size:20px;margin:0}
.tabs{padding:8px 20px;display:flex;gap:6px;flex-wrap:wrap}
.tabs input{position:absolute;opacity:0}
.tabs label{padding:4px 12px;border:1px solid #888;border-radius:14px;cursor:pointer;background:#fff}
.tabs input:checked+label{background:#333;color:#fff}
.tabs input:focus-visible+label{outline:2px solid #06c}
ol{list-style:none;margin:0;padding:0 0 20px;flex-basis:100%}
li{padding:6px 0;border-bottom:1px solid #e4e4e4;display:flex;flex-wrap:wrap;gap:6px;align-items:baseline}
.seq,.time{color:#555;font-size:12px}
.who{font-weight:bold}
.ch{font-size:12px;border:1px solid #999;border-radius:8px;padding:0 6px;color:#444}
.sys .text{color:#555}
.hidden .text{color:#666;font-style:italic}
.die{display:inline-block;min-width:1.6em;text-align:center;border:1px solid #666;border-radius:4px;margin-right:2px;font-size:13px;background:#fff}
.oc{font-size:12px;border-radius:8px;padding:0 6px;color:#fff}
.oc-success{background:#1e6b34}.oc-failure{background:#a61b1b}
.undone-body{color:#666;text-decoration:line-through}
.undone-mark{font-size:12px;border:1px solid #a61b1b;border-radius:8px;padding:0 6px;color:#a61b1b}
"""


def _html(
    table: TableService, frames: list[dict[str, Any]], undone: frozenset[str] = frozenset()
) -> str:
    state = table.state
    esc = html.escape
    channels = [chat_core.MAIN, *state.chat.channels[1:]]
    used = {f["event"].get("channel", "") or chat_core.MAIN for f in frames}
    if chat_core.SPECTATOR in used:
        channels.append(chat_core.SPECTATOR)
    index = {name: i for i, name in enumerate(channels)}
    css = [_STYLE]
    tabs = [
        '<input type="radio" name="tab" id="tab-all" checked><label for="tab-all">すべて</label>'
    ]
    for name, i in index.items():
        tabs.append(
            f'<input type="radio" name="tab" id="tab-{i}"><label for="tab-{i}">{esc(name)}</label>'
        )
        css.append(f"#tab-{i}:checked~ol li:not(.ch-{i}){{display:none}}")
    lines = []
    for f in frames:
        ev = f["event"]
        is_line = ev.get("type") in ("chat_posted", "dice_rolled")
        # a chat line and a ruleset's roll typed in a channel (its ``channel`` field)
        ch = ev.get("channel") or chat_core.MAIN
        if not isinstance(ch, str):
            ch = chat_core.MAIN
        i = index.get(ch, 0)
        # a line someone said or rolled names its speaker (a member's join is a system line)
        said = is_line or ev.get("type") == "redacted" or "." in str(ev.get("type", ""))
        speaker = (f.get("speaker") or {}) if said else {}
        text = esc(f["text"])
        if speaker:
            # the speaker's name in the line, in the character's colour (in front when the line lacks it)
            color = speaker.get("color") or ""
            style = f' style="color:{esc(color)}"' if color else ""
            name = esc(speaker.get("name", ""))
            at = text.find(f"{name}: ")
            if 0 <= at <= 60:
                text = f'{text[:at]}<span class="who"{style}>{name}</span>{text[at + len(name) :]}'
            else:
                text = f'<span class="who"{style}>{name}</span> {text}'
        dice = "".join(
            f'<span class="roll" title="{len(r["faces"])}D{r["sides"]}">'
            + "".join(
                f'<span class="die" role="img" aria-label="{r["sides"]}面ダイス {int(x)}">{int(x)}</span>'
                for x in r["faces"]
            )
            + "</span>"
            for r in _rolls(ev)
        )
        oc = f.get("outcome")
        kind = "hidden" if f.get("redacted") else "sys" if not speaker else "line"
        struck = f.get("command_id") in undone
        body = (
            f'<span class="text">{text}</span>'
            + (f'<span class="dice">{dice}</span>' if dice else "")
            + (f'<span class="oc oc-{oc}">{_OUTCOME[oc]}</span>' if oc in _OUTCOME else "")
        )
        if struck:
            body = f'<del class="undone-body">{body}</del><span class="undone-mark">取り消し</span>'
        lines.append(
            f'<li class="ch-{i} {kind}{" undone" if struck else ""}" data-seq="{int(f["seq"])}">'
            f'<span class="seq">#{int(f["seq"])}</span>'
            f'<time class="time" datetime="{esc(f["time"])}">{esc(f["time"][:19].replace("T", " "))}</time>'
            + body
            + "</li>"
        )
    ruleset = table.ruleset
    head = getattr(state, "head", None)
    footer = [
        f"卓ID: {esc(state.table_id)}",
        f"最後のseq: {state.seq}",
        f"シードのハッシュ: <code>{esc(state.seed_hash)}</code>",
    ]
    if head:
        footer.append(f"ログのhead: <code>{esc(str(head))}</code>")
    if state.seed is not None:
        footer.append(
            f"シード（公開済み）: <code>{esc(state.seed)}</code> — "
            f"<code>taku verify {esc(state.table_id)}.jsonl</code> で検証できます"
        )
    else:
        footer.append("シードは未公開です（GMが公開すると taku verify で検証できます）")
    footer.append("時刻はUTC。非公開の出来事（シークレットダイス・内緒話・手札）は含みません。")
    return (
        '<!doctype html>\n<html lang="ja">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(state.name)} — taku 卓のログ</title>\n<style>{''.join(css)}</style>\n</head>\n<body>\n"
        f"<header><h1>{esc(state.name)}</h1><p>{esc(ruleset.name)}</p></header>\n<main>\n"
        f'<div class="tabs" role="group" aria-label="チャンネル">{"".join(tabs)}\n'
        f'<ol class="log" aria-label="ログ">\n{chr(10).join(lines)}\n</ol>\n</div>\n</main>\n'
        f"<footer>{'<br>'.join(footer)}</footer>\n</body>\n</html>\n"
    )
