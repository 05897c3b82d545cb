"""One target cell of issue 24: one search bot against ``heuristic`` bots, every seed in every seat.

Run from the repository root::

    .venv/bin/python tests/bench/search_targets.py deadwood_town --players 2 --bot quick --games 200 --workers 2
    .venv/bin/python tests/bench/search_targets.py deadwood1876 --players 4 --bot pimc:ms=100 --games 200

``--games N`` games are played over ``ceil(N / players)`` seeds from ``--seed``: each seed once with
the search bot in every seat (the other seats ``--opponent``), so luck of the deal is shared out
evenly. Bots are made per game, seeded by the game's seed and the seat, so a run is a function of
its arguments (with an ``iterations`` budget; a CPU budget depends on the machine's speed). Each
game's result is appended to ``--out`` as a JSON line as it finishes (``{"seed", "seat", "won",
"share", "decisions", "cpu_ms"}``), so a long run can be read before it ends; at the end the script
prints wins, the share with its 95% Wilson interval, the fair share and the CPU milliseconds per
decision (``time.process_time`` around each decision of the search bot, in its worker process).
With ``--summarize`` it only reads ``--out`` and prints the summary.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval ``(low, high)`` of ``wins / games``, shares in ``[0, 1]``."""
    if games <= 0:
        return (0.0, 1.0)
    share = wins / games
    scale = 1 + z * z / games
    centre = (share + z * z / (2 * games)) / scale
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / scale
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_one(job: tuple[str, int, int, int, str, str]) -> dict[str, Any]:
    """One game: ``job`` is ``(game id, players, seed, the search bot's seat, search bot, opponent)``.

    Returns:
        ``{"seed", "seat", "won", "share", "decisions", "cpu_ms", "faults"}``: ``won`` whether the
        search bot is among the winners, ``share`` its share of the win (``1 / winners``), its
        decisions and CPU milliseconds in all, and its faults.
    """
    from bots import TimedBot, make_bot, play_game

    game_id, players, seed, seat, bot_spec, opponent = job
    bots = [make_bot(bot_spec if k == seat else opponent, seed * 1000 + k) for k in range(players)]
    timed = TimedBot(bots[seat])
    bots[seat] = timed
    result = play_game(game_id, players, bots, seed)
    winners = result.outcome.winners
    return {
        "seed": seed,
        "seat": seat,
        "won": seat in winners,
        "share": (1.0 / len(winners)) if seat in winners else 0.0,
        "decisions": timed.decisions,
        "cpu_ms": round(timed.cpu * 1000, 1),
        "faults": result.faults[seat],
    }


def summarize(rows: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """Wins, share, 95% Wilson interval (percent), fair share and CPU ms per decision of ``rows``."""
    games = len(rows)
    wins = sum(1 for row in rows if row["won"])
    low, high = wilson(wins, games)
    decisions = sum(row["decisions"] for row in rows)
    cpu = sum(row["cpu_ms"] for row in rows)
    return {
        "games": games,
        "wins": wins,
        "win_pct": round(100 * wins / games, 1) if games else 0.0,
        "interval_pct": (round(100 * low, 1), round(100 * high, 1)),
        "fair_pct": round(100 / players, 1),
        "cpu_ms_per_decision": round(cpu / decisions, 1) if decisions else 0.0,
        "faults": sum(row.get("faults", 0) for row in rows),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot", default="quick", help="the search bot (a bots.make_bot name)")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--games", type=int, default=200, help="games in all (rounded up to whole seeds)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, help="JSON lines, one per game (default: no file)")
    parser.add_argument("--summarize", action="store_true", help="only summarize --out")
    args = parser.parse_args(argv)
    if args.summarize:
        rows = [json.loads(line) for line in args.out.read_text().splitlines() if line.strip()]
        print(json.dumps(summarize(rows, args.players)))
        return 0
    seeds = math.ceil(args.games / args.players)
    jobs = [
        (args.game, args.players, args.seed + i, seat, args.bot, args.opponent)
        for i in range(seeds)
        for seat in range(args.players)
    ]
    out = args.out.open("a") if args.out else None
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max(1, args.workers), mp_context=context) as pool:
        futures = [pool.submit(play_one, job) for job in jobs]
        for future in as_completed(futures):
            row = future.result()
            rows.append(row)
            if out is not None:
                out.write(json.dumps(row) + "\n")
                out.flush()
            if len(rows) % 10 == 0:
                print(f"{len(rows)}/{len(jobs)} {json.dumps(summarize(rows, args.players))}", flush=True)
    summary = summarize(rows, args.players)
    summary.update(
        game=args.game,
        players=args.players,
        bot=args.bot,
        opponent=args.opponent,
        seeds=f"{args.seed}..{args.seed + seeds - 1}",
        wall_s=round(time.perf_counter() - started),
    )
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
