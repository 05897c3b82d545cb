"""Deadwood, the Cheapass game of acting badly (James Ernest and Rick Fish, Cheapass Games; the
2011 rules), for 2 to 8 players, as the game ``deadwood_studios``.

Rulebook: ``shared/rules/deadwood-studios.en.txt`` (the 2011 text is the law; older editions
differ). Components: ``board.json`` and ``cards.json``, copies of ``shared/data/deadwood_studios/``
(its NOTES.md gives the sources and the corrections to the course XML, which is not used).

How a game runs: set-up by player count (``rules/setting_up.py``); turns (``rules/on_your_turn.py``)
of moving and taking roles (``rules/moving.py``), upgrading at the Casting Office
(``rules/upgrading.py``), or acting and rehearsing (``rules/working.py``); the last shot of a scene
wraps it and pays the bonuses (``rules/wrapping.py``); a day ends with one scene left
(``rules/ending_the_day.py``); after the last day, score = dollars + credits + 5 x rank
(``rules/scoring.py``). Outcome scores are those points.

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
  (the same steps as every day's end, without dealing), so the final board is empty.
* Scoring has no tie-breaker in the rulebook: equal points share a place, and all first-placed
  players win.
* Money and credits never run out (the bank is unlimited).
* The rulebook's only variant, "shifting boards", defines no other arrangement: the game has no
  options and is played on the basic arrangement.

Knowledge (views and ``resample``): nothing is private to one seat. The face-down scene cards,
the undealt deck and the last scenes removed unseen are hidden from everyone; views show how many
there are. ``resample`` redeals them from the cards nobody has seen face up and reseeds the dice.
"""

from __future__ import annotations

from engine.deadwood_studios.game import GAME, RULES_VERSION, DeadwoodStudios, Options
from engine.deadwood_studios.state import DeadwoodStudiosState

__all__ = ["GAME", "RULES_VERSION", "DeadwoodStudios", "DeadwoodStudiosState", "Options"]
