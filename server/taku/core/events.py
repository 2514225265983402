"""The event envelope and the core events every table shares.

An event is a msgspec Struct in a tagged union (``"type"`` is the tag). Core
tags are plain (``member_joined``); a ruleset's tags take its id as a prefix
(``nstrpg.evasion_rolled``). Once shipped, an event type only gains fields with
defaults; anything else is a new type or an upcaster.

Stored events are :class:`Recorded` envelopes. The store keeps ``data`` as raw
JSON, so it needs no ruleset to read or write; the application decodes ``data``
with the table's union (:func:`taku.core.table.event_decoder`).
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, ClassVar, Literal

import msgspec

from taku.core.dice import Roll

__all__ = [
    "CORE_EVENTS",
    "GM",
    "CharacterCreated",
    "CharacterRemoved",
    "CharacterUpdated",
    "ChannelAdded",
    "ChatPaletteSet",
    "ChatPosted",
    "CommandRedone",
    "CommandUndone",
    "DiceRolled",
    "ForkOrigin",
    "Event",
    "GMOverridden",
    "HistorySettings",
    "MemberJoined",
    "MemberLeft",
    "MemberRenamed",
    "NO_JSON",
    "Private",
    "Recorded",
    "Redacted",
    "RoleChanged",
    "SeedRevealed",
    "TableCreated",
    "TableForked",
    "TimerCancelled",
    "TimerExpired",
    "TimerSet",
    "tag_of",
]

GM = "@gm"
"""In an audience, stands for every member whose role is GM."""


def tag_of(struct: type[msgspec.Struct]) -> str:
    """The ``type`` tag of a tagged Struct class (an event, a command or a message).

    Raises:
        TypeError: the class has no string tag.
    """
    tag = struct.__struct_config__.tag
    if not isinstance(tag, str):
        raise TypeError(f"{struct.__name__} has no string tag")
    return tag


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", omit_defaults=True):
    """Base of every event, core and ruleset. Subclasses set an explicit ``tag``, and
    ``meta`` (a class variable): the Japanese ``title`` and ``description`` for people.

    ``version`` (a class variable, 1 unless set) is the shape's version, written into
    each stored envelope (:attr:`Recorded.event_version`). A type whose shape changes
    in a way old data does not decode into raises it by one, and its ruleset declares
    an upcaster from each older version (:attr:`taku.core.ruleset.Ruleset.upcasters`,
    :mod:`taku.core.upcast`); reading the log upcasts before decoding.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta()
    version: ClassVar[int] = 1


class Private(msgspec.Struct, frozen=True, kw_only=True):
    """What a decider returns for an event not everybody may see.

    Args:
        event: the full event, seen by the audience (and written to the log).
        audience: member ids, and :data:`GM` for every GM, who see ``event``.
            An empty audience means nobody but the server (a deck's order).
        redacted: what everyone else receives at the same seq; ``None`` gives a
            plain :class:`Redacted` naming the event type.
    """

    event: Event
    audience: tuple[str, ...]
    redacted: Event | None = None


NO_JSON = msgspec.Raw(b"null")
"""JSON ``null`` as the default of :class:`Recorded`'s raw fields: pass this very object
for "none", and the stored envelope leaves the field out."""


class Recorded(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One stored event: the envelope of DESIGN.md with ``data`` as raw JSON.

    Fields at their defaults are left out of the stored JSON (an envelope written
    before a field existed reads back the same way).

    Attributes:
        table_id: the stream.
        seq: 1, 2, 3 … without gaps within the table.
        type: the event's tag, e.g. ``"chat_posted"``.
        data: the event as JSON (it carries its ``type`` tag too).
        actor: the member id that caused it; ``None`` for the server.
        time: UTC time of the append.
        command_id: the command that produced it (idempotency, causation).
        audience: ``None`` when public; else who sees ``data`` (see :class:`Private`).
        redacted: the JSON everyone else sees instead, when ``audience`` is set
            (JSON ``null`` otherwise; see :meth:`redacted_form`).
        draws: faces the command drew from the table's dice stream, on the
            command's last event only (0 elsewhere); the fold sums them.
        event_version: the version of ``data``'s shape (its type's ``version`` when it
            was written; 1 for events stored before taku kept versions).
        command_fingerprint: the producing command's
            :func:`~taku.core.commands.fingerprint` (``None`` for the server's own
            commands and for events stored before taku kept it), so the command id
            sent again with a different command is refused, not swallowed.
        hash: the hash chain through this event (:mod:`taku.core.chain`, hex
            SHA-256); ``None`` for events stored before taku kept the chain.
        commitment: for a hidden event, ``sha256:`` over ``salt`` and the hidden
            content (:func:`taku.core.chain.commitment`); public, in the stand-in's frame.
        salt: the commitment's random salt (hex); hidden like the event.
        command: on a command's first event, the command as it was decided
            (``{"decided": <command JSON with its type>, "version": <ruleset
            version>, "at": <the seq it was decided at>}``); JSON ``null`` elsewhere.
            ``taku verify`` decides it again and requires the same events.
        command_commitment: when any event of the command is hidden, the
            commitment to ``command`` (with ``command_salt``), which the public
            receives instead of the command itself.
        command_salt: that commitment's salt (hex); hidden.
    """

    table_id: str
    seq: int
    type: str
    data: msgspec.Raw
    actor: str | None
    time: dt.datetime
    command_id: str
    audience: tuple[str, ...] | None = None
    redacted: msgspec.Raw = NO_JSON
    draws: int = 0
    command_fingerprint: str | None = None
    event_version: int = 1
    hash: str | None = None
    commitment: str | None = None
    salt: str | None = None
    command: msgspec.Raw = NO_JSON
    command_commitment: str | None = None
    command_salt: str | None = None

    def redacted_form(self) -> msgspec.Raw | None:
        """The JSON shown to those outside ``audience`` (``None`` for a public event)."""
        return None if self.audience is None or bytes(self.redacted) == b"null" else self.redacted


# --------------------------------------------------------------------------- core events


class TableSettings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The core's own table options, whatever the ruleset (``create_table.settings``)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="卓の設定", description="ルールによらない卓の設定"
    )

    spectator_chat: Annotated[
        bool,
        msgspec.Meta(
            title="観戦者の発言",
            description="観戦者が観戦チャンネルで発言できる（ダイスは振れない）",
        ),
    ] = False


class HistorySettings(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True
):
    """Who may undo and fork (``create_table.history``; ``table_created.history``, left
    out of the event when both are off, so logs written before it read the same)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="取り消しと分岐", description="取り消し・やり直しと、卓の分岐をだれができるか"
    )

    player_undo: Annotated[
        bool,
        msgspec.Meta(
            title="プレイヤーの取り消し",
            description="プレイヤーが自分の直前の操作を、その後だれも操作していなければ取り消せる",
        ),
    ] = False
    fork_by_members: Annotated[
        bool,
        msgspec.Meta(
            title="メンバーの分岐",
            description=(
                "GM以外のメンバーもこの卓から分岐した卓を作れる（分岐した人がその卓のGMになる）。"
                "ただし、その時点でそのメンバーに見えない情報（NPCの手札など）があるときは"
                "GMしか分岐できない"
            ),
        ),
    ] = False


class ForkOrigin(msgspec.Struct, frozen=True, kw_only=True):
    """Where a forked table comes from: the source table, the seq it was forked at and
    the source's hash chain head through that seq (hex)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(title="分岐元")

    table_id: Annotated[str, msgspec.Meta(title="分岐元の卓")]
    seq: Annotated[int, msgspec.Meta(title="分岐した番号")]
    head: Annotated[str, msgspec.Meta(title="分岐元のハッシュ")] = ""


class TableCreated(Event, frozen=True, kw_only=True, tag="table_created"):
    """The first event of every table. ``seed_hash`` commits to the dice seed.

    ``settings`` came after the first logs: an older ``table_created`` decodes with the defaults.
    ``forked_from`` names the source of a forked table (:class:`TableForked` follows).
    """

    meta = msgspec.Meta(title="卓が作られた")

    name: Annotated[str, msgspec.Meta(title="卓の名前")]
    ruleset: Annotated[str, msgspec.Meta(title="ルール")]
    ruleset_version: Annotated[str, msgspec.Meta(title="ルールの版")]
    options: Annotated[dict[str, Any], msgspec.Meta(title="オプション")] = {}
    seed_hash: Annotated[str, msgspec.Meta(title="シードのハッシュ")] = ""
    settings: Annotated[TableSettings, msgspec.Meta(title="卓の設定")] = TableSettings()
    epochs: Annotated[
        bool,
        msgspec.Meta(
            title="シードの期",
            description="シードを公開すると新しいシードの期が始まる（この版より前の卓はfalse）",
        ),
    ] = False
    forked_from: Annotated[ForkOrigin | None, msgspec.Meta(title="分岐元")] = None
    history: Annotated[HistorySettings, msgspec.Meta(title="取り消しと分岐")] = HistorySettings()


class MemberJoined(Event, frozen=True, kw_only=True, tag="member_joined"):
    meta = msgspec.Meta(title="参加した")

    member_id: Annotated[str, msgspec.Meta(title="メンバー")]
    name: Annotated[str, msgspec.Meta(title="名前")]
    role: Annotated[
        Literal["gm", "player", "spectator"],
        msgspec.Meta(
            title="役割", description="gm（GM）・player（プレイヤー）・spectator（観戦者）"
        ),
    ]


class MemberLeft(Event, frozen=True, kw_only=True, tag="member_left"):
    meta = msgspec.Meta(title="退出した")

    member_id: Annotated[str, msgspec.Meta(title="メンバー")]


class MemberRenamed(Event, frozen=True, kw_only=True, tag="member_renamed"):
    meta = msgspec.Meta(title="名前が変わった")

    member_id: Annotated[str, msgspec.Meta(title="メンバー")]
    name: Annotated[str, msgspec.Meta(title="新しい名前")]


class RoleChanged(Event, frozen=True, kw_only=True, tag="role_changed"):
    meta = msgspec.Meta(title="役割が変わった")

    member_id: Annotated[str, msgspec.Meta(title="メンバー")]
    role: Annotated[
        Literal["gm", "player", "spectator"],
        msgspec.Meta(
            title="新しい役割", description="gm（GM）・player（プレイヤー）・spectator（観戦者）"
        ),
    ]


class ChatPosted(Event, frozen=True, kw_only=True, tag="chat_posted"):
    """A line of chat. ``character_id`` when spoken as a character; ``channel`` ``""``
    is the main channel メイン (``"観戦"``: a spectator's line, when the table allows it;
    otherwise one of the table's channels, :mod:`taku.core.chat`). ``to`` (member ids)
    makes it a whisper: the event is then hidden (a ``Private``) from everyone but the
    sender, those members and the GM."""

    meta = msgspec.Meta(title="発言")

    text: Annotated[str, msgspec.Meta(title="本文")]
    character_id: Annotated[str | None, msgspec.Meta(title="発言キャラクター")] = None
    channel: Annotated[str, msgspec.Meta(title="チャンネル")] = ""
    to: Annotated[tuple[str, ...], msgspec.Meta(title="宛先（内緒話）")] = ()


class DiceRolled(Event, frozen=True, kw_only=True, tag="dice_rolled"):
    """A generic roll in BCDice notation (see :mod:`taku.core.chatdice`).

    ``result`` is the BCDice-style line, e.g. ``(2D6>=7) ＞ 8[3,5] ＞ 8 ＞ 成功``.
    """

    meta = msgspec.Meta(title="ダイスを振った")

    expression: Annotated[str, msgspec.Meta(title="ダイス式")]
    rolls: Annotated[tuple[Roll, ...], msgspec.Meta(title="出目")]
    total: Annotated[int | None, msgspec.Meta(title="合計")] = None
    successes: Annotated[int | None, msgspec.Meta(title="成功数")] = None
    success: Annotated[bool | None, msgspec.Meta(title="成否")] = None
    result: Annotated[str, msgspec.Meta(title="結果")] = ""
    secret: Annotated[bool, msgspec.Meta(title="シークレット")] = False
    comment: Annotated[str, msgspec.Meta(title="コメント")] = ""
    character_id: Annotated[str | None, msgspec.Meta(title="キャラクター")] = None
    channel: Annotated[str, msgspec.Meta(title="チャンネル")] = ""
    to: Annotated[tuple[str, ...], msgspec.Meta(title="宛先（内緒話）")] = ()
    outcome: Annotated[
        Literal["success", "failure"] | None,
        msgspec.Meta(
            title="表示する成否",
            description="文面の判定の成否（successがBCDiceの向きで文面と逆のとき。例: Wasshoi!判定）",
        ),
    ] = None


class Redacted(Event, frozen=True, kw_only=True, tag="redacted"):
    """What a viewer receives in place of an event they may not see (same seq)."""

    meta = msgspec.Meta(title="非公開の出来事")

    of: Annotated[str, msgspec.Meta(title="出来事の種類")]
    note: Annotated[str, msgspec.Meta(title="注記")] = ""


class CharacterCreated(Event, frozen=True, kw_only=True, tag="character_created"):
    meta = msgspec.Meta(title="キャラクターが作られた")

    character_id: Annotated[str, msgspec.Meta(title="キャラクター")]
    name: Annotated[str, msgspec.Meta(title="名前")]
    owner: Annotated[str | None, msgspec.Meta(title="持ち主")] = None
    sheet: Annotated[dict[str, Any], msgspec.Meta(title="シート")] = {}


class CharacterUpdated(Event, frozen=True, kw_only=True, tag="character_updated"):
    """``sheet`` holds the changed keys only; they replace the old values."""

    meta = msgspec.Meta(title="キャラクターが編集された")

    character_id: Annotated[str, msgspec.Meta(title="キャラクター")]
    name: Annotated[str | None, msgspec.Meta(title="名前")] = None
    owner: Annotated[str | None, msgspec.Meta(title="持ち主")] = None
    sheet: Annotated[dict[str, Any], msgspec.Meta(title="シートの変更")] = {}


class CharacterRemoved(Event, frozen=True, kw_only=True, tag="character_removed"):
    meta = msgspec.Meta(title="キャラクターが削除された")

    character_id: Annotated[str, msgspec.Meta(title="キャラクター")]


class GMOverridden(Event, frozen=True, kw_only=True, tag="gm_overridden"):
    """The GM set a value by hand. ``path`` is into the table state's ``characters``
    (``["characters", id, "sheet", key]``) or the ruleset's ``game`` state
    (``["game", ...]``); ``previous`` is what it was."""

    meta = msgspec.Meta(title="GMが値を上書きした")

    path: Annotated[tuple[str | int, ...], msgspec.Meta(title="場所")]
    value: Annotated[Any, msgspec.Meta(title="新しい値")] = None
    previous: Annotated[Any, msgspec.Meta(title="前の値")] = None
    reason: Annotated[str, msgspec.Meta(title="理由")] = ""


class ChannelAdded(Event, frozen=True, kw_only=True, tag="channel_added"):
    """The GM added a chat channel (beside メイン, 情報 and 雑談)."""

    meta = msgspec.Meta(title="チャンネルが追加された")

    name: Annotated[str, msgspec.Meta(title="チャンネル名")]


class ChatPaletteSet(Event, frozen=True, kw_only=True, tag="chat_palette_set"):
    """A character's chat colour and チャットパレット, as they are from now on (whole values)."""

    meta = msgspec.Meta(title="チャットパレットが変わった")

    character_id: Annotated[str, msgspec.Meta(title="キャラクター")]
    color: Annotated[str, msgspec.Meta(title="色", description="#rrggbb、空なら既定の色")] = ""
    palette: Annotated[
        str, msgspec.Meta(title="チャットパレット", description="一行ごとに一つの発言")
    ] = ""


class SeedRevealed(Event, frozen=True, kw_only=True, tag="seed_revealed"):
    """The GM revealed the current epoch's dice seed (hex); ``taku verify`` can now check
    that epoch. ``next_seed_hash`` commits to the fresh secret seed of the epoch that
    begins with this event (tables with ``table_created.epochs``); without it (older
    tables) no more dice are rolled after the reveal."""

    meta = msgspec.Meta(title="シードが公開された")

    seed: Annotated[str, msgspec.Meta(title="シード")]
    next_seed_hash: Annotated[
        str, msgspec.Meta(title="次のシードのハッシュ", description="新しい期のシードのSHA-256")
    ] = ""


class CommandUndone(Event, frozen=True, kw_only=True, tag="undone"):
    """A command was undone: the table's state is now the fold of its log without that
    command's events (:mod:`taku.core.undo`). The dice it drew stay drawn.

    ``restore`` is the compensation: the parts of the state (``members``,
    ``characters``, ``game``, ``chat``, as JSON) that the undo changed, each whole;
    a part left out is unchanged. When it restores ``game`` and the ruleset's game is
    not everyone's to see whole (``hidden_paths``, or a ``view`` of its own:
    :func:`taku.core.undo.hides_game`) the event is hidden from everyone and the
    public receives it without ``restore``."""

    meta = msgspec.Meta(title="操作が取り消された")

    command_id: Annotated[str, msgspec.Meta(title="取り消した操作")]
    seq: Annotated[int, msgspec.Meta(title="その操作の番号")]
    command: Annotated[str, msgspec.Meta(title="操作の種類")] = ""
    reason: Annotated[str, msgspec.Meta(title="理由")] = ""
    forced: Annotated[
        bool, msgspec.Meta(title="強制", description="後の操作が依存していてもGMが取り消した")
    ] = False
    restore: Annotated[dict[str, Any], msgspec.Meta(title="戻した状態")] = {}


class CommandRedone(Event, frozen=True, kw_only=True, tag="redone"):
    """An undone command was restored (:class:`CommandUndone`, the other way)."""

    meta = msgspec.Meta(title="操作がやり直された")

    command_id: Annotated[str, msgspec.Meta(title="やり直した操作")]
    seq: Annotated[int, msgspec.Meta(title="その操作の番号")]
    command: Annotated[str, msgspec.Meta(title="操作の種類")] = ""
    reason: Annotated[str, msgspec.Meta(title="理由")] = ""
    forced: Annotated[
        bool, msgspec.Meta(title="強制", description="後の操作が依存していてもGMがやり直した")
    ] = False
    restore: Annotated[dict[str, Any], msgspec.Meta(title="戻した状態")] = {}


class TableForked(Event, frozen=True, kw_only=True, tag="table_forked"):
    """The second event of a forked table: the source's state at the fork's seq
    (``members``, ``characters``, ``game``, ``chat`` as JSON; the source's members
    are carried, absent until they join again with their new links; hidden from
    everyone, the public receiving it without ``state``, when the ruleset's game is not
    everyone's to see whole). ``source_name`` is the source's name when it was forked
    (``""`` in forks made before it was recorded). ``id_offset``
    is added to the seq in ids made from now on (:meth:`Context.new_id
    <taku.core.ruleset.Context.new_id>`), so they never meet the source's."""

    meta = msgspec.Meta(title="卓が分岐した")

    source_table: Annotated[str, msgspec.Meta(title="分岐元の卓")]
    source_seq: Annotated[int, msgspec.Meta(title="分岐した番号")]
    source_head: Annotated[str, msgspec.Meta(title="分岐元のハッシュ")] = ""
    state: Annotated[dict[str, Any], msgspec.Meta(title="分岐元の状態")] = {}
    id_offset: Annotated[int, msgspec.Meta(title="IDのずれ")] = 0
    source_name: Annotated[
        str, msgspec.Meta(title="分岐元の卓名", description="分岐したときの分岐元の卓の名前")
    ] = ""


class TimerSet(Event, frozen=True, kw_only=True, tag="timer_set"):
    """A timer was set (``set_timer``, or a ruleset's command): at ``deadline`` (UTC, the
    command's time plus ``duration_s`` seconds) the server appends ``timer_expired``
    once, unless ``timer_cancelled`` came first. ``character_id`` names whose move the
    timer is for (a ruleset may act on it when it expires), ``None`` for none."""

    meta = msgspec.Meta(title="タイマーが設定された")

    timer_id: Annotated[str, msgspec.Meta(title="タイマー")]
    deadline: Annotated[dt.datetime, msgspec.Meta(title="期限", description="UTCの日時")]
    duration_s: Annotated[int, msgspec.Meta(title="長さ（秒）")]
    label: Annotated[str, msgspec.Meta(title="名前")] = ""
    character_id: Annotated[str | None, msgspec.Meta(title="手番のキャラクター")] = None


class TimerCancelled(Event, frozen=True, kw_only=True, tag="timer_cancelled"):
    """The GM stopped a timer before its deadline: it never expires."""

    meta = msgspec.Meta(title="タイマーが止められた")

    timer_id: Annotated[str, msgspec.Meta(title="タイマー")]
    label: Annotated[str, msgspec.Meta(title="名前")] = ""


class TimerExpired(Event, frozen=True, kw_only=True, tag="timer_expired"):
    """A timer reached its deadline; appended by the server (``actor`` ``None``) once per
    timer. The ruleset's ``on_timer`` events, if any, follow it in the same command."""

    meta = msgspec.Meta(title="時間切れ")

    timer_id: Annotated[str, msgspec.Meta(title="タイマー")]
    deadline: Annotated[dt.datetime, msgspec.Meta(title="期限", description="UTCの日時")]
    label: Annotated[str, msgspec.Meta(title="名前")] = ""
    character_id: Annotated[str | None, msgspec.Meta(title="手番のキャラクター")] = None


CORE_EVENTS: tuple[type[Event], ...] = (
    TableCreated,
    MemberJoined,
    MemberLeft,
    MemberRenamed,
    RoleChanged,
    ChatPosted,
    DiceRolled,
    Redacted,
    CharacterCreated,
    CharacterUpdated,
    CharacterRemoved,
    GMOverridden,
    SeedRevealed,
    ChannelAdded,
    ChatPaletteSet,
    CommandUndone,
    CommandRedone,
    TableForked,
    TimerSet,
    TimerCancelled,
    TimerExpired,
)
