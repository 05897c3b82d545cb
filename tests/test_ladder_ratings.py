"""Ladder ratings (lobby.ratings): OpenSkill updates per game, kept with their history in SQLite."""

from __future__ import annotations

import sqlite3

import pytest

from lobby.ratings import SCHEMA, history, rate_game, rating, standings


@pytest.fixture()
def db() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.executescript(SCHEMA)
    return conn


def test_a_new_player_has_the_default_rating(db: sqlite3.Connection) -> None:
    new = rating(db, "deadwood1876", "ann")
    assert (new.mu, round(new.sigma, 6), new.games, new.ordinal) == (25.0, round(25 / 3, 6), 0, 0.0)


def test_a_win_raises_the_winner_and_lowers_the_loser(db: sqlite3.Connection) -> None:
    after = rate_game(db, "deadwood1876", ["ann", "bob"], [1, 2], game_row=1, at=100.0)
    assert after[0].mu > 25.0 > after[1].mu
    assert [r.games for r in after] == [1, 1]
    assert rating(db, "deadwood1876", "ann") == after[0]
    assert rating(db, "wyatt_earp", "ann").games == 0  # per game


def test_a_tie_moves_equal_players_equally(db: sqlite3.Connection) -> None:
    a, b = rate_game(db, "deadwood1876", ["ann", "bob"], [1, 1], game_row=1, at=1.0)
    assert a.mu == pytest.approx(b.mu) and a.mu == pytest.approx(25.0)
    assert a.sigma < 25 / 3


def test_standings_and_history(db: sqlite3.Connection) -> None:
    for row in range(1, 6):
        rate_game(db, "deadwood1876", ["ann", "bob", "cat"], [1, 2, 3], game_row=row, at=float(row))
    assert [r.name for r in standings(db, "deadwood1876")] == ["ann", "bob", "cat"]
    points = history(db, "deadwood1876", "ann", limit=3)
    assert [(p.game_row, p.place, p.players) for p in points] == [(3, 1, 3), (4, 1, 3), (5, 1, 3)]
    assert points[-1].mu == rating(db, "deadwood1876", "ann").mu


@pytest.mark.parametrize(("names", "ranks"), [(["ann"], [1]), (["ann", "ann"], [1, 2]), (["ann", "bob"], [1])])
def test_bad_games_are_refused_and_change_nothing(db: sqlite3.Connection, names: list[str], ranks: list[int]) -> None:
    with pytest.raises(ValueError, match="two or more different players"):
        rate_game(db, "deadwood1876", names, ranks, game_row=1, at=1.0)
    assert standings(db, "deadwood1876") == []
