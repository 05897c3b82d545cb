"""Widgets shared by every game: action picker, log, help, result and replay controls."""

from tui.widgets import compositor as _compositor
from tui.widgets import strips as _strips
from tui.widgets.help import HelpScreen, PageHelpScreen
from tui.widgets.log import GameLog
from tui.widgets.picker import ActionPicker, Choice
from tui.widgets.quiet import DrawnStatic, LineInput, SteadyStatic, Throttle, may_draw, update_grid, update_static
from tui.widgets.regions import KEYS_HELP, REGION_BINDINGS, Regions
from tui.widgets.replay_controls import ReplayControls
from tui.widgets.result import ResultScreen

_strips.install()  # every strip's caches made when first used (see tui.widgets.strips)
_compositor.install()  # a partial update draws only its rows (see tui.widgets.compositor)

__all__ = [
    "ActionPicker",
    "Choice",
    "DrawnStatic",
    "GameLog",
    "HelpScreen",
    "KEYS_HELP",
    "PageHelpScreen",
    "REGION_BINDINGS",
    "Regions",
    "LineInput",
    "ReplayControls",
    "ResultScreen",
    "SteadyStatic",
    "Throttle",
    "may_draw",
    "update_grid",
    "update_static",
]
