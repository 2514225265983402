"""What a viewer may do now, and whose turn it is: the play surface's description.

A ruleset describes its play to people and to front-ends through two pure
functions of the :class:`~taku.core.ruleset.Ruleset` contract:

``affordances(table, viewer, options) -> list[Affordance]``
    The actions ``viewer`` may take now. Each names its command's tag, a
    Japanese label, the arguments already decided, and for open arguments the
    choices drawn from the state (targets, weapons, cards in the viewer's own
    hand …). Every field of the command that is neither in ``args`` nor in
    ``choices`` is open and described by the command's JSON Schema (its
    default is a valid value). Sending ``{"type": command, **args, **one
    choice per key}`` is a well-formed command; the rules may still reject it.

``turn(table, options) -> Turn | None``
    Whose turn (手番) it is, the phase, the round and the order, for rulesets
    with turns; ``None`` otherwise.

Both reach clients in the ``state`` message as top-level fields
(``affordances``, ``turn``), computed for the receiving viewer and so redacted
like everything else: an affordance never names a card the viewer cannot see.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

import msgspec

__all__ = ["Affordance", "Choice", "Turn", "TurnSlot"]


class Choice(msgspec.Struct, frozen=True, kw_only=True):
    """One allowed value of an open argument, with its label for people."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(title="選択肢")

    value: Annotated[Any, msgspec.Meta(title="値")]
    label: Annotated[str, msgspec.Meta(title="表示名")]


class Affordance(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """An action the viewer may take now.

    Attributes:
        command: the command's tag (``"nstrpg.attack"``, ``"chat"`` …).
        label: what the action is, in Japanese (``"攻撃する"``).
        args: the arguments already decided (``{"attacker": "c3"}``).
        choices: for open arguments with a closed set drawn from the state, the
            allowed values (``{"target": [Choice(value="c5", label="クローンヤクザ")]}``).
            An argument whose values form a list (several cards) takes a list of
            values from its choices.
        group: a heading to group actions under (a character's name), or ``""``.
        primary: the action the client should offer first (the expected next step).
        fields: open arguments with no closed set that the person types in (a
            distance, an amount): a client asks for these fields of the command's
            schema before sending (``["ken", "jo", "shaku"]``). An action with none is
            complete with its args and choices (a button).
        confirm: a question in Japanese that a client asks (yes / no) before it sends
            the command, for an action a person rarely means (attacking an ally:
            ``"味方を攻撃しますか？"``); ``None`` (the default) sends at once.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="できること", description="このメンバーが今できる操作"
    )

    command: Annotated[str, msgspec.Meta(title="コマンド", description="コマンドのタグ")]
    label: Annotated[str, msgspec.Meta(title="表示名")]
    args: Annotated[dict[str, Any], msgspec.Meta(title="決まっている引数")] = {}
    choices: Annotated[
        dict[str, list[Choice]], msgspec.Meta(title="選択肢", description="引数ごとの選べる値")
    ] = {}
    group: Annotated[str, msgspec.Meta(title="グループ")] = ""
    primary: Annotated[bool, msgspec.Meta(title="次の手順")] = False
    fields: Annotated[
        list[str],
        msgspec.Meta(title="入力する引数", description="選択肢のない、人が入力する引数の名前"),
    ] = []
    confirm: Annotated[
        str | None,
        msgspec.Meta(
            title="確認",
            description="送る前にクライアントが尋ねる確認の質問（なければすぐ送る）",
        ),
    ] = None


class TurnSlot(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One place in the turn order.

    Attributes:
        id: a character or member id.
        label: its name for people.
        value: what the order was built from (an initiative value), if any.
        done: whether it has acted this round.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(title="手番順の一人")

    id: Annotated[str, msgspec.Meta(title="キャラクターまたはメンバー")]
    label: Annotated[str, msgspec.Meta(title="名前")]
    value: Annotated[
        int | float | str | None,
        msgspec.Meta(title="順番の値", description="手番順を決めた値（イニシアチブなど）"),
    ] = None
    done: Annotated[bool, msgspec.Meta(title="行動済み")] = False


class Turn(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Whose turn it is.

    Attributes:
        actor: the character or member id whose turn (手番) it is, or ``None`` between turns.
        actor_label: its name.
        phase: a stable phase id (``"move"``, ``"attack"``, ``"draw"`` …), or ``""``.
        phase_label: the phase for people (``"攻撃フェイズ"``).
        round: the round or turn number, from 1, if the game counts them.
        round_label: the round for people (``"ターン3"``, ``"東1局"``).
        order: the turn order, first to act first.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="手番", description="誰の手番か、フェイズ、ラウンド、手番順"
    )

    actor: Annotated[
        str | None, msgspec.Meta(title="手番", description="手番のキャラクターまたはメンバーのID")
    ] = None
    actor_label: Annotated[str, msgspec.Meta(title="手番の名前")] = ""
    phase: Annotated[str, msgspec.Meta(title="フェイズ")] = ""
    phase_label: Annotated[str, msgspec.Meta(title="フェイズ名")] = ""
    round: Annotated[int | None, msgspec.Meta(title="ラウンド")] = None
    round_label: Annotated[str, msgspec.Meta(title="ラウンド名")] = ""
    order: Annotated[list[TurnSlot], msgspec.Meta(title="手番順")] = []
