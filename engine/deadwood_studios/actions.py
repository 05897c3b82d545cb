"""Deadwood Studios actions: one frozen, tagged msgspec Struct per kind of decision.

Rooms are named by their string id (``"saloon"``, ``"trailers"``, ``"casting_office"``; see
:mod:`.components`), roles by their printed name (an extra and a starring role may share a name,
so :class:`TakeRole` says which).

A turn is a short sequence of decisions by the current player (rulebook: On Your Turn):

* not working on a role: any of :class:`Upgrade` (at the Casting Office, once), :class:`Move`
  (one step, once), then :class:`TakeRole` (ends the turn) or :class:`EndTurn`. When nothing is
  left but :class:`EndTurn`, the turn ends by itself.
* working on a role: :class:`Act` or :class:`Rehearse`; either ends the turn.
"""

from __future__ import annotations

import typing

import msgspec


class Move(msgspec.Struct, frozen=True, tag="move", order=True):
    """Move one step, to the adjacent room ``to`` (Moving and Taking Roles: Moving)."""

    to: str


class TakeRole(msgspec.Struct, frozen=True, tag="take_role", order=True):
    """Take the role ``role`` in this set: a starring role on the scene card (``on_card``) or an
    extra printed on the board. Ends the turn: you work on it from your next turn (Taking a Role)."""

    role: str
    on_card: bool


class Upgrade(msgspec.Struct, frozen=True, tag="upgrade", order=True):
    """At the Casting Office: pay the table's price for ``rank`` in ``currency`` (``"dollars"`` or
    ``"credits"``) and become that rank (Upgrading)."""

    rank: int
    currency: str


class Act(msgspec.Struct, frozen=True, tag="act", order=True):
    """Roll a die and add your practice chips: a total of at least the budget succeeds (Acting)."""


class Rehearse(msgspec.Struct, frozen=True, tag="rehearse", order=True):
    """Take a practice chip: +1 on every roll on this role (Rehearsing); not once success is sure."""


class EndTurn(msgspec.Struct, frozen=True, tag="end_turn", order=True):
    """End the turn where you stand, without a role (or without moving)."""


Action = Move | TakeRole | Upgrade | Act | Rehearse | EndTurn
"""Every Deadwood Studios action (a tagged union: each encodes with its ``type``)."""

ACTION_TYPES: tuple[type[msgspec.Struct], ...] = typing.get_args(Action)
"""The action classes, each exactly once: ``State.apply`` accepts instances of exactly these."""
