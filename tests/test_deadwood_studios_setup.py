"""Deadwood Studios set-up (rulebook: Setting Up, Setup for Different Group Sizes), the components
and the game's options."""

from __future__ import annotations

import pytest

import engine
from engine.core import OMNISCIENT
from engine.deadwood_studios import GAME, Options
from engine.deadwood_studios.actions import EndTurn, Move
from engine.deadwood_studios.components import CASTING_OFFICE, NUM_SETS, TRAILERS
from engine.deadwood_studios.events import DayStarted, SceneRevealed, ScenesDealt, TurnStarted
from tests.deadwood_studios_helpers import COMP, act, card, check_cards, events_of, position


@pytest.mark.parametrize(
    ("players", "days", "rank", "credits"),
    [(2, 3, 1, 0), (3, 3, 1, 0), (4, 4, 1, 0), (5, 4, 1, 2), (6, 4, 1, 4), (7, 4, 2, 0), (8, 4, 2, 0)],
)
@pytest.mark.rule("deadwood_studios", "setup.trailers")
@pytest.mark.rule("deadwood_studios", "setup.group-sizes")
def test_setup_by_player_count(players: int, days: int, rank: int, credits: int) -> None:
    st = GAME.new_game(players, 11)
    assert (st.days, st.day) == (days, 1)
    assert st.rank == [rank] * players
    assert st.credits == [credits] * players
    assert st.dollars == [0] * players
    assert st.room == [TRAILERS] * players
    view = st.view(None)
    assert (view.day, view.days) == (1, days)
    assert [(p.room, p.rank, p.dollars, p.credits, p.role) for p in view.players] == [
        ("trailers", rank, 0, credits, None)
    ] * players
    assert [p.points for p in view.players] == [credits + 5 * rank] * players


@pytest.mark.rule("deadwood_studios", "setup.first-player")
@pytest.mark.rule("deadwood_studios", "setup.first-player-order")
def test_a_random_first_player_starts() -> None:
    firsts = set()
    for seed in range(40):
        st = GAME.new_game(4, seed)
        (started,) = events_of(st, DayStarted)
        assert started == DayStarted(1, 4, st.current)
        assert st.to_act == (st.current,) and st.phase == "move"
        assert events_of(st, TurnStarted) == [TurnStarted(st.current, False)]
        firsts.add(st.current)
    assert firsts == {0, 1, 2, 3}


@pytest.mark.rule("deadwood_studios", "setup.scenes")
def test_a_scene_is_dealt_face_down_to_each_set_with_its_shot_counters() -> None:
    st = GAME.new_game(4, 3)
    assert all(c >= 0 for c in st.scene) and not any(st.face_up)
    assert st.shots_left == list(COMP.shots)
    assert len(st.deck) == 30 and st.removed == [] and st.removed_unseen == []
    check_cards(st)
    view = st.view(0)
    assert [s.face_down for s in view.sets] == [True] * NUM_SETS
    assert [s.scene for s in view.sets] == [None] * NUM_SETS
    assert [s.starring for s in view.sets] == [()] * NUM_SETS
    assert [s.shots_left for s in view.sets] == list(COMP.shots)
    assert view.deck_size == 30 and view.scenes_left == 10
    assert view.hidden_scenes is None and view.deck is None
    (public,) = events_of(st, ScenesDealt)
    assert public == ScenesDealt(1, 30, None)
    (everything,) = events_of(st, ScenesDealt, OMNISCIENT)
    assert everything.scenes == tuple(COMP.scenes[c] for c in st.scene)
    omniscient = st.view(OMNISCIENT)
    assert omniscient.hidden_scenes == tuple(COMP.scenes[c] for c in st.scene)
    assert omniscient.deck == tuple(COMP.scenes[c] for c in st.deck)


@pytest.mark.rule("deadwood_studios", "turn.flip-scene")
def test_the_first_player_to_walk_in_turns_the_scene_up() -> None:
    st = position(3, rooms={1: "main_street"}, scenes={"saloon": card(2)}, face_down={"saloon"})
    assert st.view(None).sets[9].face_down
    act(st, 0, Move("saloon"))
    assert st.face_up[9]
    assert events_of(st, SceneRevealed) == [SceneRevealed(0, "saloon", COMP.scenes[card(2)])]
    view = st.view(None)
    assert view.sets[9].scene == COMP.scenes[card(2)] and not view.sets[9].face_down
    assert [r.name for r in view.sets[9].starring] == ["Rug Merchant", "Banker", "Talking Mule"]
    # the second player to walk in turns nothing up
    act(st, 0, EndTurn())
    act(st, 1, Move("saloon"))
    assert len(events_of(st, SceneRevealed)) == 1


@pytest.mark.rule("deadwood_studios", "components.board-and-cards")
def test_the_components() -> None:
    assert len(COMP.scenes) == 40 and len(COMP.room_ids) == 12
    assert COMP.room_ids[TRAILERS] == "trailers" and COMP.room_ids[CASTING_OFFICE] == "casting_office"
    assert sum(COMP.shots) == 22
    assert sorted(s.budget for s in COMP.scenes) == [2] * 4 + [3] * 6 + [4] * 12 + [5] * 12 + [6] * 6
    assert sum(len(s.roles) for s in COMP.scenes) == 108
    assert sum(len(e) for e in COMP.extras) == 29
    # the printed ranks, not the course XML's
    assert COMP.scenes[card(2)].roles[-1].name == "Talking Mule" and COMP.scenes[card(2)].roles[-1].rank == 5
    assert COMP.scenes[card(24)].roles[-1].name == "Dog" and COMP.scenes[card(24)].roles[-1].rank == 5
    assert [(u.rank, u.dollars, u.credits) for u in COMP.upgrades] == [
        (2, 4, 5),
        (3, 10, 10),
        (4, 18, 15),
        (5, 28, 20),
        (6, 40, 25),
    ]
    for room, neighbours in enumerate(COMP.neighbors):  # every door goes both ways
        assert all(room in COMP.neighbors[other] for other in neighbours)


def test_the_game_is_registered() -> None:
    game = engine.game("deadwood_studios")
    assert game is GAME
    assert (game.min_players, game.max_players, game.title) == (2, 8, "Deadwood Studios")
    assert "| 6 | 40 | 25 |" in game.rules_help()


@pytest.mark.parametrize("players", [1, 9, 0, True, 4.0])
@pytest.mark.rule("deadwood_studios", "components.players")
def test_bad_player_counts_raise(players: object) -> None:
    with pytest.raises(ValueError):
        GAME.new_game(players, 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("options", [{"shifting_boards": True}, {"days": 2}, "days=2", 3])
@pytest.mark.rule("deadwood_studios", "variants.none")
def test_bad_options_raise(options: object) -> None:
    with pytest.raises(engine.InvalidOptions):
        GAME.new_game(4, 1, options)


@pytest.mark.rule("deadwood_studios", "variants.none")
def test_no_options_is_fine() -> None:
    assert GAME.new_game(4, 1, {}).digest() == GAME.new_game(4, 1, Options()).digest() == GAME.new_game(4, 1).digest()
