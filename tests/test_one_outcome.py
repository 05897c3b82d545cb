"""One outcome, one record: a game's result is recorded the same way by the server (the table,
its game log), the ladder (ratings, the leaderboard's places) and tournaments.

The result is :func:`engine.forfeit_outcome` of the engine's outcome: the engine's own unless some
but not all seats forfeited (then those share last place). A ladder game abandoned mid-game
(every seat forfeited, substitutes played it out) and a game ended by its decision cap are
recorded with the engine's outcome everywhere: the game log once named one winner while the
leaderboard's last result gave both players rank 1.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
import replays
from lobby.store import Store
from lobby.tables import Table
from tests.ssh.termclient import wait_until
from tests.test_ladder_queue import FakeBot, make_ladder
from tournament.config import load_config
from tournament.run import play_one
from tournament.schedule import make_schedule

GAME = "deadwood1876"
"""The capped games' game (its games end at a fixed length otherwise: a cap of 30 always bites)."""
RATED = "deadwood_studios"
"""The abandoned and forfeited games' game: two players rarely tie there, so an outcome that
ranks them apart tells the engine's result from the old "both rank 1"."""


def engine_outcome(record_path: Path) -> engine.Outcome:
    """The engine's outcome of a recorded game, from its replay (re-simulated and checked)."""
    replay = replays.load(record_path)
    replays.verify(replay)
    assert replay.outcome is not None
    return replay.outcome


def ladder_places(store: Store, game: str, names: tuple[str, ...]) -> list[int]:
    """Each player's place in their last ladder game (the leaderboard's latest result)."""
    return [store.ladder_history(game, name)[-1].place for name in names]


async def play_rated_game(tmp_path: Path, game: str, leave: int) -> tuple[Table, Store, tuple[str, ...]]:
    """A two-player ladder game of ``game`` in which the first ``leave`` seats' owners leave at
    once (the bot grace time is 0: substitutes play for them); returns the finished, recorded
    table and the players' names, seat order."""
    ladder, store = make_ladder(tmp_path, bot_grace_s=0.0)
    bots = [FakeBot("ann"), FakeBot("bob")]
    for bot in bots:
        ladder.join(bot, game, (2,))
    (table,) = ladder.tick()
    await asyncio.sleep(0)
    by_seat = sorted(bots, key=lambda b: table.seat_of(b) or 0)
    for bot in by_seat[:leave]:
        table.release(bot)
    await wait_until(lambda: table.is_over, timeout=30, what="the game to end")
    await wait_until(lambda: table.game_row is not None, timeout=10, what="the game to be recorded")
    await ladder.stop()
    return table, store, tuple(b.identity.name for b in by_seat)


async def test_an_abandoned_ladder_game_is_recorded_with_the_engines_outcome_everywhere(tmp_path: Path) -> None:
    table, store, names = await play_rated_game(tmp_path, RATED, leave=2)
    assert table.forfeits == {0, 1}  # both gone: substitutes played it out
    (record,) = store.games()
    outcome = engine_outcome(record.replay)
    assert table.outcome == outcome
    assert (record.winners, record.ranks) == (outcome.winners, outcome.ranks)  # the game log
    assert table.ladder_ranks == outcome.ranks
    assert ladder_places(store, RATED, names) == list(outcome.ranks)  # the leaderboard's last result
    store.close()


async def test_a_forfeit_is_one_record_too(tmp_path: Path) -> None:
    """One seat forfeits: it is ranked last, and the game log's winners are the seats the
    leaderboard ranks first (a win by forfeit), whatever the substitute did."""
    table, store, names = await play_rated_game(tmp_path, RATED, leave=1)
    assert table.forfeits == {0}
    (record,) = store.games()
    outcome = engine_outcome(record.replay)
    assert record.ranks == (2, 1) == table.ladder_ranks
    assert ladder_places(store, RATED, names) == [2, 1]
    assert record.winners == ((1,) if outcome.winners else ())
    assert table.outcome is not None and (table.outcome.ranks, table.outcome.winners) == (record.ranks, record.winners)
    store.close()


@pytest.fixture
def small_cap(monkeypatch: pytest.MonkeyPatch) -> int:
    """Deadwood 1876 games end at their 30th decision (its cap, made small for the test)."""
    cap = 30
    monkeypatch.setattr(type(engine.game(GAME)), "max_decisions", lambda self, num_players: cap)
    return cap


@pytest.mark.rule("deadwood1876", "end.decision-cap")
async def test_a_capped_ladder_game_is_recorded_with_the_engines_outcome(tmp_path: Path, small_cap: int) -> None:
    table, store, names = await play_rated_game(tmp_path, GAME, leave=0)
    (record,) = store.games()
    replay = replays.load(record.replay)
    state = replays.verify(replay)
    assert [e for e in state.events(None) if isinstance(e, engine.GameCapped)] == [engine.GameCapped(small_cap)]
    outcome = engine_outcome(record.replay)
    assert table.outcome == outcome and table.forfeits == set()
    assert (record.winners, record.ranks) == (outcome.winners, outcome.ranks)
    assert ladder_places(store, GAME, names) == list(outcome.ranks)
    store.close()


@pytest.mark.rule("deadwood1876", "end.decision-cap")
def test_a_capped_tournament_game_is_recorded_with_the_engines_outcome(tmp_path: Path, small_cap: int) -> None:
    path = tmp_path / "capped.toml"
    path.write_text(f'game = "{GAME}"\nplayers = [3]\ngames = 3\nseed = 5\n[bots]\na = "random"\nb = "random"\n')
    config = load_config(path)
    for spec in make_schedule(config):
        record, data = play_one(config, spec)
        replay = replays.decode(data)
        assert replay.outcome is not None and record.decisions == small_cap
        assert (record.ranks, record.winners) == (replay.outcome.ranks, replay.outcome.winners)
        state = replays.verify(replay)
        assert any(isinstance(e, engine.GameCapped) for e in state.events(None))


@given(
    st.lists(st.integers(0, 4), min_size=2, max_size=9).map(lambda keys: engine.rank_by_scores(keys)),
    st.booleans(),
    st.data(),
)
def test_the_recorded_winners_are_the_seats_ranked_first(ranks: tuple[int, ...], anyone: bool, data: Any) -> None:
    """Whatever forfeits: the winners are the seats ranked 1 (nobody where the engine named
    nobody), so a game log never names a winner the leaderboard does not rank first; nobody or
    everybody forfeiting leaves the engine's outcome as it is."""
    n = len(ranks)
    winners = tuple(seat for seat in range(n) if ranks[seat] == 1) if anyone else ()
    outcome = engine.Outcome(tuple(float(-r) for r in ranks), ranks, winners)
    forfeits = data.draw(st.sets(st.sampled_from(range(n))))
    result = engine.forfeit_outcome(outcome, forfeits)
    assert result.scores == outcome.scores
    if len(forfeits) in (0, n):
        assert result == outcome
    else:
        assert all(result.ranks[s] == n - len(forfeits) + 1 for s in forfeits)
        assert all(result.ranks[s] <= n - len(forfeits) for s in range(n) if s not in forfeits)
    assert result.winners == (tuple(s for s in range(n) if result.ranks[s] == 1) if anyone else ())


def test_a_forfeit_that_is_not_a_seat_is_refused() -> None:
    outcome = engine.Outcome((1.0, 0.0), (1, 2), (0,))
    with pytest.raises(ValueError, match="not a seat"):
        engine.forfeit_outcome(outcome, {2})
