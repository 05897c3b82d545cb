"""A test bot that writes its resource limits and marker to a file: ``limits_bot.py REPORT``.

At its first decision it writes ``{"nproc": [soft, hard], "cpu": [...], "as": [...], "core":
[...], "token": "..."}`` to REPORT, then answers 0 to every decision.
"""

import json
import os
import resource
import sys

report = sys.argv[1]
for line in sys.stdin:
    if json.loads(line)["type"] == "decide":
        if not os.path.exists(report):
            limits = {
                name: list(resource.getrlimit(kind))
                for name, kind in [
                    ("nproc", resource.RLIMIT_NPROC),
                    ("cpu", resource.RLIMIT_CPU),
                    ("as", resource.RLIMIT_AS),
                    ("core", resource.RLIMIT_CORE),
                ]
            }
            limits["token"] = os.environ.get("SALOON_BOT_TOKEN", "")
            with open(report, "w") as file:
                json.dump(limits, file)
        print(json.dumps({"action": 0}), flush=True)
