"""Wyatt Earp, rules round two (issue 22, and issue 23's Hideout question): scripted positions
with exact outcomes, each failing on the engine before these fixes.

* A card taken with a Wyatt Earp search stays hidden from the other players (Wyatt Earp: "adds
  it to his hand, without showing the other players"), in events, views, the discard stack as a
  view shows it, and ``resample``.
* "May": after a hit a Most Wanted! player may steal nothing, a Wyatt Earp player may leave the
  Hideout.
* Cards of one Outlaw may be played more than once in a turn (2. Play: "any number of cards").
* The no-progress rule: a hand (and, hand after hand, the game) ends when nobody draws from the
  supply or plays a card.
* The Wyatt Earp question after a Hideout: not asked when the whole table knows the player holds
  none; asked otherwise (so it tells nothing), and then the table screen does not offer that
  player a Wyatt Earp it does not hold.
"""

from __future__ import annotations

import pytest
from rich.console import Console

from engine.wyatt_earp import GAME, RULES_VERSION
from engine.wyatt_earp.actions import (
    ChooseTarget,
    DeclineTarget,
    Discard,
    DrawFromSupply,
    LetHideoutStand,
    MostWantedSteal,
    PlayOutlaws,
    PlayPhoto,
    PlaySheriff,
    TakeTopDiscard,
    WyattEarpRemoveHideout,
    WyattEarpSearch,
    WyattEarpTake,
)
from engine.wyatt_earp.events import (
    CardSearched,
    CardStolen,
    GameOver,
    HandEnded,
    HideoutRemoved,
    HideoutStands,
    OutlawsPlayed,
    TargetDeclined,
)
from engine.wyatt_earp.rules.end_of_hand import STALLED_HANDS
from engine.wyatt_earp.rules.game_play import STALL_ROUNDS
from engine.wyatt_earp.state import WyattEarpState
from tests.wyatt_earp_helpers import (
    BELLE,
    BILLY,
    BUTCH,
    JESSE,
    WES,
    act,
    cards,
    check_conservation,
    events_of,
    position,
)
from tui.games.wyatt_earp import render_table

HIT = "sundance"  # an Outlaw card: a bullet hole
MISS = "bank_robbery"  # no bullet hole


def searched(st: WyattEarpState, take: WyattEarpTake) -> WyattEarpState:
    """Seat 0 plays a Wyatt Earp to search the discard stack and takes a card of ``take``'s kind."""
    act(st, 0, WyattEarpSearch())
    act(st, 0, take)
    return st


def search_position(**extra: object) -> WyattEarpState:
    """Seat 0 of 3, in the play phase, holds a Wyatt Earp; the discard stack holds a Hideout, a
    Belle Starr card and the Photo of Billy the Kid (top)."""
    return position(
        3,
        0,
        hands={0: ["wyatt_earp", "wes", "jesse"]},
        discard=["hideout", "belle", "photo:billy"],
        phase="play",
        **extra,  # type: ignore[arg-type]
    )


def names(cards_shown: tuple) -> list[str]:
    return [c.name for c in cards_shown]


# ---------------------------------------------------------------------------------------------- the search


@pytest.mark.rule("wyatt_earp", "wyatt-earp.search-hidden")
def test_the_card_taken_is_named_to_the_searcher_only() -> None:
    st = searched(search_position(), WyattEarpTake("hideout", -1))
    hideout = cards("hideout")[0]
    assert events_of(st, CardSearched, 0)[0].card.id == hideout
    for seat in (1, 2, None):
        assert events_of(st, CardSearched, seat) == [CardSearched(0)]
        assert st.view(seat).players[0].known == ()
        assert st.view(seat).immediate is None
    assert hideout in st.hands[0] and hideout not in st.known
    assert st.view(0).immediate is not None and st.view(0).immediate.id == hideout
    check_conservation(st)


@pytest.mark.rule("wyatt_earp", "wyatt-earp.search-hidden")
@pytest.mark.rule("wyatt_earp", "wyatt-earp.search-stack-view")
def test_the_discard_stack_as_the_others_see_it_hides_what_was_taken() -> None:
    """Before the search everyone sees the whole stack; after it the others see the Wyatt Earp on
    top and the stack's size, the searcher the cards left."""
    st = search_position()
    assert names(st.view(1).discard) == ["Hideout", "Belle Starr", "Photo (Billy the Kid)"]
    searched(st, WyattEarpTake("hideout", -1))
    for seat in (1, 2, None):
        view = st.view(seat)
        assert names(view.discard) == ["Wyatt Earp"] and view.discard_size == 3
    assert names(st.view(0).discard) == ["Belle Starr", "Photo (Billy the Kid)", "Wyatt Earp"]


@pytest.mark.rule("wyatt_earp", "wyatt-earp.search-hidden")
@pytest.mark.rule("wyatt_earp", "wyatt-earp.search-stack-view")
def test_comparing_stacks_cannot_tell_which_card_was_taken() -> None:
    took = {
        take: searched(search_position(), take)
        for take in (WyattEarpTake("hideout", -1), WyattEarpTake("outlaw", BELLE), WyattEarpTake("photo", BILLY))
    }
    for seat in (1, 2, None):
        views = {st.view(seat) for st in took.values()}
        assert len(views) == 1, f"seat {seat} can tell the searched card"
        assert len({tuple(st.events(seat)) for st in took.values()}) == 1
        if seat is not None:
            assert len({tuple(st.legal_actions(seat)) for st in took.values()}) == 1
    assert len({st.view(0) for st in took.values()}) == 3


@pytest.mark.rule("wyatt_earp", "wyatt-earp.search-hidden")
@pytest.mark.rule("wyatt_earp", "wyatt-earp.search-stack-view")
def test_searching_the_same_stack_later_shows_it_all() -> None:
    st = position(
        3,
        0,
        hands={0: ["wyatt_earp", "wes", "jesse"], 1: ["wyatt_earp", "butch", "butch"]},
        discard=["hideout", "belle", "photo:billy"],
        phase="play",
    )
    searched(st, WyattEarpTake("hideout", -1))
    act(st, 0, Discard("outlaw", WES))
    act(st, 1, TakeTopDiscard())
    assert names(st.view(1).discard) == ["Wyatt Earp"]
    act(st, 1, WyattEarpSearch())
    # seat 1 looks through the stack: it now knows what is in it (and so what seat 0 took)
    assert names(st.view(1).discard) == ["Belle Starr", "Photo (Billy the Kid)", "Wyatt Earp", "Wyatt Earp"]
    assert st.legal_actions(1) == [WyattEarpTake("outlaw", BELLE), WyattEarpTake("photo", BILLY)]
    act(st, 1, WyattEarpTake("outlaw", BELLE))
    # seat 0 cannot know whether seat 1 took the Belle Starr card or the Photo
    for seat in (0, 2):
        assert names(st.view(seat).discard) == ["Wyatt Earp", "Wyatt Earp"] and st.view(seat).discard_size == 3
    assert names(st.view(1).discard) == ["Photo (Billy the Kid)", "Wyatt Earp", "Wyatt Earp"]


@pytest.mark.rule("wyatt_earp", "wyatt-earp.search-hidden")
@pytest.mark.rule("wyatt_earp", "wyatt-earp.search-stack-view")
def test_the_doubt_ends_when_the_card_taken_is_laid_face_up() -> None:
    st = position(
        3,
        0,
        hands={0: ["wyatt_earp", "billy", "billy", "jesse"]},
        territories={1: {"billy": ["billy"] * 3}},
        discard=["hideout", "billy", "photo:belle"],
        phase="play",
    )
    searched(st, WyattEarpTake("outlaw", BILLY))
    assert names(st.view(1).discard) == ["Wyatt Earp"]
    act(st, 0, PlayOutlaws(BILLY, 3))
    assert names(st.view(1).discard) == ["Hideout", "Photo (Belle Starr)", "Wyatt Earp"]
    assert [len(e.cards) for e in events_of(st, OutlawsPlayed, 1)] == [3]


@pytest.mark.rule("wyatt_earp", "wyatt-earp.search-hidden")
@pytest.mark.rule("wyatt_earp", "wyatt-earp.search-stack-view")
def test_resample_redraws_the_searched_card_for_the_others_only() -> None:
    st = searched(search_position(), WyattEarpTake("hideout", -1))
    hideout, belle, photo = cards("hideout", "belle", "photo:billy")
    held: set[int] = set()
    for seed in range(20):
        sample = st.resample(1, seed)
        assert sample.view(1) == st.view(1)
        assert sample.legal_actions(1) == st.legal_actions(1) and sample.to_act == st.to_act
        (mine,) = set(sample.hands[0]) & {hideout, belle, photo}
        assert mine in sample.secret and sorted(sample.discard[:-1] + [mine]) == sorted([hideout, belle, photo])
        held.add(mine)
        check_conservation(sample)
    assert held == {hideout, belle, photo}
    assert all(hideout in st.resample(0, seed).hands[0] for seed in range(20))


@pytest.mark.rule("wyatt_earp", "wyatt-earp.search-hidden")
def test_a_free_photo_question_does_not_tell_whether_the_photo_was_taken() -> None:
    """``free_photo``: a Photo seen in the discard stack is out of everyone's hand, so nobody is
    asked; after a search that may have taken it, everyone is asked, whatever was taken."""
    for take in (WyattEarpTake("photo", BILLY), WyattEarpTake("hideout", -1)):
        st = position(
            3,
            0,
            hands={0: ["wyatt_earp", "wes", "jesse"], 2: ["billy"] * 3 + ["butch"]},
            discard=["hideout", "photo:billy"],
            phase="play",
            options={"free_photo": True},
        )
        searched(st, take)
        act(st, 0, Discard("outlaw", WES))
        act(st, 1, DrawFromSupply())
        act(st, 1, Discard("outlaw", 6))
        act(st, 2, DrawFromSupply())
        act(st, 2, PlayOutlaws(BILLY, 3))
        assert st.phase == "free_photo" and st.to_act == (0,)
        expected = [PlayPhoto(BILLY), *st.legal_actions(0)[1:]] if take.card == "photo" else st.legal_actions(0)
        assert st.legal_actions(0) == expected


# ---------------------------------------------------------------------------------------------- "may"


@pytest.mark.rule("wyatt_earp", "most-wanted.steal")
def test_most_wanted_may_steal_nothing() -> None:
    st = position(
        3,
        1,
        territories={2: {"wes": ["wes", "bank_robbery"]}, 1: {"wes": ["wes"] * 3}},
        hands={1: ["most_wanted", "jesse"]},
        supply=[HIT],
        phase="play",
        posters={WES: 6000},
    )
    act(st, 1, MostWantedSteal())
    assert st.legal_actions(1) == [ChooseTarget(2, WES), DeclineTarget()]
    assert GAME.describe(DeclineTarget(), st.view(1)) == "Steal nothing"
    act(st, 1, DeclineTarget())
    assert events_of(st, CardStolen) == [] and len(events_of(st, TargetDeclined)) == 1
    assert len(st.terr[2][WES]) == 2 and st.discard[-1] in cards("most_wanted")
    assert st.phase == "play" and st.sheriff_played and st.to_act == (1,)
    check_conservation(st)


@pytest.mark.rule("wyatt_earp", "wyatt-earp.remove-hideout")
def test_wyatt_earp_may_leave_the_hideout() -> None:
    st = position(
        3,
        0,
        territories={0: {"jesse": ["jesse"] * 3}},
        hideouts=[(0, JESSE)],
        hands={0: ["wyatt_earp", "wes"]},
        supply=[HIT],
        phase="play",
    )
    act(st, 0, WyattEarpRemoveHideout())
    assert st.legal_actions(0) == [ChooseTarget(0, JESSE), DeclineTarget()]
    assert GAME.describe(DeclineTarget(), st.view(0)) == "Remove no Hideout"
    act(st, 0, DeclineTarget())
    assert st.hideout[0][JESSE] >= 0 and st.cp(0, JESSE) == 0
    assert events_of(st, HideoutRemoved) == [] and st.phase == "play"
    check_conservation(st)


@pytest.mark.rule("wyatt_earp", "stagecoach.effect")
def test_a_hit_with_a_card_that_has_no_may_must_be_placed() -> None:
    st = position(
        3, 0, territories={0: {"jesse": ["jesse"] * 3}}, hands={0: ["stagecoach_robbery", "wes"]}, supply=[HIT]
    )
    st.wait_for(0, "play")
    act(st, 0, PlaySheriff("stagecoach_robbery"))
    assert st.legal_actions(0) == [ChooseTarget(0, JESSE)]


# -------------------------------------------------------------------------------- one Outlaw, several plays


@pytest.mark.rule("wyatt_earp", "outlaws.each-play")
def test_an_outlaw_may_be_played_several_times_in_a_turn() -> None:
    """2. Play: "any number of cards in that color"; each play pays for "the cards just played"."""
    st = position(3, 0, hands={0: ["billy"] * 6 + ["jesse"]}, phase="play")
    act(st, 0, PlayOutlaws(BILLY, 3))
    act(st, 0, PlayOutlaws(BILLY, 2))
    act(st, 0, PlayOutlaws(BILLY, 1))
    assert [e.reward for e in events_of(st, OutlawsPlayed)] == [2000, 1000, 0]
    assert st.posters[BILLY] == 4000 and len(st.terr[0][BILLY]) == 6
    assert st.legal_actions(0) == [Discard("outlaw", JESSE)]


def test_the_rules_version_is_bumped() -> None:
    """Replays of the first rules (one batch, a public search) are refused, not replayed wrong."""
    assert RULES_VERSION == "wyatt_earp/2"


# ---------------------------------------------------------------------------------------------- no progress


def stall_turn(st: WyattEarpState) -> None:
    """Take the top discard and discard it again: no card drawn from the supply, none played."""
    seat = st.to_act[0]
    act(st, seat, TakeTopDiscard())
    top = st.hands[seat][-1]
    act(st, seat, Discard(st.comp.card_type[top], st.comp.card_outlaw[top]))


@pytest.mark.rule("wyatt_earp", "hand-end.no-progress")
def test_a_hand_without_progress_ends() -> None:
    st = position(2, 0, hands={0: ["billy", "jesse"], 1: ["wes", "belle"]}, discard=["butch"])
    limit = STALL_ROUNDS * 2
    for _ in range(limit - 1):
        stall_turn(st)
    assert events_of(st, HandEnded) == [] and st.stalled == limit - 1
    stall_turn(st)
    assert events_of(st, HandEnded) == [HandEnded("stalled", 1)]
    assert st.hand_no == 2 and st.stalled == 0 and st.stalled_hands == 1


@pytest.mark.rule("wyatt_earp", "hand-end.no-progress")
def test_a_draw_or_a_play_starts_the_count_again() -> None:
    st = position(2, 0, hands={0: ["billy", "jesse"], 1: ["wes", "belle"]}, discard=["butch"])
    for _ in range(STALL_ROUNDS * 2 - 1):
        stall_turn(st)
    assert st.to_act == (1,)
    act(st, 1, DrawFromSupply())
    act(st, 1, Discard("outlaw", WES))
    assert st.stalled == 0
    for _ in range(STALL_ROUNDS * 2 - 1):
        stall_turn(st)
    assert events_of(st, HandEnded) == [] and st.hand_no == 1


@pytest.mark.rule("wyatt_earp", "hand-end.no-progress")
def test_players_who_only_stall_end_the_game() -> None:
    """Seed 3, two players who only take the top discard and discard it: each hand ends after
    five rounds, and the game after three such hands; nobody won money, so the duel decides."""
    st = GAME.new_game(2, 3)
    turns = 0
    while not st.is_over:
        stall_turn(st)
        turns += 1
        assert turns <= 100, "the game did not end"
    assert turns == STALLED_HANDS * STALL_ROUNDS * 2 == 30
    assert [e.reason for e in events_of(st, HandEnded)] == ["stalled"] * 3
    (over,) = events_of(st, GameOver)
    assert over.money == (0, 0) and st.outcome.winners == over.winners == (0,)
    assert st.outcome.ranks == (1, 2)


# ---------------------------------------------------------------------------------------------- the Hideout question


def hideout_position(seat_1_hand: list[str], discard: list[str]) -> WyattEarpState:
    return position(
        3,
        0,
        territories={1: {"jesse": ["jesse"] * 3}},
        hands={0: ["hideout", "wes"], 1: seat_1_hand},
        discard=discard,
        supply=[HIT],
        phase="play",
    )


@pytest.mark.rule("wyatt_earp", "wyatt-earp.out-of-turn-asked")
def test_nobody_is_asked_who_is_known_to_hold_no_wyatt_earp() -> None:
    st = hideout_position(["belle", "butch"], ["wyatt_earp"] * 7)
    act(st, 0, PlaySheriff("hideout"))
    act(st, 0, ChooseTarget(1, JESSE))
    assert st.phase == "play" and st.to_act == (0,)
    assert events_of(st, HideoutStands) == [HideoutStands(1, JESSE)]


@pytest.mark.rule("wyatt_earp", "wyatt-earp.out-of-turn-asked")
def test_nobody_is_asked_whose_hand_holds_only_seen_or_searched_cards() -> None:
    """Seat 1's two cards: one taken from the top of the discard stack (seen by all), one taken
    with a Wyatt Earp search (never a Wyatt Earp): the table knows it holds none."""
    st = position(
        3,
        1,
        territories={1: {"jesse": ["jesse"] * 3}},
        hands={0: ["hideout", "wes"], 1: ["wyatt_earp", "butch"]},
        discard=["belle", "photo:billy"],
        supply=[HIT],
    )
    act(st, 1, TakeTopDiscard())
    act(st, 1, WyattEarpSearch())
    act(st, 1, WyattEarpTake("outlaw", BELLE))
    act(st, 1, Discard("outlaw", BUTCH))
    stall_turn(st)  # seat 2
    assert set(st.hands[1]) <= st.known | st.secret.keys()
    act(st, 0, TakeTopDiscard())
    act(st, 0, PlaySheriff("hideout"))
    act(st, 0, ChooseTarget(1, JESSE))
    assert st.phase == "play" and events_of(st, HideoutStands) == [HideoutStands(1, JESSE)]


@pytest.mark.rule("wyatt_earp", "wyatt-earp.out-of-turn-asked")
def test_asked_without_a_wyatt_earp_the_screen_offers_none() -> None:
    """The table cannot know seat 1 holds none, so seat 1 is asked (the question tells nothing);
    seat 1's screen says the Hideout stands, the others' that seat 1 may answer."""
    st = hideout_position(["belle", "butch"], ["wyatt_earp"] * 6)
    act(st, 0, PlaySheriff("hideout"))
    act(st, 0, ChooseTarget(1, JESSE))
    assert st.phase == "hideout_response" and st.legal_actions(1) == [LetHideoutStand()]

    def status(game: WyattEarpState, seat: int) -> str:
        console = Console(width=120, record=True)
        console.print(render_table(game.view(seat), [], ["a", "b", "c"], width=120)[0])
        return console.export_text()

    assert "you hold no Wyatt Earp" in status(st, 1) and "with a Wyatt Earp" not in status(st, 1)
    assert "Seat 1 may answer the Hideout on Jesse James with a Wyatt Earp" in status(st, 2)
    with_one = hideout_position(["wyatt_earp", "butch"], ["wyatt_earp"] * 6)
    act(with_one, 0, PlaySheriff("hideout"))
    act(with_one, 0, ChooseTarget(1, JESSE))
    assert with_one.legal_actions(1) == [WyattEarpRemoveHideout(), LetHideoutStand()]
    assert "You may answer the Hideout on Jesse James with a Wyatt Earp" in status(with_one, 1)
    # the others cannot tell the two apart
    assert with_one.to_act == st.to_act and status(with_one, 2) == status(st, 2)
