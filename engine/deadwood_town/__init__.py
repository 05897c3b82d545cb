"""Deadwood (Loïc Lamy, Fantasy Flight Games 2011), the worker-placement game, for 2 to 5 players.

Rules: ``shared/rules/deadwood-town.summary.en.txt`` (a summary: its board, die and tables were
lost). Components and rulings: ``deadwood_town.toml`` (a copy of ``shared/data/deadwood_town/``,
whose NOTES.md marks every value FOUND or ASSUMED): the brick-pyramid board of 25 plots with its
adjacency, starred and red rows, the fixed rail route and the 32 Sheriff intersections; the die;
the buildings' effects as ops; the edge-case rulings. All of it is read as data
(:mod:`.components`), so a corrected board, die or building is a change of the data file.

How a game runs: setup (``rules/setup.py``); turns of Head Back to the Ranch or Hit the Town
(``rules/turn.py``); shootouts (``rules/shootout.py``); annexing and every building's effect
(``rules/annexing.py``); the railroad, the Train Station, new buildings and the stacks
(``rules/railroad.py``); the end triggers and final scoring (``rules/end_of_game.py``). Outcome
scores are the final money.

Decisions are small (see ``actions.py``): a turn is one :class:`~.actions.HitTheTown` or a
sequence of :class:`~.actions.HeadBack` ended by :class:`~.actions.Finish`; then annexing,
shootout and building choices, each its own decision, by the player they belong to (the
defender skedaddles or stands; the attacker, then the defender, declares a cartridge).

The data's rulings (NOTES.md) are followed throughout; where the data offers a switch it is an
option (``game.Options``) with the documented default: ``adjacent_reannex`` (on),
``town_hall_build`` (``"each"``), ``die`` (``"default"``). Where both the summary and the data
are silent, these are our decisions, each with its reason:

* A decision with a single legal choice is taken by the engine (a defender without a pony
  stands, a player without a cartridge declares none, the only affordable hire is hired), except
  a turn and an annex, which are always asked: nothing is hidden, so skipping a forced choice
  tells nobody anything and saves every player a keypress.
* Annexing is asked (annex or decline, all or nothing, NOTES.md) even for a building whose effect
  would change nothing: whether it changes anything is easy to see, and one rule is simpler.
* Choices inside an effect are the annexing player's, made after annexing; an effect part that
  has no legal choice is skipped (a Saloon with nothing affordable, a General Store with nobody
  to move, a Newspaper without posters), the rest resolves.
* General Store: any cowboy on a building other than the General Store's own cowboy may be
  moved, the player's own included; to any other building except one holding a cowboy of the
  same player, the Train Station, or an occupied building the Sheriff protects (the Church
  excepted; NOTES.md forbids moving into an occupied protected building). The cowboy's owner
  declares its cartridge in the shootout it starts.
* Grifter and Dance Hall: the first cowboy is compulsory when there is one (the player annexed
  for it), the second optional.
* The bonus annexes next to a new rail (``adjacent_reannex``) are offered after the whole Town
  Hall effect, new buildings included (they hold no cowboy, so nothing changes), active player
  first, then clockwise, by plot; an offer is skipped if the cowboy is no longer alone there.
* The Fortune Teller rearranges one tile at a time from the top (:class:`~.actions.PutNext`);
  :class:`~.actions.Finish` keeps the rest in order. The player knows the stack's order from
  then on: later draws from the top and tiles put under it in front of everyone keep that
  knowledge true; it is lost only when another player looks at (and may rearrange) the stack,
  since nobody can tell what was changed. Everyone knows where a tile put under a stack is.
* A Fortune Teller look at a one-tile stack rearranges nothing.
* The first-player roll uses the data's ranking (star, crossed guns, blank, skull); tied best
  players roll again; every roll is an event.
* The attacker is on the building during the shootout's decisions (so nobody controls it then);
  a defender who skedaddles leaves it to the attacker, who may annex.
* A game also ends after the 200th round, scored as usual (``"round_limit"``): the summary's
  three triggers end almost every game, but not always soon (2 players, uniformly random moves:
  median 53 rounds, 99th percentile 127, and 4 of 20,000 games reached the limit; measured
  figures in :data:`.rules.end_of_game.ROUND_LIMIT`); bots that avoid every trigger could play
  forever, and tournaments, the ladder and search rollouts must end; players would call it a
  stalemate and count the money.
* When nobody at the table can act (impossible with the data's board, kept as a guard), the game
  ends and is scored (``GameEnding`` reason ``"stalled"``).

Knowledge (views and ``resample``): everything is public except the order of the building
stacks (see ``views.py`` and ``resample.py``).

The decision cap (DESIGN.md: every game ends): ``DeadwoodTown.max_decisions`` is 4,000 decisions a
player (``game.MAX_DECISIONS``: 8,000 at 2 players to 20,000 at 5). Measured by
``tests/bench/decision_counts.py`` over 1,000 random and 50 heuristic games per player count, the
longest game took 739 decisions (2 players; heuristic games at most 550). Bots that avoid every
trigger end at the round limit (600 decisions at 2 players, 1,400 at 5, for bots that only head
back and hit the town again), and no turn of 400 random games took more than 13 decisions, so
even 200 rounds of such turns (2,600 a player) stay under the cap: it guards against a bug. The
decision that reaches it ends the game (``rules/end_of_game.py``, ``end_at_cap``): a public
``engine.GameCapped`` event, then Final Scoring as it stands, as at the round limit
(``GameEnding`` reason ``"decision_cap"``).
"""

from __future__ import annotations

from engine.deadwood_town.game import GAME, RULES_VERSION, DeadwoodTown, Options
from engine.deadwood_town.state import DeadwoodTownState

__all__ = ["GAME", "RULES_VERSION", "DeadwoodTown", "DeadwoodTownState", "Options"]
