"""A test bot that prints garbage instead of replies.

``garbage_bot.py KIND`` always prints one kind of garbage; without KIND it varies with the decision.
"""

import json
import sys
import zlib

REPLIES = {
    "prose": "hello there",
    "range": '{"action": 999}',
    "float": '{"action": 1.5}',
    "huge": "x" * 100_000,
    "key": '{"move": 0}',
}
kind = sys.argv[1] if len(sys.argv) > 1 else None
for line in sys.stdin:
    if json.loads(line)["type"] == "decide":
        reply = REPLIES[kind] if kind else list(REPLIES.values())[zlib.crc32(line.encode()) % len(REPLIES)]
        print(reply, flush=True)
