"""A front process: SSH and browser sessions of a hall in another process (``saloon serve --workers N``).

The supervisor (:mod:`serve.supervisor`) starts ``python -m serve.front`` N times; each binds the
same SSH (and web) port with ``SO_REUSEPORT``, so the kernel spreads the connections, and reaches
the hall at ``--hall`` (``unix:PATH`` or ``tcp:HOST:PORT``) with the secret in
``DATA/hall_secret``. A front logs to stderr (the supervisor writes its lines into the saloon's
log) and stops when the hall's connection drops or on SIGTERM; the supervisor starts another.

A front on another machine runs the same command with ``--hall tcp:HOST:PORT`` and a data
directory holding copies of ``hall_secret``, ``host_key`` and ``web_secret`` (``docs/hall.md``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import ssl
import sys
from collections.abc import Sequence

__all__ = ["main", "run_front"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m serve.front", description="a Saloon front")
    parser.add_argument("--hall", required=True, help="the hall: unix:PATH or tcp:HOST:PORT")
    parser.add_argument("--data-dir", required=True, help="host key, hall secret, web secret, replays")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=2222)
    parser.add_argument("--name", default="front")
    parser.add_argument("--web", type=int, default=None, metavar="PORT")
    parser.add_argument("--web-host", default="127.0.0.1")
    parser.add_argument("--web-public-url", default=None)
    parser.add_argument("--trusted-proxy", action="append", default=[])
    parser.add_argument("--tls-ca", default=None, help="verify a tcp: hall's certificate with this CA file")
    parser.add_argument("--reuse-port", action=argparse.BooleanOptionalAction, default=True)
    return parser


async def run_front(args: argparse.Namespace) -> int:
    """Run one front until SIGTERM/SIGINT (0) or until the hall's connection drops (3)."""
    from serve.ssh_server import SaloonServer, run_server

    tls = None
    if args.tls_ca:
        tls = ssl.create_default_context(cafile=args.tls_ca)
    server = SaloonServer(
        args.data_dir, args.host, args.port, hall=args.hall, reuse_port=args.reuse_port, name=args.name, tls=tls
    )
    if args.web is not None:
        from serve.web import WebServer

        WebServer(server, args.web_host, args.web, args.web_public_url, trusted_proxies=args.trusted_proxy)
        server.web.reuse_port = args.reuse_port
    lost = asyncio.Event()

    async def watch_hall() -> None:
        while server.stopped is None:
            await asyncio.sleep(0.05)
        await server.stopped.wait()
        lost.set()
        signal.raise_signal(signal.SIGTERM)  # run_server stops the front as on SIGTERM

    watcher = asyncio.get_running_loop().create_task(watch_hall())
    try:
        await run_server(server)
    finally:
        watcher.cancel()
        with contextlib.suppress(BaseException):
            await watcher
    return 3 if lost.is_set() else 0


def main(argv: Sequence[str] | None = None) -> int:
    from serve.ssh_server import start_logging, stop_logging

    args = build_parser().parse_args(argv)
    handlers = start_logging(args.data_dir, "-")
    try:
        return asyncio.run(run_front(args))
    except OSError as exc:
        print(f"saloon front {args.name}: {exc}", file=sys.stderr)
        return 2
    finally:
        stop_logging(handlers)


if __name__ == "__main__":
    sys.exit(main())
