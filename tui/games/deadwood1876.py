"""Deadwood 1876 at the table: the town, the players' rows of Safes, the fight, the dice and your hand.

For developers: everything is drawn only from :class:`engine.deadwood1876.views.View` (what the
viewer may know) and the viewer's events, so a screen never shows a secret. Every state is
written in text or symbols, never in colour alone. :data:`LEGEND` (and :func:`legend`) is the
players' guide to those symbols, shown by the help screen (``?``); keep it in step with the
drawing code here.

The Horse Thief option is the only one that changes how the table reads: a white Horse is
marked as such only when the table's options are known to have it on (or are not known at
all); with it off a white Horse is an ordinary Horse (rulebook: HORSE, "the color of the Horse
does not matter"). :meth:`Deadwood1876UI.for_options` makes the screen parts for a table's
options.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from engine.core import InvalidOptions, parse_options
from engine.deadwood1876 import actions as A
from engine.deadwood1876 import events as E
from engine.deadwood1876.components import components
from engine.deadwood1876.events import Card
from engine.deadwood1876.game import Options
from engine.deadwood1876.views import PlayerView, SafeView, View
from tui.games.base import GameUI, TableWidget
from tui.widgets.board import Board
from tui.widgets.log import HIGHLIGHT
from tui.widgets.quiet import SteadyStatic, update_static

__all__ = ["LEGEND", "Deadwood1876Table", "Deadwood1876UI", "card_text", "legend", "safe_text", "short_safe"]

COMP = components()

LEGEND = """\
Top to bottom:

- **Status line**: the stage (SET UP, TURN, HEIST, FINAL SHOWDOWN, ...) and what happens now.
- **Town**: each establishment, the stars staying there and its free places, then how far the
  game is: the circle and the turns left before the next Heist, the Safes left in the middle,
  the deck and the discard pile.
  - `★AS` a player's star, by initials (`AS` is Al Swearengen): yours in bold, the player whose
    turn it is underlined. `·` a free place.
- **Players**: one row each.
  - `▶` whose turn it is; `…` must decide now; `✓` has chosen (when everyone chooses at once,
    the choices stay hidden until all are in).
  - *cards*: how many cards they hold.
  - *safes*: their Safes, leftmost first. `[2 ?]` Safe #2, you don't know what is inside;
    `[2 Gold 3]` you know it holds Gold 3 (it is yours, or you saw it); `[2 Gold 3↑]` turned
    face up, everyone knows it. `Colt Gun` is a Colt Showdown Gun.
  - `[2 ? +Colt H]` a Holster attached to Safe #2 (2-3 players); `+Colt Holster` one attached
    to the character card.
  - `flipped`, `OUT`, `Showdown`, `WINNER`: how they fare in the Final Showdown.
- **Your hand**: your cards. `[Colt 011223 Horse]` is one card: its gun (Colt), the six faces
  of that gun's die, and its item (Horse). Play a card for its item, or lay it as a gun in a
  Robbery, a Duel, a Heist or the Final Showdown.
- **Fight**: the Robbery or Duel under way: attacker `→` target `←` defender, the guns laid,
  and the Holsters given.
- **Dice**: the last roll, until the next fight starts: each player's dice and total, the
  highest in bold. `Dice (heist, reroll)` is a roll that breaks a tie of the one before.

Gun dice, weakest to strongest: Pepperbox 000112, Derringer 001122, Colt 011223,
Winchester 112233, Messenger 122334.

In the log, `»` marks the result of a fight; the result of a Robbery you fight in also pops up
in the corner.
"""
"""How to read the table, for players (the help screen shows it; see :func:`legend`)."""

WHITE_HORSE_ON = """
**White Horses** (the Horse Thief rule is on at this table): a `white Horse` is a Horse you may
also play out of turn as a Horse Thief, right after the attacker and the defender of someone's
Robbery have laid their guns: you roll its gun too, and if you roll higher than both, the Safe
is yours. Not in the Badge Round; Horse Thieves give and get no Holsters.
"""

WHITE_HORSE_UNKNOWN = """
**White Horses**: a `white Horse` matters only with the Horse Thief option (see the rules
below); without it, it is an ordinary Horse.
"""


def legend(horse_thief: bool | None = None) -> str:
    """The players' legend (:data:`LEGEND`), with white Horses explained when ``horse_thief`` is
    on (``None``: not known, explained as optional; ``False``: not mentioned)."""
    if horse_thief is None:
        return LEGEND + WHITE_HORSE_UNKNOWN
    return LEGEND + WHITE_HORSE_ON if horse_thief else LEGEND


GUN_FACES = {name.lower(): "".join(map(str, faces)) for name, faces in zip(COMP.gun_names, COMP.gun_faces, strict=True)}
"""Each gun's die faces as printed on the card (public component data, e.g. ``"colt": "011223"``)."""

GUN_STYLE = {"pepperbox": "grey70", "derringer": "green", "colt": "red", "winchester": "blue", "messenger": "magenta"}
"""The die colour of each gun (decoration only: the name is always written)."""

USES = {
    "horse": "a Horse",
    "duster": "a Duster",
    "stetson": "a Stetson",
    "robbery": "a gun in a Robbery",
    "duel": "a gun in a Duel",
    "defend": "a gun in defence",
    "holster": "a Holster",
    "heist": "a gun in the Heist",
    "showdown": "a gun in the Showdown",
}
"""How a card laid face up was used, in words."""

FIGHT_STARTS = (E.RobberyDeclared, E.DuelDeclared, E.HeistStarted, E.SafesRevealed)
"""Events that start a new fight: the dice row no longer shows the last fight's roll."""

PHASE_TITLES = {
    "pass_safe": "SET UP",
    "turn": "TURN",
    "duster": "Duster",
    "stetson": "Stetson",
    "defend": "Fight",
    "holster": "Holsters",
    "choose_holster": "Holsters",
    "send_away": "Duel won",
    "give_safe": "Third Law",
    "heist": "HEIST",
    "showdown": "FINAL SHOWDOWN",
    "over": "Game over",
}


def _gun(name: str) -> str:
    return name.capitalize()


def _purpose(roll: E.DiceRolled, previous: Any) -> str:
    """What ``roll`` was for, in words; ``"heist, reroll"`` when it breaks the tie of the roll
    just before it (``previous``, the viewer's event before it)."""
    purpose = roll.purpose.replace("_", " ")
    if isinstance(previous, E.DiceRolled) and previous.purpose == roll.purpose:
        purpose += ", reroll"
    return purpose


def card_text(card: Card, white_horses: bool = True) -> str:
    """A card as plain text: gun, its die's faces and item, e.g. ``"Colt 011223 Horse"``.

    A white Horse reads ``"white Horse"`` only with ``white_horses`` (the Horse Thief rule).
    """
    item = "white Horse" if card.white and white_horses else card.item.capitalize()
    return f"{_gun(card.gun)} {GUN_FACES.get(card.gun.lower(), '')} {item}"


def _card(card: Card, white_horses: bool = True) -> Text:
    style = GUN_STYLE.get(card.gun.lower(), "")
    return Text.assemble("[", (card_text(card, white_horses), style), "]")


def _gun_card(card: Card) -> Text:
    """A card laid as a gun: only its gun counts."""
    gun = card.gun.lower()
    return Text.assemble("[", (f"{_gun(card.gun)} {GUN_FACES.get(gun, '')}", GUN_STYLE.get(gun, "")), "]")


def short_safe(label: str) -> str:
    """A Safe's contents in few letters: ``"Colt Showdown Gun"`` → ``"Colt Gun"``, ``"Bad Sarsaparilla"`` →
    ``"Sarsaparilla"``."""
    return label.replace(" Showdown Gun", " Gun").replace("Bad Sarsaparilla", "Sarsaparilla")


def safe_text(index: int, safe: SafeView) -> str:
    """One Safe in a row as plain text: ``[2 ?]``, ``[2 Gold 3]`` (known) or ``[2 Gold 3↑]`` (face up).

    A Holster attached to it (2-3 players) follows its gun: ``[2 ? +Colt H]``.
    """
    inside = "?" if safe.contents is None else short_safe(safe.contents) + ("↑" if safe.revealed else "")
    if safe.holster is not None:
        inside += f" +{_gun(safe.holster.gun)} H"
    return f"[{index + 1} {inside}]"


def _safe(index: int, safe: SafeView) -> Text:
    if safe.contents is None:
        style = "dim"
    elif safe.revealed:
        style = "bold yellow"
    else:
        style = "yellow"
    return Text(safe_text(index, safe), style=style)


def figures(view: View) -> list[PlayerView]:
    """Everyone with a star: the players, then the Stranger (2 players) if there is one."""
    return [*view.players, *([view.stranger] if view.stranger is not None else [])]


def _figure(view: View, seat: int) -> PlayerView | None:
    if 0 <= seat < len(view.players):
        return view.players[seat]
    if view.stranger is not None and seat == view.stranger.seat:
        return view.stranger
    return None


def _of(name: str) -> str:
    words = name.replace(".", " ").split()
    return (words[0][0] + words[-1][0]).upper() if words else "?"


def initials(view: View, seat: int) -> str:
    """A figure's initials (``"AS"`` for Al Swearengen), unique at the table, else ``"P"`` and the seat."""
    figure = _figure(view, seat)
    if figure is None:
        return f"P{seat}"
    mine = _of(figure.character)
    if sum(_of(p.character) == mine for p in figures(view)) > 1:
        return f"P{seat}"
    return mine


def _name(view: View, seat: int) -> str:
    figure = _figure(view, seat)
    if figure is None:
        return f"seat {seat}"
    return f"the Stranger ({figure.character})" if figure.stranger else figure.character


def _est_name(view: View, est: int) -> str:
    for e in view.establishments:
        if e.id == est:
            return e.name
    return f"establishment {est}"


class Deadwood1876Table(TableWidget):
    """The Deadwood 1876 table for one seat: status, town, players, fight and dice, hand.

    Args:
        white_horses: mark white Horses as such (the Horse Thief rule is on, or not known).
    """

    def __init__(self, *, white_horses: bool = True, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.white_horses = white_horses

    def compose(self) -> ComposeResult:
        yield SteadyStatic(id="dw-status", classes="dw-line")
        yield Board(id="dw-board")

    _drawn: tuple[Any, ...] | None = None

    def draw(self, view: Any, events: list[Any], names: list[str]) -> None:
        """Draw ``view``; ``events`` give the last dice roll, ``names`` the seats' players.

        Nothing is drawn when nothing it shows changed (the same view, events, names and size).
        Under the status line, the town, the players, the hand, the fight and the dice are the
        lines of one :class:`~tui.widgets.board.Board`: only the lines that changed are drawn.
        """
        width = max(self.size.width - 2, 40)
        header = self.app.size.height >= 32
        key = (view, len(events), events[-1] if events else None, tuple(names), width, header, self.white_horses)
        if key == self._drawn:
            return
        self._drawn = key
        update_static(self.query_one("#dw-status", Static), self._status(view))
        gap = 1 if header else 0  # a blank line above the town, the players and the hand
        fight = self._fight(view)
        parts = [
            (self._town(view), gap),
            (self._seats(view, names, header=header), gap),
            (self._hand(view, width), gap),
            (fight if fight.plain else None, 0),
            (self._dice(view, events), 0),
        ]
        self.query_one("#dw-board", Board).show(parts, width)

    # -- the parts -------------------------------------------------------------------------

    def _status(self, view: View) -> Text:
        who = _name(view, view.current) if view.current >= 0 else ""
        phase = view.phase
        if phase == "turn":
            what = f"{who}'s turn"
            if view.badge:
                what = f"Badge Round · {view.badge}: {who}'s extra turn"
            elif view.final_turns:
                what += " (final turns)"
        elif phase == "pass_safe":
            what = "everyone passes one of their two Safes to the left"
        elif phase == "duster":
            what = f"{who} used a Duster: {view.cards_to_discard} more to discard"
        elif phase == "stetson":
            what = f"{who} used a Stetson: {view.views_left} more Safe(s) to view"
        elif phase == "defend" and view.fight:
            what = f"{_name(view, view.fight.defender)} must answer the {view.fight.kind.capitalize()}"
        elif phase == "holster":
            what = "those not fighting may each give a fighter one Holster, face down"
        elif phase == "choose_holster":
            what = "The fighters choose which Holster to use"
        elif phase == "send_away":
            what = f"{who} won the Duel at home and sends the loser away"
        elif phase == "give_safe":
            what = f"Third Law: {_name(view, view.giver)} must give a Safe away"
        elif phase == "heist":
            what = f"Everyone lays a gun for the {view.heist_safe or 'Heist Safe'}"
        elif phase == "showdown":
            what = "Everyone still standing fires a gun"
        elif phase == "over":
            winners = ", ".join(_name(view, s) for s in view.winners) or "nobody"
            what = f"Winner: {winners}"
        else:
            what = phase
        return Text.assemble((f" {PHASE_TITLES.get(phase, phase)} ", "reverse bold"), " ", (what, "bold"))

    def _progress(self, view: View) -> list[str]:
        if view.circle:
            turns = f"{view.turns_left} turn{'' if view.turns_left == 1 else 's'} left"
            stage = f"circle {view.circle} · {turns}" + (" (final)" if view.final_turns else "")
        elif view.phase in ("showdown", "over"):
            stage = "Final Showdown" if view.phase == "showdown" else "game over"
        else:
            stage = "Badge Round"
        return [stage, f"middle Safes: {view.middle_safes}", f"deck {view.deck_size} · discard {view.discard_size}"]

    def _town(self, view: View) -> Table:
        grid = Table.grid(padding=(0, 1), expand=False)
        grid.add_column(no_wrap=True)
        grid.add_column(no_wrap=True)
        grid.add_column(no_wrap=True, style="dim")
        grid.add_column(no_wrap=True, style="dim")
        progress = self._progress(view)
        for row, est in enumerate(view.establishments):
            stars = Text()
            for seat in est.seats:
                if stars:
                    stars.append(" ")
                style = "bold" if seat == view.seat else ""
                if seat == view.current:
                    style += " underline"
                stars.append(f"★{initials(view, seat)}", style=style.strip())
            for _ in range(est.capacity - len(est.seats)):
                stars.append(" ·" if stars else "·", style="dim")
            info = progress[row] if row < len(progress) else ""
            grid.add_row(Text(est.name, style="bold"), stars, f"{len(est.seats)}/{est.capacity}", "  " + info)
        for info in progress[len(view.establishments) :]:
            grid.add_row("", "", "", "  " + info)
        return grid

    def _seats(self, view: View, names: list[str], header: bool = True) -> Table:
        table = Table(box=None, padding=(0, 1), pad_edge=False, expand=True, show_header=header, header_style="dim")
        table.add_column("", no_wrap=True, width=2)
        table.add_column("player", no_wrap=True, overflow="ellipsis", max_width=26)
        table.add_column("cards", justify="right", no_wrap=True)
        table.add_column("safes", ratio=1)  # then the notes (OUT, WINNER...), right after them
        for p in figures(view):
            table.add_row(*self._seat_row(view, p, names))
        return table

    def _seat_row(self, view: View, p: PlayerView, names: list[str]) -> list[RenderableType]:
        """A player's row: turn mark, who, cards, then their Safes and the notes on them (OUT,
        WINNER...) right after the Safes, never a column away at the table's far edge."""
        mark = Text()
        mark.append("▶" if p.seat == view.current else " ", style="bold")
        if p.chosen:
            mark.append("✓", style="green")
        elif p.seat in view.to_act:
            mark.append("…", style="yellow")
        else:
            mark.append(" ")
        who = Text.assemble((initials(view, p.seat), "bold"), " ", p.character)
        if p.seat == view.seat:
            who.append(" (you)", style="bold")
            who.stylize("bold")
        elif p.stranger:
            who.append(" (Stranger)", style="italic")
        if view.acting_as_stranger >= 0 and p.stranger:
            who.append(f" played by {initials(view, view.acting_as_stranger)}", style="italic")
        safes = Text(" ").join(_safe(i, s) for i, s in enumerate(p.safes)) if p.safes else Text("none", style="dim")
        notes = []
        if p.out:
            notes.append("OUT")
        elif view.phase in ("showdown", "over") and p.seat in view.advanced:
            notes.append("Showdown")
        if p.flipped:
            notes.append("flipped")
        if p.holster is not None:
            notes.append(f"+{_gun(p.holster.gun)} Holster")
        if p.seat in view.winners:
            notes.append("WINNER")
        if notes:
            safes.append_text(Text.assemble("  ", (" ".join(notes), "bold")))
        return [mark, who, "-" if p.stranger else str(p.hand_size), safes]

    def _fight(self, view: View) -> Text:
        f = view.fight
        if f is not None:
            ini = lambda seat: initials(view, seat)  # noqa: E731
            text = Text.assemble((f"{f.kind.capitalize()}: ", "bold"), ini(f.attacker), " ", _gun_card(f.attack_card))
            target = f"{ini(f.defender)}'s Safe #{f.index + 1}" if f.index >= 0 else ini(f.defender)
            text.append(f" → {target}")
            if f.defend_card is not None:
                text.append(f" ← {ini(f.defender)} ")
                text.append_text(_gun_card(f.defend_card))
            elif view.phase == "defend":
                text.append("  (no answer yet)", style="dim")
            for giver, fighter, card in f.holsters:
                text.append(f"  Holster {initials(view, giver)}→{initials(view, fighter)} ")
                text.append_text(_gun_card(card))
            for thief, card in f.thieves:
                text.append(f"  Horse Thief {initials(view, thief)} ")
                text.append_text(_gun_card(card))
            return text
        if view.phase == "heist" and view.heist_safe:
            return Text.assemble(("Heist: ", "bold"), f"the middle Safe is {view.heist_safe}", self._chosen(view))
        if view.phase in ("showdown", "over") and view.advanced:
            who = ", ".join(_name(view, s) for s in view.advanced)
            return Text.assemble(("Final Showdown: ", "bold"), who, self._chosen(view))
        if view.badge:
            return Text.assemble(("Badge Round: ", "bold"), f"the {view.badge} takes an extra turn")
        return Text("")

    @staticmethod
    def _chosen(view: View) -> str:
        done = [initials(view, p.seat) for p in figures(view) if p.chosen]
        return f"   chosen: {' '.join(done)}" if done else ""

    def _dice(self, view: View, events: list[Any]) -> Text:
        """The last roll, unless a new fight (Robbery, Duel, Heist, Final Showdown) began since."""
        at = next((k for k in range(len(events) - 1, -1, -1) if isinstance(events[k], E.DiceRolled)), -1)
        if at < 0 or any(isinstance(e, FIGHT_STARTS) for e in events[at + 1 :]):
            return Text("Dice: not rolled yet", style="dim")
        roll = events[at]
        text = Text.assemble(("Dice", "bold"), f" ({_purpose(roll, events[at - 1] if at else None)}): ")
        best = max(total for _, _, total in roll.rolls)
        for n, (seat, dice, total) in enumerate(roll.rolls):
            if n:
                text.append("  ")
            faces = " + ".join(f"{_gun(gun)} {face}" if gun != "black" else str(face) for gun, face in dice)
            text.append(f"{initials(view, seat)} ", style="bold" if total == best else "")
            text.append(f"{faces}" + (f" = {total}" if len(dice) > 1 else ""), style="bold" if total == best else "")
        return text

    def _hand(self, view: View, width: int) -> RenderableType:
        if view.hands is not None:
            rows = [
                _flow(
                    Text(f"{initials(view, seat)}:", style="bold"), [_card(c, self.white_horses) for c in hand], width
                )
                for seat, hand in enumerate(view.hands)
            ]
            return Group(Text("Hands (omniscient view)", style="bold"), *rows)
        if view.seat is None:
            return Text("Spectator: no hand", style="dim")
        return _flow(
            Text("Your hand:", style="bold"),
            [_card(c, self.white_horses) for c in view.hand] or [Text("empty", style="dim")],
            width,
        )


def _flow(label: Text, items: list[Text], width: int) -> Text:
    """``label`` and ``items`` on as few lines as fit in ``width``, never breaking an item."""
    out = label.copy()
    column = out.cell_len
    indent = column + 1
    for item in items:
        if column + 1 + item.cell_len > width and column > indent:
            out.append("\n" + " " * indent)
            column = indent
        else:
            out.append(" ")
            column += 1
        out.append_text(item)
        column += item.cell_len
    return out


class Deadwood1876UI(GameUI):
    """Deadwood 1876's screen parts for the shared app.

    Args:
        horse_thief: the table's Horse Thief option: on, off, or ``None`` (not known: white
            Horses are marked, and explained as optional). See :meth:`for_options`.
    """

    game_id = "deadwood1876"
    css_path = Path(__file__).with_suffix(".tcss")

    def __init__(self, horse_thief: bool | None = None) -> None:
        self.horse_thief = horse_thief
        self.legend = legend(horse_thief)

    @property
    def white_horses(self) -> bool:
        """White Horses are marked as such (the Horse Thief rule is on, or not known)."""
        return self.horse_thief is not False

    def for_options(self, options: Any) -> Deadwood1876UI:
        """The screen parts for a table with ``options`` (``None``, a dict or
        :class:`engine.deadwood1876.game.Options`): white Horses only with the Horse Thief rule."""
        try:
            horse_thief = parse_options(Options, options).horse_thief
        except InvalidOptions:
            return Deadwood1876UI()
        return Deadwood1876UI(horse_thief)

    def make_table(self) -> TableWidget:
        """A new :class:`Deadwood1876Table`."""
        return Deadwood1876Table(white_horses=self.white_horses, classes="table")

    def describe_action(self, game: Any, action: Any, view: Any, seat: int | None = None) -> str:
        """The engine's words for ``action``; a white Horse is a plain Horse without the Horse Thief rule."""
        text = super().describe_action(game, action, view, seat)
        return text if self.white_horses else text.replace(" / white Horse", " / Horse")

    def group(self, action: Any, view: Any) -> tuple[str, ...]:
        """Robbery → player → Safe; Duel, Horse, Duster, Stetson, Holsters, views and gifts by kind."""
        if isinstance(action, A.Robbery):
            owner = _name(view, action.owner)
            return ("Robbery", f"Rob {owner}", f"Rob {owner}'s Safe #{action.index + 1}")
        if isinstance(action, A.Duel):
            return ("Duel", f"Duel {_name(view, action.target)}")
        if isinstance(action, A.RideHorse):
            return ("Horse",)
        if isinstance(action, A.UseDuster):
            return ("Duster",)
        if isinstance(action, A.UseStetson):
            return ("Stetson",)
        if isinstance(action, A.ViewSafe):
            return (f"View {_name(view, action.owner)}'s Safes",)
        if isinstance(action, A.GiveHolster):
            return (f"Holster to {_name(view, action.fighter)}",)
        if isinstance(action, A.GiveSafe):
            return (f"Give a Safe to {_name(view, action.recipient)}",)
        if isinstance(action, A.AttachHolster):
            return ("Attach a Holster", f"Attach a Holster for {_name(view, action.owner)}")
        if isinstance(action, A.Explode):
            return ("Explosives", f"Explode {_name(view, action.owner)}'s Safes")
        if isinstance(action, A.HorseThief):
            return ("Horse Thief",)
        return ()

    def seat_name(self, view: Any, seat: int) -> str:
        """The seat's character."""
        return _name(view, seat)

    def result_terms(self, view: Any, outcome: Any) -> tuple[str, list[str], str]:
        """Who won the Final Showdown, who advanced and lost it (the later out, the better), who
        did not advance: Deadwood 1876 has no points (the winner keeps all the gold)."""
        advanced = set(view.advanced)
        results = []
        for seat in range(len(outcome.ranks)):
            flipped = seat < len(view.players) and view.players[seat].flipped
            if seat in outcome.winners:
                results.append("won the Final Showdown" if len(outcome.winners) == 1 else "won (team victory)")
            elif seat in advanced:
                results.append("advanced, lost the Showdown" + (" (flipped)" if flipped else ""))
            else:
                results.append("did not advance")
        order = (
            "No points: the winner keeps all the gold. Then those who advanced and lost the Final "
            "Showdown, the later out the better; then those who did not advance (tied)."
        )
        if not outcome.winners:
            order = "Nobody wins: the Stranger advanced alone (or won the Showdown), so every player loses."
        return "Final Showdown", results, order

    def is_turn_start(self, event: Any) -> bool:
        """Turns, Heists, the Badge Round and the Showdown start new stages."""
        return isinstance(event, E.TurnStarted | E.HeistStarted | E.SafesRevealed | E.GameOver)

    def describe_event(self, event: Any, view: Any, previous: Any = None) -> str | None:
        """The event in words, as ``view``'s seat knows it (``previous``: the event before it)."""
        return _describe_event(event, view, previous, self.white_horses)

    def notices(self, events: list[Any], start: int, view: Any) -> list[str]:
        """The result of each Robbery among ``events[start:]`` that ``view``'s seat fought in
        (as the robber or the robbed): who took the Safe, or who fought the Robbery off."""
        out = []
        for k in range(start, len(events)):
            won = events[k]
            if not isinstance(won, E.FightWon) or won.kind != "robbery":
                continue
            declared = next((e for e in reversed(events[:k]) if isinstance(e, E.RobberyDeclared)), None)
            if declared is None or view.seat not in (declared.attacker, declared.defender):
                continue
            after = events[k + 1] if k + 1 < len(events) else None
            out.append(_robbery_result(view, declared, after if isinstance(after, E.SafeStolen) else None))
        return out


def _robbery_result(view: View, declared: E.RobberyDeclared, stolen: E.SafeStolen | None) -> str:
    """A Robbery's result for the robber or the robbed (``stolen``: the Safe taken, if it was)."""
    n = lambda seat: _name(view, seat)  # noqa: E731
    safe = f"Safe #{declared.index + 1}"
    if stolen is None:
        if view.seat == declared.attacker:
            return f"Robbery failed: {n(declared.defender)} keeps their {safe}"
        return f"Robbery fought off: you keep your {safe}, {n(declared.attacker)} gets nothing"
    what = f"{safe}{_known(stolen.safe)}"
    if stolen.thief == view.seat:
        return f"Robbery won: you take {n(declared.defender)}'s {what}"
    thief = n(stolen.thief) if stolen.thief == declared.attacker else f"the Horse Thief {n(stolen.thief)}"
    if view.seat == declared.defender:
        return f"Robbery lost: {thief} takes your {what}"
    return f"Robbery failed: {thief} takes {n(declared.defender)}'s {what}"


def _cards_text(cards: tuple[Card, ...] | None, white_horses: bool = True) -> str:
    return ": " + ", ".join(card_text(c, white_horses) for c in cards) if cards else ""


def _known(label: str | None) -> str:
    return f" ({label})" if label else ""


def _describe_event(  # noqa: C901 - one line per event kind
    ev: Any, view: View, previous: Any = None, white_horses: bool = True
) -> str | None:
    n = lambda seat: _name(view, seat)  # noqa: E731
    c = lambda card: card_text(card, white_horses)  # noqa: E731
    cs = lambda cards: _cards_text(cards, white_horses)  # noqa: E731
    if isinstance(ev, E.StarsPlaced):
        placed = [f"{initials(view, s)} {_est_name(view, e)}" for s, e in enumerate(ev.establishments) if e >= 0]
        return "Stars placed: " + ", ".join(placed)
    if isinstance(ev, E.CardsDealt):
        return f"{n(ev.seat)} is dealt {ev.count} cards{cs(ev.cards)}"
    if isinstance(ev, E.SafesDealt):
        return f"{n(ev.seat)} is dealt {ev.count} Safes" + (": " + ", ".join(ev.safes) if ev.safes else "")
    if isinstance(ev, E.SafePassed):
        return f"{n(ev.giver)} passes a Safe to {n(ev.receiver)}{_known(ev.safe)}"
    if isinstance(ev, E.SafesShuffled):
        return f"{n(ev.seat)} shuffles their Safes"
    if isinstance(ev, E.DiceRolled):
        rolls = "; ".join(
            f"{initials(view, seat)} "
            + " + ".join(f"{_gun(g)} {face}" if g != "black" else str(face) for g, face in dice)
            + (f" = {total}" if len(dice) > 1 else "")
            for seat, dice, total in ev.rolls
        )
        return f"Dice ({_purpose(ev, previous)}): {rolls}"
    if isinstance(ev, E.FirstPlayer):
        return f"{n(ev.seat)} goes first"
    if isinstance(ev, E.TurnStarted):
        if ev.badge:
            return f"── {ev.badge}: {n(ev.seat)}'s extra turn ──"
        return f"── {'Final turn' if ev.final else 'Turn'}: {n(ev.seat)} (circle {ev.circle}) ──"
    if isinstance(ev, E.CardPlayed):
        return f"{n(ev.seat)} plays {c(ev.card)} as {USES.get(ev.use, ev.use)}"
    if isinstance(ev, E.RobberyDeclared):
        return f"{n(ev.attacker)} robs {n(ev.defender)}'s Safe #{ev.index + 1}"
    if isinstance(ev, E.DuelDeclared):
        return f"{n(ev.attacker)} duels {n(ev.defender)}"
    if isinstance(ev, E.HolsterGiven):
        return f"{n(ev.giver)} gives {n(ev.fighter)} a Holster: {c(ev.card)}"
    if isinstance(ev, E.HolsterReturned):
        return f"{n(ev.giver)}'s Holster goes back: {c(ev.card)}"
    if isinstance(ev, E.FightWon):
        return f"{HIGHLIGHT}{n(ev.winner)} wins the {ev.kind.capitalize()} against {n(ev.loser)}"
    if isinstance(ev, E.SafeStolen):
        return f"{n(ev.thief)} steals {n(ev.victim)}'s Safe #{ev.index + 1}{_known(ev.safe)}"
    if isinstance(ev, E.SafeViewed):
        return f"{n(ev.viewer)} views {n(ev.owner)}'s Safe #{ev.index + 1}{_known(ev.safe)}"
    if isinstance(ev, E.StarMoved):
        return f"{n(ev.seat)} moves to the {_est_name(view, ev.destination)} ({ev.reason.replace('_', ' ')})"
    if isinstance(ev, E.CardsDrawn):
        return f"{n(ev.seat)} draws {ev.count} card{'s' if ev.count != 1 else ''}{cs(ev.cards)}"
    if isinstance(ev, E.CardsDiscarded):
        return f"{n(ev.seat)} discards {ev.count} card{'s' if ev.count != 1 else ''} face down{cs(ev.cards)}"
    if isinstance(ev, E.DeckReshuffled):
        return f"The discard pile ({ev.count} cards) is shuffled into a new deck"
    if isinstance(ev, E.HeistStarted):
        return f"══ Heist {ev.heist}: the middle Safe is {ev.safe} ══"
    if isinstance(ev, E.HeistWon):
        return f"{n(ev.seat)} wins the Heist and takes the {ev.safe}"
    if isinstance(ev, E.SafeGiven):
        return f"{n(ev.giver)} gives Safe #{ev.index + 1} to {n(ev.recipient)}{_known(ev.safe)}"
    if isinstance(ev, E.BadgeRoundStarted):
        return "══ Badge Round: Badges are revealed Tin, Iron, Copper, Silver, Gold ══"
    if isinstance(ev, E.BadgeRevealed):
        return f"{n(ev.seat)} reveals the {ev.badge} (Safe #{ev.index + 1})"
    if isinstance(ev, E.SafesRevealed):
        # ``gold`` is per establishment id: only those in play count (2-3 players have no Grand Central Hotel)
        gold = ", ".join(f"{e.name} {ev.gold[e.id]}" for e in view.establishments if 0 <= e.id < len(ev.gold))
        return f"══ Final Showdown: all Safes revealed; gold: {gold} ══"
    if isinstance(ev, E.Advanced):
        return "Into the Final Showdown: " + ", ".join(n(s) for s in ev.seats)
    if isinstance(ev, E.CharacterFlipped):
        return f"{n(ev.seat)} rolled lowest: character flipped"
    if isinstance(ev, E.PlayerOut):
        return f"{n(ev.seat)} rolled lowest again and is out"
    if isinstance(ev, E.HandsTakenBack):
        return "Cards ran out: " + ", ".join(n(s) for s in ev.seats) + " take back their hands"
    if isinstance(ev, E.StrangerPlaced):
        return f"{n(ev.host)} puts the Stranger in the {_est_name(view, ev.establishment)} with {ev.safes} Safes"
    if isinstance(ev, E.HolsterAttached):
        where = f"{n(ev.owner)}'s Safe #{ev.index + 1}" if ev.index >= 0 else f"{n(ev.owner)}'s character card"
        return f"{n(ev.seat)} attaches a Holster to {where}: {c(ev.card)}"
    if isinstance(ev, E.HorseThiefJoined):
        return f"{n(ev.seat)} joins the Robbery as a Horse Thief: {c(ev.card)}"
    if isinstance(ev, E.SafeGivenToStranger):
        return f"{n(ev.seat)} gives a Safe to the Stranger{_known(ev.safe)}"
    if isinstance(ev, E.MysteryRevealed):
        return f"{n(ev.seat)} reveals the {ev.safe} (Safe #{ev.index + 1})"
    if isinstance(ev, E.DaggerChosen):
        choice = "+1 gold and a negative Pepperbox" if ev.plus_gold else "-1 gold and a Pepperbox"
        return f"{n(ev.seat)} takes the Dagger's {choice}"
    if isinstance(ev, E.SafeExploded):
        holster = f"; its Holster ({c(ev.holster)}) is discarded" if ev.holster is not None else ""
        return f"{n(ev.seat)} blows up {n(ev.owner)}'s Safe #{ev.index + 1} ({ev.safe}){holster}"
    if isinstance(ev, E.PokerDeckPlayed):
        return f"{n(ev.seat)} plays the Poker Deck: rolls {ev.value}, red die {ev.red}, gold {ev.gold:+d}"
    if isinstance(ev, E.TeamVictory):
        return f"Team victory ({ev.rule.replace('_', ' ')}): " + ", ".join(n(s) for s in ev.seats)
    if isinstance(ev, E.GameOver):
        return "══ Game over: " + (", ".join(n(s) for s in ev.winners) or "nobody") + " wins ══"
    return repr(ev)
