"""Only moves: a decision whose one choice a table screen plays for the person at once.

A choice that is the only one (Deadwood 1876's "Give no Holster" after a Robbery, for whoever
holds no Holster) waited for a key, at every fight. A table screen (:mod:`tui.play_screen`,
:mod:`tui.table_screen`) plays it as soon as it is offered, through the same path as a pick (an
:class:`AutoPlayed` message is an :class:`~tui.widgets.picker.ActionPicker.Chosen`), and says so
in the log (``auto-played: Give no Holster``). The setting is on by default; ``o`` turns it off and
on for the session (the app keeps it: every table of the session follows it).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from tui.widgets.picker import ActionPicker, Choice

__all__ = ["AutoPlayed", "auto_play_enabled", "only_choice", "set_auto_play"]

_SETTING = "auto_play_only_moves"
"""The app's attribute that holds the setting (absent: on)."""


class AutoPlayed(ActionPicker.Chosen):
    """The screen picked ``action``, the only choice of the decision ``key``, for the person.

    Handled as a pick is (an :class:`~tui.widgets.picker.ActionPicker.Chosen`); the handler drops it
    when the screen has moved on from ``key`` meanwhile, and keeps what it shows until the person's
    own next move.

    Args:
        action: the action to play.
        key: the decision it answers (the screen's own key: moves so far, legal actions).
    """

    def __init__(self, action: Any, key: Hashable) -> None:
        super().__init__(action)
        self.key = key


def only_choice(choices: Sequence[Choice]) -> Choice | None:
    """The one choice a person has among ``choices``, or ``None`` when there are several (or none).

    Choices with the same group path and label are one choice to a person (the picker offers them
    once): the first of them is the one played.
    """
    if not choices:
        return None
    first = choices[0]
    if all((c.path, c.label) == (first.path, first.label) for c in choices[1:]):
        return first
    return None


def auto_play_enabled(app: Any) -> bool:
    """Whether only moves are played at once in ``app``'s session (on unless turned off)."""
    return bool(getattr(app, _SETTING, True))


def set_auto_play(app: Any, on: bool) -> None:
    """Turn the playing of only moves on or off for ``app``'s session."""
    setattr(app, _SETTING, on)
