"""Load benchmark of both transports at once (a script, not a timed test): SSH and browser sessions.

    python tests/bench/web_load.py [--workers N] [--sessions 100] [--web-share 0.5] [--seconds 20] [--rate 1.0]

Starts the server on 127.0.0.1 (free ports, a temporary data directory) as
:class:`tests.bench.ssh_load.BenchServer` does: with ``--workers N``, the real thing, ``python -m
saloon serve --port 0 --web 0 --workers N --data-dir TMP --house-bot none --bot-delay 0.5 --log-file
-`` with its own connection limits, every session connecting from its own loopback address
(127.10.x.y); without, the old one-process script (:func:`serve.ssh_server.run_server`, the SSH
server and its browser page, generous limits). Connects ``--sessions`` sessions in waves of ten:
``--web-share`` of them websockets speaking textual.js's protocol (aiohttp's client, each signed in
with its own one-time link from ``ssh ... web``), the rest asyncssh clients with a PTY; all 120x40,
in the lobby, typing into the chat line.

Three measurements of ``--seconds`` each: only the SSH sessions type, only the browser sessions
type, then all of them. Reports (JSON), per transport:

* keystroke-to-screen latency (p50, p95, p99, max) in the mixed phase: from sending a key to
  receiving the first screen update that contains the typed character; timeouts (none within 5 s);
* memory per session: the growth of the server's RSS (summed over its process tree: the hall or
  supervisor and every front) while that transport's sessions connected;
* server CPU per keystroke (the whole tree's CPU seconds; each keystroke is one redraw of the
  typist's chat line) in the phase where only that transport typed, and the ratio web / SSH of
  both costs.

Also the tree's CPU share in the mixed phase, and the tree's RSS and PSS before and with every
session open.

Issue 25's target: a websocket session costs no more memory or CPU per redraw than an SSH one,
within 20%.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.ssh_load import (  # noqa: E402
    BenchServer,
    Typist,
    make_sessions,
    open_sessions,
    quantiles,
    raise_open_files,
)


async def _type(sessions: list[Typist], seconds: float, rate: float) -> int:
    """Every session types a letter every ~1/rate s for ``seconds``; returns the keystrokes answered."""
    end = time.monotonic() + seconds
    for s in sessions:
        s.forget()

    async def typist(s: Typist) -> None:
        letters = "abcdefghijklmnopqrstuvwxyz"
        i = random.randrange(26)
        await asyncio.sleep(random.random() / rate)
        while time.monotonic() < end:
            await s.key(letters[i % 26])
            i += 1
            await asyncio.sleep(random.uniform(0.5, 1.5) / rate)

    await asyncio.gather(*(typist(s) for s in sessions))
    return sum(len(s.latencies) for s in sessions)


def _tree_cpu_s(server: BenchServer) -> float:
    return sum(cpu for _role, cpu in server.cpu().values())


async def main(args: argparse.Namespace) -> dict[str, object]:
    raise_open_files()
    data = Path(tempfile.mkdtemp(prefix="saloon-bench-"))
    server = await BenchServer.start(data, args.workers, web=True)
    opened: list[Typist] = []
    try:
        ssh_sessions, web_sessions = make_sessions(server, "s", args.sessions, args.web_share, 0)
        n_ssh, n_web = len(ssh_sessions), len(web_sessions)
        await asyncio.sleep(0.5)
        base = server.memory()
        await open_sessions(ssh_sessions, opened)  # type: ignore[arg-type]
        await asyncio.sleep(3)  # the collector's freeze after the last start
        after_ssh = server.memory()
        await open_sessions(web_sessions, opened)  # type: ignore[arg-type]
        await asyncio.sleep(3)
        after_web = server.memory()
        for s in opened:
            s.write(b"c")  # into the chat line
        await asyncio.sleep(2)

        cpu_per_key: dict[str, float] = {}
        for name, group in (("ssh", ssh_sessions), ("web", web_sessions)):
            if not group:
                continue
            cpu0 = _tree_cpu_s(server)
            keys = await _type(group, args.seconds, args.rate)  # type: ignore[arg-type]
            cpu_per_key[name] = (_tree_cpu_s(server) - cpu0) / max(1, keys) * 1000
        cpu0 = _tree_cpu_s(server)
        t0 = time.monotonic()
        await asyncio.gather(
            _type(ssh_sessions, args.seconds, args.rate),  # type: ignore[arg-type]
            _type(web_sessions, args.seconds, args.rate),  # type: ignore[arg-type]
        )
        mixed_cpu = (_tree_cpu_s(server) - cpu0) / (time.monotonic() - t0)
        ssh_mb = (after_ssh["rss_mb"] - base["rss_mb"]) / n_ssh if n_ssh else 0.0
        web_mb = (after_web["rss_mb"] - after_ssh["rss_mb"]) / n_web if n_web else 0.0
        loaded = server.memory()
        result: dict[str, object] = {
            "server": "one-process script" if args.workers is None else f"saloon serve --workers {args.workers}",
            "server_processes": loaded["processes"],
            "sessions": args.sessions,
            "ssh": {
                "sessions": n_ssh,
                **quantiles([x for s in ssh_sessions for x in s.latencies]),
                "timeouts": sum(s.errors for s in ssh_sessions),
                "mb_per_session": round(ssh_mb, 2),
                "server_cpu_ms_per_keystroke": round(cpu_per_key.get("ssh", 0.0), 2),
            },
            "web": {
                "sessions": n_web,
                **quantiles([x for s in web_sessions for x in s.latencies]),
                "timeouts": sum(s.errors for s in web_sessions),
                "mb_per_session": round(web_mb, 2),
                "server_cpu_ms_per_keystroke": round(cpu_per_key.get("web", 0.0), 2),
            },
            "web_over_ssh": {
                "memory": round(web_mb / ssh_mb, 2) if ssh_mb > 0 else None,
                "cpu_per_keystroke": round(cpu_per_key["web"] / cpu_per_key["ssh"], 2)
                if cpu_per_key.get("ssh") and cpu_per_key.get("web")
                else None,
            },
            "rss_base_mb": base["rss_mb"],
            "rss_loaded_mb": loaded["rss_mb"],
            "pss_base_mb": base["pss_mb"],
            "pss_loaded_mb": loaded["pss_mb"],
            "server_cpu_share_mixed": round(mixed_cpu, 2),
        }
        return result
    finally:
        for s in opened:
            await s.close()
        await server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="run `saloon serve --workers N` (1: one process); default: the old one-process script",
    )
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--web-share", type=float, default=0.5, help="the share of browser sessions (0..1)")
    parser.add_argument("--seconds", type=float, default=20, help="each of the three measurements")
    parser.add_argument("--rate", type=float, default=1.0, help="keystrokes per second per session")
    print(json.dumps(asyncio.run(main(parser.parse_args())), indent=2))
