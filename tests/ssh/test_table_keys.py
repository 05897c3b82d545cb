"""The table's keys work the same in a terminal and in a browser (issue 37): leaving and the replay
have plain keys (``l``, ``r``) besides ``Ctrl+L`` and ``Ctrl+R``, which a browser takes for itself
(the address bar, reload), and the footer shows the plain ones; a spectator's footer offers no
moves."""

from __future__ import annotations

from lobby.tables import Identity, SeatSpec
from serve.ssh_server import SaloonServer
from tests.ssh.termclient import Terminal, make_key, wait_until

GAME = "deadwood1876"


def _footer(text: str) -> str:
    return text.splitlines()[-1]


async def test_l_leaves_the_table_and_the_footer_shows_it(server: SaloonServer) -> None:
    async with Terminal(server.port, "alice", make_key("alice"), size=(80, 24)) as term:
        await term.wait_for("new table")
        await term.press("n")
        await term.wait_for("New table")
        await term.press("enter")
        await term.wait_for("Your move", "Waiting for", timeout=15)
        await term.settle()
        footer = _footer(term.text())
        assert "l leave" in footer and "^l" not in footer.lower(), footer
        (table,) = server.lobby.tables.values()
        await term.press("l")
        await term.wait_for("new table")  # back in the lobby
        await wait_until(lambda: table.seats[0].substitute, what="a bot to play alice's seat")


async def test_a_spectators_footer_offers_no_moves(server: SaloonServer) -> None:
    table = server.lobby.create_table(Identity("carol", "key-carol"), GAME, 3, [SeatSpec("open")] * 3)
    async with Terminal(server.port, "bob", make_key("bob"), size=(80, 24)) as term:
        await term.wait_for("new table")
        await term.press("w")
        await term.wait_for(f"Table {table.code}", "watching", timeout=15)
        await term.settle()
        footer = _footer(term.text())
        assert "1-9" not in footer and "move" not in footer, footer
        assert "l leave" in footer, footer
