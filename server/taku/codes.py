"""The error-code catalogue: every stable code taku sends, its meaning, and its Japanese message.

A code never changes once shipped; clients switch on it. The error frame carries
``code``, a Japanese ``message`` made from the code's template and the error's
``params`` (named parameters), and the ``params`` themselves. A ruleset's
rejections are ``rule/<ruleset>/<reason>``: the ruleset lists its reasons in
``Ruleset.errors`` and writes the Japanese message itself (the rule's reason),
with the rulebook section in ``params.section``.

``docs/protocol.md``'s error table is generated from :data:`CATALOGUE`
(:func:`markdown_table`); a test keeps the two equal, and another fails when
code anywhere raises a code missing here.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["CATALOGUE", "Code", "markdown_table", "message", "with_table"]


@dataclass(frozen=True)
class Code:
    """One stable code: ``meaning`` (English, for developers) and ``template`` (Japanese, ``{named}`` params)."""

    meaning: str
    template: str


CATALOGUE: dict[str, Code] = {
    # the frame or message
    "protocol/error": Code("a protocol error", "プロトコルのエラーです"),
    "protocol/malformed_json": Code(
        "the frame is not JSON (also a text frame that is not UTF-8: the connection stays open)",
        "送られたデータがJSONではありません",
    ),
    "protocol/unknown_type": Code(
        "no message (or command) of that `type`", "「{type}」という種類のメッセージはありません"
    ),
    "protocol/invalid_fields": Code(
        "a missing, unknown or mistyped field", "項目が足りないか、余分か、型が違います: {detail}"
    ),
    "protocol/frame_too_large": Code(
        "a frame over `--max-frame-bytes` (64 KiB); past 1 MiB the connection closes (1009)",
        "送られたデータが大きすぎます",
    ),
    "protocol/rate_limited": Code(
        "more than `--rate` messages a second (burst: twice that), or more new tables than `--creates-per-minute` (server-wide, default 60)",
        "送信が多すぎます。少し待ってからもう一度送ってください",
    ),
    "protocol/not_joined": Code(
        "a table message before `join` on this connection", "先に卓に参加してください"
    ),
    "protocol/unsupported_version": Code(
        "a `hello` with a `protocol` the server does not speak (`params.supported` lists those it does)",
        "サーバーはプロトコル「{protocol}」に対応していません（対応している版: {versions}）",
    ),
    # tables and tokens
    "table/not_found": Code("no such table", "卓が見つかりません"),
    "table/unknown_ruleset": Code(
        "no such ruleset (`params.installed` lists those there are)",
        "「{ruleset}」というルールはありません",
    ),
    "auth/error": Code("access refused", "アクセスできません"),
    "auth/bad_token": Code(
        "the token does not open this table", "トークンが正しくないか、この卓のものではありません"
    ),
    # commands
    "command/forbidden": Code(
        "the command's declared permission does not allow the sender (role or ownership); `params.reason` says why",
        "この操作はできません: {reason}",
    ),
    "command/stale_seq": Code(
        "`expected_seq` is not the table's seq; nothing written",
        "卓の状態が変わりました。最新の状態で送り直してください",
    ),
    "command/id_taken": Code(
        "the `command_id` was used by another member", "このコマンドIDは他のメンバーが使っています"
    ),
    "command/id_reused": Code(
        "the `command_id` was already used for a different command",
        "このコマンドIDは別のコマンドで使われています。新しいIDで送ってください",
    ),
    "command/invalid_id": Code(
        "a command id has 1 to 128 characters", "コマンドIDは1〜128文字です"
    ),
    "command/invalid": Code(
        "the command makes no sense in this state", "このコマンドは受け付けられません: {detail}"
    ),
    "command/unknown_command": Code(
        "not a command of this table's ruleset", "この卓のルールにないコマンドです"
    ),
    "command/unknown_character": Code(
        "no character with that id", "キャラクター「{character_id}」はいません"
    ),
    "command/unknown_member": Code("no member with that id", "メンバー「{member_id}」はいません"),
    "command/which_character": Code(
        "a chat command needs a character and the sender has none or several",
        "どのキャラクターの判定か、名前を続けて書いてください",
    ),
    "command/invalid_name": Code(
        "a name has 1 to 64 visible characters", "名前は1〜64文字で、制御文字は使えません"
    ),
    "command/invalid_options": Code(
        "table options that do not fit the ruleset's", "卓のオプションが正しくありません: {detail}"
    ),
    "command/invalid_sheet": Code(
        "a character sheet that does not fit the ruleset's",
        "キャラクターシートが正しくありません: {detail}",
    ),
    "command/invalid_path": Code(
        "an override path that names no value", "上書きする場所が正しくありません"
    ),
    "command/invalid_value": Code(
        "an override value that does not fit", "その値は入りません: {detail}"
    ),
    "command/invalid_stat": Code("no such attribute to roll", "その能力値では判定できません"),
    "command/invalid_difficulty": Code("not a difficulty", "難易度が正しくありません"),
    "command/invalid_pattern": Code("not a 【】 dice pattern", "出目の指定が正しくありません"),
    "command/invalid_atmosphere": Code(
        "not an atmosphere (雰囲気) value", "雰囲気の値が正しくありません"
    ),
    "command/unknown_channel": Code(
        "no chat channel of that name on this table", "チャンネル「{channel}」はありません"
    ),
    "command/channel_exists": Code(
        "a channel of that name exists (or is 観戦, the spectators')",
        "チャンネル「{channel}」はもうあります",
    ),
    "command/empty": Code("an empty chat line", "空の発言は送れません"),
    "command/too_long": Code(
        "a chat line over 4,000 characters", "発言が長すぎます（4000文字まで）"
    ),
    "command/last_gm": Code("the last GM cannot step down", "最後のGMは役割を変えられません"),
    "command/no_seed": Code(
        "the table has no seed to reveal", "この卓には公開するシードがありません"
    ),
    "command/seed_revealed": Code(
        "the seed of a table without epochs (created before them) is already revealed, and no more dice are rolled after it",
        "シードはもう公開されています",
    ),
    "command/no_effect": Code("the command would change nothing", "この操作では何も変わりません"),
    # undo and redo (taku.core.undo)
    "undo/players_not_allowed": Code(
        "the table lets only the GM undo and redo (its `history.player_undo` is off)",
        "この卓で取り消し・やり直しができるのはGMだけです",
    ),
    "undo/nothing": Code("nothing to undo (or redo)", "取り消し（やり直し）できる操作がありません"),
    "undo/unknown_command": Code(
        "no command with that id on the table", "操作「{command_id}」はこの卓にありません"
    ),
    "undo/not_undoable": Code(
        "that kind of command cannot be undone (undo, redo, reveal_seed, set_role, leave, set_timer, cancel_timer, the server's own)",
        "この種類の操作は取り消せません",
    ),
    "undo/already_undone": Code(
        "the command is undone already", "その操作はもう取り消されています"
    ),
    "undo/not_undone": Code(
        "the command is not undone, so there is nothing to redo", "その操作は取り消されていません"
    ),
    "undo/not_last": Code(
        "a player may undo (redo) only their own last command, while nobody has acted since"
        " (param `action`: 取り消し or やり直し)",
        "プレイヤーが{action}できるのは、自分の直前の操作（その後だれも操作していないとき）だけです",
    ),
    "undo/depends": Code(
        "a later command depends on it (params `seq`, `command`); the GM may force it with a reason",
        "{seq}番の操作がこの操作に依存しているため、取り消し・やり直しできません（GMは理由をつけて強制できます）",
    ),
    "undo/reason_required": Code(
        "a forced undo or redo needs a reason", "強制するときは理由を書いてください"
    ),
    # forks
    "fork/forbidden": Code(
        "only the source table's GM may fork it (unless its settings allow members)",
        "この卓から分岐できるのはGMだけです",
    ),
    "fork/hidden_state": Code(
        "a member who is not the GM forks at a seq whose state holds what they may not see"
        " (the fork would make them its GM); the source's GM may fork there",
        "この時点の卓にはあなたに見えない情報があります。GMに分岐を頼んでください",
    ),
    "fork/bad_seq": Code(
        "the seq to fork at is not on the source table (1 to its seq)",
        "分岐する番号がこの卓にありません",
    ),
    # timers
    "timer/invalid_duration": Code(
        "a timer lasts 1 to 86,400 seconds", "タイマーの長さは1秒から86400秒までです"
    ),
    "timer/no_clock": Code(
        "a timer decided without the command's time (outside the server and verify)",
        "時刻のないところではタイマーを設定できません",
    ),
    "timer/unknown_timer": Code(
        "no armed timer with that `timer_id` (it expired, was cancelled, or never existed)",
        "動いているタイマー「{timer_id}」はありません",
    ),
    "timer/not_due": Code(
        "the server's expiry of a timer before its deadline (never sent by clients)",
        "タイマー「{timer_id}」はまだ期限前です",
    ),
    # taku verify's findings (docs/verify.md): each names the seq and what differs
    "verify/fork": Code(
        "a forked table's prefix does not check out against its source's log (`--fork-source`)",
        "分岐元のログと分岐した卓の始まりが一致しません",
    ),
    "verify/empty": Code("the log has no events", "ログに出来事がありません"),
    "verify/missing": Code(
        "seqs are missing (a truncation or a removed event)", "ログの一部が欠けています"
    ),
    "verify/chain": Code(
        "the hash chain breaks: an event's content does not give its hash",
        "ハッシュの鎖が切れています（書き換えられた出来事があります）",
    ),
    "verify/head": Code(
        "the log does not reach a head a player holds (a forged or cut log)",
        "手元のハッシュ（ヘッド）とログが一致しません",
    ),
    "verify/seed": Code(
        "a revealed seed does not match the hash published before its epoch",
        "公開されたシードが、先に公開されたハッシュと一致しません",
    ),
    "verify/unrevealed": Code(
        "dice were drawn but no seed has been revealed yet: no face can be checked",
        "シードがまだ公開されていないので、出目を検証できません",
    ),
    "verify/commitment": Code(
        "hidden content does not match the commitment everyone received",
        "非公開の内容が、全員に配られたコミットメントと一致しません",
    ),
    "verify/command": Code(
        "a recorded command does not fit its place in the log, or a chained event lacks its command",
        "記録されたコマンドがログと合いません",
    ),
    "verify/rejected": Code(
        "a recorded command is refused when decided again",
        "記録されたコマンドを判定し直すと拒否されます",
    ),
    "verify/differs": Code(
        "deciding a recorded command again gives other events than the log's",
        "コマンドを判定し直した結果がログと違います",
    ),
    "verify/decode": Code(
        "an event in the log is not an event of the table's ruleset",
        "ログにこのルールの出来事ではないものがあります",
    ),
    "verify/faces": Code(
        "a die face or shuffle is not the one the seed gives",
        "ダイスの出目かシャッフルがシードから計算したものと違います",
    ),
    "verify/result": Code(
        "a roll's result (total, 成功数, flag) is not what its own faces give",
        "ダイスの結果（合計・成功数・成否）が、その出目から計算したものと違います",
    ),
    "verify/display": Code(
        "a line's shown text, speaker or outcome is not what its event renders to",
        "表示された文面・発言者・成否が、出来事から作り直したものと違います",
    ),
    # dice
    "dice/invalid": Code(
        "a bad dice expression (`params.reason`: why, in Japanese)",
        "ダイス式が正しくありません: {reason}",
    ),
    "dice/too_many_dice": Code("more than 200 dice", "ダイスが多すぎます（200個まで）"),
    "dice/too_many_faces": Code(
        "a die of more than 1,000 faces", "ダイスの面が多すぎます（1000面まで）"
    ),
    # the store
    "store/error": Code("a store error", "保存でエラーが起きました"),
    "store/seq_conflict": Code(
        "another append took the seq; retry", "同時に別の操作がありました。もう一度送ってください"
    ),
    "store/duplicate_command": Code(
        "the command id was already appended", "このコマンドはもう記録されています"
    ),
    "store/retry": Code(
        "the append failed and nothing was written; resend with the same command id",
        "保存できませんでした。同じコマンドIDで送り直してください",
    ),
    "store/unavailable": Code(
        "the database cannot be reached; the command may still commit, resend with the same id",
        "データベースに接続できません。同じコマンドIDで送り直してください",
    ),
    "store/closed": Code("the store is closed (the server is stopping)", "サーバーが停止中です"),
    "store/commit_failed": Code("the commit failed", "保存に失敗しました"),
    "store/table_exists": Code("a table with that id exists", "その卓はもうあります"),
    "store/bad_seq": Code(
        "an append at a seq that does not follow the stream", "記録の順番が正しくありません"
    ),
    "store/bad_url": Code("a store URL taku cannot open", "保存先の指定が正しくありません"),
    "store/bad_path": Code("a SQLite path that cannot be opened", "保存先のファイルを開けません"),
    "store/open_failed": Code("the store could not be opened", "保存先を開けませんでした"),
    "store/schema_newer": Code(
        "the database was written by a newer taku", "データベースが新しい版のtakuで作られています"
    ),
    "store/unreadable_event": Code(
        "a stored event this taku cannot read (unknown type, a version with no upcaster, "
        "data that does not fit); `params` name the table, seq and type",
        "卓「{table_id}」の記録 {seq}（{type}）を読めません: {reason}",
    ),
    # the server
    "internal/error": Code(
        "a bug; logged on the server; nothing was written",
        "サーバー内部のエラーです（記録されました。何も変更されていません）",
    ),
    "rule/<ruleset>/<reason>": Code(
        "the rules forbid it; `params.section` names the rulebook section; each ruleset lists its reasons",
        "{message}",
    ),
}


class _Params(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return ""


def message(code: str, params: Mapping[str, Any], fallback: str = "") -> str:
    """The Japanese message of ``code`` with ``params``.

    A param the error does not carry is left out (``キャラクター「」はいません`` reads
    ``キャラクターはいません``). Rule codes (``rule/…``) carry their own Japanese
    message: ``fallback``; so does a code outside the catalogue.
    """
    entry = CATALOGUE.get(code)
    if entry is None or code.startswith("rule/"):
        return fallback or code
    text = string.Formatter().vformat(
        entry.template, (), _Params({k: v for k, v in params.items() if v not in (None, "")})
    )
    text = text.replace("「」という", "その").replace("「」", "")
    return text.removesuffix(": ").strip()


def markdown_table() -> str:
    """The error table of docs/protocol.md, generated from the catalogue."""
    lines = ["| code | meaning | message (ja) |", "|---|---|---|"]
    for code, entry in CATALOGUE.items():
        lines.append(f"| `{code}` | {entry.meaning} | {entry.template} |")
    return "\n".join(lines)


BEGIN = "<!-- error-codes: generated by `taku schema` from taku.codes -->"
END = "<!-- /error-codes -->"


def with_table(markdown: str) -> str:
    """``markdown`` (docs/protocol.md) with its generated error table replaced by the catalogue's."""
    a = markdown.index(BEGIN) + len(BEGIN)
    b = markdown.index(END)
    return markdown[:a] + "\n" + markdown_table() + "\n" + markdown[b:]
