"""A test bot that answers one decision, then never answers again."""

import json
import sys
import time

answered = 0
for line in sys.stdin:
    if json.loads(line)["type"] == "decide":
        if answered >= 1:
            time.sleep(3600)
        answered += 1
        print(json.dumps({"action": 0}), flush=True)
