"""Issue 23: house bots on every ladder. A lone bot on a fresh server waited in the ladder queue
forever; now the server's house bots (``heuristic`` and ``quick`` unless the operator says
otherwise) join anyone who waited longer than ``--ladder-max-wait``, are rated like everyone under
``house:NAME`` and are marked as house bots on the leaderboard.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest

from lobby.ladder import Ladder, Standing, leaderboard_json, leaderboard_text
from lobby.matchmaker import MatchPolicy
from lobby.store import Store
from lobby.tables import Lobby, ServerConfig, default_house_bots
from serve.ssh_server import build_parser, house_bot_offers, main
from tests.ssh.conftest import make_server
from tests.ssh.termclient import wait_until
from tests.ssh.test_ladder import LadderBot, run_command
from tests.test_ladder_queue import FakeBot

GAME = "wyatt_earp"
MAX_WAIT_S = 1.0


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def test_house_bots_join_a_lone_player_only_after_the_longest_wait(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    config = ServerConfig(
        bot_delay_s=0.0,
        ladder_policy=MatchPolicy(max_wait_s=MAX_WAIT_S),
        house_bots={"heuristic": "heuristic", "grumpy": "random"},
    )
    clock = Clock()
    ladder = Ladder(Lobby(store, config), clock=clock)
    ann = FakeBot("ann")
    ladder.join(ann, GAME, (2, 3))
    assert ladder.tick() == []  # not waited long enough
    clock.now += MAX_WAIT_S - 0.01
    assert ladder.tick() == []
    clock.now += 0.01
    (table,) = ladder.tick()
    assert table.rated and table.status == "playing"
    assert sorted(table.names()) == ["ann (remote bot)", "house:grumpy (bot)", "house:heuristic (bot)"]
    assert [s.bot_spec for s in table.seats if s.kind == "bot"] in (["heuristic", "random"], ["random", "heuristic"])
    assert ladder.entry(ann) is None and ladder.queued(GAME) == []
    # a player who accepts only 2 players gets one house bot
    bob = FakeBot("bob")
    ladder.join(bob, GAME, (2,))
    clock.now += MAX_WAIT_S
    (pair,) = ladder.tick()
    assert len(pair.seats) == 2 and pair.names()[pair.seat_of(bob) or 0] == "bob (remote bot)"
    await wait_until(lambda: table.game_row is not None and pair.game_row is not None, timeout=60, what="both games")
    rows = {row.name: row for row in ladder.standings(GAME)}
    assert rows["house:heuristic"].house and rows["house:heuristic"].games >= 1
    assert rows["house:grumpy"].house and rows["house:grumpy"].online
    assert not rows["ann"].house and rows["ann"].games == 1
    await ladder.stop()
    await ladder.lobby.close()
    store.close()


async def test_two_people_in_the_queue_play_each_other_not_the_house(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    config = ServerConfig(bot_delay_s=0.0, ladder_policy=MatchPolicy(max_wait_s=0.0), house_bots={"h": "heuristic"})
    ladder = Ladder(Lobby(store, config))
    ann, bob = FakeBot("ann"), FakeBot("bob")
    ladder.join(ann, GAME, (2,))
    ladder.join(bob, GAME, (2,))
    (table,) = ladder.tick()
    assert sorted(table.names()) == ["ann (remote bot)", "bob (remote bot)"]
    await ladder.stop()
    await ladder.lobby.close()
    store.close()


def test_the_leaderboard_marks_house_bots() -> None:
    rows = [
        Standing(1, "house:quick", 3.5, 20.0, 5.5, 4, (1, 1), True, True),
        Standing(2, "robo", 1.0, 18.0, 5.7, 4, (2, 2), True, False),
    ]
    text = leaderboard_text("Wyatt Earp", rows)
    lines = text.splitlines()
    assert lines[-2].split() == ["1", "house:quick", "3.5", "20.0", "±", "16.5", "4", "1", "1", "house"]
    assert lines[-1].split()[-1] == "yes"
    assert "house = a house bot (house:NAME) the server runs" in " ".join(lines)
    players = leaderboard_json(GAME, rows)["players"]
    assert [(p["name"], p["house"]) for p in players] == [("house:quick", True), ("robo", False)]


def test_serve_keeps_heuristic_and_quick_unless_told_otherwise() -> None:
    assert default_house_bots() == {"heuristic": "heuristic", "quick": "quick"}
    assert house_bot_offers([]) == {"heuristic": "heuristic", "quick": "quick"}
    assert house_bot_offers(["none"]) == {}
    assert house_bot_offers(["h=heuristic", "r=random"]) == {"h": "heuristic", "r": "random"}
    with pytest.raises(ValueError, match="--house-bot 'x=nonsense'"):
        house_bot_offers(["x=nonsense"])
    assert build_parser().parse_args(["--house-bot", "h=heuristic"]).house_bot == ["h=heuristic"]


def test_serve_refuses_a_bad_house_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--house-bot", "none", "--house-bot", "h=heuristic", "--port", "0"]) == 2
    assert "saloon serve: --house-bot none: no other --house-bot with it" in capsys.readouterr().err


async def test_a_lone_bot_on_a_fresh_server_plays_a_rated_game_within_the_longest_wait(tmp_path: Path) -> None:
    srv = make_server(
        tmp_path / "data",
        ladder_policy=MatchPolicy(max_wait_s=MAX_WAIT_S),
        ladder_tick_s=0.1,
        house_bots={"heuristic": "heuristic", "quick": "heuristic"},  # a fast stand-in for the search bot
    )
    await srv.start()
    try:
        bot = LadderBot(srv.port, "lonely", "random", game=GAME, players=None)
        started = time.monotonic()
        run = asyncio.create_task(bot.run(games=1))
        await asyncio.wait_for(bot.seated.wait(), MAX_WAIT_S + 5)
        assert time.monotonic() - started < MAX_WAIT_S + 5
        await asyncio.wait_for(run, 120)
        assert bot.status == 0 and len(bot.places) == 1
        assert "seated at rated table" in bot.stderr and "house:heuristic" in bot.stderr
        status, out, _ = await run_command(srv.port, "lonely", f"leaderboard {GAME} --json")
        assert status == 0
        players = {p["name"]: p for p in json.loads(out)["players"]}
        assert set(players) == {"lonely", "house:heuristic", "house:quick"}
        assert players["house:heuristic"]["house"] and players["house:quick"]["house"]
        assert not players["lonely"]["house"] and players["lonely"]["games"] == 1
        assert players["house:heuristic"]["games"] == 1
        status, out, _ = await run_command(srv.port, "lonely", f"leaderboard {GAME}")
        assert any(
            line.split()[1:2] == ["house:heuristic"] and line.split()[-1] == "house"
            for line in out.decode().splitlines()
        )
    finally:
        await srv.stop()


def test_the_docs_say_how_people_join_and_that_house_bots_play() -> None:
    root = Path(__file__).resolve().parents[2]
    protocol = " ".join((root / "docs" / "bot-protocol.md").read_text().split())
    assert "then `l` (the Ladder screen" in protocol and "`j` to join its queue" in protocol
    assert "House bots: you never wait alone." in protocol and "`house:heuristic`" in protocol
    readme = " ".join((root / "README.md").read_text().split())
    assert "l the ladder (then j joins its queue)" in readme and "--house-bot NAME=SPEC" in readme
