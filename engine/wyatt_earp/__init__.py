"""Wyatt Earp (Mike Fitzgerald and Richard Borg, alea / Rio Grande Games 2001), for 2 to 4 players.

Rulebook: ``shared/rules/wyatt-earp.en.txt``. Components: ``wyatt_earp.toml`` (a copy of
``shared/data/wyatt_earp/``, whose NOTES.md gives the source and status of every value: seven
Outlaws including Bob Dalton, 49 Outlaw cards of 2 CP with a bullet hole each, 29 Sheriff cards).

How a game runs: hands are dealt (``rules/setup.py``); turns of draw, play and discard
(``rules/game_play.py``) with Sheriff cards and shots (``rules/sheriff_cards.py``) until the hand
ends (``rules/end_of_hand.py``); each hand is scored poster by poster (``rules/scoring.py``);
after the hand in which someone reaches $25,000 the richest wins, a tie going to the bullet-hole
duel (``rules/end_of_game.py``). Outcome scores are the money.

Decisions: the actions name kinds of cards, never card ids (cards of a kind are identical), and
a turn is a sequence of small decisions (see ``actions.py``): draw; then plays; then a discard,
which ends the turn; after each successful shot, a target.

Where the rulebook is silent, these are our decisions, each with its reason (NOTES.md marks the
ones it proposes as ASSUMED or DERIVED). Two depart from the rulebook, and say so: the no-progress
rule and the decision cap (below), both so that every game ends (DESIGN.md):

* The first dealer is drawn at random: the rulebook's "oldest player" is unknown to the engine.
  Cards are dealt one at a time from the top of the shuffled deck, clockwise from the player on
  the dealer's left, as cards are dealt at a table.
* A player must keep a card to discard (NOTES.md, DERIVED): plays that would empty the hand are
  not offered (a Sheriff card needs another card in hand, except a Wyatt Earp that draws or
  takes a card; at most all but one Outlaw cards). The turn has to end with a discard.
* Cards of one Outlaw may be played several times in one turn, each play paying $1,000 x its
  cards - $1,000 (so splitting a play pays less: the player's choice). NOTES.md ASSUMED one
  batch per Outlaw per turn; we follow the rulebook, which does not say so: a player "may play,
  from his hand, as many Outlaw cards as he wants", after the first set "any number of cards in
  that color", "in any order", and the banker "only considers the cards just played". Only the
  first cards of an Outlaw in a hand must be a set of three or more.
* The card taken from the top of the discard stack may be discarded again the same turn: the
  rulebook only forbids discarding a card *played* this turn.
* An Outlaw is "opened" for the rest of the hand once its first set is down, even if that set is
  later stolen away: the rulebook's condition is that "the first set ... has been played". A
  Photo is playable from then on; it never counts toward the 3-card set or the card reward.
* The target of a shot card (and the group a Most Wanted! steals from, and the Hideout a Wyatt
  Earp removes) is chosen after the shot, in the rulebook's order ("If ... successful, he plays
  the Stagecoach robbery on the Outlaw of his choice"). A card is offered only if it has a
  target; shot cards may go on a group under a Hideout (the rulebook lets the covered player add
  cards there; they do not count).
* "May": after a hit, a Most Wanted! player "may steal" and a Wyatt Earp player (on their turn)
  "may remove one Hideout"; both may take nothing instead (``DeclineTarget``). Declining can
  matter: a stolen card or a freed group may tip an Outlaw over 8 CP or change who shares its
  poster, for the worse. Stagecoach robbery, Bank robbery, Fastest gun and Hideout have no "may"
  (the player "plays" them after a hit): they must go on a target.
* A Hideout goes on another player's group only (NOTES.md, ASSUMED: symbol cards go to "an
  opponent's territory"); its reward is the ``hideout_reward`` option, added on a hit only. The
  covered player is asked whether to answer with a Wyatt Earp even without one in hand, so that
  the question tells the table nothing (only letting the Hideout stand is then legal, and the
  table screen says so to that player alone); nobody is asked when the whole table knows that
  player holds none (every card in the hand is known, or all seven Wyatt Earps are on view
  elsewhere). Answering out of turn uses up no Sheriff limit.
* Most Wanted! from the hand: with two players only the clockwise ask is offered (left and right
  are the same player). A player asked who has several cards of that Outlaw gives one (they are
  identical). The asking and the answers are heard by everyone, so the card given is known to
  all players, as is that those who had none hold none (until they draw unseen cards).
* Most Wanted! steal: the Outlaw card taken is the one last played in that group; if no Outlaw
  card or Photo is left, the group's Sheriff cards and its Hideout go to the discard stack.
* Wyatt Earp's take-from-the-discard is two decisions, as at the table: play the card to search
  the stack (offered when the stack holds a card other than a Wyatt Earp, which everyone knows),
  then, having seen the whole stack, take a card; the card taken is the topmost of the kind
  chosen. The player "adds it to his hand, without showing the other players": they learn only
  that a card was taken (the searcher's own event names it). A Sheriff card taken may be played
  "immediately": as the very next play, before any other card (only the searcher's view shows
  it as ``immediate``).
* What a seat sees of the discard stack: as at the table, it lies face up but only its top card
  is on view; a player knows the cards below from having seen them laid there. So a view shows
  the top card, the stack's size, and the cards the seat knows are in it: all of them, except
  that after another player's search the cards that search may have taken (every card of the
  stack but the Wyatt Earps, and what earlier unseen searches may have taken) are left out until
  the doubt is settled: the seat searches the stack itself (it then sees it all), a card surfaces
  at the top (someone took the card above it), or the card taken is laid face up. The card taken
  cannot be worked out by comparing the stack before and after the search: the same cards leave
  the view whichever one was taken. A player with perfect memory can still reason from the public
  events (as at the table); the view never does it for them. Should an Outlaw's Photo lie in the
  stack in such doubt, the ``free_photo`` question is asked as if it were not known to be there.
* Which card a player gives up: when a card of a kind leaves a hand (played, discarded, given),
  one that the table knows is there goes first, so nobody keeps believing in a card that may be
  gone.
* The supply running out: the first time in a hand, the discard stack is reshuffled into a new
  supply and the drawing goes on; when it runs out again (or nothing is left to reshuffle) the
  hand ends. A Wyatt Earp's draw and a shot follow the same rule (NOTES.md, ASSUMED). A player
  who chooses to draw two from a supply of fewer than two after the reshuffle ends the hand
  without finishing the turn; taking the top discard instead prolongs it.
* At the end of a hand all cards left in hands go face up onto the discard stack (they score
  nothing), then the posters are scored in poster order (the order changes nothing).
* The no-progress rule departs from the rulebook: the hand ends, and is scored like any hand,
  after 5 rounds of turns in a row (``game_play.STALL_ROUNDS`` x players turns) in which nobody
  drew a card from the supply (a draw, a Wyatt Earp's draw, a shot) or played a card (Outlaw
  cards, a Sheriff card, a free Photo out of turn); after 3 hands in a row ended this way
  (``end_of_hand.STALLED_HANDS``) the game ends as the rulebook's End of the Game says (the
  richest wins, a tie goes to the duel), though nobody has $25,000. The rulebook has no such end:
  it ends a hand only when a hand runs out of cards or the supply runs out a second time, lets
  players prolong the hand by taking the top discard ("the hand may be prolonged for some time
  by players taking this action"), and deals hand after hand until someone has $25,000. Why we
  depart: every game must end (DESIGN.md), and turns that take the top discard and discard it
  again move toward none of those ends, so players could prolong a hand, and a game, forever;
  every other turn does move toward an end (a draw empties the supply; a played card leaves the
  hands for good, or came from the supply), so with this rule every hand ends. Five full rounds
  leave every player five chances to change the table; three stalled hands in a row show that
  the players will not play for the posters, the only source of money. (The engine also enforces
  a hard cap on decisions, ``WyattEarp.max_decisions``.)
* Scoring: a player with 0 CP never shares a reward (NOTES.md, ASSUMED); a leader tied with
  another has a lead of 0 (the rulebook's example 3).
* The duel (End of the Game): the tied players draw in turn clockwise from the player who started
  the last hand; the cards go onto the discard stack; if all remaining players draw bullet holes
  they draw again, like when all draw blanks (NOTES.md, DERIVED). An empty supply is refilled
  from the shuffled discard stack (ASSUMED); should no card with a bullet hole be left there, all
  cards are gathered first (only possible when every Outlaw card lies in the territories).
* Ranks (the rulebook names only a winner): by money; among the richest, the duel's winner, then
  those shot out later ahead of those shot out earlier.
* The bank never runs out (NOTES.md, ASSUMED); exchanging five $1,000 tokens for a $5,000 one
  changes nothing, so money is a plain number of dollars.

Knowledge (views and ``resample``): every card is either in a hand, in the supply or face up;
the only card known to some players and not others is one taken with a Wyatt Earp search (known
to the searcher and to whoever searches the same stack later). Everyone knows the cards in other
hands that were taken from the top of the discard stack, given by Most Wanted! or stolen from a
territory, and the Outlaws a player refused a Most Wanted! request for (until that player draws
unseen cards or searches the stack); after the reshuffle, that the supply holds only cards of
the old discard stack and that a hand holds at most as many of them as its player drew since.
Nothing else of other hands or the supply. Views show the first two; ``resample`` keeps all
three and redraws the cards searched unseen (see ``views.py`` and ``resample.py``).

Optional rules, each an option (``game.Options``):

* ``hideout_reward`` ($1,000 by default, NOTES.md: UNKNOWN): what a successful Hideout adds.
* ``free_photo`` (off by default; NOTES.md: a variant from one review, not in the rulebook):
  "play a Photo for free when someone else melds an Outlaw". Our reading: right after a player
  lays the first set of an Outlaw in a hand, the other players, clockwise from that player's
  left, may each in turn play that Outlaw's Photo at once, out of turn (into their own territory,
  +4 CP and +$1,000 as usual), without it counting as a Sheriff card of any turn. Everyone is
  asked (so the question shows nothing) unless the Photo is already face up on the table or in
  the discard stack.

The decision cap (DESIGN.md: every game ends): ``WyattEarp.max_decisions`` is 10,000 decisions at
every player count (``game.MAX_DECISIONS``). Measured by ``tests/bench/decision_counts.py`` over
1,000 random and 50 heuristic games per player count, the longest game took 639 decisions at 2
players, 711 at 3 and 909 at 4 (heuristic games at most 464). Every hand ends (the rulebook's
ends and the no-progress rule), but not every game: players who draw from the supply and discard
without ever laying a card end hand after hand with nobody paid, and nobody ever reaches $25,000;
the cap ends such a game. The decision that reaches it ends the game
(``rules/end_of_hand.py``, ``end_at_cap``): a public ``engine.GameCapped`` event, then the hand
ends where it stands (``HandEnded`` reason ``"decision_cap"``; a Sheriff card waiting for its
target goes to the discard stack), is scored like any hand, and the game ends as the rulebook's
End of the Game says (the richest wins, a tie goes to the duel), whoever has $25,000. The reason:
the hand's scoring and the End of the Game are the rulebook's own, and need no decision.
"""

from __future__ import annotations

from engine.wyatt_earp.game import GAME, RULES_VERSION, Options, WyattEarp
from engine.wyatt_earp.state import WyattEarpState

__all__ = ["GAME", "RULES_VERSION", "Options", "WyattEarp", "WyattEarpState"]
