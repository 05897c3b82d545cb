"""The action picker: the legal actions in words, grouped when there are many.

Each choice has a group path (from the game's screen parts, e.g. ``("Robbery", "Rob Calamity
Jane", "Rob Calamity Jane's Safe #2")``) and a label (``Game.describe``). A level shows its
actions flat when it holds at most nine; otherwise it shows its groups (a group holding a single
action shows that action). Keys ``1``-``9`` pick, ``0``/Backspace/Escape go back a level;
arrows and Enter, or a mouse click, work too.

The picker always starts at its top level: new choices (:meth:`ActionPicker.set_choices`) and
:meth:`ActionPicker.to_top` leave any group that was open, and while a group is open its path
leads the title (``Your move › Hit the Town``), so that a digit never lands in a group the person
does not see.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tui.widgets.quiet import SteadyStatic, update_static

__all__ = ["MAX_FLAT", "MOVES_HINT", "ActionPicker", "Choice", "MoveList"]

MAX_FLAT = 9
"""A level with at most this many actions shows them all, one digit each."""

MOVES_HINT = "(1-9 or ↑↓ Enter)"
"""The keys of the moves, after the prompt while the moves have the focus."""


@dataclass(frozen=True)
class Choice:
    """One legal action: its ``label`` in words, its group ``path`` and the ``action`` itself."""

    label: str
    path: tuple[str, ...]
    action: Any


@dataclass
class _Node:
    """A group of choices: sub-groups by name (in first-seen order) and choices directly inside."""

    name: str
    groups: dict[str, _Node] = field(default_factory=dict)
    choices: list[Choice] = field(default_factory=list)

    def all_choices(self) -> list[Choice]:
        """Every choice in this group, in order (direct choices first, then each sub-group's)."""
        out = list(self.choices)
        for group in self.groups.values():
            out.extend(group.all_choices())
        return out


def _tree(choices: list[Choice]) -> _Node:
    root = _Node("")
    for choice in choices:
        node = root
        for part in choice.path:
            node = node.groups.setdefault(part, _Node(part))
        node.choices.append(choice)
    return root


class MoveList(OptionList):
    """The moves' list: an :class:`OptionList` whose options wrap to the width they are shown at.

    Textual's list measures its options' lines once and keeps them until its size changes; a
    scrollbar that comes (more moves than lines) or goes narrows or widens the room for the
    text without a new size, and an option measured at the wider room would lose its last
    line. The list measures again whenever the room for the text has a new width.
    """

    _wrapped_at = 0

    def _update_lines(self) -> None:
        width = self.scrollable_content_region.width
        if width != self._wrapped_at:
            self._wrapped_at = width
            self._clear_caches()  # the lines and the drawn options, for the new width
        super()._update_lines()


class ActionPicker(Vertical):
    """Shows the person's legal actions and posts :class:`ActionPicker.Chosen` with the one picked."""

    BINDINGS = [
        Binding("1", "pick(1)", "move", key_display="1-9"),
        *(Binding(str(d), f"pick({d})", f"pick {d}", show=False) for d in range(2, 10)),
        Binding("0,backspace,escape", "back", "back", show=False),
    ]

    class Chosen(Message):
        """The person picked ``action``."""

        def __init__(self, action: Any) -> None:
            super().__init__()
            self.action = action

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._root = _Node("")
        self._stack: list[_Node] = []
        self._items: list[Choice | _Node | None] = []
        self._prompt = ""
        self._note: Text | None = None
        self._hint = MOVES_HINT
        self._offers_moves = True  # what the footer was last told (see check_action)

    def compose(self) -> ComposeResult:
        yield SteadyStatic(id="picker-title")
        yield MoveList(id="picker-options")

    @property
    def options(self) -> OptionList:
        """The list widget (focus it to take the keys)."""
        return self.query_one("#picker-options", OptionList)

    @property
    def items(self) -> list[str]:
        """The labels now shown, in order (for tests and screen readers)."""
        return [self._item_label(item) for item in self._items]

    @property
    def active(self) -> bool:
        """True while there is something to choose."""
        return bool(self._root.all_choices())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``1``-``9`` (and back) only while there is something to choose: a spectator's footer, or
        a player's while others move, does not offer moves."""
        if action in ("pick", "back"):
            return self.active
        return True

    def set_choices(self, prompt: str, choices: list[Choice]) -> None:
        """Offer ``choices`` (identical labels are offered once: they are the same move to a person)
        at the top level: a group that was open is left, even if the choices are the same."""
        seen: set[tuple[tuple[str, ...], str]] = set()
        unique = []
        for choice in choices:
            key = (choice.path, choice.label)
            if key not in seen:
                seen.add(key)
                unique.append(choice)
        self._root = _tree(unique)
        self._stack = [self._root]
        self._prompt = prompt
        self._render_level()

    def wait(self, message: str) -> None:
        """Nothing to choose: show ``message`` (whom the game waits for, or the result)."""
        self._root = _Node("")
        self._stack = [self._root]
        self._prompt = message
        self._render_level()

    def to_top(self) -> None:
        """Leave any open group: the top level of the choices shows (the screen calls it when the
        moves show again after a zoom, where a digit may have opened a group unseen)."""
        if len(self._stack) > 1:
            del self._stack[1:]
            self._render_level()

    @property
    def path(self) -> tuple[str, ...]:
        """The names of the open groups, outermost first (``()`` at the top level)."""
        return tuple(node.name for node in self._stack[1:])

    def note(self, note: str | Text | None) -> None:
        """Show ``note`` under the prompt (a countdown, what a timer played), or no note (``None``).

        Only the title changes: the choices and the highlighted one stay as they are.
        """
        note = Text(note) if isinstance(note, str) else note
        if note != self._note:
            self._note = note
            self._render_title(same_size=True)

    def hint(self, hint: str) -> None:
        """Show ``hint`` (what the keys do now: in the moves, or in the region that has the focus)
        after the prompt, in place of the moves' own key hint."""
        if hint != self._hint:
            self._hint = hint
            self._render_title()

    def _level_items(self) -> list[Choice | _Node | None]:
        node = self._stack[-1]
        everything = node.all_choices()
        items: list[Choice | _Node | None]
        if len(everything) <= MAX_FLAT:
            items = list(everything)
        else:
            items = list(node.choices)
            for group in node.groups.values():
                inside = group.all_choices()
                items.append(inside[0] if len(inside) == 1 else group)
        if len(self._stack) > 1:
            items.append(None)  # back
        return items

    def _item_label(self, item: Choice | _Node | None) -> str:
        if item is None:
            return "‹ back"
        if isinstance(item, _Node):
            return f"{item.name} ▸ {len(item.all_choices())} choices"
        return item.label

    def _render_title(self, same_size: bool = False) -> None:
        """Show the prompt, the path and the note (``same_size``: only the note changed, maybe
        keeping its length, as a countdown does: then the screen need not be laid out again)."""
        title = Text(self._prompt, style="bold")
        for name in self.path:  # where the list is: the open groups, plain to see
            title.append(" › ", style="bold")
            title.append(name, style="bold reverse")
        if self._hint != MOVES_HINT:  # another region has the focus: its keys
            title.append(f"   {self._hint}", style="bold dim")
        elif self._items:
            title.append("   (1-9 pick, 0 back)" if len(self._stack) > 1 else f"   {MOVES_HINT}", style="dim")
        if self._note:
            title.append("\n")
            title.append_text(self._note)
        static = self.query_one("#picker-title", SteadyStatic)
        # while the game waits for others (a name more or less each move), the title keeps the
        # most lines it took: no new layout; a choice, or a message of several lines, takes its own
        waiting = not self._items and "\n" not in self._prompt
        if static.steady and not waiting:
            static.refresh(layout=True)
        if waiting and not static.steady:
            static._most = (0, 0)  # a title that starts waiting takes its own lines first
        static.steady = static.steady and waiting
        update_static(static, title, same_size=same_size)
        static.steady = waiting

    def _render_level(self) -> None:
        self._items = self._level_items()
        self._render_title()
        if self.active != self._offers_moves:  # the footer's "1-9 move" comes and goes with the moves
            self._offers_moves = self.active
            self.refresh_bindings()
        options = self.options
        if not self._items and not options.option_count:
            return  # nothing to choose before or now (a spectator's picker): the list stays as it is
        options.clear_options()
        prompts = []
        for n, item in enumerate(self._items, start=1):
            key = "0" if item is None else (str(n) if n <= MAX_FLAT else " ")
            line = Text.assemble((f"{key} ", "bold"), self._item_label(item))
            if isinstance(item, _Node):
                line.stylize("italic")
            prompts.append(Option(line))
        options.add_options(prompts)
        if self._items:
            options.highlighted = 0

    def _choose(self, index: int) -> None:
        if not 0 <= index < len(self._items):
            return
        item = self._items[index]
        if item is None:
            self.action_back()
        elif isinstance(item, _Node):
            self._stack.append(item)
            self._render_level()
        else:
            self.post_message(self.Chosen(item.action))

    def action_pick(self, number: int) -> None:
        """Pick the ``number``-th item (1-based) of this level."""
        if number <= len(self._items) and self._items[number - 1] is not None:
            self._choose(number - 1)

    def action_back(self) -> None:
        """Go back up one level."""
        if len(self._stack) > 1:
            self._stack.pop()
            self._render_level()

    @on(OptionList.OptionSelected, "#picker-options")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._choose(event.option_index)
