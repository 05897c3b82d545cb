"""Where a search bot overrules the heuristic, which move was better? A check of a search's choices.

Run from the repository root::

    .venv/bin/python tests/bench/overrule_quality.py deadwood_studios --bot pimc:iterations=6,depth=20,z=1 \
        --seeds 0 4 --playouts 60

Plays 2-player games of ``--bot`` against ``heuristic`` (seed ``s`` with the search bot in seat
``s % 2``). At each decision where the search bot's move differs from a fresh ``heuristic`` bot's
move on the same view, both moves are scored by ``--playouts`` paired full playouts from fresh
determinizations (``resample`` of the live state for the bot's seat; the heuristic plays every
seat to the end; the score is the seat's share of the win) and one JSON line is printed:
``{"seed", "decision", "search", "heuristic", "diff", "se"}`` (``diff``: the mean of the
search's move's score less the heuristic's, ``se`` its standard error). The last line totals the
overrules: their count, the mean ``diff`` and its standard error. A search that helps has a mean
above 0; one that overrules on noise or on a biased cut-off estimate has a mean at or below it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _full_playout(state, seat: int, bot) -> float:  # type: ignore[no-untyped-def]
    """Play ``state`` (consumed) to the end with ``bot`` for every seat: ``seat``'s share of the win."""
    while not state.is_over:
        mover = state.to_act[0]
        legal = state.legal_actions(mover)
        state.apply(mover, legal[0] if len(legal) == 1 else bot.act(state.view(mover), legal, mover))
    winners = state.outcome.winners
    return 1.0 / len(winners) if seat in winners else 0.0


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv``, play the games and print one JSON line per overrule, then the totals."""
    import engine
    from bots import make_bot
    from bots.heuristic import HeuristicBot

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--bot", required=True, help="the search bot, e.g. pimc:iterations=6,depth=20")
    parser.add_argument("--seeds", type=int, nargs=2, default=(0, 4), metavar=("FROM", "TO"))
    parser.add_argument("--playouts", type=int, default=60, help="paired playouts per overrule")
    args = parser.parse_args(argv)
    game = engine.game(args.game)
    judge = HeuristicBot(5)
    diffs: list[float] = []
    for seed in range(*args.seeds):
        me = seed % 2
        bots = [make_bot(args.bot if k == me else "heuristic", seed * 1000 + k) for k in range(2)]
        state = game.new_game(2, seed)
        decision = 0
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            view = state.view(seat)
            if seat != me or len(legal) == 1:
                state.apply(seat, bots[seat].act(view, legal, seat))
                continue
            home = HeuristicBot(seed).act(view, legal, seat)
            action = bots[seat].act_with_sampler(view, legal, seat, lambda k, s=state, t=seat: s.resample(t, k))
            if action != home:
                rng = random.Random(decision)
                pairs = []
                for _ in range(args.playouts):
                    draw = state.resample(seat, rng.getrandbits(64))
                    other = draw.clone()
                    draw.apply(seat, action)
                    other.apply(seat, home)
                    pairs.append(_full_playout(draw, seat, judge) - _full_playout(other, seat, judge))
                mean = statistics.fmean(pairs)
                diffs.append(mean)
                row = {
                    "seed": seed,
                    "decision": decision,
                    "search": game.describe(action, view),
                    "heuristic": game.describe(home, view),
                    "diff": round(mean, 3),
                    "se": round(statistics.stdev(pairs) / len(pairs) ** 0.5, 3),
                }
                print(json.dumps(row), flush=True)
            decision += 1
            state.apply(seat, action)
    if diffs:
        se = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
        print(json.dumps({"overrules": len(diffs), "mean_diff": round(statistics.fmean(diffs), 4), "se": round(se, 4)}))
    else:
        print(json.dumps({"overrules": 0}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
