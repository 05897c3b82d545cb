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
ones it proposes as ASSUMED or DERIVED):

* The first dealer is drawn at random: the rulebook's "oldest player" is unknown to the engine.
  Cards are dealt one at a time from the top of the shuffled deck, clockwise from the player on
  the dealer's left, as cards are dealt at a table.
* A player must keep a card to discard (NOTES.md, DERIVED): plays that would empty the hand are
  not offered (a Sheriff card needs another card in hand, except a Wyatt Earp that draws or
  takes a card; at most all but one Outlaw cards). The turn has to end with a discard.
* One batch per Outlaw per turn (NOTES.md, ASSUMED): the cards of one Outlaw played at once pay
  $1,000 x cards - $1,000; a player may not split them into several plays of the same turn to
  lower the reward. Outlaw cards gained later in the turn (Most Wanted!, Wyatt Earp) may be
  played as a new batch.
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
* A Hideout goes on another player's group only (NOTES.md, ASSUMED: symbol cards go to "an
  opponent's territory"); its reward is the ``hideout_reward`` option, added on a hit only. The
  covered player is always asked whether to answer with a Wyatt Earp, even without one in hand,
  so that the question tells the table nothing; answering out of turn uses up no Sheriff limit.
* Most Wanted! from the hand: with two players only the clockwise ask is offered (left and right
  are the same player). A player asked who has several cards of that Outlaw gives one (they are
  identical). The asking and the answers are heard by everyone, so the card given is known to
  all players, as is that those who had none hold none (until they draw unseen cards).
* Most Wanted! steal: the Outlaw card taken is the one last played in that group; if no Outlaw
  card or Photo is left, the group's Sheriff cards and its Hideout go to the discard stack.
* Wyatt Earp's take-from-the-discard: the card taken is the topmost of the kind chosen. The
  discard stack lies face up (every card in it was laid face up), so everyone knows which card
  was taken. A Sheriff card taken may be played "immediately": as the very next play, before any
  other card.
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

Knowledge (views and ``resample``): every card is either in a hand, in the supply or face up, and
no card is known to one player only. Everyone knows the cards in other hands that were taken from
the discard stack, given by Most Wanted! or stolen from a territory, and the Outlaws a player
refused a Most Wanted! request for (until that player draws unseen cards); after the reshuffle,
that the supply holds only cards of the old discard stack and that a hand holds at most as many
of them as its player drew since. Nothing else of other hands or the supply. Views show the
first two; ``resample`` keeps all three (see ``views.py`` and ``resample.py``).

Optional rules, each an option (``game.Options``):

* ``hideout_reward`` ($1,000 by default, NOTES.md: UNKNOWN): what a successful Hideout adds.
* ``free_photo`` (off by default; NOTES.md: a variant from one review, not in the rulebook):
  "play a Photo for free when someone else melds an Outlaw". Our reading: right after a player
  lays the first set of an Outlaw in a hand, the other players, clockwise from that player's
  left, may each in turn play that Outlaw's Photo at once, out of turn (into their own territory,
  +4 CP and +$1,000 as usual), without it counting as a Sheriff card of any turn. Everyone is
  asked (so the question shows nothing) unless the Photo is already face up on the table or in
  the discard stack.
"""

from __future__ import annotations

from engine.wyatt_earp.game import GAME, RULES_VERSION, Options, WyattEarp
from engine.wyatt_earp.state import WyattEarpState

__all__ = ["GAME", "RULES_VERSION", "Options", "WyattEarp", "WyattEarpState"]
