"""Issue 15, the first hour of a local player: Ctrl+Q asks before abandoning a game, every
finished or abandoned game's replay is saved under the user's data directory (XDG) and
``saloon play`` says where; external bots' stderr is kept and their first faults are printed."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from tui_helpers import my_turn_or_over, play_screen, wait_until

import replays
from saloon.cli import _build_parser, _play_app, _play_summary, main
from tui import PlaySetup, SaloonApp
from tui.app import QuitScreen
from tui.play_screen import PlayScreen
from tui.replay_screen import ReplayScreen
from tui.widgets import ResultScreen

GAME = "deadwood1876"
STAMP = r"\d{8}-\d{6}"


@pytest.fixture
def xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """``XDG_DATA_HOME`` in ``tmp_path`` (never the real home); returns Saloon's data directory."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "saloon"


def _play_args(*argv: str) -> SaloonApp:
    return _play_app(_build_parser().parse_args(["play", GAME, *argv]))


async def test_ctrl_q_asks_first_and_saves_the_unfinished_game(xdg: Path, capsys: pytest.CaptureFixture[str]) -> None:
    app = _play_args("--players", "3", "--seed", "5", "--speed", "instant")
    assert app.replay_dir == xdg / "replays"
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        await pilot.press("1")  # pass a Safe: the game is under way
        await wait_until(pilot, lambda: my_turn_or_over(app))
        moves = app.session.recorder.num_moves
        assert moves >= 3

        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        assert app.is_running
        await pilot.press("n")  # keep playing
        await pilot.pause()
        assert isinstance(app.screen, PlayScreen) and app.is_running
        assert app.saved == []

        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("y")
        await pilot.pause()
    assert not app.is_running
    [path] = app.wrap_up()
    assert path.parent == xdg / "replays"
    assert re.fullmatch(rf"deadwood1876-{STAMP}-seed5-unfinished\.replay", path.name), path.name
    replay = replays.load(path)
    assert replay.outcome is None
    assert len(replay.move_pairs()) == moves
    assert replays.verify(replay).digest() == app.session.state.digest()

    _play_summary(app)
    out = capsys.readouterr().out
    assert out == f"replay saved: {path}\nwatch it with: saloon replay {path}\n"

    # the unfinished replay opens: as text and in the viewer
    assert main(["replay", "show", str(path)]) == 0
    shown = capsys.readouterr().out
    assert shown.endswith("outcome: unfinished\n")
    assert f"moves: {moves}\n" in shown
    viewer = SaloonApp(replay=replay)
    async with viewer.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(viewer.screen, ReplayScreen)
        await pilot.press("ctrl+q")  # nothing to lose: quits at once
        await pilot.pause()
    assert not viewer.is_running


async def test_ctrl_q_twice_quits(tmp_path: Path) -> None:
    app = SaloonApp(play=PlaySetup(GAME, 3, 0, ("random",), 6), speed="instant", replay_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        assert "Its replay (unfinished) will be saved in " + str(tmp_path) in str(
            app.screen.query_one("#quit-where").render()
        )
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert not app.is_running
    assert len(app.saved) == 1
    assert app.saved[0].name.endswith("-seed6-unfinished.replay")


async def test_a_finished_game_is_saved_without_asking_and_quits_at_once(tmp_path: Path) -> None:
    """Watching bots (no seat): the game ends, its replay is saved when the result shows."""
    app = SaloonApp(play=PlaySetup(GAME, 3, None, ("random",), 9), speed="instant", replay_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen), timeout=30)
        [path] = app.saved
        assert path.parent == tmp_path
        assert re.fullmatch(rf"deadwood1876-{STAMP}-seed9\.replay", path.name), path.name
        assert replays.load(path).outcome == app.session.state.outcome
        await pilot.press("w")  # "save the replay": already saved, the same file
        await pilot.pause()
        assert app.saved == [path]
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, PlayScreen)
        await pilot.press("ctrl+q")  # the game is over: nothing to ask
        await pilot.pause()
    assert not app.is_running
    assert app.wrap_up() == [path]


async def test_play_again_keeps_every_game(tmp_path: Path) -> None:
    seeds = iter([101, 102])
    app = SaloonApp(
        play=PlaySetup(GAME, 3, None, ("random",), 9),
        speed="instant",
        next_seed=lambda: next(seeds),
        replay_dir=tmp_path,
    )
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen), timeout=30)
        first = app.session
        await pilot.press("a")  # play again
        await wait_until(pilot, lambda: app.session is not first and isinstance(app.screen, ResultScreen), timeout=30)
        await pilot.press("q")
        await pilot.pause()
    assert [p.name.rsplit("-", 1)[1] for p in app.saved] == ["seed9.replay", "seed101.replay"]
    assert all(p.exists() for p in app.saved)


BAD_BOT = """import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(f"bad bot: {message['game']} seat {message['seat']} of {message['players']}", file=sys.stderr, flush=True)
    elif message["type"] == "decide":
        sys.stdout.write("nonsense\\n")
        sys.stdout.flush()
"""


async def test_play_keeps_external_bots_stderr_and_prints_their_faults(
    xdg: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "bad_bot.py"
    script.write_text(BAD_BOT)
    bot = f"cmd:{sys.executable} {script}"
    app = _play_args("--players", "2", "--seed", "4", "--speed", "instant", "--bots", bot)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        for _ in range(40):  # play on until the bot has been disabled (three processes, then no more)
            if len(app.session.faults) >= 4 or app.session.state.is_over:
                break
            before = app.session.recorder.num_moves
            play_screen(app).choose(app.session.legal_actions()[0])
            await wait_until(
                pilot, lambda before=before: app.session.recorder.num_moves > before and my_turn_or_over(app)
            )
        assert len(app.session.faults) >= 4
        await pilot.press("ctrl+q", "y")
        await pilot.pause()
    [replay_path] = app.wrap_up()
    [log] = (xdg / "logs").iterdir()
    assert re.fullmatch(rf"deadwood1876-{STAMP}-seat1\.stderr\.log", log.name), log.name
    # the bot got a real start line (the game, its seat, the player count), once per process
    assert log.read_text() == "bad bot: deadwood1876 seat 1 of 2\n" * 3
    assert replays.load(replay_path).faults == tuple(app.session.faults)

    _play_summary(app)
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == [f"replay saved: {replay_path}", f"watch it with: saloon replay {replay_path}"]
    assert out[2] == f"faults of {bot}: {len(app.session.faults)}, the first 3:"
    for line in out[3:6]:
        assert re.fullmatch(r"  game 1: move \d+: seat 1: the bot raised BotFault: bad reply 'nonsense': .+", line)
    assert out[6:] == [f"stderr of {bot}: {log}"]
