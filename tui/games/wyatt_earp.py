"""Wyatt Earp at the table: the seven posters, every territory, the piles, the last shot and score, your hand.

For developers: everything is drawn only from :class:`engine.wyatt_earp.views.View` (what the
viewer may know) and the viewer's events, so a screen never shows a secret; no rule is decided
here (who leads, what is captured, what may be played all come from the view, the events and the
legal actions). Every state is written in text or symbols, never in colour alone. :data:`LEGEND`
(and :func:`legend`) is the players' guide to those symbols, shown by the help screen (``?``);
keep it in step with the drawing code here.

The table's heart is one grid, a row per Outlaw in poster order: the poster's reward, the
counted CP on the whole table, each player's group of that Outlaw (its counted CP, ``★`` for the
leaders, the Sheriff cards on it as letters, ``H:`` when a Hideout covers it) and the viewer's
cards of that Outlaw in hand. The column headers are the players: seat, name, money and cards
in hand. Around it: the status line, the piles, the last shot and the last hand's scoring, and
the hand grouped by Outlaw, pinned under the board so that every card of it is always in view.
The log names the players by the table's names (:func:`log_names`), which the table hands to
its :class:`WyattEarpUI` as it draws.

The picker's groups (:meth:`WyattEarpUI.group`) keep a turn short: draw; play Outlaw cards (by
Outlaw when there are many); play a Sheriff card (by card, Most Wanted! by the Outlaw asked
for); discard (Outlaw cards, Sheriff cards); a shot's target by territory; after a Wyatt Earp
search, the card to take (Outlaw cards, Sheriff cards).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult

from engine.core import InvalidOptions, parse_options
from engine.wyatt_earp import actions as A
from engine.wyatt_earp import events as E
from engine.wyatt_earp.components import components
from engine.wyatt_earp.events import Card
from engine.wyatt_earp.game import Options
from engine.wyatt_earp.views import GroupView, PlayerView, View
from tui.games.base import GameUI, TableWidget
from tui.widgets.board import Board
from tui.widgets.log import HIGHLIGHT
from tui.widgets.quiet import DrawnStatic

__all__ = [
    "LEGEND",
    "SHORT_NAMES",
    "SHORT_SHERIFF",
    "WyattEarpTable",
    "WyattEarpUI",
    "card_list",
    "group_cell",
    "hand_groups",
    "legend",
    "log_names",
    "render_table",
]

COMP = components()
NAMES = COMP.outlaw_names
"""The Outlaws' names, in poster order (public component data)."""

LETTERS = {"photo": "P", "stagecoach_robbery": "S", "bank_robbery": "B", "fastest_gun": "F"}
"""The letter of each Sheriff card that lies in a group (the legend explains them)."""

CAPTURE = COMP.capture_threshold
"""Counted CP on the table at which a poster's Outlaw is captured (component data, for the ``✓`` mark)."""

LEGEND = f"""\
Top to bottom:

- **Status line**: the hand (`HAND 2`), whose turn it is and what they decide now: draw, play
  (Outlaw cards and at most one Sheriff card, then a discard to end the turn), a hit's target,
  or an answer out of turn (a Wyatt Earp against a Hideout; with the option, a free Photo).
  `Sheriff card used`: this turn's one Sheriff card is played; `may still play the ... taken`:
  a Sheriff card just taken with Wyatt Earp may be played at once. Then the dealer.
- **The grid**: one row per Outlaw, in poster order.
  - *poster*: the reward on the Outlaw's poster now (`$12k` is $12,000: on a narrow screen
    amounts are written in thousands).
  - *CP*: the capture points (CP) that count on the whole table; `✓` at {CAPTURE} or more (the
    Outlaw would be captured if the hand ended now); `–` nobody has laid the first set yet this
    hand (until then only a set of 3 or more Outlaw cards may start it).
  - one column per player, headed by seat and name (`you` for yours), their money and how many
    cards they hold (`12c`); `▶` whose turn it is, `…` must answer now (out of turn), `WINNER`
    under the winners' money once the game is over. In each cell, that player's group of the Outlaw:
    - `6` its counted CP; `·` no cards of that Outlaw.
    - `★` leads the Outlaw (the most counted CP; players tied for the lead all get a star).
    - letters: the Sheriff cards on the group: `P` Photo, `S` Stagecoach robbery,
      `B` Bank robbery, `F` Fastest gun (`BB`: two Bank robberies).
    - `H:6` a Hideout covers the group: its 6 CP count 0 until a Wyatt Earp removes it.
  - *hand*: your cards of that Outlaw (`3`; `+P` you hold its Photo too).
- **Known in hands**: cards everyone knows another player holds (taken from the discard stack,
  given by Most Wanted! or stolen), and `no Jesse James`: that player refused a Most Wanted!
  request for it and has drawn no hidden card since.
- **Supply** and **Discard**: the cards left in the supply (`reshuffled`: it ran out once this
  hand; the next time ends the hand) and the discard stack: how many, the top card, then the
  cards under it that you saw laid there (`3 unsure`: another player searched the stack with a
  Wyatt Earp since you last looked through it, and took one card unseen: the cards it may have
  taken are left out until you know more).
- **Shot**: the last shot of this hand: whose, with which Sheriff card, the card drawn, `HIT`
  (it has a bullet hole) or `MISS`, and where the card went.
- **Hand 2 paid**: what the last hand's scoring paid each player, and which Outlaws it captured.
- **Your hand**: every card you hold, grouped by Outlaw (`Billy the Kid ×3 +Photo`), then your
  other Sheriff cards. It stays at the bottom of the board, in view whatever shows above it. On
  a small screen, when the full names need more than a line, the Outlaws go by first name and a
  Photo by `P` (`Billy ×3 +P · Photo Belle · Stagecoach ×2`).

In the log, players go by their names at the table (`heuristic (seat 2)` where two seats share
a name); `»` marks a shot, a scoring and the duel. A Hideout, a theft or a Most Wanted! gift
against you, and each hand's scoring, are also said under the moves' title.
"""
"""How to read the table, for players (the help screen shows it; see :func:`legend`)."""


def legend(options: Options | None = None) -> str:
    """The players' legend (:data:`LEGEND`), with the table's options when they are known."""
    if options is None:
        return LEGEND
    reward = f"${options.hideout_reward:,}"
    text = LEGEND + f"\nAt this table a successful Hideout adds **{reward}** to its Outlaw's poster."
    if options.free_photo:
        text += (
            " The **free Photo** rule is on: right after someone lays the first set of an Outlaw, the"
            " others may each play its Photo at once, out of turn."
        )
    return text + "\n"


# -- words ----------------------------------------------------------------------------------


def _money(amount: int) -> str:
    return f"${amount:,}"


def _kilo(amount: int) -> str:
    """Dollars in thousands, for narrow screens: ``"$12k"`` (rewards are in $1,000 steps)."""
    return f"${amount // 1000}k" if amount and amount % 1000 == 0 else _money(amount)


def log_names(names: Sequence[str]) -> tuple[str, ...]:
    """Per seat, how the log names its player: the table's name for it (``"alice"``,
    ``"random (bot)"``); with its seat where seats share a name (``"heuristic (seat 2)"``,
    ``"heuristic (bot, seat 2)"``); ``"seat N"`` for a seat with no name of its own (free, or
    ``"you"``: the person of a local table, who is someone else in another seat's replay)."""
    counts = Counter(names)
    out = []
    for seat, name in enumerate(names):
        if not name.strip() or name == "(free)" or name.lower() == "you":
            out.append(f"seat {seat}")
        elif counts[name] == 1:
            out.append(name)
        elif name.endswith(")") and "(" in name:
            out.append(f"{name[:-1]}, seat {seat})")
        else:
            out.append(f"{name} (seat {seat})")
    return tuple(out)


def _who(view: Any, seat: int, capital: bool = False, names: Sequence[str] = ()) -> str:
    """``"you"`` for the viewer's own seat, else the player's name from ``names`` (see
    :func:`log_names`), or ``"seat N"`` (the engine's words) without one. ``capital``: at the
    start of a line (``"You"``, ``"Seat N"``; a name is written as it is)."""
    me = getattr(view, "seat", None)
    if seat == me and seat is not None and seat >= 0:
        return "You" if capital else "you"
    if 0 <= seat < len(names):
        return names[seat]
    return f"Seat {seat}" if capital else f"seat {seat}"


def _whose(view: Any, seat: int, capital: bool = False, names: Sequence[str] = ()) -> str:
    """``"your"``, ``"alice's"``, ``"seat N's"`` (see :func:`_who`)."""
    who = _who(view, seat, capital, names)
    return ("Your" if capital else "your") if who in ("you", "You") else f"{who}'s"


def _verb(view: Any, seat: int, you: str, other: str) -> str:
    """The verb's form for ``seat`` (``"draw"`` for you, ``"draws"`` for another seat)."""
    me = getattr(view, "seat", None)
    return you if seat == me and seat is not None and seat >= 0 else other


def card_list(cards: Iterable[Card]) -> str:
    """Cards in words, identical cards counted: ``"Billy the Kid ×2, Photo (Belle Starr)"``."""
    counts = Counter(c.name for c in cards)
    return ", ".join(name if n == 1 else f"{name} ×{n}" for name, n in counts.items())


SHORT_NAMES = tuple(name.split()[0] for name in NAMES)
"""Each Outlaw's first name (``"Billy"``, ``"Sundance"``), for the hand on a small screen."""

SHORT_SHERIFF = {"stagecoach_robbery": "Stagecoach"}
"""Sheriff cards written shorter in the hand on a small screen (the others keep their names)."""


def hand_groups(cards: Iterable[Card], short: bool = False) -> list[str]:
    """A hand grouped by Outlaw, in poster order, then the other Sheriff cards.

    ``["Billy the Kid ×3 +Photo", "Photo (Belle Starr)", "Wyatt Earp ×2", "Hideout"]``: an
    Outlaw's cards with its Photo; a Photo alone keeps its full name. ``short``: the Outlaws by
    first name and a Photo as ``P``, for a small screen: ``["Billy ×3 +P", "Photo Belle",
    "Wyatt Earp ×2", "Hideout"]`` (:data:`SHORT_NAMES`, :data:`SHORT_SHERIFF`).
    """
    cards = sorted(cards, key=lambda c: c.id)
    names = SHORT_NAMES if short else NAMES
    out: list[str] = []
    for o, name in enumerate(names):
        n = sum(1 for c in cards if c.card == "outlaw" and c.outlaw == o)
        photo = any(c.card == "photo" and c.outlaw == o for c in cards)
        if n:
            out.append((name if n == 1 else f"{name} ×{n}") + ((" +P" if short else " +Photo") if photo else ""))
        elif photo:
            out.append(f"Photo {name}" if short else f"Photo ({name})")
    others = [c for c in cards if c.outlaw < 0]
    if short:
        counts = Counter(SHORT_SHERIFF.get(c.card, c.name) for c in others)
        out.extend(name if n == 1 else f"{name} ×{n}" for name, n in counts.items())
    elif others:
        out.extend(card_list(others).split(", "))
    return out


def group_cell(group: GroupView | None, leader: bool) -> str:
    """A player's group of one Outlaw in a grid cell: ``"★6 PB"``, ``"H:6"``, ``"·"``."""
    if group is None:
        return "·"
    letters = "".join(LETTERS.get(c.card, c.card[:1].upper()) for c in group.cards if c.card != "outlaw")
    cp = f"H:{group.printed_cp}" if group.hideout is not None else str(group.cp)
    return ("★" if leader else "") + cp + (f" {letters}" if letters else "")


def _hand_cell(hand: tuple[Card, ...], outlaw: int) -> str:
    n = sum(1 for c in hand if c.card == "outlaw" and c.outlaw == outlaw)
    photo = any(c.card == "photo" and c.outlaw == outlaw for c in hand)
    if not n and not photo:
        return "·"
    return (str(n) if n else "") + ("+P" if photo else "")


# -- the table ----------------------------------------------------------------------------


def _status(view: View, width: int = 100) -> Text:
    """The status line: the hand, whose turn it is, what is decided now (and the dealer, if it fits)."""
    cur = view.current
    phase = view.phase
    mine = cur == view.seat and cur >= 0
    who = "Your" if mine else f"Seat {cur}'s"
    if phase == "draw":
        what = f"{who} turn: " + ("draw 2 from the supply or take the top discard" if mine else "drawing")
    elif phase == "play":
        what = f"{who} turn: " + ("play cards, then discard" if mine else "playing")
        if view.immediate is not None:
            what += f" · may still play the {view.immediate.name} taken"
        elif view.sheriff_played:
            what += " · Sheriff card used"
    elif phase == "search":
        what = f"{who} Wyatt Earp: " + ("take a card from the discard stack" if mine else "searching the discard stack")
    elif phase == "target":
        card = view.pending.name if view.pending is not None else "Sheriff card"
        what = f"{who} {card} hit: " + ("choose its target" if mine else "choosing its target")
    elif phase == "hideout_response" and view.hideout is not None:
        owner, outlaw = view.hideout
        if owner == view.seat and not any(c.card == "wyatt_earp" for c in view.hand):
            # asked all the same, so that the question tells the table nothing
            what = f"The Hideout on your {NAMES[outlaw]} stands: you hold no Wyatt Earp to answer it"
        else:
            what = f"{_who(view, owner, True)} may answer the Hideout on {NAMES[outlaw]} with a Wyatt Earp"
    elif phase == "free_photo" and view.hideout is not None:
        owner, outlaw = view.hideout
        what = f"{_who(view, owner, True)} may play the Photo of {NAMES[outlaw]} now (free Photo)"
    elif phase == "over":
        rich = ", ".join(f"{_who(view, s)} ({_money(view.players[s].money)})" for s in view.winners)
        what = f"winner: {rich or 'nobody'}"
    else:
        what = phase
    title = f" HAND {view.hand_number} " if phase != "over" else " GAME OVER "
    line = Text.assemble((title, "reverse bold"), " ", (what, "bold"))
    dealer = f"   dealer: {_who(view, view.dealer)}"
    if phase != "over" and line.cell_len + len(dealer) <= width:
        line.append(dealer, style="dim")
    return line


def _header(view: View, p: PlayerView, names: list[str], money: Any = None) -> Text:
    """A player's column header: turn mark, seat and name; money and cards in hand."""
    mark = "▶" if p.seat == view.current else ("…" if p.seat in view.to_act else " ")
    name = "you" if p.seat == view.seat else (names[p.seat] if p.seat < len(names) else f"seat {p.seat}")
    text = Text(f"{mark}{p.seat} ", style="bold")
    text.append(name, style="bold" if p.seat == view.seat else "")
    text.append(f"\n{(money or _money)(p.money)} {p.hand_size}c")
    if view.winners:  # a line of its own, never cut with the name (the column may be 9 cells)
        text.append("\n")
        text.append("WINNER" if p.seat in view.winners else "", style="bold reverse")
    return text


NAME_WIDTH = max(len(name) for name in NAMES)
"""The Outlaw column's width: the longest name, never cut."""


def _grid(view: View, names: list[str], width: int = 100) -> Table:
    """One row per Outlaw: poster, table CP, each player's group, the viewer's hand.

    The Outlaw, poster, CP and hand columns keep their width; the players' columns share the
    rest (their names are cut short with ``…`` if need be). When ``width`` is too narrow for
    every amount in full, they are written in thousands (``$12k``).
    """
    n = len(view.players)
    with_hand = view.seat is not None and view.seat >= 0
    fixed = NAME_WIDTH + 3 + (5 if with_hand else 0) + n + 3  # columns and the one-cell gaps
    short = fixed + 7 + n * 12 > width  # "$12,000" and "$16,000 12c" do not all fit
    money = _kilo if short else _money
    per = max(9 if short else 12, (width - fixed - (5 if short else 7)) // max(n, 1))
    grid = Table(box=None, padding=(0, 1, 0, 0), pad_edge=False, expand=False, show_header=True, header_style="")
    grid.add_column(Text("\nOutlaw", style="dim"), no_wrap=True, min_width=NAME_WIDTH, vertical="bottom")
    grid.add_column(
        Text("\nposter", style="dim"), justify="right", no_wrap=True, min_width=5 if short else 7, vertical="bottom"
    )
    grid.add_column(Text("\nCP", style="dim"), justify="right", no_wrap=True, min_width=3, vertical="bottom")
    for p in view.players:
        grid.add_column(_header(view, p, names, money), no_wrap=True, overflow="ellipsis", max_width=min(per, 18))
    if with_hand:
        grid.add_column(Text("\nhand", style="dim"), justify="right", no_wrap=True, min_width=4, vertical="bottom")
    groups = [{g.outlaw: g for g in p.territory} for p in view.players]
    for poster in view.posters:
        o = poster.outlaw
        captured = poster.cp >= CAPTURE
        if poster.opened:
            cp = Text(f"{poster.cp}{'✓' if captured else ' '}", style="bold" if captured else "")
        else:
            cp = Text("– ", style="dim")
        row: list[RenderableType] = [Text(poster.name, style="bold"), money(poster.reward), cp]
        for p in view.players:
            group = groups[p.seat].get(o)
            leader = p.seat in poster.leaders
            row.append(Text(group_cell(group, leader), style="bold" if leader else ("dim" if group is None else "")))
        if with_hand:
            row.append(_hand_cell(view.hand, o))
        grid.add_row(*row)
    return grid


def _known(view: View) -> Text | None:
    """What everyone knows of the other hands, or ``None``."""
    parts = []
    for p in view.players:
        if p.seat == view.seat:
            continue
        bits = [card_list(p.known)] if p.known else []
        bits += [f"no {NAMES[o]}" for o in p.lacks]
        if bits:
            parts.append(f"{_who(view, p.seat)}: " + "; ".join(bits))
    if not parts:
        return None
    return Text.assemble(("Known in hands: ", "bold"), " · ".join(parts))


def _piles(view: View, width: int) -> Text:
    supply = f"{view.supply_size}" + (" (reshuffled: the next run-out ends the hand)" if view.reshuffled else "")
    unsure = view.discard_size - len(view.discard)
    count = f"{view.discard_size}" + (f" ({unsure} unsure)" if unsure else "")
    text = Text.assemble(("Supply ", "bold"), supply, ("   Discard ", "bold"), count)
    if view.discard:
        text.append(": top ")
        text.append(view.discard[-1].name, style="bold")
        below = [c.name for c in reversed(view.discard[:-1])]
        room = width - text.cell_len - 4
        shown: list[str] = []
        for name in below:
            if len(" ← ".join([*shown, name])) + 3 > room:
                break
            shown.append(name)
        if shown:
            text.append(" ← " + " ← ".join(shown), style="dim")
    return text


def _last_shot(view: View, events: list[Any]) -> Text | None:
    """The last shot of the current hand: whose, the card drawn, hit or miss, where it went."""
    for k in range(len(events) - 1, -1, -1):
        ev = events[k]
        if isinstance(ev, E.HandStarted):
            return None
        if not isinstance(ev, E.ShotFired):
            continue
        text = Text.assemble(
            ("Shot: ", "bold"),
            f"{_whose(view, ev.seat)} {ev.sheriff.name} drew {ev.drawn.name}: ",
            ("HIT" if ev.hit else "MISS", "bold reverse" if ev.hit else "bold"),
        )
        if ev.hit:
            after = next((e for e in events[k + 1 :] if isinstance(e, _TARGETED)), None)
            if after is not None:
                text.append(" → " + _target_words(view, after))
            elif view.phase == "target":
                text.append(" → choosing the target", style="dim")
        return text
    return None


_TARGETED = (E.SheriffPlaced, E.CardStolen, E.HideoutRemoved)


def _target_words(view: View, ev: Any) -> str:
    if isinstance(ev, E.SheriffPlaced):
        return f"on {_whose(view, ev.owner)} {NAMES[ev.outlaw]}"
    if isinstance(ev, E.CardStolen):
        return f"stole a {ev.card.name} from {_who(view, ev.owner)}"
    return f"Hideout removed from {NAMES[ev.outlaw]}"


def _scoring(events: list[Any], end: int) -> tuple[int, list[E.OutlawScored]]:
    """The hand that ended last at or before ``events[end - 1]``: its number and its scorings."""
    scored: list[E.OutlawScored] = []
    hand = 0
    k = end - 1
    while k >= 0 and not isinstance(events[k], E.HandEnded):
        k -= 1
    if k < 0:
        return 0, []
    for ev in events[k + 1 : end]:
        if isinstance(ev, E.HandStarted):
            break
        if isinstance(ev, E.OutlawScored):
            scored.append(ev)
    for ev in reversed(events[:k]):
        if isinstance(ev, E.HandStarted):
            hand = ev.hand
            break
    return hand, scored


def _paid(view: Any, scored: list[E.OutlawScored], money: Any = _money, names: Sequence[str] = ()) -> tuple[str, str]:
    """What each seat was paid in all, and the Outlaws captured, in words (players named by
    ``names``, see :func:`_who`)."""
    seats = len(scored[0].paid) if scored else 0
    totals = [sum(s.paid[p] for s in scored) for p in range(seats)]
    paid = " · ".join(f"{_who(view, p, names=names)} {money(totals[p])}" for p in range(seats) if totals[p])
    paid = paid or "nobody"
    captured = ", ".join(NAMES[s.outlaw] for s in scored if s.captured) or "none"
    return paid, captured


def _last_scoring(view: View, events: list[Any], width: int) -> Text | None:
    """What the last hand paid, and which Outlaws it captured, on one line if it can: the
    number captured if the names do not fit, then the amounts in thousands."""
    hand, scored = _scoring(events, len(events))
    if not scored:
        return None
    count = f"; {sum(s.captured for s in scored)} captured"
    for money in (_money, _kilo):
        paid, captured = _paid(view, scored, money)
        line = Text.assemble((f"Hand {hand} paid: ", "bold"), paid)
        for names in (f"; captured: {captured}", count):
            if line.cell_len + len(names) <= width:
                line.append(names)
                return line
    line.append(count)  # it wraps
    return line


def _flow(label: Text, items: list[str], width: int) -> Text:
    """``label`` and ``items`` (joined by `` · ``) on as few lines as fit in ``width``."""
    out = label.copy()
    column = out.cell_len
    indent = 2
    for n, item in enumerate(items):
        sep = " · " if n else " "
        if column + len(sep) + len(item) > width and column > indent:
            out.append("\n" + " " * indent)
            column = indent
            sep = ""
        out.append(sep + item)
        column += len(sep) + len(item)
    return out


def _hands(view: View, names: list[str], width: int, compact: bool = False) -> RenderableType:
    if view.hands is not None:
        rows = [
            _flow(Text(f"{seat} {names[seat] if seat < len(names) else ''}:", style="bold"), hand_groups(h), width)
            for seat, h in enumerate(view.hands)
        ]
        return Group(Text("Hands (omniscient view)", style="bold"), *rows)
    if view.seat is None:
        return Text("Spectator: no hand", style="dim")
    label = Text(f"Your hand ({len(view.hand)}):", style="bold")
    line = _flow(label, hand_groups(view.hand) or ["empty"], width)
    if compact and "\n" in line.plain:  # a small screen: every card still, on fewer lines
        return _flow(label, hand_groups(view.hand, short=True), width)
    return line


def render_table(
    view: View, events: list[Any], names: list[str], width: int = 100, compact: bool = False
) -> list[RenderableType]:
    """Everything the table shows for ``view`` (with the viewer's ``events``), top to bottom:
    the status line, the grid, the lines between, the hand.

    ``width`` is the room in cells; ``compact`` (a short terminal): the hand in short names
    (:func:`hand_groups`) when the full ones take more than a line. The widget shows these
    parts (the seat's hand pinned to the bottom of the board); tests render them without an app.
    """
    parts: list[RenderableType] = [_status(view, width), _grid(view, names, width)]
    known = _known(view)
    if known is not None:
        parts.append(known)
    parts.append(_piles(view, width))
    for line in (_last_shot(view, events), _last_scoring(view, events, width)):
        if line is not None:
            parts.append(line)
    parts.append(_hands(view, names, width, compact))
    return parts


class WyattEarpTable(TableWidget):
    """The Wyatt Earp table for one seat: status, the Outlaw grid, piles, shot and score, hand.

    Drawing the same view again at the same size changes nothing, so it is skipped (the screens
    redraw after every move, a bot's included). The grid and the lines under it are the lines of
    one :class:`~tui.widgets.board.Board`: a new view redraws only the lines that changed.
    """

    _drawn: tuple[Any, ...] | None = None

    def __init__(self, *children: Any, ui: WyattEarpUI | None = None, **kwargs: Any) -> None:
        super().__init__(*children, **kwargs)
        self.ui = ui
        """The screen parts whose log lines name the players this table is drawn with."""

    def compose(self) -> ComposeResult:
        yield DrawnStatic(id="we-status")
        yield Board(id="we-board")
        yield DrawnStatic(id="we-hand")

    def draw(self, view: Any, events: list[Any], names: list[str]) -> None:
        """Draw ``view``; ``events`` give the last shot and scoring, ``names`` the seats' players."""
        if self.ui is not None:
            self.ui.names = log_names(names)
        width = max((self.size.width or self.app.size.width) - 4, 40)  # padding, and a scrollbar if it must scroll
        compact = self.app.size.height < 32
        key = (view, tuple(events), tuple(names), width, compact)
        if key == self._drawn:
            return
        self._drawn = key
        status, grid, *info, hand = render_table(view, events, names, width, compact)
        self.query_one("#we-status", DrawnStatic).show(status)
        board = [(grid, 0 if compact else 1), (Group(*info), 0)]
        self.query_one("#we-board", Board).show(board, width)  # the grid and the lines under it
        mine = view.hands is None and view.seat is not None and view.seat >= 0
        self.query_one("#we-hand", DrawnStatic).set_class(mine, "-pinned").show(hand)

    def _page(self) -> int:
        """``PgDn``'s step: the board's height less the status line and the hand pinned under it."""
        docked = sum(child.outer_size.height for child in self.children if child.styles.dock in ("top", "bottom"))
        return max(1, self.scrollable_content_region.height - docked - 1)


# -- the screen parts -------------------------------------------------------------------------


class WyattEarpUI(GameUI):
    """Wyatt Earp's screen parts for the shared app.

    Args:
        options: the table's options (:class:`engine.wyatt_earp.game.Options`), or ``None`` when
            not known (the legend then leaves them out). See :meth:`for_options`.
    """

    game_id = "wyatt_earp"
    css_path = Path(__file__).with_suffix(".tcss")

    def __init__(self, options: Options | None = None) -> None:
        self.options = options
        self.legend = legend(options)
        self.names: tuple[str, ...] = ()
        """Per seat, how the log and the notices name its player (:func:`log_names` of the
        table's names, set by this UI's table as it draws); empty: ``"seat N"``."""

    def for_options(self, options: Any) -> WyattEarpUI:
        """The screen parts for a table with ``options`` (``None``, a dict or :class:`Options`)."""
        try:
            return WyattEarpUI(parse_options(Options, options))
        except InvalidOptions:
            return WyattEarpUI()

    def make_table(self) -> TableWidget:
        """A new :class:`WyattEarpTable`; it tells these screen parts the players' names
        (:attr:`names`) each time it draws."""
        return WyattEarpTable(classes="table", ui=self)

    def group(self, action: Any, view: Any) -> tuple[str, ...]:
        """Draw; Outlaw cards by Outlaw; Sheriff cards by card; discards by kind; targets by territory."""
        if isinstance(action, A.DrawFromSupply | A.TakeTopDiscard):
            return ("Draw",)
        if isinstance(action, A.PlayOutlaws):
            return ("Play Outlaw cards", f"Play {NAMES[action.outlaw]}")
        if isinstance(action, A.PlayPhoto):
            return ("Play a Sheriff card", "Photo") if view.phase == "play" else ()
        if isinstance(action, A.PlaySheriff):
            return ("Play a Sheriff card", COMP.sheriff_names.get(action.card, action.card))
        if isinstance(action, A.MostWantedAsk):
            return ("Play a Sheriff card", "Most Wanted!", f"Ask for {NAMES[action.outlaw]}")
        if isinstance(action, A.MostWantedSteal):
            return ("Play a Sheriff card", "Most Wanted!")
        if isinstance(action, A.WyattEarpTake):
            return ("Take an Outlaw card",) if action.card == "outlaw" else ("Take a Sheriff card",)
        if isinstance(action, A.WyattEarpSearch | A.WyattEarpDraw):
            return ("Play a Sheriff card", "Wyatt Earp")
        if isinstance(action, A.WyattEarpRemoveHideout):
            return ("Play a Sheriff card", "Wyatt Earp") if view.phase == "play" else ()
        if isinstance(action, A.Discard):
            kind = "Discard an Outlaw card" if action.card == "outlaw" else "Discard a Sheriff card"
            return ("Discard (ends your turn)", kind)
        if isinstance(action, A.ChooseTarget):
            return (f"{_whose(view, action.owner).capitalize()} territory",)
        return ()

    def seat_name(self, view: Any, seat: int) -> str:
        """``"seat N"``, as the engine's descriptions and the log say it."""
        return f"seat {seat}"

    def result_terms(self, view: Any, outcome: Any) -> tuple[str, list[str], str]:
        """Each player's money; the richest wins, tied richest players duel."""
        order = "The most money wins (the game ends at $25,000); the richest tied players duel for first place."
        return "money", [f"${score:,.0f}" for score in outcome.scores], order

    def is_turn_start(self, event: Any) -> bool:
        """Hands and turns start new stages; so does the end of the game."""
        return isinstance(event, E.HandStarted | E.TurnStarted | E.GameOver)

    def describe_event(self, event: Any, view: Any, previous: Any = None) -> str | None:
        """The event in words, as ``view``'s seat knows it; players by :attr:`names`."""
        return _describe_event(event, view, self.names)

    def notices(self, events: list[Any], start: int, view: Any) -> list[str]:
        """Among ``events[start:]``: Hideouts, thefts and Most Wanted! gifts against ``view``'s
        seat, its Fastest gun replaced, and each hand's scoring (for everyone)."""
        me = getattr(view, "seat", None)
        seat = me if isinstance(me, int) and me >= 0 else None
        out = []
        for k in range(start, len(events)):
            ev = events[k]
            if seat is not None:
                text = _against(ev, seat, events[k + 1] if k + 1 < len(events) else None, self.names)
                if text:
                    out.append(text)
            last = k + 1 == len(events) or not isinstance(events[k + 1], E.OutlawScored)
            if isinstance(ev, E.OutlawScored) and last:  # the hand's last Outlaw scored
                hand, scored = _scoring(events, k + 1)
                paid, captured = _paid(view, scored, names=self.names)
                out.append(f"Hand {hand} scored. Paid: {paid}. Captured: {captured}.")
        return out


def _against(ev: Any, seat: int, following: Any, names: Sequence[str] = ()) -> str | None:
    """A notice when ``ev`` is something another player did to ``seat``, else ``None``
    (``following``: the event after it, which says who put a new Fastest gun down; the players
    named by ``names``, see :func:`_who`)."""
    if isinstance(ev, E.SheriffPlaced) and ev.owner == seat and ev.seat != seat:
        who = _who(None, ev.seat, True, names)
        return f"{who} put a Hideout on your {NAMES[ev.outlaw]}: its CP count 0 while it stands"
    if isinstance(ev, E.CardStolen) and ev.owner == seat and ev.seat != seat:
        lost = f" ({card_list(ev.orphaned)} went to the discard stack)" if ev.orphaned else ""
        return f"{_who(None, ev.seat, True, names)} stole a {ev.card.name} card from your territory{lost}"
    if isinstance(ev, E.MostWantedAnswered) and ev.giver == seat and ev.seat != seat:
        name = ev.card.name if ev.card is not None else NAMES[ev.outlaw]
        return f"Most Wanted!: you had to give {_who(None, ev.seat, names=names)} a {name} card"
    if isinstance(ev, E.FastestGunRemoved) and ev.owner == seat:
        if isinstance(following, E.SheriffPlaced) and following.seat != seat:
            return f"{_whose(None, following.seat, True, names)} Fastest gun knocked yours off {NAMES[ev.outlaw]}"
    return None


def _drew(
    view: Any, seat: int, count: int, cards: tuple[Card, ...] | None, where: str, names: Sequence[str] = ()
) -> str:
    plural = "card" if count == 1 else "cards"
    shown = f": {card_list(cards)}" if cards else ""
    return f"{_who(view, seat, True, names)} {_verb(view, seat, 'draw', 'draws')} {count} {plural} {where}{shown}"


def _describe_event(  # noqa: C901, PLR0911, PLR0912 - one line per event kind
    ev: Any, view: Any, names: Sequence[str] = ()
) -> str | None:
    """``ev`` in words as ``view``'s seat knows it; other players by ``names`` (see :func:`_who`)."""
    w = lambda seat: _who(view, seat, True, names)  # noqa: E731
    who = lambda seat: _who(view, seat, False, names)  # noqa: E731
    whose = lambda seat, capital=False: _whose(view, seat, capital, names)  # noqa: E731
    v = lambda seat, you, other: _verb(view, seat, you, other)  # noqa: E731
    if isinstance(ev, E.HandStarted):
        return (
            f"══ Hand {ev.hand}: {who(ev.dealer)} {v(ev.dealer, 'deal', 'deals')}, "
            f"{who(ev.starter)} {v(ev.starter, 'start', 'starts')}; every poster +$1,000 ══"
        )
    if isinstance(ev, E.CardsDealt):
        shown = f": {', '.join(hand_groups(ev.cards))}" if ev.cards else ""
        return f"{w(ev.seat)} {v(ev.seat, 'are', 'is')} dealt {ev.count} cards{shown}"
    if isinstance(ev, E.FirstDiscard):
        return f"The first discard: {ev.card.name}"
    if isinstance(ev, E.TurnStarted):
        return f"── {whose(ev.seat, True)} turn ──"
    if isinstance(ev, E.CardsDrawn):
        where = "from the supply" + (" (Wyatt Earp)" if ev.source == "wyatt_earp" else "")
        return _drew(view, ev.seat, ev.count, ev.cards, where, names)
    if isinstance(ev, E.TopDiscardTaken):
        return f"{w(ev.seat)} {v(ev.seat, 'take', 'takes')} the top discard: {ev.card.name}"
    if isinstance(ev, E.SupplyReshuffled):
        return f"The supply ran out: the discard stack ({ev.count} cards) is shuffled into a new supply"
    if isinstance(ev, E.OutlawsPlayed):
        first = " (the first set)" if ev.first_set else ""
        plural = "card" if len(ev.cards) == 1 else "cards"
        return (
            f"{w(ev.seat)} {v(ev.seat, 'play', 'plays')} {len(ev.cards)} {NAMES[ev.outlaw]} {plural}{first}: "
            f"+{_money(ev.reward)}, poster {_money(ev.poster)}"
        )
    if isinstance(ev, E.PhotoPlayed):
        late = " out of turn" if ev.out_of_turn else ""
        return (
            f"{w(ev.seat)} {v(ev.seat, 'play', 'plays')} the Photo of {NAMES[ev.outlaw]}{late}: "
            f"+{_money(ev.reward)}, poster {_money(ev.poster)}"
        )
    if isinstance(ev, E.SheriffPlayed):
        use = {
            "shot": "a shot",
            "ask": "asking for a card",
            "steal": "a shot to steal a card",
            "draw": "to draw two cards",
            "search": "to take a card from the discard stack",
            "remove_hideout": "a shot to remove a Hideout",
        }.get(ev.use, ev.use)
        late = " out of turn" if ev.out_of_turn else ""
        return f"{w(ev.seat)} {v(ev.seat, 'play', 'plays')} {ev.card.name}{late}: {use}"
    if isinstance(ev, E.ShotFired):
        result = "a bullet hole: HIT" if ev.hit else "no bullet hole: MISS"
        return f"{HIGHLIGHT}{whose(ev.seat, True)} shot ({ev.sheriff.name}) draws {ev.drawn.name}, {result}"
    if isinstance(ev, E.SheriffPlaced):
        reward = f": +{_money(ev.reward)}, poster {_money(ev.poster)}" if ev.reward else f", poster {_money(ev.poster)}"
        return (
            f"{w(ev.seat)} {v(ev.seat, 'put', 'puts')} {ev.card.name} on {whose(ev.owner)} {NAMES[ev.outlaw]}{reward}"
        )
    if isinstance(ev, E.FastestGunRemoved):
        return f"The old Fastest gun on {whose(ev.owner)} {NAMES[ev.outlaw]} goes to the discard stack"
    if isinstance(ev, E.MostWantedAnswered):
        way = "left" if ev.clockwise else "right"
        asked = f"{w(ev.seat)} {v(ev.seat, 'ask', 'asks')} for a {NAMES[ev.outlaw]} card, starting {way}"
        refused = f"; {', '.join(who(s) for s in ev.refused)} had none" if ev.refused else ""
        if ev.giver >= 0:
            given = f"; {who(ev.giver)} {v(ev.giver, 'give', 'gives')} one"
        else:
            given = "; nobody had one"
        return asked + refused + given
    if isinstance(ev, E.CardStolen):
        orphaned = f"; {card_list(ev.orphaned)} left alone go to the discard stack" if ev.orphaned else ""
        return (
            f"{w(ev.seat)} {v(ev.seat, 'steal', 'steals')} a {ev.card.name} card from "
            f"{whose(ev.owner)} {NAMES[ev.outlaw]}{orphaned}"
        )
    if isinstance(ev, E.CardSearched):
        what = ev.card.name if ev.card is not None else "a card, unseen,"
        return f"{w(ev.seat)} {v(ev.seat, 'take', 'takes')} {what} from the discard stack (Wyatt Earp)"
    if isinstance(ev, E.TargetDeclined):
        nothing = "to remove no Hideout" if ev.card.card == "wyatt_earp" else "to steal nothing"
        return f"{w(ev.seat)} {v(ev.seat, 'choose', 'chooses')} {nothing} ({ev.card.name})"
    if isinstance(ev, E.HideoutRemoved):
        group = f"{whose(ev.seat)} {NAMES[ev.outlaw]}"
        return f"{w(ev.seat)} {v(ev.seat, 'remove', 'removes')} the Hideout from {group}"
    if isinstance(ev, E.HideoutStands):
        return f"The Hideout on {whose(ev.seat)} {NAMES[ev.outlaw]} stands"
    if isinstance(ev, E.PhotoDeclined):
        return f"{w(ev.seat)} {v(ev.seat, 'do', 'does')} not play the Photo of {NAMES[ev.outlaw]}"
    if isinstance(ev, E.CardDiscarded):
        return f"{w(ev.seat)} {v(ev.seat, 'discard', 'discards')} {ev.card.name}"
    if isinstance(ev, E.HandEnded):
        why = {
            "last_card": f"{who(ev.seat)} discarded {'your' if ev.seat == view.seat else 'their'} last card",
            "empty_hand": f"{who(ev.seat)} {v(ev.seat, 'have', 'has')} no cards left",
            "supply_exhausted": "the supply ran out a second time",
            "stalled": "too many turns without a card drawn from the supply or played",
            "decision_cap": "the game reached its decision cap",
        }.get(ev.reason, ev.reason)
        return f"══ The hand ends: {why} ══"
    if isinstance(ev, E.HandCardsDiscarded):
        if not ev.cards:
            return None
        return f"{whose(ev.seat, True)} hand goes to the discard stack: {card_list(ev.cards)}"
    if isinstance(ev, E.OutlawScored):
        name = NAMES[ev.outlaw]
        cp = ", ".join(f"{who(s)} {n}" for s, n in enumerate(ev.cp) if n)
        cp = f" · CP: {cp}" if cp else ""
        if not ev.captured:
            return f"{HIGHLIGHT}{name} not captured ({sum(ev.cp)} CP): {_money(ev.reward)} stays{cp}"
        paid = ", ".join(f"{who(s)} {_money(a)}" for s, a in enumerate(ev.paid) if a) or "nobody"
        stays = f", {_money(ev.left)} stays" if ev.left else ""
        return f"{HIGHLIGHT}{name} captured ({sum(ev.cp)} CP): {_money(ev.reward)} to {paid}{stays}{cp}"
    if isinstance(ev, E.DuelShot):
        result = "a bullet hole: stays in" if ev.hit else "a blank: out"
        drew = f"{who(ev.seat)} {v(ev.seat, 'draw', 'draws')} {ev.card.name}"
        return f"{HIGHLIGHT}Duel, round {ev.round}: {drew}, {result}"
    if isinstance(ev, E.GameOver):
        winners = ", ".join(f"{who(s)} ({_money(ev.money[s])})" for s in ev.winners) or "nobody"
        return f"══ Game over: {winners} {'win' if len(ev.winners) != 1 or ev.winners[0] == view.seat else 'wins'} ══"
    return repr(ev)
