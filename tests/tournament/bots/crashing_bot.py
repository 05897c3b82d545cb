"""A test bot that answers two decisions, then crashes."""

import json
import sys

answered = 0
for line in sys.stdin:
    if json.loads(line)["type"] == "decide":
        if answered == 2:
            raise SystemExit(3)
        answered += 1
        print(json.dumps({"action": 0}), flush=True)
