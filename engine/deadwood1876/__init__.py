"""Deadwood 1876 (Facade Games, 2018), for 4 to 9 players: the base game.

Rulebook: ``shared/rules/deadwood1876.en.txt``; the Dutch prototype rulebook fills its gaps
(the Badge order Tin, Iron, Copper, Silver, Gold). Components: ``deadwood1876.toml`` (a copy of
``shared/data/deadwood1876/``, whose NOTES.md gives the source and status of every value).

How a game runs: Set Up (``rules/setup.py``), turns around the circle (``rules/turn.py``) with
Robberies and Duels (``rules/fight.py``), a Heist after each circle (``rules/heist.py``), the
final turns, the Badge Round (``rules/badge_round.py``) and the Final Showdown
(``rules/showdown.py``), under the 3 Laws of Deadwood (``rules/laws.py``).

Where the rulebook is silent, these are our decisions, each with its reason:

* Characters: seat ``i`` plays the ``i``-th character of the data file. Characters have no
  powers, so which one a player picks changes nothing but the name.
* Dealing: cards and Safes are dealt in seat order from the top of the shuffled decks, the
  middle Safes first. Any fixed order is as fair as dealing round the table.
* The black die (first player) is a d6: its faces are unknown and any fair die gives the same
  odds for "highest roller goes first, the tied highest reroll".
* Shuffling after gaining a Safe is automatic (the rulebook says to "shuffle it with your other
  Safes"; not shuffling only shows others where the new Safe lies).
* Third Law order: the player who wins a 4th Safe views it, gives one away (any of the four),
  then shuffles the rest; the recipient lays it at the right end of their row without shuffling.
  Whether the giver shuffles before or after giving cannot be told apart at the table.
* Holsters: each player who is not fighting may give at most one Holster per fight ("to either
  of them", "but not both"). Everyone not fighting is asked, Holster in hand or not, so that the
  question reveals nothing. Holsters given are revealed together once all have chosen.
* A Duel won against someone in your own establishment when no other establishment has a
  vacancy changes nothing (the rule only allows establishments with a vacancy).
* A Horse needs another establishment with a vacancy; without one the card is only a gun.
* A Stetson views Safes in other players' rows (your own you may view at any time); the two
  views are two different Safes; revealed Badges are face up already and are not offered.
* Duster discards are face down: others learn only that three cards were discarded.
* Replenishing after a turn goes clockwise from the player whose turn it was; after a Heist,
  clockwise from the first player. If deck and discard pile are both empty, fewer cards are drawn.
* Empty establishments don't compete in the Final Showdown: with no gold anywhere, an empty
  building would otherwise "advance" with its zero players.
* Scores and ranks (the rulebook only names a winner): a winner scores 1, everyone else 0.
  Ranks: winners; then Showdown losers, the later out the better; then those who did not advance.
* Knowledge: a seat knows its own Safes, the Safes it saw with a Stetson, stole, lost, gave away
  or saw revealed in a Heist, until their owner shuffles (a row of one Safe stays known).
"""

from __future__ import annotations

from engine.deadwood1876.game import GAME, RULES_VERSION, Deadwood1876, Options
from engine.deadwood1876.state import DeadwoodState

__all__ = ["GAME", "RULES_VERSION", "Deadwood1876", "DeadwoodState", "Options"]
