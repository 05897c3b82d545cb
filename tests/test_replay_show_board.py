"""``saloon replay show`` prints a game's text board (tui.games.GameUI.board_text) when it has one."""

from __future__ import annotations

from pathlib import Path

import pytest

from bots import make_bot, play_game
from replays import save
from saloon.cli import main


def replay_file(tmp_path: Path, game: str, players: int) -> Path:
    bots = [make_bot("random", seed) for seed in range(players)]
    result = play_game(game, players, bots, seed=5)
    path = tmp_path / f"{game}.replay"
    save(result.replay, path)
    return path


def test_show_prints_the_final_board_of_a_game_with_a_text_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = replay_file(tmp_path, "deadwood_studios", 2)
    assert main(["replay", "show", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("board at the end:") == 1 and "board after move" not in out
    board = out.split("board at the end:\n", 1)[1]
    assert "Trailers" in board and "Casting Office" in board
    assert out.index("board at the end:") < out.index("outcome:")
    assert max(len(line) for line in board.splitlines()) <= 100


def test_show_with_boards_prints_the_board_after_every_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = replay_file(tmp_path, "deadwood_studios", 2)
    assert main(["replay", "show", str(path), "--boards"]) == 0
    out = capsys.readouterr().out
    moves = int(out.split("moves: ", 1)[1].split("\n", 1)[0])
    assert out.count("board at the start:") == 1
    assert out.count("board after move ") == moves and "board at the end:" not in out


def test_games_without_a_text_board_show_no_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = replay_file(tmp_path, "wyatt_earp", 2)
    assert main(["replay", "show", str(path), "--boards"]) == 0
    assert "board" not in capsys.readouterr().out


def test_the_deadwood_town_board_shows_the_town(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = replay_file(tmp_path, "deadwood_town", 3)
    assert main(["replay", "show", str(path)]) == 0
    board = capsys.readouterr().out.split("board at the end:\n", 1)[1].split("outcome:", 1)[0]
    assert "Crime Pool" in board and "Sheriff" in board
    assert max(len(line) for line in board.splitlines()) <= 100
