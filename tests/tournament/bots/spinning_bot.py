"""A test bot that computes forever at its first decision (to meet its CPU-time limit)."""

import json
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "decide":
        while True:
            pass
