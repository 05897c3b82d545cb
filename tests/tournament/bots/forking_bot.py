"""A fork bomb, tamed for tests: ``forking_bot.py COUNT PIDFILE REPORT``.

At its first decision it tries to fork COUNT children that sleep for a minute, appends the pids
it got to PIDFILE, writes ``{"forked": N, "failed": M}`` to REPORT and answers 0.
"""

import json
import os
import sys
import time

count, pidfile, report = int(sys.argv[1]), sys.argv[2], sys.argv[3]
done = False
for line in sys.stdin:
    if json.loads(line)["type"] == "decide":
        if not done:
            pids, failed = [], 0
            for _ in range(count):
                try:
                    pid = os.fork()
                except OSError:
                    failed += 1
                    continue
                if pid == 0:
                    time.sleep(60)
                    os._exit(0)
                pids.append(pid)
            with open(pidfile, "a") as file:
                file.write("".join(f"{pid}\n" for pid in pids))
            with open(report, "w") as file:
                json.dump({"forked": len(pids), "failed": failed}, file)
            done = True
        print(json.dumps({"action": 0}), flush=True)
