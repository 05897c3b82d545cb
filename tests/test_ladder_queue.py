"""The ladder without SSH (lobby.ladder): joining and its limits, the matchmaker tick seating rated
tables, forfeits ranked last, rated results recorded in one transaction, and the leaderboard text."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from lobby.ladder import Ladder, LadderError, Standing, leaderboard_text
from lobby.matchmaker import MatchPolicy
from lobby.store import NAME_RE, Store
from lobby.tables import Identity, Lobby, ServerConfig, Table
from replays import Player, Recorder
from tests.ssh.termclient import wait_until

GAME = "deadwood1876"


class FakeBot:
    """A remote bot's channel in memory: answers every decision with the first legal action."""

    def __init__(self, name: str, key: str | None = None, guest: bool = False) -> None:
        self.identity = Identity(name, key or f"key:{name}", guest)
        self.seated_at: list[tuple[str, int]] = []
        self.ended: list[engine.Outcome] = []

    def changed(self, what: Any) -> None:
        pass

    def seat_lost(self, table: Table, seat: int, reason: str) -> None:
        pass

    def seated(self, table: Table, seat: int) -> None:
        self.seated_at.append((table.code, seat))

    def start(self, table: Table, seat: int) -> None:
        pass

    async def decide(self, seat: int, view: Any, legal: list[Any], deadline_ms: int) -> int:
        return 0

    def end(self, outcome: engine.Outcome) -> None:
        self.ended.append(outcome)

    def fault(self, message: str) -> None:
        pass


def make_ladder(tmp_path: Path, **config: Any) -> tuple[Ladder, Store]:
    store = Store(tmp_path / "data")
    settings = {"bot_delay_s": 0.0, "ladder_policy": MatchPolicy(max_wait_s=0.0), **config}
    return Ladder(Lobby(store, ServerConfig(**settings))), store


@given(st.lists(st.integers(1, 6), min_size=2, max_size=9), st.data())
def test_forfeits_share_last_place_and_the_others_keep_their_order(keys: list[int], data: st.DataObject) -> None:
    ranks = engine.rank_by_scores([-key for key in keys])  # an engine's ranks: competition ranking
    forfeits = data.draw(st.sets(st.sampled_from(range(len(ranks)))))
    if len(forfeits) == len(ranks):
        forfeits.pop()  # everyone forfeiting is an abandoned game: the engine's outcome (tests/test_one_outcome.py)
    outcome = engine.Outcome((0.0,) * len(ranks), ranks, ())
    rated = engine.forfeit_outcome(outcome, forfeits).ranks
    kept = [seat for seat in range(len(ranks)) if seat not in forfeits]
    assert {rated[seat] for seat in forfeits} <= {len(kept) + 1}
    assert all(rated[seat] <= len(kept) for seat in kept)
    for a in kept:
        for b in kept:
            assert (ranks[a] < ranks[b]) == (rated[a] < rated[b])
            assert (ranks[a] == ranks[b]) == (rated[a] == rated[b])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.from_regex(NAME_RE, fullmatch=True), min_size=1, max_size=12, unique=True))
def test_the_leaderboard_text_fits_80_columns_and_never_cuts_a_name(names: list[str]) -> None:
    rows = [Standing(i + 1, n, 30.5 - i, 40.25, 3.3, 999, (9, 1, 2, 3, 4), i % 2 == 0) for i, n in enumerate(names)]
    text = leaderboard_text("Deadwood 1876", rows)
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines)
    for row in rows:
        line = next(line for line in lines if line.split()[:2] == [str(row.rank), row.name])
        assert "40.2 ± 9.9" in line and "9 1 2 3 4" in line and line.endswith("yes") == row.online


async def test_join_refuses_guests_unknown_games_bad_counts_and_one_connection_too_many(tmp_path: Path) -> None:
    ladder, store = make_ladder(tmp_path, ladder_connections_per_key=2)
    cases = [
        (FakeBot("drifter", guest=True), GAME, None, "guests cannot play on the ladder"),
        (FakeBot("ann"), "chess", None, "unknown game"),
        (FakeBot("ann"), GAME, (1, 2), "Deadwood 1876 is for 2-9 players, not 1"),
    ]
    for bot, game, counts, message in cases:
        with pytest.raises(LadderError, match=message):
            ladder.join(bot, game, counts)
    first, second, third = FakeBot("ann"), FakeBot("ann"), FakeBot("ann")
    assert ladder.join(first, GAME, (2,)) is None
    assert ladder.join(second, GAME, (2, 3)) is None
    with pytest.raises(LadderError, match="ann already has 2 ladder connections, the most one key may hold"):
        ladder.join(third, GAME)
    assert [(e.name, e.counts, e.rating) for e in ladder.queued(GAME)] == [("ann", (2,), 0.0), ("ann", (2, 3), 0.0)]
    assert ladder.tick() == []  # never an account against itself
    assert ladder.online(GAME) == {"ann"}
    ladder.leave(first)
    assert ladder.members("key:ann") == 1 and len(ladder.queued()) == 1
    store.close()


async def test_a_tick_seats_a_rated_table_and_a_forfeit_is_ranked_last(tmp_path: Path) -> None:
    ladder, store = make_ladder(tmp_path, bot_grace_s=0.0)
    ann, bob, cat = FakeBot("ann"), FakeBot("bob"), FakeBot("cat")
    for bot in (ann, bob, cat):
        ladder.join(bot, GAME, (2,))
    (table,) = ladder.tick()  # two of the three; the third waits
    assert table.rated and table.status == "playing" and table.creator == "ladder"
    seated = [b for b in (ann, bob, cat) if table.seat_of(b) is not None]
    (waiting,) = [b for b in (ann, bob, cat) if b not in seated]
    assert [e.name for e in ladder.queued(GAME)] == [waiting.identity.name]
    assert [ladder.entry(b) is None for b in seated] == [True, True]  # seated: no longer queued
    entry = ladder.entry(waiting)
    assert entry is not None and (entry.name, entry.counts, entry.rating) == (waiting.identity.name, (2,), 0.0)
    assert ladder.tables(GAME) == [table]
    await asyncio.sleep(0)  # the seated callbacks run on the loop
    assert [len(b.seated_at) for b in seated] == [1, 1]
    quitter, stayer = seated
    table.release(quitter)  # gone, and the bot grace is 0: a substitute plays, the seat forfeits
    await wait_until(lambda: table.is_over, timeout=30, what="the game to end")
    await wait_until(lambda: table.game_row is not None, timeout=10, what="the game to be recorded")
    index = table.seat_of(quitter.identity)
    assert index is not None and table.forfeits == {index}
    assert table.ladder_ranks is not None and table.ladder_ranks[index] == 2 and table.ladder_ranks[1 - index] == 1
    (record,) = store.games()
    assert any(f"({quitter.identity.name}) forfeits (disconnected)" in fault for fault in record.faults)
    assert [p.place for p in store.ladder_history(GAME, quitter.identity.name)] == [2]
    assert [p.place for p in store.ladder_history(GAME, stayer.identity.name)] == [1]
    assert [p.game_row for p in store.ladder_history(GAME, stayer.identity.name)] == [record.id]
    assert store.ladder_rating(GAME, stayer.identity.name).mu > 25.0
    assert len(stayer.ended) == 1
    # The winner's conservative rating is now above 0 (a new player's), the forfeiter's below.
    assert [(r.rank, r.name, r.games, r.recent, r.online) for r in ladder.standings(GAME)] == [
        (1, stayer.identity.name, 1, (1,), True),
        (2, waiting.identity.name, 0, (), True),
        (3, quitter.identity.name, 1, (2,), True),
    ]
    await ladder.stop()
    store.close()


def test_a_rated_game_that_cannot_be_rated_leaves_no_row(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    recorder = Recorder(GAME, 2, 5, None, [Player("ann", "bot"), Player("bob", "bot")])
    state = recorder.state
    while not state.is_over:
        seat = state.to_act[0]
        recorder.apply(seat, state.legal_actions(seat)[0])
    replay = recorder.replay()
    twice = msgspec.structs.replace(replay.header, players=(Player("ann", "bot"), Player("ann", "bot")))
    with pytest.raises(ValueError, match="two or more different players"):
        store.record_game("ABCD", msgspec.structs.replace(replay, header=twice), 1.0, 2.0, rated=True)
    assert store.games() == [] and store.ladder_standings(GAME) == []
    record = store.record_game("ABCD", recorder.replay(), 1.0, 2.0, rated=True, forfeits={0})
    assert [r.name for r in store.ladder_standings(GAME)] == ["bob", "ann"]
    assert [p.game_row for p in store.ladder_history(GAME, "ann")] == [record.id]
    store.close()


async def test_ladder_tables_tell_the_ladder_not_the_lobby(tmp_path: Path) -> None:
    """A busy ladder starts and ends several games a second: its tables are not in the lobby's list,
    and their starts and ends reach the ladder's listeners (the Ladder screens), not the lobby's."""

    class Counter:
        def __init__(self) -> None:
            self.calls = 0

        def changed(self, what: Any) -> None:
            self.calls += 1

    ladder, store = make_ladder(tmp_path)
    ladder.lobby.ladder = ladder
    lobby_watcher, ladder_watcher = Counter(), Counter()
    ladder.lobby.watch(lobby_watcher)
    ladder.watch(ladder_watcher)
    for name in ("ann", "bob"):
        ladder.join(FakeBot(name), GAME, (2,))
    (table,) = ladder.tick()
    await wait_until(lambda: table.is_over and table.game_row is not None, timeout=30, what="the game to end")
    await asyncio.sleep(0)  # notifications run on the loop
    assert table not in ladder.lobby.listing() and table in ladder.tables() + list(ladder.lobby.tables.values())
    assert lobby_watcher.calls == 0
    assert ladder_watcher.calls >= 3  # the queue, the table formed, its end
    store.close()
