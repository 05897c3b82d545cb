"""A test bot that floods its stderr: ``noisy_bot.py MEGABYTES``.

Before reading anything it writes ``noisy bot: start`` and then MEGABYTES MiB of ``x`` lines to
stderr as fast as it can, then answers 0 to every decision.
"""

import json
import sys

megabytes = int(sys.argv[1])
sys.stderr.write("noisy bot: start\n")
sys.stderr.flush()
line = b"x" * 1023 + b"\n"
for _ in range(megabytes):
    sys.stderr.buffer.write(line * 1024)
sys.stderr.flush()
for message in sys.stdin:
    if json.loads(message)["type"] == "decide":
        print(json.dumps({"action": 0}), flush=True)
