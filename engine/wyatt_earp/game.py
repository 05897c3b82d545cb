"""The Wyatt Earp :class:`engine.Game`: identity, options, new games and action descriptions."""

from __future__ import annotations

from importlib import resources
from typing import Annotated, Any

import msgspec

from engine.core import InvalidOptions, check_new_game, parse_options
from engine.wyatt_earp import actions as A
from engine.wyatt_earp import resample, rules, views
from engine.wyatt_earp.actions import Action
from engine.wyatt_earp.components import Components, components
from engine.wyatt_earp.events import Event
from engine.wyatt_earp.rules import end_of_hand, setup
from engine.wyatt_earp.state import WyattEarpState
from engine.wyatt_earp.views import View

RULES_VERSION = "wyatt_earp/2"
"""Bump whenever a rule, the order of chance draws or the order of legal actions changes:
replays recorded under another version are refused."""

MAX_DECISIONS = {2: 10_000, 3: 10_000, 4: 10_000}
"""The hard cap on decisions per game, by player count: 11 to 16 times the longest game measured
(see the package docstring: The decision cap)."""

HIDEOUT_REWARD_MAX = 5000
"""The largest ``hideout_reward`` option (in $1,000 steps, like the reward tokens)."""


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Wyatt Earp's options.

    Attributes:
        hideout_reward: dollars a successful Hideout adds to its Outlaw's poster (0..5000), in
            steps of 1000 like the reward tokens. The rulebook says "the appropriate reward" without the amount (it was
            printed on the card); $1,000, as on Photo, Bank robbery and Fastest gun, is the
            data's proposed default (NOTES.md: UNKNOWN).
        free_photo: the variant "play a Photo for free when someone else melds an Outlaw" (not in
            the rulebook): right after a player lays the first set of an Outlaw in a hand, the
            others may play that Outlaw's Photo at once, out of turn. Off by default.
    """

    hideout_reward: Annotated[int, msgspec.Meta(ge=0, le=HIDEOUT_REWARD_MAX, multiple_of=1000)] = 1000
    free_photo: bool = False


class WyattEarp:
    """Wyatt Earp (Mike Fitzgerald and Richard Borg, alea / Rio Grande Games 2001) for 2 to 4 players."""

    id = "wyatt_earp"
    title = "Wyatt Earp"
    min_players = 2
    max_players = 4
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
    end_at_cap = staticmethod(end_of_hand.end_at_cap)

    def __init__(self) -> None:
        self.components: Components = components()

    def new_game(self, num_players: int, seed: int, options: Any = None) -> WyattEarpState:
        """Set up a new game and deal the first hand; the first decision is the starting
        player's draw.

        Args:
            num_players: 2..4, an ``int``.
            seed: ``0..engine.MAX_SEED``; the same seed, options and actions give the same game.
            options: ``None``, a dict, or :class:`Options`.

        Raises:
            ValueError: ``num_players`` not an ``int`` or out of range, or a bad seed.
            engine.InvalidOptions: an unknown option or a bad value.
        """
        check_new_game(self, num_players, seed)
        opts = parse_options(Options, options)
        if not 0 <= opts.hideout_reward <= HIDEOUT_REWARD_MAX or opts.hideout_reward % 1000:
            raise InvalidOptions(
                f"hideout_reward must be 0 to {HIDEOUT_REWARD_MAX} in steps of 1000, not {opts.hideout_reward}"
            )
        st = WyattEarpState(self, opts, num_players, seed)
        setup.start_hand(st)
        return st

    def describe(self, action: Any, view: Any, seat: int | None = None) -> str:
        """One line for ``action``, from what ``view`` shows.

        Args:
            action: a Wyatt Earp action.
            view: the :class:`~engine.wyatt_earp.views.View` it is described from.
            seat: the seat that takes ``action``. ``None`` (or ``view``'s own seat): the viewer's own
                move ("Play 3 Billy the Kid cards", "Put the Hideout on seat 2's Belle Starr").
                Another seat: never "your" ("Play 3 Billy the Kid cards", "Put the Hideout on
                seat 2's Belle Starr"); callers name the acting seat themselves.

        Raises:
            TypeError: ``action`` is not a Wyatt Earp action.
        """
        return _describe(self.components, action, view, seat)

    def rules_help(self) -> str:
        """A player's rules summary for the help screen (Markdown, from ``help.md``)."""
        return resources.files(__package__).joinpath("help.md").read_text(encoding="utf-8")

    def max_decisions(self, num_players: int) -> int:
        """The hard cap on decisions (applied actions) in a ``num_players``-player game, from
        :data:`MAX_DECISIONS`; the game ends there (see the package docstring: The decision cap).

        Raises:
            ValueError: ``num_players`` is not an ``int`` from 2 to 4.
        """
        check_new_game(self, num_players, 0)
        return MAX_DECISIONS[num_players]


def _kind_name(comp: Components, card: str, outlaw: int) -> str:
    if card == "outlaw":
        return f"a {comp.outlaw_names[outlaw]} card"
    if card == "photo":
        return f"the Photo of {comp.outlaw_names[outlaw]}"
    return comp.sheriff_names.get(card, card)


def _describe(comp: Components, action: Any, view: Any, seat: int | None = None) -> str:
    """``action`` in words; ``seat`` the actor (``None``: the viewer; see :meth:`WyattEarp.describe`)."""
    viewer = getattr(view, "seat", None)
    viewer = viewer if isinstance(viewer, int) and viewer >= 0 else None
    mine = seat is None or seat == viewer
    actor = seat if seat is not None else viewer
    names = comp.outlaw_names

    def who(p: int) -> str:
        return "you" if mine and p == actor else f"seat {p}"

    def whose(p: int) -> str:
        return "your" if mine and p == actor else f"seat {p}'s"

    def line(text: str) -> str:
        # Callers (replay show, the replay viewer) name the acting seat themselves.
        return text[0].upper() + text[1:]

    if isinstance(action, A.DrawFromSupply):
        return line("draw two cards from the supply")
    if isinstance(action, A.TakeTopDiscard):
        top = view.discard[-1].name if getattr(view, "discard", ()) else "the top card"
        return line(f"take the top discard ({top})")
    if isinstance(action, A.PlayOutlaws):
        plural = "card" if action.count == 1 else "cards"
        return line(f"play {action.count} {names[action.outlaw]} {plural}")
    if isinstance(action, A.PlayPhoto):
        return line(f"play the Photo of {names[action.outlaw]} (+4 CP, +$1,000)")
    if isinstance(action, A.PlaySheriff):
        name = comp.sheriff_names.get(action.card, action.card)
        return line(f"play {name}: try a shot")
    if isinstance(action, A.MostWantedAsk):
        way = "left (clockwise)" if action.clockwise else "right (counterclockwise)"
        return line(f"Most Wanted!: ask for {_kind_name(comp, 'outlaw', action.outlaw)}, starting {way}")
    if isinstance(action, A.MostWantedSteal):
        return line("Most Wanted!: try a shot to steal an Outlaw card from a territory")
    if isinstance(action, A.WyattEarpDraw):
        return line("Wyatt Earp: draw two cards from the supply")
    if isinstance(action, A.WyattEarpSearch):
        return line("Wyatt Earp: search the discard stack and take one card")
    if isinstance(action, A.WyattEarpTake):
        return line(f"take {_kind_name(comp, action.card, action.outlaw)} from the discard stack")
    if isinstance(action, A.WyattEarpRemoveHideout):
        return line("Wyatt Earp: try a shot to remove a Hideout")
    if isinstance(action, A.ChooseTarget):
        pending = getattr(view, "pending", None)
        kind = pending.card if pending is not None else ""
        group = f"{whose(action.owner)} {names[action.outlaw]}"
        if kind == "hideout":
            return line(f"put the Hideout on {group}")
        if kind == "most_wanted":
            return line(f"steal a {names[action.outlaw]} card from {who(action.owner)}")
        if kind == "wyatt_earp":
            return line(f"remove the Hideout from {group}")
        name = pending.name if pending is not None else "the Sheriff card"
        return line(f"put {name} on {group}")
    if isinstance(action, A.DeclineTarget):
        pending = getattr(view, "pending", None)
        kind = pending.card if pending is not None else ""
        if kind == "most_wanted":
            return line("steal nothing")
        if kind == "wyatt_earp":
            return line("remove no Hideout")
        return line("take nothing")
    if isinstance(action, A.Discard):
        return line(f"discard {_kind_name(comp, action.card, action.outlaw)}")
    if isinstance(action, A.LetHideoutStand):
        return line("let the Hideout stand")
    if isinstance(action, A.DeclinePhoto):
        return line("do not play the Photo now")
    raise TypeError(f"not a Wyatt Earp action: {action!r}")


GAME = WyattEarp()
