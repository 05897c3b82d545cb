"""``saloon replay FILE --asciicast OUT.cast``: an asciinema v2 recording of the spectator's screen.

The recording is read back as asciinema would: its header and events parsed, and its output fed
to a terminal emulator (pyte), which must end on the viewer's own screen of the last position
and must never, at any move, show a card that the spectator could not know of then.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pyte
import pytest
from tui_helpers import _cards_in, secrets_of

import engine
from bots import make_bot, play_game
from replays import ReplayCursor, load, save, verify
from saloon.cli import main
from tui import SaloonApp, screen_text
from tui.games import ui_for
from tui.games.deadwood1876 import card_text
from tui.replay_screen import ReplayScreen

SIZE = (90, 28)
STEP = 0.5


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _parse(path: Path) -> tuple[dict[str, Any], list[list[Any]]]:
    """The header and the events of an asciicast v2 file (every line one JSON value)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


def _screens(header: dict[str, Any], events: list[list[Any]]) -> list[list[str]]:
    """What a terminal of the header's size shows after each event (its rows)."""
    screen = pyte.Screen(header["width"], header["height"])
    stream = pyte.Stream(screen)
    shown = []
    for _, _, data in events:
        stream.feed(data)
        shown.append(list(screen.display))
    return shown


def _readable(rows: list[str]) -> str:
    """The rows, and each column of the screen (split at the viewer's ``│``) read as one line of
    text, so that a name wrapped over two rows of the log or of the last move is found too."""
    columns: dict[int, list[str]] = {}
    for row in rows:
        for number, part in enumerate(row.split("│")):
            columns.setdefault(number, []).append(part.strip())
    joined = [re.sub(r"\s+", " ", " ".join(parts)) for parts in columns.values()]
    return "\n".join([*rows, *joined])


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished 4-player Deadwood 1876 game between heuristic bots, saved; seed 2 ends with
    cards in hand that the spectator never saw (checked below)."""
    replay = play_game("deadwood1876", 4, [make_bot("heuristic", 20 + seat) for seat in range(4)], seed=2).replay
    path = tmp_path_factory.mktemp("asciicast") / "game.replay"
    save(replay, path)
    return path


@pytest.fixture(scope="module")
def cast(game: Path) -> Path:
    """The game's recording at :data:`SIZE`, one move every :data:`STEP` seconds."""
    out = game.with_name("game.cast")
    size = "x".join(map(str, SIZE))
    assert main(["replay", str(game), "--asciicast", str(out), "--size", size, "--step", str(STEP)]) == 0
    return out


def test_the_recording_is_an_asciicast_v2_of_every_move(cast: Path, game: Path) -> None:
    header, events = _parse(cast)
    assert header["version"] == 2
    assert (header["width"], header["height"]) == SIZE
    assert header["env"] == {"TERM": "xterm-256color"}
    assert header["title"] == "Deadwood 1876: heuristic, heuristic, heuristic, heuristic"  # never the seed
    assert "timestamp" not in header  # the same replay gives the same file
    moves = len(load(game).move_pairs())
    assert all(len(e) == 3 and isinstance(e[0], float) and e[1] == "o" and isinstance(e[2], str) for e in events)
    times = [event[0] for event in events]
    assert times == sorted(times) and times[0] == 0.0
    # one event per position (each move changes the screen: at least its "move k/N"), then the hold
    assert len(events) == moves + 2
    assert times[-2] == pytest.approx(moves * STEP)
    assert times[-1] == pytest.approx(moves * STEP + 3.0)
    # only the changes after the first screen: far less than a whole screen per move
    assert cast.stat().st_size < 4 * len(events[0][2]) + moves * len(events[0][2]) // 2


def test_the_defaults_are_80x24_and_a_second_a_move(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    replay = play_game("deadwood1876", 2, [make_bot("heuristic", seat) for seat in range(2)], seed=1).replay
    path, out = tmp_path / "short.replay", tmp_path / "short.cast"
    save(replay, path)
    code, printed, err = _run(capsys, "replay", str(path), "--asciicast", str(out))
    assert (code, err) == (0, "")
    assert str(out) in printed and "asciinema play" in printed
    header, events = _parse(out)
    assert (header["width"], header["height"]) == (80, 24)
    moves = len(replay.move_pairs())
    assert [e[0] for e in events[:3]] == [0.0, 1.0, 2.0]
    assert events[-1][0] == pytest.approx(moves + 3.0)


async def test_played_in_a_terminal_it_ends_on_the_viewers_last_screen(cast: Path, game: Path) -> None:
    header, events = _parse(cast)
    last = _screens(header, events)[-1]
    replay = load(game)
    state = verify(replay)
    winner = ui_for("deadwood1876").seat_name(state.view(None), state.outcome.winners[0])
    moves = len(replay.move_pairs())
    assert f"Winner: {winner}" in last[0]
    assert any(f"move {moves}/{moves}" in row for row in last)
    assert any("view: spectator (public only)" in row for row in last)

    # cell for cell what the viewer itself shows at the end, opened at the spectator's view
    app = SaloonApp(replay=replay)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.switch_screen(ReplayScreen(replay, ui_for("deadwood1876"), pov=None))
        await pilot.pause()
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen) and viewer.pov is None
        viewer.action_jump("end")
        await pilot.pause()
        shown = screen_text(app, everything=False).splitlines()
    assert len(shown) == SIZE[1]
    assert [row.rstrip() for row in last] == [row.rstrip() for row in shown]


def test_no_screen_shows_a_card_the_spectator_does_not_know(cast: Path, game: Path) -> None:
    """At every move, no hidden hand card nor unknown Safe of that position is on the screen; the
    cards left in hands at the end that nobody saw played are nowhere in the file."""
    header, events = _parse(cast)
    screens = [_readable(rows) for rows in _screens(header, events)]
    replay = load(game)
    cursor = ReplayCursor(replay)
    for position, text in enumerate(screens[:-1]):
        state = cursor.goto(position)
        hidden = secrets_of(state, None)
        assert not [secret for secret in hidden if secret in text], f"move {position}"

    final = cursor.goto(len(cursor))
    hands = final.view(engine.OMNISCIENT).hands
    unseen = {card_text(card) for hand in hands for card in hand} & secrets_of(final, None)
    assert unseen, "the game should end with a card in hand that the spectator never saw"
    everything = "\n".join(screens) + cast.read_text(encoding="utf-8")
    assert not [name for name in unseen if name in everything]

    # the check does find cards by name, wrapped or not: some of those played in the open are there
    public = {card_text(card) for card in _cards_in(msgspec.to_builtins(final.events(None)))}
    assert len([name for name in public if name in "\n".join(screens)]) >= 3


def _refusal(capsys: pytest.CaptureFixture[str], path: Path, out: Path) -> tuple[int, str]:
    """``--asciicast``'s exit code and stderr for ``path``, after checking it matches ``replay verify``'s."""
    code, printed, err = _run(capsys, "replay", str(path), "--asciicast", str(out))
    assert printed == "" and not out.exists()
    verify_code, _, verify_err = _run(capsys, "replay", "verify", str(path))
    assert (code, err) == (verify_code, verify_err)
    return code, err


def test_a_replay_that_does_not_verify_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: Path
) -> None:
    out = tmp_path / "out.cast"
    broken = tmp_path / "broken.replay"
    broken.write_bytes(game.read_bytes()[:100])
    code, err = _refusal(capsys, broken, out)
    assert code == 1 and err.count("\n") == 1 and err.startswith(f"FAIL {broken}: ")

    replay = load(game)
    forged = tmp_path / "forged.replay"
    save(msgspec.structs.replace(replay, final_digest="0" * len(replay.final_digest)), forged)
    code, err = _refusal(capsys, forged, out)
    assert code == 1 and err.count("\n") == 1 and err.startswith(f"FAIL {forged}: ")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--size", "80by24"], "expected COLSxROWS"),
        (["--size", "20x5"], "out of range"),
        (["--step", "0"], "--step must be more than 0"),
        (["--step", "nan"], "--step must be more than 0"),
    ],
)
def test_bad_options_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: Path, extra: list[str], message: str
) -> None:
    out = tmp_path / "out.cast"
    code, printed, err = _run(capsys, "replay", str(game), "--asciicast", str(out), *extra)
    assert code == 2 and message in err and err.count("\n") == 1 and not out.exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["replay", "GAME", "--size", "80x24"],
        ["replay", "GAME", "--step", "2"],
        ["replay", "verify", "GAME", "--asciicast", "OUT"],
        ["replay", "show", "GAME", "--asciicast", "OUT"],
        ["replay", "GAME", "--asciicast", "NO-DIR/out.cast"],
    ],
)
def test_asciicast_options_out_of_place_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: Path, argv: list[str]
) -> None:
    argv = [arg.replace("GAME", str(game)).replace("OUT", str(tmp_path / "out.cast")) for arg in argv]
    argv = [arg.replace("NO-DIR", str(tmp_path / "missing")) for arg in argv]
    code, printed, err = _run(capsys, *argv)
    assert code == 2 and err.startswith("saloon: error: ") and err.count("\n") == 1
