"""The Deadwood :class:`engine.Game`: identity, options, new games and action descriptions."""

from __future__ import annotations

from importlib import resources
from typing import Any, Literal

import msgspec

from engine.core import check_new_game, parse_options
from engine.deadwood_town import actions as A
from engine.deadwood_town import resample, rules, views
from engine.deadwood_town.actions import Action
from engine.deadwood_town.components import Components, components
from engine.deadwood_town.events import Event
from engine.deadwood_town.rules import end_of_game, run, setup, turn
from engine.deadwood_town.state import MINE, DeadwoodTownState
from engine.deadwood_town.views import View

RULES_VERSION = "deadwood_town/2"
"""Bump whenever a rule, the order of chance draws or the order of legal actions changes:
replays recorded under another version are refused. 2: a Crime Pool emptied during a turn ends
the game even if a Telegraph Office refills it; after an end condition, shootouts take no poster."""


MAX_DECISIONS = {n: 4_000 * n for n in range(2, 6)}
"""The hard cap on decisions per game, by player count: 4,000 a player, above what the 200-round
limit allows (see the package docstring: The decision cap)."""


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Deadwood's options: the switches the data file offers, each with its documented default.

    Attributes:
        adjacent_reannex: after a railroad tile is laid, players alone on a building next to it
            may annex it again (found in one review only; the default is the data file's
            ``railroad.adjacent_reannex``, on).
        town_hall_build: ``"each"`` (default): the Town Hall builds the top tile of every
            non-empty stack; ``"one"``: it draws one from each stack, builds one of them and puts
            the others under their stacks (``buildings.town_hall.alternative_build_mode``).
        die: ``"default"``: skull, 2 crossed guns, star, 2 blanks; ``"alternative"``: skull,
            crossed guns, star, 3 blanks (``dice.alternative``).
    """

    adjacent_reannex: bool = components().adjacent_reannex
    town_hall_build: Literal["each", "one"] = "each"
    die: Literal["default", "alternative"] = "default"


class DeadwoodTown:
    """Deadwood (Loïc Lamy, Fantasy Flight Games 2011), the worker-placement game, for 2 to 5 players."""

    id = "deadwood_town"
    title = "Deadwood (worker placement)"
    min_players = 2
    max_players = 5
    rules_version = RULES_VERSION
    options_type = Options
    action_type: Any = Action
    view_type: Any = View
    event_type: Any = Event

    def __init__(self) -> None:
        self.components: Components = components()
        # What a state calls back into (the state module imports none of these: no import cycle).
        self.legal = rules.LEGAL
        self.apply_rules = rules.APPLY
        self.run = rules.run
        self.make_view = views.make_view
        self.resample_state = resample.resample
        self.end_at_cap = end_of_game.end_at_cap

    def new_game(self, num_players: int, seed: int, options: Any = None) -> DeadwoodTownState:
        """Set up a new game (see :mod:`.rules.setup`); the first decision is the first player's turn.

        Args:
            num_players: 2..5, an ``int``.
            seed: ``0..engine.MAX_SEED``; the same seed, options and actions give the same game.
            options: ``None``, a dict, or :class:`Options`.

        Raises:
            ValueError: ``num_players`` not an ``int`` or out of range, or a bad seed.
            engine.InvalidOptions: an unknown option or a bad value.
        """
        check_new_game(self, num_players, seed)
        opts = parse_options(Options, options)
        st = DeadwoodTownState(self, opts, num_players, seed)
        setup.set_up(st)
        turn.begin_turns(st, st.first)
        run(st)
        return st

    def max_decisions(self, num_players: int) -> int:
        """The hard cap on decisions (applied actions) in a ``num_players``-player game, from
        :data:`MAX_DECISIONS`; the game ends there (see the package docstring: The decision cap).

        Raises:
            ValueError: ``num_players`` is not an ``int`` from 2 to 5.
        """
        check_new_game(self, num_players, 0)
        return MAX_DECISIONS[num_players]

    def describe(self, action: Any, view: Any, seat: int | None = None) -> str:
        """One line for ``action``, from what ``view`` shows.

        Args:
            action: a Deadwood action.
            view: the :class:`~engine.deadwood_town.views.View` it is described from.
            seat: the seat that takes ``action``. ``None`` (or ``view``'s own seat): the viewer's
                own move ("Send your Gunslinger to the Bank (C2)"); another seat: never "your"
                ("Send a Gunslinger to the Bank (C2)"); callers name the acting seat themselves.

        Raises:
            TypeError: ``action`` is not a Deadwood action.
        """
        return _describe(self.components, action, view, seat)

    def rules_help(self) -> str:
        """A player's rules summary for the help screen (Markdown, from ``help.md``)."""
        return resources.files(__package__).joinpath("help.md").read_text(encoding="utf-8")


def _building_at(comp: Components, view: Any, plot: str) -> str:
    for p in getattr(view, "plots", ()):
        if p.id == plot and p.building:
            return f"the {comp.names.get(p.building, p.building)} ({plot})"
    return plot


def _arrival(comp: Components, view: Any, plot: str, hit: bool = True) -> str:
    """What a cowboy's arrival at ``plot`` leads to, from the town ``view`` shows (public: the
    buildings and every cowboy on them): ``" — shootout with seat 1's Greenhorn"`` at a building
    another player's cowboy holds; after Hit the Town (``hit``), ``" — annexes at once"`` at the
    Church (no shootouts, always annexed; a cowboy the General Store moves there only joins);
    ``""`` at an empty building, whose annex is the next decision."""
    viewer = getattr(view, "seat", None)
    for p in getattr(view, "plots", ()):
        if p.id != plot or not p.building:
            continue
        if p.building in comp.always_annex:
            return " — annexes at once" if hit else ""
        if p.cowboys and p.building not in comp.no_shootout:
            defender = p.cowboys[0]
            strength = defender.strength
            name = comp.type_names[strength] if 0 < strength < len(comp.type_names) else f"strength {strength}"
            whose = "your" if defender.owner == viewer else f"seat {defender.owner}'s"
            return f" — shootout with {whose} {name}"
    return ""


def _describe(comp: Components, action: Any, view: Any, seat: int | None = None) -> str:
    """``action`` in words; ``seat`` the actor (``None``: the viewer; see :meth:`DeadwoodTown.describe`)."""
    viewer = getattr(view, "seat", None)
    viewer = viewer if isinstance(viewer, int) and viewer >= 0 else None
    mine = seat is None or seat == viewer
    your = "your" if mine else "a"
    your_pl = "your" if mine else "their"

    def cowboy(strength: int) -> str:
        return comp.type_names[strength] if 0 < strength < len(comp.type_names) else f"strength {strength}"

    def place(name: str) -> str:
        return "the Abandoned Mine" if name == MINE else _building_at(comp, view, name)

    def building(kind: str) -> str:
        return comp.names.get(kind, kind)

    if isinstance(action, A.HeadBack):
        return f"Head back to the Ranch: {your} {cowboy(action.strength)} from {place(action.place)}"
    if isinstance(action, A.HitTheTown):
        where = place(action.plot) + _arrival(comp, view, action.plot)
        return f"Hit the Town: send {your} {cowboy(action.strength)} to {where}"
    if isinstance(action, A.Finish):
        phase = getattr(view, "phase", "")
        return {
            "head_back": "Stop heading back: end the turn",
            "grift": "Send no more cowboys to the Abandoned Mine",
            "dance": "Return no more cowboys to the Ranch",
            "arrange": "Put the rest of the stack back in its order",
        }.get(phase, "Done")
    if isinstance(action, A.Annex | A.DeclineAnnex):
        pending = getattr(view, "pending", None)
        where = place(pending.plot) if pending is not None and pending.plot else "the building"
        bonus = " again (next to the new rail)" if pending is not None and pending.bonus else ""
        return f"Annex {where}{bonus}" if isinstance(action, A.Annex) else f"Do not annex {where}{bonus}"
    if isinstance(action, A.Skedaddle):
        return "Skedaddle: discard a pony and run to the Abandoned Mine"
    if isinstance(action, A.StandAndFight):
        return "Stand and fight"
    if isinstance(action, A.DeclareCartridge):
        return "Use a cartridge (+1 die)" if action.use else "Use no cartridge"
    if isinstance(action, A.StealFrom):
        return f"Casino: steal $1 from seat {action.seat}"
    if isinstance(action, A.PickCowboy):
        return f"General Store: move seat {action.owner}'s {cowboy(action.strength)} from {place(action.plot)}"
    if isinstance(action, A.MoveTo):
        return f"General Store: move it to {place(action.plot)}{_arrival(comp, view, action.plot, hit=False)}"
    if isinstance(action, A.SendToMine):
        return (
            f"Grifter: send seat {action.owner}'s {cowboy(action.strength)} at {place(action.plot)}"
            " to the Abandoned Mine"
        )
    if isinstance(action, A.GivePoster):
        return f"Newspaper: give one of {your_pl} wanted posters to seat {action.seat}"
    if isinstance(action, A.ReturnCowboy):
        return f"Dance Hall: return {your} {cowboy(action.strength)} from {place(action.place)} to the Ranch"
    if isinstance(action, A.AdjustCrimePool):
        if action.add:
            return "Telegraph Office: add 2 wanted posters to the Crime Pool"
        return "Telegraph Office: remove 2 wanted posters from the Crime Pool"
    if isinstance(action, A.LookAtStack):
        return f"Fortune Teller: look at stack {action.stack}"
    if isinstance(action, A.PutNext):
        return f"Fortune Teller: put the {building(action.building)} next from the top"
    if isinstance(action, A.Hire):
        return f"Saloon: hire a {cowboy(action.strength)} (${comp.hire_cost[action.strength]})"
    if isinstance(action, A.MoveSheriff):
        plots = action.intersection.removeprefix("S_").replace("_", ", ")
        return f"Sheriff's Office: move the Sheriff to the corner of {plots}"
    if isinstance(action, A.PlaceStation):
        return f"Build the Train Station on {action.plot}"
    if isinstance(action, A.ChooseTile):
        return f"Town Hall: build the {building(action.building)} from stack {action.stack}"
    if isinstance(action, A.BuildOn):
        pending = getattr(view, "tile", None)
        what = f"the {building(pending)}" if pending else "the new building"
        return f"Build {what} on {action.plot}"
    if isinstance(action, A.DrawFrom):
        return f"Stage Depot: draw a building from stack {action.stack}"
    raise TypeError(f"not a Deadwood action: {action!r}")


GAME = DeadwoodTown()
"""The registered Deadwood game."""
