"""How many decisions real games take, per game and player count (a script, not a test).

    python tests/bench/decision_counts.py [--games deadwood1876,wyatt_earp,...] [--random 2000]
                                          [--heuristic 100] [--seed 0] [--limit 1000000]

For each game and each player count, plays ``--random`` games with uniformly random legal moves
(``random.Random(seed)``, the game seeded the same) and ``--heuristic`` games between copies of
the built-in heuristic bot, and counts the decisions (applied actions) of each: the figures that
``Game.max_decisions`` is set from (``DESIGN.md``: every game ends). Prints per game, player
count and bot kind: the number of games, the minimum, median, 99th percentile and maximum, how
many games reached ``--limit`` decisions unfinished (counted at the limit), how many ended by the
engine's own decision cap, and the game's cap with its ratio to the largest count measured.

The engine's cap ends every game, so a run measures what games take under it: a game that ends
by the cap (a ``GameCapped`` event) is reported separately, since its length says nothing about
real play but that the cap was reached.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import engine  # noqa: E402
from bots import HeuristicBot  # noqa: E402
from engine.core import GameCapped  # noqa: E402

GAMES = ("deadwood1876", "wyatt_earp", "deadwood_studios", "deadwood_town")


def play_random(game: engine.Game, players: int, seed: int, limit: int) -> tuple[int, bool]:
    """One game of random legal moves; returns (decisions, ended by the engine's cap)."""
    state = game.new_game(players, seed)
    choose = random.Random(seed).randrange
    decisions = 0
    while not state.is_over and decisions < limit:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[choose(len(legal))])
        decisions += 1
    return decisions, _capped(state)


def play_heuristic(game: engine.Game, players: int, seed: int, limit: int) -> tuple[int, bool]:
    """One game between heuristic bots; returns (decisions, ended by the engine's cap)."""
    state = game.new_game(players, seed)
    bots = [HeuristicBot(seed * 16 + seat) for seat in range(players)]
    decisions = 0
    while not state.is_over and decisions < limit:
        for seat in state.to_act:
            if state.is_over or seat not in state.to_act:
                continue
            legal = state.legal_actions(seat)
            state.apply(seat, bots[seat].act(state.view(seat), legal, seat))
            decisions += 1
    return decisions, _capped(state)


def _capped(state: engine.State) -> bool:
    return state.is_over and any(isinstance(e, GameCapped) for e in state.events(None))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--random", type=int, default=2000, help="random games per player count")
    parser.add_argument("--heuristic", type=int, default=100, help="heuristic games per player count")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, default=1_000_000)
    args = parser.parse_args()
    print(
        f"{'game':17} {'n':>2} {'bots':9} {'games':>6} {'min':>6} {'median':>7} {'p99':>7} {'max':>7} "
        f"{'unfinished':>10} {'capped':>6} {'cap':>7} {'cap/max':>7} {'s':>6}"
    )
    for game_id in args.games.split(","):
        game = engine.game(game_id)
        for players in range(game.min_players, game.max_players + 1):
            cap = game.max_decisions(players)
            for kind, count, play in (
                ("random", args.random, play_random),
                ("heuristic", args.heuristic, play_heuristic),
            ):
                if count <= 0:
                    continue
                started = time.perf_counter()
                results = [play(game, players, args.seed + k, args.limit) for k in range(count)]
                elapsed = time.perf_counter() - started
                real = sorted(d for d, capped in results if not capped)
                capped = sum(1 for _, c in results if c)
                unfinished = sum(1 for d, c in results if d >= args.limit and not c)
                if real:
                    p99 = real[min(len(real) - 1, int(0.99 * len(real)))]
                    line = f"{real[0]:6} {statistics.median(real):7.0f} {p99:7} {real[-1]:7}"
                    ratio = f"{cap / real[-1]:7.1f}"
                else:
                    line = f"{'-':>6} {'-':>7} {'-':>7} {'-':>7}"
                    ratio = f"{'-':>7}"
                print(
                    f"{game_id:17} {players:2} {kind:9} {count:6} {line} {unfinished:10} {capped:6} {cap:7} "
                    f"{ratio} {elapsed:6.1f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
