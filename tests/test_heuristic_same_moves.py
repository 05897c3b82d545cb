"""The heuristics play the same moves after their speed-ups: a fixed corpus of positions.

The corpus: for each game and player count in :data:`CELLS`, seeded games where every decision
follows the ``heuristic`` bot (seed :data:`BOT_SEED`), except that a seeded random source plays a
random legal move instead at :data:`RANDOM_SHARE` of the decisions (so the positions stray from
the heuristic's own lines). At every decision with a choice, the heuristic's choice is recorded as
its index among the legal actions; the expected sequences are in ``heuristic_moves.json`` beside
this file, one string of indexes per cell (a hash would hide where the first difference is).

When a change to an engine or a heuristic is *meant* to change the moves, regenerate the file::

    .venv/bin/python tests/test_heuristic_same_moves.py --write

and say so in the change. Speed-ups must leave it as it is.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import engine
from bots.heuristic import HeuristicBot

EXPECTED = Path(__file__).with_name("heuristic_moves.json")
"""``{"game/players": "i,j,k,..."}``: the heuristic's choices (indexes into the legal actions)."""

CELLS = (
    ("deadwood1876", 2),
    ("deadwood1876", 4),
    ("wyatt_earp", 2),
    ("wyatt_earp", 4),
    ("deadwood_studios", 2),
    ("deadwood_studios", 4),
    ("deadwood_town", 2),
    ("deadwood_town", 4),
)
"""(game id, players) of the corpus."""

DECISIONS = 150
"""Decisions with a choice recorded per cell (over as many seeded games as it takes)."""

RANDOM_SHARE = 0.3
"""The share of decisions played at random instead of by the heuristic."""

BOT_SEED = 7
"""The heuristic bot's seed (its tie-breaking)."""


def choices(game_id: str, players: int, decisions: int = DECISIONS) -> list[int]:
    """The heuristic's choices (indexes into the legal actions) over the corpus of one cell."""
    game = engine.game(game_id)
    bot = HeuristicBot(BOT_SEED)
    rng = random.Random(f"{game_id}/{players}")
    out: list[int] = []
    seed = 0
    while len(out) < decisions:
        state: Any = game.new_game(players, seed)
        seed += 1
        while not state.is_over and len(out) < decisions:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            if len(legal) == 1:
                state.apply(seat, legal[0])
                continue
            chosen = bot.act(state.view(seat), legal, seat)
            index = next(i for i, action in enumerate(legal) if action == chosen)
            out.append(index)
            if rng.random() < RANDOM_SHARE:
                index = rng.randrange(len(legal))
            state.apply(seat, legal[index])
    return out


@pytest.mark.parametrize(("game_id", "players"), CELLS)
def test_the_heuristic_plays_the_recorded_moves(game_id: str, players: int) -> None:
    expected = json.loads(EXPECTED.read_text())[f"{game_id}/{players}"]
    got = ",".join(map(str, choices(game_id, players)))
    if got != expected:
        first = next(i for i, (a, b) in enumerate(zip(got.split(","), expected.split(","), strict=False)) if a != b)
        pytest.fail(f"{game_id} x{players}: the heuristic's choice {first} differs from the recorded corpus")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        raise SystemExit("usage: tests/test_heuristic_same_moves.py --write")
    EXPECTED.write_text(json.dumps({f"{g}/{n}": ",".join(map(str, choices(g, n))) for g, n in CELLS}, indent=1) + "\n")
    print(f"wrote {EXPECTED}")
