"""Issue 37 through the browser transport: the lobby's "you have a game on" notice is a line of its
own above the top bar, which stays whole at 80×24, and it goes once the person went back to the
game and left it (mirrors ``tests/ssh/test_lobby_form_and_notice.py``)."""

from __future__ import annotations

from serve.ssh_server import SaloonServer
from tests.ssh.termclient import make_key, wait_until
from tests.ssh.test_lobby_form_and_notice import LONG_NAME, notice, table_for, top_bar, top_of_lobby, words
from tests.web.conftest import base_of
from tests.web.webclient import WebTerminal, link_for, signed_in_session, token_of


async def test_the_browsers_notice_leaves_the_top_bar_whole_and_goes_once_the_game_was_left(
    server: SaloonServer,
) -> None:
    base = base_of(server)
    session = await signed_in_session(base, token_of(await link_for(server.port, LONG_NAME, make_key(LONG_NAME))))
    try:
        first = await table_for(server, LONG_NAME)
        second = await table_for(server, LONG_NAME)
        codes = [first.code, second.code]
        async with WebTerminal(base, session, size=(80, 24)) as term:
            await term.wait_for(notice(codes))
            await term.settle()
            top = top_of_lobby(term.text())
            assert top[0] == notice(codes), term.text()
            assert words(" ".join(top[1:])) == top_bar(LONG_NAME, codes), term.text()
            await term.press("t")  # the oldest game going on: the first
            await term.wait_for("you: seat 0")
            assert f"Table {first.code}" in term.text()
            await term.press("l")
            await term.wait_for("n: new table")
            await wait_until(lambda: notice([second.code]) in term.text(), what="the notice to name the second game")
            await term.settle()
            screen = term.text()
            top = top_of_lobby(screen)
            assert top[0] == notice([second.code]), screen
            # the first game goes on without her (a bot plays her seat) or is over: not in the notice
            held = [code for code in codes if f"{code}*" in screen]
            assert words(" ".join(top[1:])) == top_bar(LONG_NAME, held), screen
    finally:
        await session.close()
