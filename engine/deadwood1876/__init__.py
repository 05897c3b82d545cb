"""Deadwood 1876 (Facade Games, 2018), for 2 to 9 players, with every optional rule.

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
  The English text does not say when the giver shuffles, and before or after giving cannot be
  told apart at the table. The Dutch prototype's Third Law does say it: the giver's Safes are
  shuffled first, then one is given away ("worden de Kluizen van deze speler geschud en moet
  deze een Kluis afgeven"; the receiver "mag ... niet schudden"), as the corrected
  ``shared/data/deadwood1876/NOTES.md`` reads it (Dutch prototype differences). ``prototype_rules``
  follows the Dutch text; by default the giver shuffles after giving.
* Revealed Badges keep their place when their owner shuffles (after a Robbery won in the
  Badge Round): they lie face up ("Revealed Badges have no value and can not be attacked"), so
  shuffling them in would hide nothing; the face-down Safes are shuffled among the other places
  (``rules/laws.py``, :func:`~engine.deadwood1876.rules.laws.shuffle_row`).
* Holsters: each player who is not fighting may give at most one Holster per fight ("to either
  of them", "but not both"). Everyone not fighting is asked, Holster in hand or not, so that the
  question reveals nothing. Holsters given are revealed together once all have chosen.
* Holster order ("If a group is picky about the order that Holsters should be played, play in the
  order of attacker, defender, Holster for attacker, Holster for defender"): the engine is always
  picky. A Holster is played (joins a fighter's roll) only once every fighter given several has
  chosen one, the attacker's before the defender's, whatever their seats and whichever chose
  first; a fighter's only Holster waits for the other fighter's choice. Each fighter's Holsters not
  chosen go back right after that fighter's Holster is played. The reason: the order is the
  rulebook's, and holding back the only Holster until the choices are in keeps it whatever the
  givers did (the two choices stay hidden from each other until both are in, so the order in which
  they arrive changes nothing).
* The Holster window's reveal lists the givers in seat order (``HolsterGiven``), like the engine's
  other simultaneous reveals (Heist, Showdown, Safe passing): the choices are made at once and
  hidden, so the reveal is one moment and its order decides nothing; the rulebook's order is kept
  where a Holster is played into the fight (above). Only the event log's order would change.
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

2-3 players and the Stranger (2-3 PLAYER RULE ADJUSTMENTS; THE STRANGER):

* The Stranger is figure ``n`` (seat numbers stay ``0..n-1``): it has a star, a row of Safes
  and a character card (the character after the players'), but no hand and no turns.
* The Stranger's black-die roll comes after the Safe pass, just before the first-player roll
  ("before beginning play"); its two Safes come from the box, unseen by anyone.
* When the Stranger is robbed or dueled, the attacker's opponent defends from their own hand
  (a seat, ``Fight.answer``) without knowing the Safe; the Stranger's Safe holsters apply.
* The Third Law counts the Stranger as a player: it can be the one with the fewest Safes and
  receive a Safe. It never gains Safes otherwise, so it never gives one.
* The Stranger is a player for the Third Law only ("The 3rd Law of Deadwood treats the Stranger
  as a player"): the Final Showdown's tie-break ("the tied establishment with the fewest players
  advances") counts players, not the Stranger's star. An establishment holding one player and
  the Stranger ties with one holding the other player; both then advance, and all three
  advancing is the rulebook's CASH case: the Stranger is removed and the players fight to the
  death. An establishment holding only the Stranger has no players, so it wins a tie for most
  gold and the Stranger advances alone (both players lose).
* One attached Holster per Safe and one per character card. A Holster attached to a Safe
  stays with it when the Safe changes hands; when the Safe is attacked, the Holster joins that
  defence (whoever defends) and is discarded at the end of the turn. Attaching is your turn's
  card: you draw back up like after any turn.
* Safes with a Holster keep their place when their owner shuffles; the loose Safes are
  shuffled among the other places, and only their positions become unknown to others.
* The 2-player Final Showdown: the Stranger's gold counts for its establishment. You with the
  Stranger: your opponent fights as the Stranger with their own hand and the Stranger's
  Showdown Guns (less the best one if the Stranger owns Bad Sarsaparilla, which is not starred;
  the Stranger's starred Safes do nothing). The Stranger alone: nobody wins (every player
  scores 0 and shares rank 1).

Optional rules (OPTIONAL ADVANCED RULES), each an option, off by default:

* ``mystery_safes`` (0..5): that many of the five Mystery Safes, drawn at random, are shuffled in
  at step 4; with fewer Safes needed than available, the extra ones stay in the box as usual.
  Mystery Safes other than the Dagger carry no gold. The Dagger's choice, the Explosives' target
  and the Poker Deck's gun are decisions of their owner after the Badge Round (alphabetical
  order). The Explosives can hit any unrevealed Safe of another player or of the Stranger (a
  starred Safe not yet resolved included: it is then gone). A Holster attached to the Safe blown
  up (2-3 players) is a Deadwood card, not part of the Safe: it goes to the discard pile face up,
  like an attached Holster once used; only the Safe leaves the game. The Poker Deck's red die is the
  Colt die (faces 0-3, see NOTES.md); its owner needs a card in hand (always true after the
  Badge Round). Bad Sarsaparilla removes its owner's best Showdown Gun Safe (not the Dagger's).
  Cash: its owner advances along with the richest establishment (the Stranger too, if it owns
  Cash; all three advancing in a 2-player game means the Stranger is removed).
* ``peace_lovin``: the Dagger's Pepperbox counts as a Showdown Gun; the negative Pepperbox does
  not (it is a handicap, not a gun to fight with). All advancing players (a player fighting as
  the Stranger included) win together.
* ``fair_share`` (6-9 players only; fewer raise ``InvalidOptions``): gold includes the Dagger's
  and Poker Deck's changes.
* ``horse_thief`` (4-9 players; 2-3 raise ``InvalidOptions``): a Horse Thief joins in the Holster
  window of a Robbery (after both guns are down, before the roll) instead of giving a Holster;
  all the participants roll together and the tied highest reroll (so an attacker or defender
  tied with a thief rerolls with them). Not in the Badge Round.
* ``prototype_rules``: the Dutch prototype rulebook where it differs from the English one:
  its Third Law shuffles the giver's row before giving a Safe away; it has no 2-3 player
  adjustments (three establishments, one circle before each Heist, two Stetson views, Holsters
  played out of turn with 3 players); with 2 players the Stranger's star goes into the empty
  establishment and each player draws a third Safe and gives one of three to the Stranger (at
  once, hidden), and Holsters are attached on your turn to Safes only (not character cards).
  The other optional rules may be combined with it (the prototype had none of them).

What a seat knows, for ``DeadwoodState.resample`` (determinization for search bots; the rulebook
says what players may see, not what they may remember, so these are our choices; details in
``resample.py``):

* A seat remembers everything its own events showed it: what it was dealt and drew, every card laid
  face up, its own Duster discards, every Safe it saw. Players at a table can do the same.
* A Safe whose place it saw stays known until its owner shuffles (the engine's ``known``, as in the
  views); after the shuffle the seat still knows the Safe is somewhere in that row, until a Safe
  leaves the row from a place the seat cannot tell (then it can't say which one left).
* Face-up cards in the discard pile stay there; after a reshuffle the seat knows they are in the
  new deck or in the hands of those who drew since. A Holster given back stays known in its giver's
  hand until that player discards face down; a Showdown hand taken back is known (all of it was
  played face up).
* Which Mystery Safes are in play is hidden (they are shuffled in unseen); those a seat has seen are
  in play.
* Nothing shows that a hand lacks a card: every card is a gun and every player is asked in the
  Holster window, so a refusal reveals nothing.
* Other seats' hidden simultaneous choices are redrawn uniformly from their legal actions; the
  redraw is uniform over the positions consistent with the above, not weighted by how likely others
  were to play as they did (the usual Information Set MCTS approximation).

The decision cap (DESIGN.md: every game ends): ``Deadwood1876.max_decisions`` is 500 decisions a
player (``game.MAX_DECISIONS``: 1,000 at 2 players to 4,500 at 9). Measured by
``tests/bench/decision_counts.py`` over 1,000 random and 50 heuristic games per player count, the
longest game took 65 decisions at 2 players, 126 at 4, 254 at 6 and 406 at 9: the game has a
fixed number of turns (and every fight, Heist and Showdown round ends), so no play reaches the
cap; it guards against a bug. The decision that reaches it ends the game (``rules/showdown.py``,
``end_at_cap``): a public ``engine.GameCapped`` event, then the game is scored as it stands by the
Final Showdown's own rule, without the fight to the death, which needs more decisions. In the
Showdown, everyone still alive wins together; before it, all Safes are revealed, the richest
establishment advances as usual, and everyone who would fight in the Showdown wins together (a
lone player who advances wins alone; the Stranger alone: nobody). The reason: the Showdown is the
rulebook's only scoring, and its advancing rule is the part that needs no decision.
"""

from __future__ import annotations

from engine.deadwood1876.game import GAME, RULES_VERSION, Deadwood1876, Options
from engine.deadwood1876.state import DeadwoodState

__all__ = ["GAME", "RULES_VERSION", "Deadwood1876", "DeadwoodState", "Options"]
