#!/usr/bin/env python3
"""A starter bot for Saloon, in plain Python (standard library only).

It speaks the JSON-lines bot protocol (docs/bot-protocol.md) on stdin/stdout:

    start  -> remember the game and seat
    decide -> answer {"action": INDEX}, an index into "legal"
    end    -> the game is over (the process may exit or wait for the next "start")

It chooses pseudo-randomly but deterministically: the choice is a hash of the decision it is
asked, so the same game always gets the same moves and tournaments reproduce exactly. Replace
``choose`` with your own strategy. Log to stderr, never to stdout: anything on stdout that is not
a reply is a fault.

Run it in a tournament with ``cmd:python3 examples/bots/starter_bot.py``.
"""

from __future__ import annotations

import json
import sys
import zlib


def choose(view: dict, legal: list[dict], seat: int, line: str) -> int:
    """The index of the action to play. ``legal`` holds actions like {"type": "discard", "card": 7}."""
    # An example rule: never pick a "pass" if anything else is legal.
    candidates = [i for i, action in enumerate(legal) if action.get("type") != "pass"] or list(range(len(legal)))
    return candidates[zlib.crc32(line.encode()) % len(candidates)]


def main() -> None:
    game, seat = None, None
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "start":
            game, seat = message["game"], message["seat"]
            print(f"starter bot: playing {game} at seat {seat}", file=sys.stderr)
        elif kind == "decide":
            index = choose(message["view"], message["legal"], message["seat"], line)
            sys.stdout.write(json.dumps({"action": index}) + "\n")
            sys.stdout.flush()
        elif kind == "end":
            print(f"starter bot: ranks {message['outcome']['ranks']}", file=sys.stderr)


if __name__ == "__main__":
    main()
