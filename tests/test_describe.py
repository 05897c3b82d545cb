"""``Game.describe(action, view, seat=None)``: a move in words, from the mover's side.

Issue 15: from the omniscient view (``saloon replay show``, the replay viewer) every opening Safe
pass read as seat 0's, and another seat's Safe was "your Safe".
"""

from __future__ import annotations

import engine
from bots import RandomBot, play_game
from engine.deadwood1876.actions import Defend, GiveSafe, PassSafe, Robbery
from replays import Player, save
from saloon.cli import main
from tests.helpers import act, card, new_state, put_turn, safe

GAME = engine.game("deadwood1876")


def test_the_omniscient_view_names_the_seat_that_passes() -> None:
    st = new_state(5, 1)
    everything = st.view(engine.OMNISCIENT)
    assert [p.character for p in everything.players][:3] == ["Al Swearengen", "Calamity Jane", "Kitty LeRoy"]
    assert GAME.describe(PassSafe(1), everything, seat=1) == "Pass Calamity Jane's Safe #2 (Iron Badge) to the left"
    assert GAME.describe(PassSafe(1), everything, 2) == "Pass Kitty LeRoy's Safe #2 (Tin Badge) to the left"
    assert GAME.describe(PassSafe(0), everything, seat=0) == "Pass Al Swearengen's Safe #1 (Gold 2) to the left"


def test_your_is_only_for_the_mover_in_their_own_view() -> None:
    st = new_state(5, 1)
    mine = st.view(1)
    assert GAME.describe(PassSafe(1), mine) == "Pass your Safe #2 (Iron Badge) to the left"
    assert GAME.describe(PassSafe(1), mine, seat=1) == "Pass your Safe #2 (Iron Badge) to the left"
    # a spectator knows no Safe: the pass names its owner and keeps the contents hidden
    assert GAME.describe(PassSafe(1), st.view(None), seat=1) == "Pass Calamity Jane's Safe #2 to the left"


def test_another_seats_move_seen_by_its_victim_says_no_your() -> None:
    colt = card("colt", "stetson")
    dusters = [card(gun, "duster") for gun in ("pepperbox", "colt", "winchester")]
    st = put_turn(new_state(5, 1), 1, hands={1: [colt, *dusters]}, rows={0: [safe("Gold 1"), safe("Gold 4")]})
    robbery = Robbery(colt, 0, 1)
    assert robbery in st.legal_actions(1)
    on_safe_2 = "Robbery with a Colt (Colt / Stetson) on Al Swearengen's Safe #2"
    assert GAME.describe(robbery, st.view(0), seat=1) == on_safe_2 + " (Gold 4)"  # the victim's view
    assert GAME.describe(robbery, st.view(1)) == on_safe_2  # the robber's


def test_a_third_law_gift_names_the_giver() -> None:
    """THE 3 LAWS, third Law: whoever wins a fourth Safe gives one to the player with the fewest."""
    messenger = card("messenger", "stetson")
    st = put_turn(
        new_state(5, 1),
        0,
        hands={0: [messenger, *[card(g, "duster") for g in ("pepperbox", "colt", "winchester")]]},
        rows={0: [safe("Gold 1"), safe("Gold 2"), safe("Gold 3")], 1: [safe("Gold 4"), safe("Tin Badge")]},
        rolls=[4, 0],
    )
    act(st, 0, Robbery(messenger, 1, 0))
    act(st, 1, Defend(next(a.card for a in st.legal_actions(1))))
    for seat in st.to_act:
        act(st, seat, st.legal_actions(seat)[0])  # no Holsters
    assert st.phase == "give_safe" and st.to_act == (0,)
    gift = next(a for a in st.legal_actions(0) if isinstance(a, GiveSafe))
    line = GAME.describe(gift, st.view(engine.OMNISCIENT), seat=0)
    assert line.startswith(f"Give Al Swearengen's Safe #{gift.index + 1} (") and "your" not in line
    assert GAME.describe(gift, st.view(0)).startswith(f"Give your Safe #{gift.index + 1} (")


def test_replay_show_describes_each_seats_own_safe_pass(capsys, tmp_path) -> None:
    players = 4
    bots = [RandomBot(80 + seat) for seat in range(players)]
    replay = play_game("deadwood1876", players, bots, seed=8, players=[Player("random", "bot")] * players).replay
    path = tmp_path / "g.replay"
    save(replay, path)
    assert main(["replay", "show", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    names = [p.character for p in GAME.new_game(players, 8).view(engine.OMNISCIENT).players]
    passes = [line for line in out if " Pass " in line]
    assert len(passes) == players
    for k, line in enumerate(passes):
        assert line.startswith(f"move {k + 1}: seat {k}: Pass {names[k]}'s Safe #"), line
    assert not any("your" in line for line in out if line.startswith("move "))
