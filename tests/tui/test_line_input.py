"""Keys typed fast into a line input keep their order (over SSH, Backspace then a digit typed
50 ms apart lost the digit: Textual ran Backspace's binding after the digit was inserted)."""

from __future__ import annotations

from textual import events
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical

from tui.widgets.quiet import LineInput


class _Form(App[None]):
    def compose(self) -> ComposeResult:
        with Vertical(), Vertical(), Horizontal():  # a few containers for the key to bubble through
            yield LineInput(value="4", id="players")


async def test_editing_keys_and_typed_characters_keep_their_order() -> None:
    app = _Form()
    async with app.run_test() as pilot:
        field = app.query_one("#players", LineInput)
        field.focus()
        await pilot.pause()
        field.cursor_position = len(field.value)
        for key, character in (("backspace", None), ("6", "6"), ("left", None), ("1", "1"), ("end", None), ("2", "2")):
            app.post_message(events.Key(key, character))  # all queued at once, as a fast typist's keys
        await pilot.pause()
        await pilot.pause()
        assert field.value == "162"
