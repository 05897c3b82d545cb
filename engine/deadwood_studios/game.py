"""The Deadwood Studios :class:`engine.Game`: identity, options, new games and action descriptions."""

from __future__ import annotations

from importlib import resources
from typing import Any

import msgspec

from engine.core import check_new_game, parse_options
from engine.deadwood_studios import actions as A
from engine.deadwood_studios import resample, rules, views
from engine.deadwood_studios.actions import Action
from engine.deadwood_studios.components import CREDITS, Components, components
from engine.deadwood_studios.events import Event
from engine.deadwood_studios.rules import scoring, setting_up
from engine.deadwood_studios.state import DeadwoodStudiosState
from engine.deadwood_studios.views import View

RULES_VERSION = "deadwood_studios/3"
"""Bump whenever a rule, the order of chance draws or the order of legal actions changes:
replays recorded under another version are refused."""


MAX_DECISIONS = {n: 10_000 for n in range(2, 9)}
"""The hard cap on decisions per game, by player count: 10 to 18 times the longest game measured
(see the package docstring: The decision cap)."""


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Deadwood Studios' options: none.

    The rulebook's only variant, "the shifting boards" (rearranging the four board sections),
    names no other arrangement, so there is nothing to implement: the game is played on the
    "basic" arrangement of ``board.json``. Any option given raises ``engine.InvalidOptions``.
    """


class DeadwoodStudios:
    """Deadwood, the Cheapass game of acting badly (James Ernest, Cheapass Games, 2011 rules) for 2 to 8 players."""

    id = "deadwood_studios"
    title = "Deadwood Studios"
    min_players = 2
    max_players = 8
    rules_version = RULES_VERSION
    options_type = Options
    action_type: Any = Action
    view_type: Any = View
    event_type: Any = Event
    # What a state calls back into (the state module imports none of these: no import cycle). Class
    # attributes, not the instance's: a pickled state (sent to a search worker) does not carry them.
    legal = rules.LEGAL
    apply_rules = rules.APPLY
    steps = rules.STEPS
    make_view = staticmethod(views.make_view)
    resample_state = staticmethod(resample.resample)
    end_at_cap = staticmethod(scoring.end_at_cap)

    def __init__(self) -> None:
        self.components: Components = components()

    def new_game(self, num_players: int, seed: int, options: Any = None) -> DeadwoodStudiosState:
        """Set up a new game (Setting Up): the first decision is the first player's turn in the
        Trailers on day 1.

        Args:
            num_players: 2..8, an ``int``.
            seed: ``0..engine.MAX_SEED``; the same seed and actions give the same game.
            options: ``None``, an empty dict, or :class:`Options`.

        Raises:
            ValueError: ``num_players`` not an ``int`` or out of range, or a bad seed.
            engine.InvalidOptions: any option (the game has none).
        """
        check_new_game(self, num_players, seed)
        opts = parse_options(Options, options)
        st = DeadwoodStudiosState(self, opts, num_players, seed)
        setting_up.start_game(st)
        return st

    def max_decisions(self, num_players: int) -> int:
        """The hard cap on decisions (applied actions) in a ``num_players``-player game, from
        :data:`MAX_DECISIONS`; the game ends there (see the package docstring: The decision cap).

        Raises:
            ValueError: ``num_players`` is not an ``int`` from 2 to 8.
        """
        check_new_game(self, num_players, 0)
        return MAX_DECISIONS[num_players]

    def describe(self, action: Any, view: Any, seat: int | None = None) -> str:
        """One line for ``action``, from what ``view`` shows.

        Args:
            action: a Deadwood Studios action.
            view: the :class:`~engine.deadwood_studios.views.View` it is described from.
            seat: the seat that takes ``action`` (``None``: ``view``'s own seat, or the current
                player for a spectator or omniscient view). The line never says "your", so it
                reads the same from any seat; callers name the acting seat themselves.

        Raises:
            TypeError: ``action`` is not a Deadwood Studios action.
        """
        return _describe(self.components, action, view, seat)

    def rules_help(self) -> str:
        """A player's rules summary for the help screen (Markdown, from ``help.md``)."""
        return resources.files(__package__).joinpath("help.md").read_text(encoding="utf-8")


def room_name(comp: Components, room_id: str) -> str:
    """A room's name with its article, as in a sentence: ``"the Saloon"``, ``"Main Street"``."""
    try:
        name = comp.room_names[comp.room(room_id)]
    except KeyError:
        return room_id
    return name if name == "Main Street" else f"the {name}"


def _actor(view: Any, seat: int | None) -> Any:
    """The acting player's :class:`~engine.deadwood_studios.views.PlayerView`, if the view has it."""
    players = getattr(view, "players", ())
    if seat is None:
        viewer = getattr(view, "seat", None)
        seat = viewer if isinstance(viewer, int) and viewer >= 0 else getattr(view, "current", -1)
    if isinstance(seat, int) and 0 <= seat < len(players):
        return players[seat]
    return None


def _set_of(view: Any, room_id: str) -> Any:
    for set_view in getattr(view, "sets", ()):
        if set_view.id == room_id:
            return set_view
    return None


def _describe(comp: Components, action: Any, view: Any, seat: int | None = None) -> str:
    """``action`` in words (see :meth:`DeadwoodStudios.describe`)."""
    me = _actor(view, seat)
    here = _set_of(view, me.room) if me is not None else None
    if isinstance(action, A.Move):
        target = _set_of(view, action.to)
        note = ""
        if target is not None:
            if target.face_down:
                note = " (a new scene)"
            elif target.wrapped:
                note = " (wrapped)"
            elif target.scene is not None:
                shots = "shot" if target.shots_left == 1 else "shots"
                note = f" ({target.scene.title}, ${target.scene.budget}M, {target.shots_left} {shots} left)"
        return f"Move to {room_name(comp, action.to)}{note}"
    if isinstance(action, A.TakeRole):
        rank = ""
        roles = (here.starring if action.on_card else here.extras) if here is not None else ()
        for role in roles:
            if role.name == action.role:
                rank = f" (rank {role.rank})"
        if action.on_card:
            film = f" in {here.scene.title}, ${here.scene.budget}M" if here is not None and here.scene else ""
            return f"Take the starring role {action.role}{rank}{film}"
        where = f" at {room_name(comp, here.id)}" if here is not None else ""
        return f"Take the extra role {action.role}{rank}{where}"
    if isinstance(action, A.Upgrade):
        try:
            price = comp.price(action.rank, action.currency)
        except KeyError:
            return f"Upgrade to rank {action.rank}"
        cost = f"{price} credits" if action.currency == CREDITS else f"${price}"
        return f"Upgrade to rank {action.rank} for {cost}"
    if isinstance(action, A.Act):
        if me is not None and here is not None and here.scene is not None:
            budget, chips = here.scene.budget, me.chips
            need = max(1, budget - chips)
            plus = f" + {chips} chip{'s' if chips != 1 else ''}" if chips else ""
            odds = "sure to succeed" if need <= 1 else f"success on {need}+"
            return f"Act: roll a die{plus} against the ${budget}M budget ({odds})"
        return "Act: roll a die against the budget"
    if isinstance(action, A.Rehearse):
        if me is not None:
            return f"Rehearse: take a practice chip ({me.chips + 1} in all)"
        return "Rehearse: take a practice chip"
    if isinstance(action, A.EndTurn):
        if me is not None:
            return f"End the turn at {room_name(comp, me.room)}"
        return "End the turn"
    raise TypeError(f"not a Deadwood Studios action: {action!r}")


GAME = DeadwoodStudios()
