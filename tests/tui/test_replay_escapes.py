"""Issue 26: the replay viewer draws no terminal escapes from a replay file.

Player names in a replay file are whatever its writer put there: an OSC 52 clipboard write, an
OSC 0 title, a CSI ``2J``, the one-byte C1 CSI ``\\x9b``, a right-to-left override. The viewer
(reached from ``saloon replay``, a finished table and the lobby's recent games) and the recent
games list show them through :func:`replays.printable`, as ``saloon replay show`` does. The
options cannot carry text to the screen: a replay whose options are not the game's own (an
unknown key, a value of the wrong type) does not verify, and the viewer refuses it.
"""

from __future__ import annotations

import time
import unicodedata
from pathlib import Path
from typing import Any

import msgspec
import pytest
from textual.widgets import OptionList
from tui_helpers import wait_until, widget_text

import engine
from bots import RandomBot, play_game
from lobby.store import Store
from lobby.tables import Identity, Lobby, ServerConfig
from replays import Player, Replay, ReplayError
from tui import SaloonApp, screen_text
from tui.games import ui_for
from tui.lobby_screen import RecentGamesScreen, SSHApp
from tui.replay_screen import ReplayScreen

HOSTILE_NAMES = (
    "\x1b]52;c;aGFja2Vk\x07mallory",  # OSC 52: writes the clipboard
    "\x1b]0;pwned\x07\x1b[2Jtrent\x9b2J",  # OSC 0 title, CSI 2J, C1 CSI
    "\u202eevelyn\u202c",  # right-to-left override
)
CLEANED_NAMES = ["]52;c;aGFja2Vkmallory", "]0;pwned[2Jtrent2J", "evelyn"]


def hostile_replay(game: str, seed: int = 5) -> Replay:
    players = [Player(name, "human" if seat == 0 else "bot") for seat, name in enumerate(HOSTILE_NAMES)]
    bots = [RandomBot(seed * 10 + seat) for seat in range(len(players))]
    return play_game(game, len(players), bots, seed=seed, players=players).replay


def controls(text: str) -> set[str]:
    """The control, format (bidi) and other category C characters of ``text``, but newlines."""
    return {repr(ch) for ch in text if unicodedata.category(ch)[0] == "C" and ch != "\n"}


def drawn(app: SaloonApp | SSHApp) -> str:
    """Everything the screen draws: the composed screen, every Static, every log line and option."""
    return screen_text(app) + widget_text(app.screen)


@pytest.mark.parametrize("game", sorted(engine.games()))
async def test_the_viewer_draws_no_escapes_from_player_names(game: str) -> None:
    replay = hostile_replay(game)
    app = SaloonApp(replay=replay)
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        assert viewer.names == CLEANED_NAMES
        assert viewer.replay.header.players[0].kind == "human" and viewer.position == 0
        for where in ("home", "right", "end"):
            await pilot.press(where)
            for pov in viewer.povs:  # every seat, the spectator, the omniscient view
                viewer.pov = pov
                viewer.redraw()
                await pilot.pause()
                assert controls(drawn(app)) == set()
                if pov in range(len(CLEANED_NAMES)):  # the controls name the seat's player
                    assert CLEANED_NAMES[pov] in widget_text(viewer.query_one("#controls"))


async def test_the_viewer_refuses_text_in_the_options() -> None:
    replay = hostile_replay("deadwood1876")
    header = msgspec.structs.replace(replay.header, options={"\x1b]0;x\x07": "\x1b[2J"})
    with pytest.raises(ReplayError, match="option"):
        ReplayScreen(msgspec.structs.replace(replay, header=header), ui_for("deadwood1876"))


async def test_recent_games_and_their_replays_draw_no_escapes(front: Any, tmp_path: Path) -> None:
    store = Store(tmp_path)
    now = time.time()
    store.record_game("ESC26", hostile_replay("deadwood1876"), now - 60, now)
    app = SSHApp(await front(Lobby(store, ServerConfig(bot_delay_s=0))), Identity("alice", "key-alice"))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        await pilot.press("g")
        await wait_until(pilot, lambda: isinstance(app.screen, RecentGamesScreen))
        listed = app.screen.query_one("#recent-list", OptionList)
        line = str(listed.get_option_at_index(0).prompt)
        assert "ESC26" in line and "]52;c;aGFja2Vkmallory, ]0;pwned[2Jtrent2J, evelyn" in line
        assert controls(drawn(app)) == set()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("end")
        await pilot.pause()
        text = drawn(app)
        assert controls(text) == set() and "mallory" in text
