"""Regenerate the SVG screenshots in ``docs/screens/``: every game at its opening, a mid-game
position and its end, at 80x24, 100x32 and 200x60.

The positions are the ones ``tests/tui/test_small_screens.py`` checks: a local table of four
(you in seat 0, three heuristic bots), the same seed per game, your moves picked at random from
the same seeded generator; bots at instant speed. Each screenshot is Textual's own
(:meth:`textual.app.App.save_screenshot`), named ``GAME-POSITION-WxH.svg``; the game's end shows
the table after the result box (``Esc``), and ``GAME-result-80x24.svg`` the result box itself.

Usage::

    .venv/bin/python tests/bench/screenshots.py            # all of them, into docs/screens/
    .venv/bin/python tests/bench/screenshots.py --games wyatt_earp --sizes 80x24
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "tui"))

from tui_helpers import advance, my_turn_or_over, play_screen, table_app, wait_until  # noqa: E402

from tui.widgets import ResultScreen  # noqa: E402

GAMES = {"deadwood1876": (5, 12), "wyatt_earp": (3, 8), "deadwood_studios": (8, 14), "deadwood_town": (4, 8)}
"""Per game: the seed and the person's decisions from the opening to the mid-game position (as
in ``tests/tui/test_small_screens.py``)."""

SIZES = [(80, 24), (100, 32), (200, 60)]


async def shoot(game_id: str, sizes: list[tuple[int, int]], out: Path) -> list[Path]:
    """Save the screenshots of ``game_id`` at ``sizes`` in ``out``; returns the files written."""
    seed, mid = GAMES[game_id]
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as replays:
        app = table_app(game_id, 4, 0, "heuristic", seed, Path(replays))
        app.animation_level = "none"
        rng = random.Random(seed)

        async def save(pilot: object, position: str) -> None:
            for width, height in sizes:
                await pilot.resize_terminal(width, height)  # type: ignore[attr-defined]
                await pilot.pause()  # type: ignore[attr-defined]
                name = f"{game_id}-{position}-{width}x{height}.svg"
                app.save_screenshot(name, str(out))
                written.append(out / name)

        async with app.run_test(size=sizes[0]) as pilot:
            await wait_until(pilot, lambda: my_turn_or_over(app))
            screen = play_screen(app)
            await save(pilot, "opening")
            advance(app.session, mid, rng)
            screen.redraw()
            await wait_until(pilot, lambda: my_turn_or_over(app))
            await save(pilot, "midgame")
            advance(app.session, None, rng)
            screen.redraw()
            await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            app.save_screenshot(f"{game_id}-result-80x24.svg", str(out))
            written.append(out / f"{game_id}-result-80x24.svg")
            await pilot.press("escape")
            await save(pilot, "end")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screens", help="where the SVGs go")
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--sizes", nargs="*", default=[f"{w}x{h}" for w, h in SIZES], help="WIDTHxHEIGHT ...")
    args = parser.parse_args(argv)
    sizes = [(int(w), int(h)) for w, h in (size.split("x") for size in args.sizes)]
    args.out.mkdir(parents=True, exist_ok=True)
    for game_id in args.games:
        for path in asyncio.run(shoot(game_id, sizes, args.out)):
            print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
