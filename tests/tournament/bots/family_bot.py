"""A test bot that leaves children behind: ``family_bot.py MODE PIDFILE [fault]``.

At its first decision it starts children that sleep for a minute, appends their pids to PIDFILE
(one a line) and answers 0 (or, with ``fault``, answers nonsense). MODE says how the children try
to outlive it:

* ``plain``: a forked child, in the bot's process group;
* ``setsid``: a forked child that calls ``setsid()`` (a session and group of its own);
* ``daemon``: a double fork with ``setsid()`` in between: the grandchild's parent has exited, so
  it is re-parented to init and nothing links it to the bot but its environment;
* ``orphan``: a ``setsid()`` child, and then the bot itself exits after answering.
"""

import json
import os
import sys
import time

mode, pidfile = sys.argv[1], sys.argv[2]
fault = sys.argv[3:] == ["fault"]


def record(pid: int) -> None:
    fd = os.open(pidfile, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.write(fd, f"{pid}\n".encode())
    os.close(fd)


def sleeper(setsid: bool) -> None:
    """Fork a child that (after ``setsid()``, if asked) records its pid and sleeps for a minute."""
    if os.fork() == 0:
        if setsid:
            os.setsid()
        record(os.getpid())
        time.sleep(60)
        os._exit(0)


def start_children() -> None:
    if mode in ("plain", "setsid", "orphan"):
        sleeper(setsid=mode != "plain")
    elif mode == "daemon":
        middle = os.fork()
        if middle == 0:
            os.setsid()
            sleeper(setsid=False)
            os._exit(0)
        os.waitpid(middle, 0)
    else:
        raise SystemExit(f"unknown mode {mode!r}")
    # Answer only once the child is in place (has left the session, if it does).
    while not os.path.exists(pidfile) or not open(pidfile).read().endswith("\n"):
        time.sleep(0.01)


started = False
for line in sys.stdin:
    if json.loads(line)["type"] == "decide":
        if not started:
            start_children()
            started = True
        print("nonsense" if fault else json.dumps({"action": 0}), flush=True)
        if mode == "orphan":
            raise SystemExit(0)
