"""The help screen (key ``?``): the game's rules summary, how to read its table, and the keys."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from tui.widgets.regions import KEYS_HELP

__all__ = ["HelpScreen"]

KEYS = f"""\
## Keys

The footer lists the keys of the moment. The board, the log and the moves each have a region of
the screen; on a small terminal (80x24) the board and the log scroll: `Tab` reaches them.

| key | does |
|-----|------|
| `1`-`9` | pick an action, or open a group of actions (from any region but the chat line) |
| `↑` `↓` `Enter`, mouse | the same with the cursor |
| `0` `Backspace` `Esc` | back to the previous group |
{KEYS_HELP}| `s` | bot speed: slow, normal, fast, instant (a local table) |
| `o` | auto-play only moves (on; `o` turns it off and on): your only choice is played at once, said in the log |
| `c` | the table's chat line (a server table); `l` leaves the table, `r` its replay (once over; or Ctrl+L, Ctrl+R) |
| `e` | the result again, once the game is over (a server table; `r` at a local table) |
| `?` | this help; `Esc` or `q` closes it |
| `Ctrl+Q` | quit |

What you should not miss (a fight's result, a hand's scoring, the end of a day) is written in the
log, where it stands out, and under the moves' title until your next move.

In the replay viewer: `←` `→` step back and forward, `Home` `End` the start and the end,
`n` `p` the next and previous turn, `v` the point of view (each seat, spectator, omniscient).
"""


class HelpScreen(ModalScreen[None]):
    """Rules, table legend and keys for one game.

    Args:
        title: the game's title.
        rules: the game's ``rules_help()`` text (Markdown).
        legend: how to read the game's table (Markdown).
    """

    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "close")]

    def __init__(self, title: str, rules: str, legend: str) -> None:
        super().__init__(id="help")
        self._title = title
        self._rules = rules
        self._legend = legend

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static(f"{self._title}: help   (Esc closes)", id="help-title")
            yield Markdown("## Reading the table\n\n" + _as_markdown(self._legend))
            yield Markdown(KEYS)
            yield Markdown("## Rules\n\n" + _as_markdown(self._rules))

    async def action_dismiss(self, result: None = None) -> None:
        """Close the help."""
        self.dismiss(result)


class PageHelpScreen(ModalScreen[None]):
    """One page of help in Markdown, for a screen that is not a game's table (the lobby's, the
    ladder's); Esc, ``q`` or ``?`` closes it.

    Args:
        title: what the help is about (``"The saloon"``).
        text: the page (Markdown).
    """

    BINDINGS = [Binding("escape,q,question_mark", "close", "close")]

    def __init__(self, title: str, text: str) -> None:
        super().__init__(id="help")
        self._title = title
        self._text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static(f"{self._title}: help   (Esc closes)", id="help-title")
            yield Markdown(self._text)

    def action_close(self) -> None:
        """Back to the screen below."""
        self.dismiss(None)


def _as_markdown(text: str) -> str:
    """Docstring-style text as Markdown: ``x`` stays code, paragraphs stay paragraphs."""
    return text.replace("``", "`").strip()
