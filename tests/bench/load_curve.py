"""Keystroke p95 against sessions for 1 and 2 fronts (a script, not a timed test): issue 35's capacity curve.

    python tests/bench/load_curve.py [--workers 1,2] [--sessions 50,100,150,200,300] [--tables 10]
                                     [--web-share 0.5] [--seconds 30] [--rate 1.0] [--bots random]
                                     [--target-ms 100] [--out load_curve.json] [--plot-width 100]

Runs ``tests/bench/ssh_load.py --workers W --sessions S --tables T --web-share X --seconds D
--rate R --bots B`` once per point, each in a process of its own after the previous one ended
(each point starts its own ``saloon serve --workers W`` on free ports with a fresh data directory:
see that script's docstring for what it starts and measures). Sizes go from small to large, and at
each size every ``--workers`` value runs before the next size, so the series are measured
interleaved, back to back.

Writes (``--out``, JSON): the settings; each point (workers, sessions, keystrokes, p50/p95/p99/max
in ms, timeouts, the server tree's CPU share, RSS and PSS at the end, this client's CPU share, or
the error if the run failed); per worker count, the capacity: the most sessions measured whose
p95 held ``--target-ms`` with no timeouts (counting up from the smallest size, stopping at the
first that did not), and the size where p95 crosses the target, interpolated linearly between
the last point that held and the first that did not (``null`` when none held; when all held,
``beyond_range`` and the largest size); and the ratio of the capacities of the largest and
smallest worker counts (issue 35's target: 2 fronts >= 1.7 x 1).

Prints the JSON's summary and a text plot (plotext, no colour: paste it into the docs) of p95
against sessions, one series per worker count (its marker in the legend below), the target as a
horizontal line; the plot is in the JSON too (``plot``). A point that failed is left out of the
plot. ``--replot FILE`` draws the plot and capacities again from a JSON written before.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOAD = ROOT / "tests" / "bench" / "ssh_load.py"

MARKERS = ("●", "▲", "■", "◆", "x", "+")
"""Each worker count's marker in the plot, in the order of ``--workers``."""


def run_point(args: argparse.Namespace, workers: int, sessions: int) -> dict[str, object]:
    """One run of ssh_load.py; its point (or the error, if it failed)."""
    command = [
        sys.executable,
        str(LOAD),
        "--workers", str(workers),
        "--sessions", str(sessions),
        "--tables", str(args.tables),
        "--web-share", str(args.web_share),
        "--seconds", str(args.seconds),
        "--rate", str(args.rate),
        "--bots", args.bots,
    ]  # fmt: skip
    started = time.monotonic()
    print(f"load_curve: {workers} worker(s), {sessions} sessions ...", file=sys.stderr, flush=True)
    done = subprocess.run(command, cwd=str(ROOT), capture_output=True, text=True)
    for line in done.stderr.splitlines()[-20:]:  # what the run said (tries again, a traceback), at most 20 lines
        print(f"load_curve:   | {line}", file=sys.stderr)
    point: dict[str, object] = {"workers": workers, "sessions": sessions, "run_s": round(time.monotonic() - started)}
    if done.returncode != 0:
        point["error"] = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        print(f"load_curve:   failed: {point['error']}", file=sys.stderr, flush=True)
        return point
    report = json.loads(done.stdout)
    for field in (
        "tables_started",
        "keystrokes",
        "p50_ms",
        "p95_ms",
        "p99_ms",
        "max_ms",
        "timeouts",
        "tree_cpu_share",
        "server_cpu_share",
        "fronts_cpu_share",
        "client_cpu_share",
        "rss_peak_mb",
        "pss_peak_mb",
        "connect_all_s",
    ):
        point[field] = report.get(field)
    for transport in ("ssh", "web"):
        if isinstance(report.get(transport), dict):
            point[f"{transport}_p95_ms"] = report[transport]["p95_ms"]
    print(
        f"load_curve:   p95 {point['p95_ms']} ms, p99 {point['p99_ms']} ms, timeouts {point['timeouts']}, "
        f"tree CPU {point['tree_cpu_share']}, client CPU {point['client_cpu_share']} ({point['run_s']} s)",
        file=sys.stderr,
        flush=True,
    )
    return point


def holds(point: dict[str, object], target_ms: float) -> bool:
    """Whether a point held the target: it ran, with p95 <= target and no timeouts."""
    return "error" not in point and float(point["p95_ms"]) <= target_ms and point["timeouts"] == 0  # type: ignore[arg-type]


def capacity(points: list[dict[str, object]], target_ms: float) -> dict[str, object]:
    """The capacity of one worker count (see the module docstring) from its points."""
    ordered = sorted(points, key=lambda p: int(p["sessions"]))  # type: ignore[call-overload]
    held: dict[str, object] | None = None
    for point in ordered:
        if not holds(point, target_ms):
            break
        held = point
    else:
        top = int(ordered[-1]["sessions"]) if ordered else 0  # type: ignore[call-overload]
        return {"held_at_most": top, "interpolated": top, "beyond_range": True}
    if held is None:
        return {"held_at_most": None, "interpolated": None, "beyond_range": False}
    failed = ordered[ordered.index(held) + 1]
    s0, s1 = int(held["sessions"]), int(failed["sessions"])  # type: ignore[call-overload]
    crossing: float = s0
    if "error" not in failed and failed["timeouts"] == 0:
        p0, p1 = float(held["p95_ms"]), float(failed["p95_ms"])  # type: ignore[arg-type]
        if p1 > p0:
            crossing = s0 + (target_ms - p0) / (p1 - p0) * (s1 - s0)
    return {"held_at_most": s0, "interpolated": round(crossing), "beyond_range": False}


def plot(
    points: list[dict[str, object]],
    workers: list[int],
    target_ms: float,
    width: int,
    height: int,
    ymax: float | None = None,
) -> str:
    """p95 against sessions, one series per worker count, the target as a line: plotext, no colour;
    the y axis from 0 to the highest p95 (at most ``ymax``)."""
    import plotext as plt

    plt.clear_figure()
    plt.limitsize(False, False)  # the size asked for, whatever the terminal's (or none)
    plt.plotsize(width, height)
    plt.theme("clear")
    legend = []
    xs_all: list[int] = []
    for i, w in enumerate(workers):
        series = sorted(
            (int(p["sessions"]), float(p["p95_ms"]))  # type: ignore[call-overload, arg-type]
            for p in points
            if p["workers"] == w and "error" not in p
        )
        if not series:
            continue
        marker = MARKERS[i % len(MARKERS)]
        plt.plot([x for x, _ in series], [y for _, y in series], marker=marker)
        xs_all += [x for x, _ in series]
        legend.append(f"{marker} {w} worker{'s' * (w != 1)}")
    if xs_all:
        plt.hline(target_ms)
        plt.xticks(sorted(set(xs_all)))
        top = max([target_ms] + [float(p["p95_ms"]) for p in points if "error" not in p])  # type: ignore[arg-type]
        top = top if ymax is None else min(top, ymax)
        plt.ylim(0, top)
        step = next((s for s in (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000) if top / s <= 8), 10_000)
        plt.yticks([step * i for i in range(int(top // step) + 1)])
    plt.title(f"keystroke p95 (ms) against sessions; the line: {target_ms:g} ms")
    plt.xlabel("sessions")
    text: str = plt.uncolorize(plt.build())
    plt.clear_figure()
    return text.rstrip("\n") + "\nlegend: " + "   ".join(legend)


def summary(result: dict[str, object], args: argparse.Namespace) -> dict[str, object]:
    """Add the capacities, their ratio and the plot to ``result`` (its ``settings`` and ``points``)."""
    settings = result["settings"]
    workers: list[int] = settings["workers"]  # type: ignore[index]
    target = float(settings["target_ms"])  # type: ignore[index]
    points: list[dict[str, object]] = result["points"]  # type: ignore[assignment]
    capacities = {str(w): capacity([p for p in points if p["workers"] == w], target) for w in workers}
    result["capacity"] = capacities
    low, high = capacities[str(min(workers))], capacities[str(max(workers))]
    ratio = None
    if low["interpolated"] and high["interpolated"]:
        ratio = round(float(high["interpolated"]) / float(low["interpolated"]), 2)  # type: ignore[arg-type]
    result["capacity_ratio"] = ratio
    result["plot"] = plot(points, workers, target, args.plot_width, args.plot_height, args.plot_ymax)
    return result


def main(args: argparse.Namespace) -> dict[str, object]:
    if args.replot:
        return summary(json.loads(Path(args.replot).read_text()), args)
    workers = [int(w) for w in args.workers.split(",")]
    sizes = sorted(int(s) for s in args.sessions.split(","))
    result: dict[str, object] = {
        "settings": {
            "workers": workers,
            "sessions": sizes,
            "tables": args.tables,
            "web_share": args.web_share,
            "seconds": args.seconds,
            "rate": args.rate,
            "bots": args.bots,
            "target_ms": args.target_ms,
            "started": time.strftime("%Y-%m-%d %H:%M:%S"),
        },
        "points": [],
    }
    points: list[dict[str, object]] = result["points"]  # type: ignore[assignment]
    for size in sizes:
        for w in workers:
            points.append(run_point(args, w, size))
            Path(args.out).write_text(json.dumps(result, indent=1))  # what was measured so far
            time.sleep(args.pause)
    summary(result, args)
    Path(args.out).write_text(json.dumps(result, indent=1))
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="1,2", help="worker counts, commas between (default 1,2)")
    parser.add_argument("--sessions", default="50,100,150,200,300", help="sizes, commas between")
    parser.add_argument("--tables", type=int, default=10, help="watched tables of bots (default 10)")
    parser.add_argument("--web-share", type=float, default=0.5, help="share of browser sessions (default 0.5)")
    parser.add_argument("--seconds", type=float, default=30, help="each point's measurement (default 30)")
    parser.add_argument("--rate", type=float, default=1.0, help="keystrokes per second per typist (default 1)")
    parser.add_argument("--bots", default="random", help="the tables' bots (default random)")
    parser.add_argument("--target-ms", type=float, default=100.0, help="the p95 to hold (default 100)")
    parser.add_argument("--pause", type=float, default=5.0, help="seconds between two points (default 5)")
    parser.add_argument("--out", default="load_curve.json", help="where the JSON goes (default ./load_curve.json)")
    parser.add_argument("--plot-width", type=int, default=100)
    parser.add_argument("--plot-height", type=int, default=22)
    parser.add_argument("--plot-ymax", type=float, default=None, help="cut the plot's y axis here (ms)")
    parser.add_argument("--replot", metavar="FILE", help="no runs: the capacities and plot of a JSON written before")
    result = main(parser.parse_args())
    print(json.dumps({k: v for k, v in result.items() if k != "plot"}, indent=1))
    print(result["plot"])
