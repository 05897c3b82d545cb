"""Fit each game's win-chance estimate on self-play games of the built-in heuristic bots.

Run from the repository root (one game or several; ``--write`` stores the weights)::

    .venv/bin/python tests/bench/fit_estimates.py deadwood_studios --games 200 --write
    .venv/bin/python tests/bench/fit_estimates.py deadwood_town deadwood1876 --games 300 --write

For each game: ``--games`` games of ``heuristic`` bots at 2 players and a third as many at each of
3 and 4 (seeds from ``--seed``); every ``--every``-th decision, every seat's
``estimate_features(view, seat)`` (its own view; see the game's heuristic module) and its
hand-written estimate are recorded, labelled with the seat's share of the win at the end (1 for a
lone winner, ``1 / k`` for ``k`` tied winners, else 0). Games whose seed is a multiple of 4 are
held out; the rest fit a logistic regression with the fair share as a fixed offset
(:mod:`bots.estimates`), by maximum likelihood with a small L2 penalty (``scipy.optimize``).

It prints, on the held-out games: the Brier score of the fitted estimate, of the hand-written one
and of the constant fair share (50% at 2 players), and a reliability table (deciles of the fitted
chance: positions, mean chance, observed win rate). ``--write`` merges the weights and this report
into ``bots/estimates.json``, which the estimates read.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import bots  # noqa: E402  (after the path: run as a script from anywhere)
import bots.estimates as estimates  # noqa: E402
import engine  # noqa: E402
from bots.heuristic import HeuristicBot, strategies  # noqa: E402

PENALTY = 1e-3
"""The L2 penalty on the weights (per position, on the mean log-loss)."""


def _module(game_id: str) -> Any:
    """The game's heuristic module (it defines ``estimate_features`` and ``ESTIMATE_FEATURES``)."""
    return importlib.import_module(strategies()[game_id].partition(":")[0])


def generate(
    game_id: str, players: int, games: int, seed: int, every: int
) -> list[tuple[int, int, list[float], float, float]]:
    """Positions of ``games`` heuristic self-play games: ``(game seed, players, features,
    hand-written estimate, label)`` per seat and sampled decision."""
    module = _module(game_id)
    game = engine.game(game_id)
    rows = []
    saved = estimates._loaded
    estimates._loaded = {}  # the hand-written estimates, whatever is fitted already
    try:
        for g in range(seed, seed + games):
            bots_ = [HeuristicBot(g * 10 + k) for k in range(players)]
            state = game.new_game(players, g)
            sampled: list[tuple[list[float], float, int]] = []
            decision = 0
            while not state.is_over:
                seat = state.to_act[0]
                legal = state.legal_actions(seat)
                if decision % every == every - 1:
                    for k in range(players):
                        view = state.view(k)
                        sampled.append((module.estimate_features(view, k), float(bots_[k].estimate(view, k)), k))
                view = state.view(seat)
                state.apply(seat, legal[0] if len(legal) == 1 else bots_[seat].act(view, legal, seat))
                decision += 1
            winners = state.outcome.winners
            for features, old, k in sampled:
                label = 1.0 / len(winners) if k in winners else 0.0
                rows.append((g, players, features, old, label))
    finally:
        estimates._loaded = saved
    return rows


def fit(x: np.ndarray, offset: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Weights ``w`` minimizing the mean log-loss of ``sigmoid(offset + x @ w)`` against ``y``
    plus :data:`PENALTY` ``* |w|^2``."""

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = np.clip(offset + x @ w, -50, 50)
        p = 1 / (1 + np.exp(-z))
        eps = 1e-12
        value = -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)) + PENALTY * w @ w
        grad = x.T @ (p - y) / len(y) + 2 * PENALTY * w
        return float(value), grad

    result = minimize(loss, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B")
    return np.asarray(result.x)


def reliability(p: np.ndarray, y: np.ndarray, bins: int = 10) -> list[dict[str, float]]:
    """Deciles of ``p``: ``{"low", "high", "positions", "chance", "observed"}`` per decile."""
    out = []
    for b in range(bins):
        low, high = b / bins, (b + 1) / bins
        mask = (p >= low) & ((p < high) if b < bins - 1 else (p <= high))
        if mask.sum():
            out.append(
                {
                    "low": low,
                    "high": high,
                    "positions": int(mask.sum()),
                    "chance": round(float(p[mask].mean()), 3),
                    "observed": round(float(y[mask].mean()), 3),
                }
            )
    return out


def run(game_id: str, games: int, seed: int, every: int) -> dict[str, Any]:
    """Generate, fit and report one game (see the module docstring)."""
    started = time.process_time()
    rows = generate(game_id, 2, games, seed, every)
    game = engine.game(game_id)
    for players in (3, 4):
        if game.min_players <= players <= game.max_players:
            rows += generate(game_id, players, max(1, games // 3), seed, every)
    held = np.array([r[0] % 4 == 0 for r in rows])
    x = np.array([r[2] for r in rows], dtype=float)
    offset = np.array([math.log(1 / (r[1] - 1)) for r in rows])
    y = np.array([r[4] for r in rows])
    old = np.array([r[3] for r in rows])
    fair = np.array([1 / r[1] for r in rows])
    w = fit(x[~held], offset[~held], y[~held])
    p = 1 / (1 + np.exp(-np.clip(offset + x @ w, -50, 50)))
    report: dict[str, Any] = {
        "features": list(_module(game_id).ESTIMATE_FEATURES),
        "weights": [round(float(v), 5) for v in w],
        "fitted_on": (
            f"heuristic self-play: {games} games at 2 players, {max(1, games // 3)} at 3 and 4 where allowed,"
            f" seeds from {seed}, every {every}th decision"
        ),
        "held_out_positions": int(held.sum()),
        "brier": {},
    }
    for label, mask in (
        ("held_out", held),
        *((f"held_out_{n}p", held & (np.array([r[1] for r in rows]) == n)) for n in (2, 3, 4)),
    ):
        if mask.sum():
            report["brier"][label] = {
                "fitted": round(float(np.mean((p[mask] - y[mask]) ** 2)), 4),
                "hand_written": round(float(np.mean((old[mask] - y[mask]) ** 2)), 4),
                "fair_share": round(float(np.mean((fair[mask] - y[mask]) ** 2)), 4),
                "positions": int(mask.sum()),
            }
    report["reliability_held_out"] = reliability(p[held], y[held])
    report["reliability_held_out_hand_written"] = reliability(old[held], y[held])
    report["cpu_s"] = round(time.process_time() - started, 1)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_", nargs="+", metavar="GAME")
    parser.add_argument("--games", type=int, default=200, help="self-play games at 2 players (a third at 3 and 4)")
    parser.add_argument("--seed", type=int, default=100_000)
    parser.add_argument("--every", type=int, default=6, help="sample every N-th decision")
    parser.add_argument("--write", action="store_true", help="store the weights in bots/estimates.json")
    args = parser.parse_args(argv)
    assert bots  # the strategies register when the package is imported
    for game_id in args.games_:
        report = run(game_id, args.games, args.seed, args.every)
        print(json.dumps({game_id: report}, indent=1), flush=True)
        if args.write:
            path = estimates.COEFFICIENTS
            stored = json.loads(path.read_text()) if path.exists() else {}
            stored[game_id] = report
            path.write_text(json.dumps(stored, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
