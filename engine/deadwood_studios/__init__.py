"""Deadwood, the Cheapass game of acting badly (James Ernest and Rick Fish, Cheapass Games; the
2011 rules), for 2 to 8 players, as the game ``deadwood_studios``.

Rulebook: ``shared/rules/deadwood-studios.en.txt`` (the 2011 text is the law; older editions
differ). Components: ``board.json`` and ``cards.json``, copies of ``shared/data/deadwood_studios/``
(its NOTES.md gives the sources and the corrections to the course XML, which is not used).

How a game runs: set-up by player count (``rules/setting_up.py``); turns (``rules/on_your_turn.py``)
of moving and taking roles (``rules/moving.py``), upgrading at the Casting Office
(``rules/upgrading.py``), or acting and rehearsing (``rules/working.py``); the last shot of a scene
wraps it and pays the bonuses (``rules/wrapping.py``); a day ends with one scene left, or is
called by our no-progress rule (``rules/ending_the_day.py``); after the last day, score =
dollars + credits + 5 x rank (``rules/scoring.py``). Outcome scores are those points.

Decisions: a turn is a short sequence of small decisions (see ``actions.py``): ``Upgrade(rank,
currency)``, ``Move(to)``, ``TakeRole(role, on_card)``, ``EndTurn()``; on a role, ``Act()`` or
``Rehearse()``.

Where the rulebook is silent, these are our decisions, each with its reason:

* The first player is drawn at random ("Determine randomly who goes first"); seats play in order,
  ``seat + 1`` being the player on the left. Each later day begins with the player after the one
  whose turn ended the day before ("play continues with the next player").
* Taking a role ends the turn: the rulebook says you "don't work on it yet", and no upgrade can
  follow (a set is not the Casting Office).
* The turn ends by itself when ending it is all that is left (after a move into a room with no
  role to take and nothing to buy): asking would be a question with one answer.
* One upgrade per turn: the price depends only on the rank reached, so a second upgrade in the
  same turn always costs more than going straight to the higher rank. Only upgrades to a higher
  rank, up to 6, are offered, paid all in dollars or all in credits.
* At the Casting Office the upgrade may come before or after the move: a player who starts the
  turn there may upgrade and then move away, or step in and then upgrade.
* Rehearsal stops at guaranteed success: a chip may be taken only while ``chips + 1 < budget``
  (so at most ``budget - 1`` chips). Chips belong to the role and go when the player leaves it.
* Acting pays before a wrap: the actor who removes the last shot is paid for the act, then the
  wrap bonuses are paid (the actor included).
* Wrap bonus dice go to every starring role, occupied or not, from the top role down; the dice of
  a free role are paid to no one (the text pays "the players who were working on these roles").
  The "top role" is the one of highest rank (no card has two starring roles of the same rank).
* With nobody on the card there is no bonus at all: the extras get nothing either.
* After a wrap the players stay on the set, without roles; the set has no roles for the rest of
  the day. A player may only ever stand on a set whose card is face up or gone, since walking in
  turns it up.
* The day's last scene is removed face down if nobody ever walked in (the rulebook says only
  "remove the last scene card"): nobody sees it, and it counts among the unseen cards.
* The end of the last day also returns everyone to the Trailers and removes the last scene
  (the same steps as every day's end, without dealing), so the final board is empty. The set
  that held that scene is not shown as wrapped (the scene "does not finish"); its shot counters
  left stay as they were.
* The no-progress rule (not in the rulebook: "Every game ends", DESIGN.md): a day is *called*
  after 5 rounds of turns in a row (``ending_the_day.IDLE_ROUNDS`` x players turns) in which
  nobody acted, rehearsed, took a role or upgraded; it ends at the end of the turn that completes
  them, exactly as a day ends with one scene left (a public ``DayCalled`` event instead of
  ``DayEnded``), except that every scene still on the board does not finish: their cards are
  removed (face down if nobody walked in), everyone goes back to the Trailers, and the next
  player starts the next day, or after the last day the game is scored. The reason: the
  rulebook's day ends only when scenes wrap, and scenes wrap only by acting, so a day in which
  nobody works never ends (players may end every turn at once, or walk to and fro; and a day can
  even be stuck, when no role left is within anyone's rank and nobody can pay to upgrade).
  Nothing moves towards the day's end while nobody is on a role, so calling it is what its
  remaining scenes would come to: they do not finish, like the rulebook's last scene. Moving does
  not count as progress (walking leads to a role or nowhere), but 5 rounds is longer than any
  walk: the backlot is 4 steps across and a role can be taken on the turn one arrives; in 420
  measured games of the heuristic bot the longest run of idle turns was 2 rounds, and no day of
  350 more (50 per player count, rules ``deadwood_studios/3``) was called. Random legal moves,
  which wander, do meet it: 935 of 1,000 2-player games had a day called, 248 at 6 players, 21
  at 8. A player on a role must act or rehearse, so their turn is never idle: the rule can only
  call a day in which nobody is working at all.
* Scoring has no tie-breaker in the rulebook: equal points share a place, and all first-placed
  players win.
* Money and credits never run out (the bank is unlimited).
* The rulebook's only variant, "shifting boards", defines no other arrangement: the game has no
  options and is played on the basic arrangement.

Knowledge (views and ``resample``): nothing is private to one seat. The face-down scene cards,
the undealt deck and the last scenes removed unseen are hidden from everyone; views show how many
there are. ``resample`` redeals them from the cards nobody has seen face up and reseeds the dice.

The decision cap (DESIGN.md: every game ends): ``DeadwoodStudios.max_decisions`` is 10,000
decisions at every player count. Measured by ``tests/bench/decision_counts.py`` over 1,000 random
and 50 heuristic games per player count, the longest game took 551 decisions at 2 players and
931 at 6 (heuristic games at most 613; rules ``deadwood_studios/2``; with the no-progress rule,
386 at 2 players and still 931 at 6). Players who stall are ended by the no-progress rule
(above) well before it: players who only end their turns play 5 rounds a day, 160 decisions in
all at 8 players. The decision that reaches it ends the game (``rules/scoring.py``,
``end_at_cap``): a public ``engine.GameCapped`` event, then the game's own final scoring as it
stands (dollars + credits + 5 x rank; the days not played are not played, the board is left as
it is). The reason: that score needs nothing the board lacks mid-game, and it measures what each
player has earned so far.
"""

from __future__ import annotations

from engine.deadwood_studios.game import GAME, RULES_VERSION, DeadwoodStudios, Options
from engine.deadwood_studios.state import DeadwoodStudiosState

__all__ = ["GAME", "RULES_VERSION", "DeadwoodStudios", "DeadwoodStudiosState", "Options"]
