"""A test bot that tries to allocate 4 GB before its first answer."""

import json
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "decide":
        hog = bytearray(4 * 1024**3)
        print(json.dumps({"action": 0}), flush=True)
