#!/usr/bin/env python3
"""A starter bot for Saloon, in plain Python (standard library only).

It speaks the JSON-lines bot protocol (docs/bot-protocol.md):

    start  -> remember the game and seat
    decide -> answer {"action": INDEX}, an index into "legal"
    end    -> the game is over (the process may exit or wait for the next "start")

It chooses pseudo-randomly but deterministically: the choice is a hash of the decision it is
asked, so the same game always gets the same moves and tournaments reproduce exactly. Replace
``choose`` with your own strategy. Log to stderr, never to stdout: anything on stdout that is not
a reply is a fault.

Two ways to run it:

* on stdin/stdout, started by Saloon: ``cmd:python3 examples/bots/starter_bot.py`` as a bot of
  ``saloon simulate``, ``saloon play`` or a tournament;
* over SSH, at a table of a Saloon server: ``python3 examples/bots/starter_bot.py --ssh
  NAME@HOST:PORT [--table CODE] [--seat N] [--game GAME]``. The bot runs ``ssh -T -p PORT NAME@HOST
  bot ...`` itself and speaks the protocol over that process's stdin/stdout (no FIFO needed).
  ``--identity FILE`` and ``--ssh-option OPTION`` (repeatable) are passed to ssh as ``-i`` and
  ``-o``. The exit code is ssh's (the server's): 0 after a finished game.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import zlib
from collections.abc import Callable, Iterable, Sequence

DEFAULT_PORT = 2222
"""The port of ``saloon serve`` when ``--ssh`` names none."""


def choose(view: dict, legal: list[dict], seat: int, line: str) -> int:
    """The index of the action to play. ``legal`` holds actions like {"type": "robbery", "card": 7, ...}."""
    # An example rule: rob a Safe (a "robbery" action) whenever one is legal.
    candidates = [i for i, action in enumerate(legal) if action.get("type") == "robbery"] or list(range(len(legal)))
    return candidates[zlib.crc32(line.encode()) % len(candidates)]


def play(lines: Iterable[str], send: Callable[[str], None]) -> None:
    """Answer the server's messages (``lines``, one JSON object each) until they end.

    ``send`` writes one reply line (it must flush).
    """
    for line in lines:
        message = json.loads(line)
        kind = message["type"]
        if kind == "start":
            print(f"starter bot: playing {message['game']} at seat {message['seat']}", file=sys.stderr)
        elif kind == "decide":
            index = choose(message["view"], message["legal"], message["seat"], line)
            send(json.dumps({"action": index}) + "\n")
        elif kind == "end":
            print(f"starter bot: ranks {message['outcome']['ranks']}", file=sys.stderr)


def ssh_command(target: str, table: str | None, seat: int | None, game: str | None, extra: Sequence[str]) -> list[str]:
    """The ssh command line for ``--ssh NAME@HOST[:PORT]`` (``ValueError`` for a bad target)."""
    name, at, address = target.partition("@")
    if not at or not name or not address:
        raise ValueError(f"--ssh {target!r}: expected NAME@HOST:PORT")
    host, port = address, str(DEFAULT_PORT)
    if address.startswith("["):  # [IPv6]:PORT
        host, _, rest = address[1:].partition("]")
        if rest:
            port = rest.removeprefix(":")
    elif address.count(":") == 1:
        host, port = address.split(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--ssh {target!r}: expected NAME@HOST:PORT with a port from 1 to 65535")
    command = [shutil.which("ssh") or "ssh", "-T", "-p", port, *extra, f"{name}@{host}", "bot"]
    if table is not None:
        command += ["--table", table]
    if seat is not None:
        command += ["--seat", str(seat)]
    if game is not None:
        command += ["--game", game]
    return command


def play_over_ssh(command: list[str]) -> int:
    """Run ``command`` (ssh) and play over its stdin/stdout; ssh's stderr stays this process's.

    Returns:
        ssh's exit code (127 if ssh cannot be started).
    """
    try:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    except OSError as exc:
        print(f"starter bot: cannot run {command[0]}: {exc}", file=sys.stderr)
        return 127
    assert process.stdin is not None and process.stdout is not None

    def send(reply: str) -> None:
        process.stdin.write(reply)
        process.stdin.flush()

    try:
        play(process.stdout, send)
    except BrokenPipeError:  # the server closed the session; ssh's exit code says why
        pass
    finally:
        process.stdin.close()
    return process.wait()


def main(argv: Sequence[str] | None = None) -> int:
    """Play on stdin/stdout, or over SSH with ``--ssh``; returns the exit code (2 for bad arguments)."""
    parser = argparse.ArgumentParser(description="A starter bot for Saloon (docs/bot-protocol.md).")
    parser.add_argument("--ssh", metavar="NAME@HOST:PORT", help="connect to a Saloon server and play there")
    parser.add_argument("--table", metavar="CODE", help="with --ssh: the table to sit at (default: any free seat)")
    parser.add_argument("--seat", type=int, metavar="N", help="with --ssh and --table: the seat (0-based)")
    parser.add_argument("--game", metavar="GAME", help="with --ssh, no --table: wait for a table of this game")
    parser.add_argument("--identity", metavar="FILE", help="with --ssh: the private key (ssh -i FILE)")
    parser.add_argument(
        "--ssh-option", action="append", default=[], metavar="OPTION", help="with --ssh: ssh -o OPTION (repeatable)"
    )
    args = parser.parse_args(argv)
    if args.ssh is None:
        if args.table or args.seat is not None or args.game or args.identity or args.ssh_option:
            parser.error("--table, --seat, --game, --identity and --ssh-option need --ssh")

        def send(reply: str) -> None:
            sys.stdout.write(reply)
            sys.stdout.flush()

        play(sys.stdin, send)
        return 0
    if args.seat is not None and args.table is None:
        parser.error("--seat needs --table")
    extra = ["-i", args.identity] if args.identity else []
    for option in args.ssh_option:
        extra += ["-o", option]
    try:
        command = ssh_command(args.ssh, args.table, args.seat, args.game, extra)
    except ValueError as exc:
        parser.error(str(exc))
    return play_over_ssh(command)


if __name__ == "__main__":
    sys.exit(main())
