"""The core commands every table accepts, whatever its ruleset.

Commands are imperative (``RollDice``) with explicit snake_case tags; a
ruleset's tags take its id as a prefix (``nstrpg.roll_evasion``). They come from
clients, so they forbid unknown fields: a misspelt field is an error, not a
silent default.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

import msgspec

__all__ = [
    "CORE_COMMANDS",
    "GM",
    "MEMBER",
    "PLAYER",
    "CharacterRef",
    "AddChannel",
    "Chat",
    "Command",
    "CreateCharacter",
    "Leave",
    "MemberRef",
    "Override",
    "Permit",
    "RemoveCharacter",
    "RenameMember",
    "RevealSeed",
    "RollDice",
    "SetChatPalette",
    "SetRole",
    "SetTimer",
    "CancelTimer",
    "Text",
    "Undo",
    "Redo",
    "UpdateCharacter",
    "field",
    "fingerprint",
    "owner_of",
]


@dataclass(frozen=True)
class Permit:
    """Who may send a command: declared once on the command class, enforced by the core.

    The core's dispatch checks the declaration before any ``decide`` runs and
    refuses with ``command/forbidden`` (params ``command``, ``role``, ``reason``).

    Attributes:
        roles: the roles that may send it (:class:`~taku.core.ruleset.Role` strings).
        owner_fields: the command's fields naming the acting characters, each a
            field name or a dotted path into a nested Struct (``"first.character_id"``);
            a field holds a character id, a list of them, or ``None`` for none. Each
            named character must exist (``command/unknown_character``) and belong
            to the sender, unless the sender is a GM.
        label: who may send it, for people (``"GMのみ"``).
    """

    roles: frozenset[str]
    owner_fields: tuple[str, ...] = ()
    label: str = ""

    @property
    def owner_field(self) -> str | None:
        """The first of :attr:`owner_fields` (``None`` when the permit names no character)."""
        return self.owner_fields[0] if self.owner_fields else None

    @property
    def gm_only(self) -> bool:
        return self.roles == frozenset({"gm"})

    def describe(self) -> dict[str, Any]:
        """The declaration as JSON (``list_rulesets``' ``permissions``)."""
        return {
            "roles": sorted(self.roles),
            "owner_fields": list(self.owner_fields),
            "label": self.label,
        }


GM = Permit(frozenset({"gm"}), label="GMのみ")
"""Only a GM."""
PLAYER = Permit(frozenset({"gm", "player"}), label="プレイヤーとGM")
"""Any player or GM (never a spectator)."""
MEMBER = Permit(frozenset({"gm", "player", "spectator"}), label="全員（観戦者を含む）")
"""Any member, spectators included: only for membership itself (leave, rename oneself)."""


def owner_of(*fields: str) -> Permit:
    """The owner of the characters named by ``fields`` (default ``"character_id"``;
    dotted paths reach nested Structs), or a GM (never a spectator)."""
    return Permit(
        frozenset({"gm", "player"}),
        owner_fields=fields or ("character_id",),
        label="キャラクターの持ち主とGM",
    )


class Command(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    """Base of every command, core and ruleset.

    ``permit`` (a class variable, default :data:`PLAYER`) declares who may send
    it: :data:`GM`, :data:`PLAYER`, :data:`MEMBER` or :func:`owner_of`. The core
    enforces it before ``decide``; clients learn it from ``list_rulesets``
    (``permissions``, ``gm_commands``). A ruleset does not check it again.
    """

    permit: ClassVar[Permit] = PLAYER
    meta: ClassVar[msgspec.Meta] = msgspec.Meta()
    """The Japanese ``title`` and ``description`` for people (forms, the JSON Schema's
    ``title``/``description``); the docstring stays for developers."""
    added_fields: ClassVar[tuple[str, ...]] = ()
    """Fields added after the command shipped: left out of its :func:`fingerprint` while
    they hold their default, so a command an older taku stored, sent again with the
    same id, is still the same command."""


def field(
    title: str,
    description: str = "",
    *,
    labels: dict[str, str] | None = None,
    **constraints: Any,
) -> msgspec.Meta:
    """A field's ``msgspec.Meta`` with its Japanese title (use in ``Annotated[T, field(...)]``).

    ``labels`` names a closed set's values for people (``{"pc": "PC", "mob": "モブ敵"}``),
    as the schema's ``x-labels``; without it they are read from the description's
    ``value（ラベル）`` segments (:func:`taku.schema.enum_labels`).
    """
    if labels:
        extra = dict(constraints.pop("extra_json_schema", None) or {})
        extra["x-labels"] = dict(labels)
        constraints["extra_json_schema"] = extra
    return msgspec.Meta(title=title, description=description or None, **constraints)


Text = Annotated[
    str, field("本文", "チャットの一行。ダイスコマンド（BCDice形式）も書ける", max_length=4000)
]
CharacterRef = Annotated[str, field("キャラクター", "キャラクターのID")]
MemberRef = Annotated[str, field("メンバー", "卓のメンバーのID")]
RoleName = Annotated[
    Literal["gm", "player", "spectator"],
    field("役割", "gm（GM）、player（プレイヤー）、spectator（観戦者）"),
]


class Chat(Command, frozen=True, kw_only=True, tag="chat"):
    """A chat line. The ruleset may read a dice command in it (BCDice style, e.g.
    ``2D6>=7 attack`` or ``S1D100<=50``); otherwise it is posted as text.
    ``character_id`` speaks as one of the member's characters."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="チャット", description="発言する。ダイスコマンドは振られる（先頭にSでシークレット）"
    )

    added_fields = ("channel", "to")

    text: Text
    character_id: Annotated[
        str | None, field("発言キャラクター", "このキャラクターとして発言する")
    ] = None
    channel: Annotated[
        str, field("チャンネル", "メイン・情報・雑談、またはGMが足したチャンネル（空ならメイン）")
    ] = ""
    to: Annotated[
        list[str],
        field("宛先（内緒話）", "選んだメンバーとGMにだけ見える発言にする（メンバーのID）"),
    ] = []


class RollDice(Command, frozen=True, kw_only=True, tag="roll"):
    """A generic dice roll in BCDice notation (``3D6+2>=10``, ``D66``, ``4B6>=4``)."""

    meta = msgspec.Meta(
        title="ダイスを振る", description="BCDice形式のダイス（3D6+2>=10、D66、4B6>=4）"
    )

    expression: Annotated[str, field("ダイス式", "例: 2D6+1>=8、1D100<=50", max_length=200)]
    secret: Annotated[bool, field("シークレット", "振った本人とGMだけが結果を見る")] = False
    comment: Annotated[str, field("コメント", max_length=500)] = ""


class RenameMember(Command, frozen=True, kw_only=True, tag="rename"):
    """Rename oneself, or (GM) ``member_id``."""

    permit = MEMBER
    meta = msgspec.Meta(
        title="名前を変える", description="自分の名前を変える（GMは他のメンバーも）"
    )

    name: Annotated[str, field("名前", max_length=64)]
    member_id: Annotated[
        str | None, field("メンバー", "名前を変えるメンバー（GMのみ。空なら自分）")
    ] = None


class SetRole(Command, frozen=True, kw_only=True, tag="set_role"):
    """GM only: make ``member_id`` a ``gm``, ``player`` or ``spectator``."""

    permit = GM
    meta = msgspec.Meta(title="役割を変える", description="メンバーをGM・プレイヤー・観戦者にする")

    member_id: MemberRef
    role: RoleName


class Leave(Command, frozen=True, kw_only=True, tag="leave"):
    """Leave the table. Characters stay; the member may come back with their token."""

    permit = MEMBER
    meta = msgspec.Meta(
        title="退出する", description="卓を離れる。キャラクターは残り、トークンで戻れる"
    )


class CreateCharacter(Command, frozen=True, kw_only=True, tag="create_character"):
    """Create a character. A player owns what they create; the GM may name an
    ``owner`` or none (an NPC). ``sheet`` is checked by the ruleset."""

    meta = msgspec.Meta(
        title="キャラクターを作る",
        description="キャラクターを作る。GMは持ち主を選べる（なしならNPC）",
    )

    name: Annotated[str, field("名前", max_length=64)]
    owner: Annotated[
        str | None, field("持ち主", "キャラクターを持つメンバー（GMのみ。空ならNPC）")
    ] = None
    sheet: Annotated[dict[str, Any], field("シート", "ルールごとのキャラクターシート")] = {}


class UpdateCharacter(Command, frozen=True, kw_only=True, tag="update_character"):
    """Change a character's name, owner (GM) or sheet keys (the ruleset checks them)."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="キャラクターを編集する", description="名前・持ち主（GMのみ）・シートの値を変える"
    )

    character_id: CharacterRef
    name: Annotated[Annotated[str, msgspec.Meta(max_length=64)] | None, field("名前")] = None
    owner: Annotated[str | None, field("持ち主", "新しい持ち主（GMのみ）")] = None
    sheet: Annotated[dict[str, Any], field("シート", "変えるシートの値")] = {}


class RemoveCharacter(Command, frozen=True, kw_only=True, tag="remove_character"):
    """Remove a character (its owner or a GM)."""

    permit = owner_of()
    meta = msgspec.Meta(title="キャラクターを削除する", description="キャラクターを卓から消す")

    character_id: CharacterRef


class Override(Command, frozen=True, kw_only=True, tag="override"):
    """GM only: set any value of the table state by path, with a reason.

    ``path`` starts with ``"characters"`` or ``"game"``, e.g.
    ``["characters", "ch4", "sheet", "karate"]`` or ``["game", "dkk", "ch4"]``.
    The result must still be a valid state; otherwise ``command/invalid``.
    """

    permit = GM
    meta = msgspec.Meta(
        title="値を上書きする", description="GMが状態の任意の値を理由つきで書き換える"
    )

    path: Annotated[
        list[str | int], field("場所", "書き換える値の場所（characters… または game…）")
    ]
    value: Annotated[Any, field("値", "新しい値")] = None
    reason: Annotated[str, field("理由", max_length=500)] = ""


class AddChannel(Command, frozen=True, kw_only=True, tag="add_channel"):
    """GM only: a new chat channel (a tab in the client)."""

    permit = GM
    meta = msgspec.Meta(title="チャンネルを足す", description="チャットのチャンネル（タブ）を足す")

    name: Annotated[str, field("チャンネル名", max_length=16)]


class SetChatPalette(Command, frozen=True, kw_only=True, tag="set_chat_palette"):
    """A character's chat colour and チャットパレット (its owner or a GM). A field left
    out keeps its value. Palette lines may hold ``{能力値}`` references to the sheet."""

    permit = owner_of()
    meta = msgspec.Meta(
        title="チャットパレットを編集する",
        description="キャラクターの発言の色とチャットパレット（{能力値} でシートの値を使える）",
    )

    character_id: CharacterRef
    color: Annotated[
        Annotated[str, msgspec.Meta(pattern="^(#[0-9a-fA-F]{6})?$")] | None,
        field("色", "#rrggbb（空なら既定の色）"),
    ] = None
    palette: Annotated[
        Annotated[str, msgspec.Meta(max_length=8000)] | None,
        field("チャットパレット", "一行ごとに一つの発言・ダイスコマンド"),
    ] = None


class RevealSeed(Command, frozen=True, kw_only=True, tag="reveal_seed"):
    """GM only: publish the table's dice seed so anyone can ``taku verify`` the log."""

    permit = GM
    meta = msgspec.Meta(
        title="シードを公開する",
        description="ダイスのシードを公開し、誰でも taku verify でログを検証できるようにする",
    )


class Undo(Command, frozen=True, kw_only=True, tag="undo"):
    """Undo a command (:mod:`taku.core.undo`): the table's last one by default, an
    earlier one when no later command depends on it, or any one with ``force`` (GM,
    with a reason). A player may undo their own last command when the table allows it
    (``history.player_undo``) and nobody has acted since."""

    meta = msgspec.Meta(
        title="取り消す", description="操作を取り消す（指定しなければ卓の直前の操作）"
    )

    command_id: Annotated[
        Annotated[str, msgspec.Meta(max_length=128)] | None,
        field("取り消す操作", "操作のID（空なら直前の操作）"),
    ] = None
    force: Annotated[
        bool, field("強制", "後の操作が依存していても取り消す（GMのみ、理由が必要）")
    ] = False
    reason: Annotated[str, field("理由", max_length=500)] = ""


class Redo(Command, frozen=True, kw_only=True, tag="redo"):
    """Restore an undone command (the last undone one by default)."""

    meta = msgspec.Meta(
        title="やり直す",
        description="取り消した操作を元に戻す（指定しなければ最後に取り消した操作）",
    )

    command_id: Annotated[
        Annotated[str, msgspec.Meta(max_length=128)] | None,
        field("やり直す操作", "操作のID（空なら最後に取り消した操作）"),
    ] = None
    force: Annotated[
        bool, field("強制", "後の操作が依存していてもやり直す（GMのみ、理由が必要）")
    ] = False
    reason: Annotated[str, field("理由", max_length=500)] = ""


MAX_TIMER_S = 86_400
"""The longest timer: one day, in seconds."""


class SetTimer(Command, frozen=True, kw_only=True, tag="set_timer"):
    """GM only: a timer of ``duration_s`` seconds (1 to 86,400; outside them
    ``timer/invalid_duration``). At its deadline the server appends
    ``timer_expired`` (once, also after a restart); a ruleset may act on it (shadowjan
    passes the turn of ``character_id`` when the table's option says so)."""

    permit = GM
    meta = msgspec.Meta(
        title="タイマーを設定する",
        description="時間が来るとサーバーが「時間切れ」を記録する（手番の持ち時間など）",
    )

    # the bounds are in the schema (forms), but decided by the table: out of them the
    # answer is timer/invalid_duration, not a generic protocol/invalid_fields
    duration_s: Annotated[
        int,
        field(
            "長さ（秒）",
            "1秒から86400秒（1日）",
            extra_json_schema={"minimum": 1, "maximum": MAX_TIMER_S},
        ),
    ]
    label: Annotated[str, field("名前", "例: 手番の持ち時間", max_length=64)] = ""
    character_id: Annotated[
        str | None,
        field("手番のキャラクター", "このキャラクターの手番の持ち時間（空なら誰のでもない）"),
    ] = None


class CancelTimer(Command, frozen=True, kw_only=True, tag="cancel_timer"):
    """GM only: stop a timer before its deadline (it never expires)."""

    permit = GM
    meta = msgspec.Meta(title="タイマーを止める", description="期限の前にタイマーを止める")

    timer_id: Annotated[str, field("タイマー", "タイマーのID（timer_set の timer_id）")]


CORE_COMMANDS: tuple[type[Command], ...] = (
    Chat,
    RollDice,
    RenameMember,
    SetRole,
    Leave,
    CreateCharacter,
    UpdateCharacter,
    RemoveCharacter,
    Override,
    RevealSeed,
    AddChannel,
    SetChatPalette,
    Undo,
    Redo,
    SetTimer,
    CancelTimer,
)


_canonical = msgspec.json.Encoder(order="deterministic").encode


def fingerprint(command: Command) -> str:
    """What makes two commands "the same command": 32 hex digits of a BLAKE2b hash
    of the command's canonical JSON (its ``type`` tag and every field, defaults
    included, object keys sorted), so key order, whitespace and an omitted default
    do not count. The application service keeps it with the command's events and
    refuses a ``command_id`` sent again with a different fingerprint
    (``command/id_reused``). Fields in the class's ``added_fields`` count only when
    they differ from their default (the fingerprint older versions computed)."""
    added, without = _plan(type(command))
    if added:
        values = None
        for i, default in added:
            if values is None:
                if getattr(command, without.__struct_fields__[i]) != default:
                    continue
                values = list(msgspec.structs.astuple(command))
            if values[i] == default:
                values[i] = _LEFT_OUT
        if values is not None:
            # the Struct's own encoding (its tag, then its fields in order) without them
            return hashlib.blake2b(_canonical(without(*values)), digest_size=16).hexdigest()
    return hashlib.blake2b(_canonical(command), digest_size=16).hexdigest()


class _Sentinel:
    """A default no command's value is (compared by identity by ``omit_defaults``)."""


_LEFT_OUT = _Sentinel()
"""What an added field at its default is replaced with: its :func:`_plan` Struct's
default, so ``omit_defaults`` leaves it out (by identity, whatever the default is)."""

_KEPT = _Sentinel()
"""The default of every other field of a :func:`_plan` Struct: never a value, so kept."""


@functools.cache
def _plan(t: type[Command]) -> tuple[tuple[tuple[int, Any], ...], type[msgspec.Struct]]:
    """What :func:`fingerprint` needs of a command type, once per type: the added
    fields' (index, default), and a Struct of the same tag and fields (names as
    encoded) that leaves out a field whose value is :data:`_LEFT_OUT` and keeps every
    other (``omit_defaults``; made from the command's field values in order).
    ``msgspec.structs.fields`` evaluates the type's annotations on every call (most
    of a chat command's time before it was kept)."""
    added_names = set(t.added_fields)
    added = []
    spec: list[tuple[str, Any, Any]] = []
    fields = msgspec.structs.fields(t)
    for i, f in enumerate(fields):
        if f.name in added_names:
            default = f.default
            if default is msgspec.NODEFAULT and f.default_factory is not msgspec.NODEFAULT:
                default = f.default_factory()
            added.append((i, default))  # a required one (NODEFAULT) is never at its default
            spec.append((f.name, Any, _LEFT_OUT))
        else:
            spec.append((f.name, Any, _KEPT))
    config = t.__struct_config__
    without = msgspec.defstruct(
        f"{t.__name__}Fingerprint",
        spec,
        tag=config.tag,
        tag_field=config.tag_field,
        omit_defaults=True,
        rename={f.name: f.encode_name for f in fields},
    )
    return tuple(added), without
