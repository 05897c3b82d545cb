"""Deadwood setup, options and the engine contract's input checks (summary: Setup)."""

from __future__ import annotations

import pytest

import engine
from engine import IllegalAction, InvalidOptions
from engine.deadwood_town import GAME, Options
from engine.deadwood_town.events import GameStarted, StartRoll, TurnStarted
from tests.deadwood_town_helpers import COMP, building, cowboys_conserved, stack, tiles_conserved

RANK = COMP.start_rank


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.rule("deadwood_town", "setup.town")
@pytest.mark.rule("deadwood_town", "setup.sheriff")
@pytest.mark.rule("deadwood_town", "setup.crime-pool")
@pytest.mark.rule("deadwood_town", "setup.ranch")
def test_setup_places_the_town_the_sheriff_the_crime_pool_and_each_ranch(players):
    st = GAME.new_game(players, 11 + players)
    assert [building(st, p) for p in ("A1", "A2", "A3")] == ["town_hall", "sheriffs_office", "church"]
    starred = sorted(building(st, p) for p in ("B1", "B2", "B3", "B4", "C3"))
    assert "saloon_x" in starred
    assert set(starred) - {"saloon_x"} <= set(COMP.tile_kind[t] for t in COMP.stack_tiles["1"])
    assert len(set(starred)) == 5
    others = [p for p in COMP.plot_ids if p not in ("A1", "A2", "A3", "B1", "B2", "B3", "B4", "C3")]
    assert all(building(st, p) == "" for p in others)
    assert [len(st.stacks[s]) for s in "123"] == [5, 6, 6]
    assert tiles_conserved(st) and cowboys_conserved(st)
    assert COMP.intersection_ids[st.sheriff] == "S_A2_B2_B3"
    assert st.crime_pool == 5 * players and st.box == 29 - 5 * players
    assert st.money == [5] * players and st.cartridges == [1] * players and st.ponies == [1] * players
    assert all(r == [0, 1, 1, 1] for r in st.ranch) and all(u == [0, 2, 2, 2] for u in st.unhired)
    assert st.cartridge_supply == 20 - players and st.pony_supply == 10 - players
    assert st.posters == [0] * players and st.to_act == (st.first,) and st.phase == "turn"
    started = st.events(None)[0]
    assert isinstance(started, GameStarted) and started.crime_pool == 5 * players and len(started.town) == 8


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.rule("deadwood_town", "setup.first-player")
@pytest.mark.rule("deadwood_town", "setup.first-player-ranking")
def test_the_highest_roll_starts_and_ties_roll_again(seed):
    st = GAME.new_game(5, seed)
    rolls = [e for e in st.events(None) if isinstance(e, StartRoll)]
    last = max(e.round for e in rolls)
    final = [e for e in rolls if e.round == last]
    best = min(RANK.index(e.face) for e in final)
    assert [e.seat for e in final if RANK.index(e.face) == best] == [st.first]
    for r in range(1, last):
        this = [e for e in rolls if e.round == r]
        top = min(RANK.index(e.face) for e in this)
        assert sorted(e.seat for e in rolls if e.round == r + 1) == sorted(
            e.seat for e in this if RANK.index(e.face) == top
        )
    assert st.events(None)[-1] == TurnStarted(st.first)


@pytest.mark.rule("deadwood_town", "setup.town")
def test_the_stacks_and_the_starting_plots_are_shuffled():
    layouts = {tuple(building(GAME.new_game(3, seed), p) for p in ("B1", "B2", "B3", "B4", "C3")) for seed in range(6)}
    orders = {tuple(stack(GAME.new_game(3, seed), "3")) for seed in range(6)}
    assert len(layouts) == 6 and len(orders) == 6


def test_same_seed_same_game():
    assert GAME.new_game(4, 99).digest() == GAME.new_game(4, 99).digest()
    assert GAME.new_game(4, 99).digest() != GAME.new_game(4, 98).digest()


def test_registered_with_its_identity():
    g = engine.game("deadwood_town")
    assert g is GAME and (g.min_players, g.max_players) == (2, 5)
    assert g.view_type.__name__ == "View" and GAME.new_game(2, 1).view(None).game == "deadwood_town"
    assert "Skedaddle" in g.rules_help() or "skedaddle" in g.rules_help()


@pytest.mark.parametrize("players", [1, 6, 2.0, True, "3"])
@pytest.mark.rule("deadwood_town", "components.players")
def test_bad_player_counts_raise(players):
    with pytest.raises(ValueError):
        GAME.new_game(players, 1)


@pytest.mark.parametrize(
    "options",
    [{"nope": 1}, {"adjacent_reannex": 1}, {"town_hall_build": "two"}, {"die": "loaded"}, {"die": 3}, [1]],
)
@pytest.mark.rule("deadwood_town", "options.switches")
def test_bad_options_raise_invalid_options(options):
    with pytest.raises(InvalidOptions):
        GAME.new_game(3, 1, options)


@pytest.mark.rule("deadwood_town", "options.switches")
def test_options_defaults_and_command_line_strings():
    assert Options() == Options(adjacent_reannex=True, town_hall_build="each", die="default")
    st = GAME.new_game(2, 1, {"adjacent_reannex": "false", "town_hall_build": "one", "die": "alternative"})
    assert st.options == Options(False, "one", "alternative")
    assert st.faces == tuple(COMP.alt_die_faces)


def test_a_seat_that_is_not_to_act_or_not_a_seat_is_refused():
    st = GAME.new_game(3, 5)
    digest = st.digest()
    other = (st.first + 1) % 3
    action = st.legal_actions(st.first)[0]
    for seat in (other, 3, -1, True, 1.0, None):
        with pytest.raises(IllegalAction):
            st.apply(seat, action)
    with pytest.raises(IllegalAction):
        st.legal_actions(7)
    assert st.legal_actions(other) == [] and st.digest() == digest


@pytest.mark.rule("deadwood_town", "components.board")
@pytest.mark.rule("deadwood_town", "shootout.die-faces")
def test_board_die_and_buildings_are_data():
    """A corrected board, die or building is a change of ``deadwood_town.toml`` only."""
    import tomllib
    from importlib import resources

    from engine.deadwood_town.components import load

    raw = tomllib.loads(resources.files("engine.deadwood_town").joinpath("deadwood_town.toml").read_text("utf-8"))
    assert load(raw) == COMP
    assert len(COMP.plot_ids) == 25 and len(COMP.intersection_ids) == 32 and COMP.num_tiles == 26
    raw["dice"]["faces"] = ["skull", "star", "star", "star", "blank", "blank"]
    raw["railroad"]["route"] = ["D1", "D2", "D3", "D4"]
    raw["buildings"]["bank"]["annex"][0]["n"] = 7
    changed = load(raw)
    assert changed.die_faces == ("skull", "star", "star", "star", "blank", "blank")
    assert [changed.plot_ids[p] for p in changed.rail_route] == ["D1", "D2", "D3", "D4"]
    assert changed.annex["bank"][0].n == 7
