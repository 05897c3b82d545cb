"""The ladder's matchmaker (lobby.matchmaker): closest ratings first, nobody waits too long."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lobby.matchmaker import MatchPolicy, QueueEntry, match

GAME = "deadwood1876"
POLICY = MatchPolicy(max_wait_s=30.0, base_window=5.0, widen_per_s=1.0)


def entry(
    ticket: int, name: str, rating: float, joined: float = 0.0, counts: tuple[int, ...] = (2,), game: str = GAME
) -> QueueEntry:
    return QueueEntry(ticket=ticket, name=name, game=game, counts=counts, rating=rating, joined=joined)


def names(groups: list[list[QueueEntry]]) -> list[list[str]]:
    return [[e.name for e in group] for group in groups]


def test_closest_ratings_are_paired_first() -> None:
    queue = [entry(1, "a", 10.0), entry(2, "b", 30.0), entry(3, "c", 12.0), entry(4, "d", 29.0)]
    assert names(match(queue, now=1.0, policy=POLICY)) == [["a", "c"], ["b", "d"]]


def test_players_too_far_apart_wait_until_the_window_widens() -> None:
    queue = [entry(1, "a", 0.0), entry(2, "b", 20.0)]
    assert match(queue, now=10.0, policy=POLICY) == []  # window 15 < 20
    assert names(match(queue, now=15.0, policy=POLICY)) == [["a", "b"]]  # window 20


def test_nobody_waits_past_max_wait_if_a_game_can_be_formed() -> None:
    queue = [entry(1, "a", 0.0, joined=0.0), entry(2, "b", 100.0, joined=29.0)]
    assert match(queue, now=29.5, policy=POLICY) == []
    assert names(match(queue, now=30.0, policy=POLICY)) == [["a", "b"]]


def test_the_largest_accepted_count_that_can_be_filled() -> None:
    queue = [
        entry(1, "a", 25.0, counts=(2, 3, 4)),
        entry(2, "b", 25.0, counts=(3, 4)),
        entry(3, "c", 25.0, counts=(2, 3)),
        entry(4, "d", 25.0, counts=(2,)),
    ]
    # Four players, but c and d don't accept 4: a 3-player table for a, then d waits alone.
    assert names(match(queue, now=1.0, policy=POLICY)) == [["a", "b", "c"]]


def test_one_account_never_plays_itself() -> None:
    queue = [entry(1, "bot", 25.0), entry(2, "bot", 25.0), entry(3, "other", 25.0)]
    assert names(match(queue, now=1.0, policy=POLICY)) == [["bot", "other"]]
    assert match([entry(1, "bot", 25.0), entry(2, "bot", 25.0)], now=100.0, policy=POLICY) == []


def test_games_are_matched_separately() -> None:
    queue = [entry(1, "a", 25.0), entry(2, "b", 25.0, game="wyatt_earp")]
    assert match(queue, now=100.0, policy=POLICY) == []


def test_the_overdue_entry_is_seated_first_with_its_closest_players() -> None:
    queue = [entry(1, "new1", 50.0, joined=35.0), entry(2, "old", 0.0, joined=0.0), entry(3, "new2", 49.0, joined=35.0)]
    # "old" is overdue: it gets the closest of the others (new2 at 49), new1 stays queued.
    assert names(match(queue, now=36.0, policy=POLICY)) == [["old", "new2"]]


ENTRIES = st.lists(
    st.tuples(
        st.sampled_from("abcdefg"),
        st.floats(0, 50),
        st.floats(0, 30),
        st.sets(st.integers(2, 5), min_size=1).map(lambda s: tuple(sorted(s))),
    ),
    max_size=12,
)


@settings(max_examples=200, deadline=None)
@given(ENTRIES, st.floats(60, 100))
def test_groups_are_valid_tables(raw: list[tuple[str, float, float, tuple[int, ...]]], now: float) -> None:
    queue = [entry(k, name, rating, joined, counts) for k, (name, rating, joined, counts) in enumerate(raw)]
    groups = match(queue, now=now, policy=POLICY)
    seen = [e.ticket for group in groups for e in group]
    assert len(seen) == len(set(seen))
    for group in groups:
        assert len({e.name for e in group}) == len(group)
        assert all(len(group) in e.counts for e in group)
    # Everyone has waited past max_wait: whoever is left could not have made a table.
    left = [e for e in queue if e.ticket not in seen]
    for first in left:
        for count in first.counts:
            others = {e.name for e in left if count in e.counts and e.name != first.name}
            assert len(others) < count - 1
