"""The Deadwood 1876 :class:`engine.Game`: identity, options, new games and action descriptions."""

from __future__ import annotations

from importlib import resources
from typing import Any

import msgspec

from engine.core import InvalidOptions, check_new_game, parse_options
from engine.deadwood1876 import actions as A
from engine.deadwood1876 import resample, rules, views
from engine.deadwood1876.actions import Action
from engine.deadwood1876.components import Components, PlayerCount, components
from engine.deadwood1876.events import Event
from engine.deadwood1876.rules import setup, showdown
from engine.deadwood1876.state import DeadwoodState, card_faces
from engine.deadwood1876.views import View

RULES_VERSION = "deadwood1876/3"
"""Bump whenever a rule, the order of chance draws or the order of legal actions changes:
replays recorded under another version are refused. 2: the Final Showdown's "fewest players"
counts players, not the Stranger; a blown-up Safe's attached Holster goes to the discard pile.
3: the Holsters given are played once every fighter given several has chosen, the attacker's
before the defender's (``holster.order``); before, a fighter's only Holster was played at once
and two choosers' in seat order, so the cards on the table (and after a reshuffle, the deck)
lay in another order."""


MAX_DECISIONS = {n: 500 * n for n in range(2, 10)}
"""The hard cap on decisions per game, by player count: 500 a player, 11 to 15 times the longest
game measured (see the package docstring: The decision cap)."""


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Deadwood 1876's optional rules (rulebook: OPTIONAL ADVANCED RULES), all off by default.

    Attributes:
        mystery_safes: how many of the 5 silver-bordered Mystery Safes (0..5) are shuffled in
            at Set Up step 4, chosen at random and unseen.
        peace_lovin: "Peace-Lovin'" team victory.
        fair_share: "Fair Share" team victory (6-9 players only).
        horse_thief: the Horse Thief rule (4-9 players only).
        prototype_rules: the Dutch prototype rulebook where it differs (see the game docstring).
    """

    mystery_safes: int = 0
    peace_lovin: bool = False
    fair_share: bool = False
    horse_thief: bool = False
    prototype_rules: bool = False


class Deadwood1876:
    """Deadwood 1876 (Facade Games, 2018) for 2 to 9 players."""

    id = "deadwood1876"
    title = "Deadwood 1876"
    min_players = 2
    max_players = 9
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
    end_at_cap = staticmethod(showdown.end_at_cap)

    def __init__(self) -> None:
        self.components: Components = components()
        self.card_faces = card_faces(self.components)

    def new_game(self, num_players: int, seed: int, options: Any = None) -> DeadwoodState:
        """Set up a new game and deal; the first decision is everyone's Safe to pass left.

        Args:
            num_players: 2..9, an ``int`` (not ``3.0``, ``True``, ``"3"`` or an int subclass).
            seed: ``0..engine.MAX_SEED``; the same seed, options and actions give the same game.
            options: ``None``, a dict, or :class:`Options`.

        Raises:
            ValueError: ``num_players`` not an ``int`` or out of range, or a seed that is not
                an integer in ``0..engine.MAX_SEED``.
            engine.InvalidOptions: an unknown option or a bad value.
        """
        check_new_game(self, num_players, seed)
        opts = parse_options(Options, options)
        if not 0 <= opts.mystery_safes <= 5:
            raise InvalidOptions(f"mystery_safes must be 0 to 5, not {opts.mystery_safes}")
        if opts.fair_share and num_players < 6:
            raise InvalidOptions(f"fair_share is only for 6-9 players, not {num_players}")
        if opts.horse_thief and num_players < 4:
            raise InvalidOptions(f"horse_thief does not apply in 2-3 player games ({num_players} players)")
        table = self.components.player_counts[num_players]
        if opts.prototype_rules and num_players <= 3:
            table = prototype_table(table, self.components.player_counts[4])
        st = DeadwoodState(self, table, opts, seed)
        setup.set_up(st)
        return st

    def describe(self, action: Any, view: Any, seat: int | None = None) -> str:
        """One line for ``action``, from what ``view`` shows.

        Args:
            action: a Deadwood 1876 action.
            view: the view it is described from: its Safe contents appear only if ``view`` knows them.
            seat: the seat that takes ``action``. ``None`` (or ``view``'s own seat): the viewer's own
                move, worded as they would say it ("Pass your Safe #2 to the left"). Another seat
                (an omniscient or spectator view, say): worded with that seat's character name
                and never "your" ("Pass Al Swearengen's Safe #2 (Gold 3) to the left").

        Raises:
            TypeError: ``action`` is not a Deadwood 1876 action.
        """
        return _describe(self.components, action, view, seat)

    def rules_help(self) -> str:
        """A player's rules summary for the help screen (Markdown, from ``help.md``)."""
        return resources.files(__package__).joinpath("help.md").read_text(encoding="utf-8")

    def max_decisions(self, num_players: int) -> int:
        """The hard cap on decisions (applied actions) in a ``num_players``-player game, from
        :data:`MAX_DECISIONS`; the game ends there (see the package docstring: The decision cap).

        Raises:
            ValueError: ``num_players`` is not an ``int`` from 2 to 9.
        """
        check_new_game(self, num_players, 0)
        return MAX_DECISIONS[num_players]


def prototype_table(table: PlayerCount, four: PlayerCount) -> PlayerCount:
    """The Dutch prototype has no 2-3 player adjustments but the 2-player Stranger: all three
    establishments, one circle per Heist, two Stetson views, Holsters out of turn with 3
    players, and with 2 players Holsters attached to Safes (not character cards)."""
    return msgspec.structs.replace(
        table,
        establishments=four.establishments,
        circles_per_segment=four.circles_per_segment,
        stetson_views=four.stetson_views,
        holster_mode="attach_safes" if table.players == 2 else "assist",
        initial_stars_skip=(),
    )


def _figure(view: View, seat: int) -> Any:
    if 0 <= seat < len(view.players):
        return view.players[seat]
    if view.stranger is not None and seat == view.stranger.seat:
        return view.stranger
    return None


def _name(view: View, seat: int) -> str:
    figure = _figure(view, seat)
    if figure is None:
        return f"seat {seat}"
    return f"the Stranger ({figure.character})" if figure.stranger else str(figure.character)


def _card(comp: Components, card: int) -> str:
    return comp.card_label(card)


def _safe_label(view: View, owner: int, index: int, you: int | None) -> str:
    """Safe #``index + 1`` of ``owner``: "your Safe #2" when ``owner`` is ``you`` (the seat the
    line speaks to), else "Al Swearengen's Safe #2"; its contents if ``view`` knows them."""
    label = f"your Safe #{index + 1}" if owner == you else f"{_name(view, owner)}'s Safe #{index + 1}"
    figure = _figure(view, owner)
    safes = figure.safes if figure is not None else ()
    if 0 <= index < len(safes) and safes[index].contents:
        label += f" ({safes[index].contents})"
    return label


def _describe(comp: Components, action: Any, view: View, seat: int | None = None) -> str:
    """``action`` in words; ``seat`` the actor (``None``: the viewer; see :meth:`Deadwood1876.describe`)."""
    est = comp.establishment_names
    viewer = view.seat if view.seat is not None and view.seat >= 0 else None
    you = viewer if seat is None or seat == viewer else None
    # the actor, for the actions on their own Safes; without ``seat`` an omniscient or spectator
    # view cannot tell, and falls back to seat 0 (the Third Law's giver for GiveSafe)
    actor = seat if seat is not None else viewer if viewer is not None else 0

    def _safe(owner: int, index: int) -> str:
        return _safe_label(view, owner, index, you)

    if isinstance(action, A.PassSafe):
        return f"Pass {_safe(actor, action.index)} to the left"
    if isinstance(action, A.RideHorse):
        return f"Horse ({_card(comp, action.card)}): ride to the {est[action.establishment]}"
    if isinstance(action, A.UseDuster):
        return f"Duster ({_card(comp, action.card)}): draw 4 cards, then discard 3"
    if isinstance(action, A.Discard):
        return f"Discard {_card(comp, action.card)}"
    if isinstance(action, A.UseStetson):
        return f"Stetson ({_card(comp, action.card)}): view Safes"
    if isinstance(action, A.ViewSafe):
        return f"View {_safe(action.owner, action.index)}"
    if isinstance(action, A.AttachHolster):
        what = (
            f"{_name(view, action.owner)}'s character card" if action.index < 0 else _safe(action.owner, action.index)
        )
        return f"Attach a Holster ({_card(comp, action.card)}) to {what}"
    if isinstance(action, A.Robbery):
        gun = comp.gun_names[comp.card_gun[action.card]]
        return f"Robbery with a {gun} ({_card(comp, action.card)}) on {_safe(action.owner, action.index)}"
    if isinstance(action, A.Duel):
        gun = comp.gun_names[comp.card_gun[action.card]]
        return f"Duel {_name(view, action.target)} with a {gun} ({_card(comp, action.card)})"
    if isinstance(action, A.Defend):
        return f"Defend with a {comp.gun_names[comp.card_gun[action.card]]} ({_card(comp, action.card)})"
    if isinstance(action, A.GiveHolster):
        gun = comp.gun_names[comp.card_gun[action.card]]
        return f"Give a {gun} Holster ({_card(comp, action.card)}) to {_name(view, action.fighter)}"
    if isinstance(action, A.NoHolster):
        return "Give no Holster"
    if isinstance(action, A.ChooseHolster):
        return f"Use the {comp.gun_names[comp.card_gun[action.card]]} Holster ({_card(comp, action.card)})"
    if isinstance(action, A.SendAway):
        return f"Send the loser to the {est[action.establishment]}"
    if isinstance(action, A.GiveSafe):
        giver = seat if seat is not None else viewer if viewer is not None else view.giver
        return f"Give {_safe(giver, action.index)} to {_name(view, action.recipient)}"
    if isinstance(action, A.HorseThief):
        return f"Join the Robbery as a Horse Thief ({_card(comp, action.card)})"
    if isinstance(action, A.GiveToStranger):
        return f"Give {_safe(actor, action.index)} to the Stranger"
    if isinstance(action, A.ChooseDagger):
        if action.plus_gold:
            return "Dagger: +1 gold and a negative Pepperbox"
        return "Dagger: -1 gold and a Pepperbox Showdown Gun"
    if isinstance(action, A.Explode):
        return f"Explosives: blow up {_safe(action.owner, action.index)}"
    if isinstance(action, A.PokerGun):
        return f"Poker Deck: roll a {comp.gun_names[comp.card_gun[action.card]]} ({_card(comp, action.card)})"
    if isinstance(action, A.HeistGun):
        return f"Heist with a {comp.gun_names[comp.card_gun[action.card]]} ({_card(comp, action.card)})"
    if isinstance(action, A.FireGun):
        return f"Fire a {comp.gun_names[comp.card_gun[action.card]]} ({_card(comp, action.card)})"
    raise TypeError(f"not a Deadwood 1876 action: {action!r}")


GAME = Deadwood1876()
