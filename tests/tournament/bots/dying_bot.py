"""A test bot that dies while a child keeps its stdout open: ``dying_bot.py MODE PIDFILE``.

At its first decision it forks a child that sleeps for a minute (holding the bot's stdout, so the
server sees no end of file), writes the child's pid to PIDFILE, waits 0.1 s and then, by MODE:
``exit`` exits with code 3, ``signal`` kills itself with SIGKILL, ``sleep`` sleeps for a minute.
"""

import json
import os
import signal
import sys
import time

mode, pidfile = sys.argv[1], sys.argv[2]
for line in sys.stdin:
    if json.loads(line)["type"] == "decide":
        child = os.fork()
        if child == 0:
            time.sleep(60)
            os._exit(0)
        with open(pidfile, "w") as file:
            file.write(f"{child}\n")
        time.sleep(0.1)
        if mode == "exit":
            os._exit(3)
        elif mode == "signal":
            os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(60)
