"""Wyatt Earp: every Sheriff card and shots (rulebook: Sherriff Cards, Photo, Stagecoach Robbery,
Bank Robbery, Fastest Gun, Most Wanted!, Hideout, Wyatt Earp)."""

from __future__ import annotations

import pytest

from engine.wyatt_earp.actions import (
    ChooseTarget,
    DeclinePhoto,
    DeclineTarget,
    Discard,
    DrawFromSupply,
    LetHideoutStand,
    MostWantedAsk,
    MostWantedSteal,
    PlayOutlaws,
    PlayPhoto,
    PlaySheriff,
    WyattEarpDraw,
    WyattEarpRemoveHideout,
    WyattEarpSearch,
    WyattEarpTake,
)
from engine.wyatt_earp.events import (
    CardsDrawn,
    CardStolen,
    FastestGunRemoved,
    HideoutRemoved,
    HideoutStands,
    MostWantedAnswered,
    PhotoDeclined,
    PhotoPlayed,
    SheriffPlaced,
    ShotFired,
)
from engine.wyatt_earp.rules.game_play import DISCARD
from tests.wyatt_earp_helpers import (
    BELLE,
    BILLY,
    JESSE,
    WES,
    act,
    cards,
    check_conservation,
    events_of,
    hand_kinds,
    kind,
    position,
)

HIT = "sundance"  # an Outlaw card: a bullet hole
MISS = "photo:sundance"  # a Sheriff card: no bullet hole (the Photo too)


def sheriff_plays(st: object, seat: int) -> list[object]:
    return [a for a in st.legal_actions(seat) if not isinstance(a, (PlayOutlaws, Discard))]  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------------------------- Photo


@pytest.mark.rule("wyatt_earp", "photo.after-a-set")
def test_photo_only_after_a_set_of_its_outlaw() -> None:
    st = position(3, 0, hands={0: ["photo:billy", "billy", "billy", "jesse"]}, phase="play")
    assert PlayPhoto(BILLY) not in st.legal_actions(0)
    assert PlayOutlaws(BILLY, 2) not in st.legal_actions(0)  # the Photo does not count toward the set
    st = position(3, 0, territories={1: {"billy": ["billy"] * 3}}, hands={0: ["photo:billy", "jesse"]}, phase="play")
    act(st, 0, PlayPhoto(BILLY))
    assert st.terr[0][BILLY] == cards("photo:billy")  # alone, starting Billy the Kid
    assert st.cp(0, BILLY) == 4
    assert st.posters[BILLY] == 2000


@pytest.mark.rule("wyatt_earp", "photo.effect")
def test_photo_example_1_set_and_photo_in_one_turn() -> None:
    """Photo, example 1: Burt plays 4 Billy the Kid cards and the Photo: $4,000 on the poster."""
    st = position(3, 1, hands={1: ["billy"] * 4 + ["photo:billy", "jesse"]}, phase="play", posters={BILLY: 0})
    act(st, 1, PlayOutlaws(BILLY, 4))
    act(st, 1, PlayPhoto(BILLY))
    assert st.posters[BILLY] == 4000
    assert st.cp(1, BILLY) == 12
    assert events_of(st, PhotoPlayed)[0].reward == 1000


@pytest.mark.rule("wyatt_earp", "photo.effect")
@pytest.mark.rule("wyatt_earp", "bank-robbery.effect")
def test_photo_example_2_bank_robbery_on_the_photo() -> None:
    """Photo, example 2: Curt plays the Photo (+$1,000); next turn Bank robbery on it (+$1,000)."""
    st = position(
        3,
        2,
        territories={0: {"billy": ["billy"] * 3}},
        hands={2: ["photo:billy", "bank_robbery", "jesse", "jesse"]},
        supply=[HIT, "belle", "belle", "wes", "wes", "jesse", "jesse"],
        phase="play",
        posters={BILLY: 3000},
    )
    act(st, 2, PlayPhoto(BILLY))
    assert st.posters[BILLY] == 4000
    act(st, 2, Discard("outlaw", JESSE))
    for seat in (0, 1):
        act(st, seat, DrawFromSupply())
        act(st, seat, st.legal_actions(seat)[-1])
    act(st, 2, DrawFromSupply())
    act(st, 2, PlaySheriff("bank_robbery"))
    assert st.phase == "target"
    assert st.legal_actions(2) == [ChooseTarget(2, BILLY)]
    act(st, 2, ChooseTarget(2, BILLY))
    assert st.posters[BILLY] == 5000
    assert st.cp(2, BILLY) == 6
    check_conservation(st)


# ---------------------------------------------------------------------------------------------- shots


@pytest.mark.rule("wyatt_earp", "stagecoach.effect")
@pytest.mark.rule("wyatt_earp", "shot.draw")
@pytest.mark.rule("wyatt_earp", "sheriff.targets")
def test_stagecoach_robbery_hit() -> None:
    st = position(
        3,
        0,
        territories={0: {"billy": ["billy"] * 3, "jesse": ["jesse"] * 3}},
        hands={0: ["stagecoach_robbery", "wes"]},
        supply=[HIT],
        phase="play",
    )
    shot_card = st.supply[-1]
    act(st, 0, PlaySheriff("stagecoach_robbery"))
    assert st.discard[-1] == shot_card  # the shot card lies face up on the discard stack
    assert events_of(st, ShotFired)[0].hit
    assert st.legal_actions(0) == [ChooseTarget(0, BILLY), ChooseTarget(0, JESSE)]
    act(st, 0, ChooseTarget(0, JESSE))
    assert st.cp(0, JESSE) == 7
    assert st.posters[JESSE] == 4000
    assert events_of(st, SheriffPlaced)[0].reward == 3000
    assert st.phase == "play" and st.legal_actions(0) == [Discard("outlaw", WES)]


@pytest.mark.rule("wyatt_earp", "shot.miss")
def test_failed_shot_discards_the_card_which_still_counts() -> None:
    st = position(
        3,
        0,
        territories={0: {"billy": ["billy"] * 3}},
        hands={0: ["stagecoach_robbery", "bank_robbery", "wes"]},
        supply=[MISS],
        phase="play",
    )
    act(st, 0, PlaySheriff("stagecoach_robbery"))
    assert not events_of(st, ShotFired)[0].hit
    assert st.discard[-2:] == cards(MISS) + cards("stagecoach_robbery")
    assert st.phase == "play" and st.sheriff_played
    assert sheriff_plays(st, 0) == []
    assert st.cp(0, BILLY) == 6
    check_conservation(st)


@pytest.mark.rule("wyatt_earp", "shot.miss")
@pytest.mark.rule("wyatt_earp", "components.bullet-holes")
def test_a_photo_drawn_is_a_miss() -> None:
    st = position(
        3,
        0,
        territories={0: {"billy": ["billy"] * 3}},
        hands={0: ["bank_robbery", "wes"]},
        supply=["photo:jesse"],
        phase="play",
    )
    act(st, 0, PlaySheriff("bank_robbery"))
    assert not events_of(st, ShotFired)[0].hit
    assert st.phase == "play"


@pytest.mark.rule("wyatt_earp", "sheriff.numbered")
@pytest.mark.rule("wyatt_earp", "sheriff.targets")
def test_shot_cards_need_an_own_group() -> None:
    st = position(3, 0, territories={1: {"billy": ["billy"] * 3}}, hands={0: ["bank_robbery", "wes"]}, phase="play")
    assert sheriff_plays(st, 0) == []
    st = position(
        3, 0, territories={0: {"billy": ["photo:billy"]}, 1: {"billy": ["billy"] * 3}},
        hands={0: ["bank_robbery", "wes"]}, phase="play",
    )  # fmt: skip
    assert sheriff_plays(st, 0) == [PlaySheriff("bank_robbery")]  # a Photo alone carries it


@pytest.mark.rule("wyatt_earp", "bank-robbery.effect")
def test_bank_robbery_several_on_one_outlaw() -> None:
    st = position(
        2,
        0,
        territories={0: {"billy": ["billy", "billy", "billy", "bank_robbery"]}},
        hands={0: ["bank_robbery", "wes"]},
        supply=[HIT],
        phase="play",
    )
    act(st, 0, PlaySheriff("bank_robbery"))
    act(st, 0, ChooseTarget(0, BILLY))
    assert st.cp(0, BILLY) == 10
    assert st.posters[BILLY] == 2000


@pytest.mark.rule("wyatt_earp", "fastest-gun.effect")
def test_fastest_gun_only_one_on_the_table() -> None:
    st = position(
        3,
        0,
        territories={0: {"billy": ["billy"] * 3}, 1: {"jesse": ["jesse", "jesse", "jesse", "fastest_gun"]}},
        hands={0: ["fastest_gun", "wes"]},
        supply=[HIT],
        phase="play",
        posters={JESSE: 5000},
    )
    old = st.terr[1][JESSE][-1]
    assert st.cp(1, JESSE) == 9
    act(st, 0, PlaySheriff("fastest_gun"))
    act(st, 0, ChooseTarget(0, BILLY))
    assert st.cp(0, BILLY) == 9 and st.posters[BILLY] == 2000
    assert st.cp(1, JESSE) == 6
    assert st.posters[JESSE] == 5000  # the $1,000 stays on the poster
    assert old in st.discard
    assert events_of(st, FastestGunRemoved) == [FastestGunRemoved(1, JESSE, events_of(st, FastestGunRemoved)[0].card)]
    check_conservation(st)


@pytest.mark.rule("wyatt_earp", "fastest-gun.not-on-the-same-outlaw")
def test_fastest_gun_never_where_anyone_has_one() -> None:
    st = position(
        3,
        0,
        territories={0: {"jesse": ["jesse"] * 3}, 1: {"jesse": ["jesse", "jesse", "fastest_gun"]}},
        hands={0: ["fastest_gun", "wes"]},
        phase="play",
    )
    assert sheriff_plays(st, 0) == []
    st = position(
        3,
        0,
        territories={0: {"jesse": ["jesse"] * 3, "billy": ["billy"] * 3}, 1: {"jesse": ["jesse", "fastest_gun"]}},
        hands={0: ["fastest_gun", "wes"]},
        supply=[HIT],
        phase="play",
    )
    act(st, 0, PlaySheriff("fastest_gun"))
    assert st.legal_actions(0) == [ChooseTarget(0, BILLY)]
    st = position(
        2,
        0,
        territories={0: {"jesse": ["jesse", "jesse", "jesse", "fastest_gun"]}},
        hands={0: ["fastest_gun", "wes"]},
        phase="play",
    )
    assert sheriff_plays(st, 0) == []  # not even on your own Fastest gun


# ---------------------------------------------------------------------------------------------- Most Wanted!


@pytest.mark.rule("wyatt_earp", "most-wanted.ask")
def test_most_wanted_ask_clockwise() -> None:
    st = position(
        4,
        0,
        hands={0: ["most_wanted", "belle", "belle", "wes"], 1: ["jesse"], 2: ["belle", "belle"], 3: ["belle"]},
        phase="play",
    )
    asks = [a for a in st.legal_actions(0) if isinstance(a, MostWantedAsk)]
    assert len(asks) == 14 and asks[:2] == [MostWantedAsk(BILLY, True), MostWantedAsk(BILLY, False)]
    given = min(st.hands[2])  # seat 2's first Belle Starr card
    act(st, 0, MostWantedAsk(BELLE, True))
    answer = events_of(st, MostWantedAnswered)[0]
    assert (answer.refused, answer.giver) == ((1,), 2)
    assert given in st.hands[0] and len(st.hands[2]) == 1 and len(st.hands[3]) == 1
    assert given in st.known
    assert st.view(3).players[0].known[0].id == given  # the whole table heard it
    assert st.view(3).players[1].lacks == (BELLE,)
    assert st.discard[-1] in cards("most_wanted")
    act(st, 0, PlayOutlaws(BELLE, 3))  # the card may be played this turn
    assert st.cp(0, BELLE) == 6
    check_conservation(st)


@pytest.mark.rule("wyatt_earp", "most-wanted.ask")
def test_most_wanted_ask_counterclockwise_and_nobody_has_it() -> None:
    st = position(
        4,
        0,
        hands={0: ["most_wanted", "wes"], 1: ["belle"], 2: ["jesse"], 3: ["jesse"]},
        phase="play",
    )
    act(st, 0, MostWantedAsk(BELLE, False))
    answer = events_of(st, MostWantedAnswered)[0]
    assert (answer.refused, answer.giver, answer.card) == ((3, 2), 1, answer.card)
    st = position(4, 0, hands={0: ["most_wanted", "wes"], 1: ["jesse"], 2: ["jesse"], 3: ["jesse"]}, phase="play")
    act(st, 0, MostWantedAsk(BELLE, False))
    answer = events_of(st, MostWantedAnswered)[0]
    assert (answer.refused, answer.giver, answer.card) == ((3, 2, 1), -1, None)
    assert hand_kinds(st, 0) == [kind("wes")]
    assert st.sheriff_played and st.legal_actions(0) == [Discard("outlaw", WES)]


@pytest.mark.rule("wyatt_earp", "most-wanted.ask-decisions")
def test_most_wanted_ask_two_players_one_direction() -> None:
    st = position(2, 0, hands={0: ["most_wanted", "wes"]}, phase="play")
    asks = [a for a in st.legal_actions(0) if isinstance(a, MostWantedAsk)]
    assert asks == [MostWantedAsk(o, True) for o in range(7)]


@pytest.mark.rule("wyatt_earp", "most-wanted.steal")
@pytest.mark.rule("wyatt_earp", "most-wanted.orphans")
def test_most_wanted_steal_and_orphaned_sheriff_cards() -> None:
    """Most Wanted!, example: Burt steals Curt's only Wes Hardin card; Curt's Bank robbery on it is discarded."""
    st = position(
        3,
        1,
        territories={2: {"wes": ["wes", "bank_robbery"], "billy": ["photo:billy"]}, 1: {"wes": ["wes"] * 3}},
        hands={1: ["most_wanted", "jesse"]},
        supply=[HIT],
        phase="play",
        posters={WES: 6000},
    )
    assert MostWantedSteal() in st.legal_actions(1)
    act(st, 1, MostWantedSteal())
    assert st.legal_actions(1) == [ChooseTarget(2, WES), DeclineTarget()]  # a Photo cannot be stolen
    act(st, 1, ChooseTarget(2, WES))
    stolen = events_of(st, CardStolen)[0]
    assert stolen.card.name == "Wes Hardin" and [c.name for c in stolen.orphaned] == ["Bank robbery"]
    assert st.terr[2][WES] == []
    assert st.posters[WES] == 6000  # the reward is not reduced
    assert stolen.card.id in st.hands[1] and stolen.card.id in st.known
    act(st, 1, PlayOutlaws(WES, 1))  # playable this turn
    assert st.cp(1, WES) == 8
    check_conservation(st)


@pytest.mark.rule("wyatt_earp", "most-wanted.steal")
def test_most_wanted_steals_under_a_hideout() -> None:
    st = position(
        3,
        0,
        territories={1: {"billy": ["billy", "billy", "stagecoach_robbery"]}},
        hideouts=[(1, BILLY)],
        hands={0: ["most_wanted", "jesse"]},
        supply=[HIT, HIT],
        phase="play",
    )
    act(st, 0, MostWantedSteal())
    act(st, 0, ChooseTarget(1, BILLY))
    assert st.hideout[1][BILLY] >= 0 and len(st.terr[1][BILLY]) == 2
    # the last Outlaw card: the Stagecoach robbery and the Hideout go too
    st = position(
        3,
        0,
        territories={1: {"billy": ["billy", "stagecoach_robbery"]}},
        hideouts=[(1, BILLY)],
        hands={0: ["most_wanted", "jesse"]},
        supply=[HIT],
        phase="play",
    )
    act(st, 0, MostWantedSteal())
    act(st, 0, ChooseTarget(1, BILLY))
    assert [c.name for c in events_of(st, CardStolen)[0].orphaned] == ["Stagecoach robbery", "Hideout"]
    assert st.hideout[1][BILLY] == -1 and st.terr[1][BILLY] == []
    check_conservation(st)


@pytest.mark.rule("wyatt_earp", "most-wanted.failed-steal")
def test_most_wanted_failed_steal_cannot_ask() -> None:
    st = position(
        3,
        0,
        territories={1: {"billy": ["billy"] * 3}},
        hands={0: ["most_wanted", "jesse"]},
        supply=[MISS],
        phase="play",
    )
    act(st, 0, MostWantedSteal())
    assert st.discard[-1] in cards("most_wanted")
    assert st.legal_actions(0) == [Discard("outlaw", JESSE)]


# ---------------------------------------------------------------------------------------------- Hideout


def hideout_position(**kwargs: object) -> object:
    """Burt (seat 1) holds a Hideout; Curt (seat 2) has 2 Belle Starr cards, the Photo and a
    Stagecoach robbery: 9 CP (the rulebook's Hideout example); Anna (seat 0) 2 Belle Starr cards."""
    defaults: dict[str, object] = dict(
        territories={
            2: {"belle": ["belle", "belle", "photo:belle", "stagecoach_robbery"]},
            0: {"belle": ["belle", "belle"]},
        },
        hands={1: ["hideout", "jesse"], 2: ["wes"], 0: ["wes"]},
        supply=[HIT],
        phase="play",
        posters={BELLE: 7000},
    )
    defaults.update(kwargs)
    return position(3, 1, **defaults)  # type: ignore[arg-type]


@pytest.mark.rule("wyatt_earp", "hideout.effect")
def test_hideout_example_covers_nine_cp() -> None:
    """Hideout, example: Burt's Hideout on Curt's Belle Starr: Curt's 9 CP no longer count; the
    others have fewer than 8 CP, so if the hand ended now no reward would be paid."""
    st = hideout_position()
    assert st.cp(2, BELLE) == 9
    act(st, 1, PlaySheriff("hideout"))
    assert st.legal_actions(1) == [ChooseTarget(0, BELLE), ChooseTarget(2, BELLE)]
    act(st, 1, ChooseTarget(2, BELLE))
    assert st.cp(2, BELLE) == 0
    assert st.posters[BELLE] == 8000  # the Hideout's reward ($1,000 by default), nothing taken
    assert st.to_act == (2,) and st.phase == "hideout_response"
    assert st.legal_actions(2) == [LetHideoutStand()]  # asked even without a Wyatt Earp
    act(st, 2, LetHideoutStand())
    assert events_of(st, HideoutStands) == [HideoutStands(2, BELLE)]
    assert st.to_act == (1,) and st.phase == "play"
    act(st, 1, Discard("outlaw", JESSE))  # Burt's last card: the hand ends and is scored
    assert st.hand_no == 2
    assert st.money == [0, 0, 0]
    assert st.posters[BELLE] == 8000 + 1000  # stayed, plus the new hand's $1,000


@pytest.mark.rule("wyatt_earp", "hideout.reward")
def test_hideout_reward_option() -> None:
    st = hideout_position(options={"hideout_reward": 3000})
    act(st, 1, PlaySheriff("hideout"))
    act(st, 1, ChooseTarget(2, BELLE))
    assert st.posters[BELLE] == 10000


@pytest.mark.rule("wyatt_earp", "hideout.one-per-group")
@pytest.mark.rule("wyatt_earp", "hideout.opponents-only")
def test_hideout_one_per_group_and_never_your_own() -> None:
    st = hideout_position(hideouts=[(2, BELLE)])
    act(st, 1, PlaySheriff("hideout"))
    assert st.legal_actions(1) == [ChooseTarget(0, BELLE)]
    st = position(
        3, 1, territories={1: {"belle": ["belle"] * 3}}, hands={1: ["hideout", "jesse"]}, phase="play"
    )  # only Burt's own group
    assert sheriff_plays(st, 1) == []


@pytest.mark.rule("wyatt_earp", "hideout.effect")
def test_cards_under_a_hideout_do_not_count() -> None:
    st = position(
        3,
        0,
        territories={0: {"billy": ["billy"] * 3}},
        hideouts=[(0, BILLY)],
        hands={0: ["billy", "wes"]},
        phase="play",
    )
    act(st, 0, PlayOutlaws(BILLY, 1))
    assert st.cp(0, BILLY) == 0
    assert st.view(1).players[0].territory[0].printed_cp == 8


@pytest.mark.rule("wyatt_earp", "wyatt-earp.out-of-turn")
@pytest.mark.rule("wyatt_earp", "wyatt-earp.out-of-turn-asked")
def test_wyatt_earp_answers_a_hideout_out_of_turn() -> None:
    st = hideout_position(hands={1: ["hideout", "jesse"], 2: ["wyatt_earp", "wes"], 0: ["wes"]}, supply=[HIT, HIT])
    act(st, 1, PlaySheriff("hideout"))
    act(st, 1, ChooseTarget(2, BELLE))
    assert st.legal_actions(2) == [WyattEarpRemoveHideout(), LetHideoutStand()]
    act(st, 2, WyattEarpRemoveHideout())
    assert events_of(st, HideoutRemoved)[0].outlaw == BELLE
    assert st.hideout[2][BELLE] == -1 and st.cp(2, BELLE) == 9
    assert st.posters[BELLE] == 8000  # the Hideout's reward stays
    assert st.to_act == (1,) and st.phase == "play"
    assert not any(isinstance(a, PlaySheriff) for a in st.legal_actions(1))
    check_conservation(st)


@pytest.mark.rule("wyatt_earp", "wyatt-earp.out-of-turn")
def test_wyatt_earp_out_of_turn_miss_leaves_the_hideout() -> None:
    st = hideout_position(hands={1: ["hideout", "jesse"], 2: ["wyatt_earp", "wes"], 0: ["wes"]}, supply=[MISS, HIT])
    act(st, 1, PlaySheriff("hideout"))
    act(st, 1, ChooseTarget(2, BELLE))
    act(st, 2, WyattEarpRemoveHideout())
    assert st.hideout[2][BELLE] >= 0 and st.cp(2, BELLE) == 0
    assert st.discard[-2] in cards("wyatt_earp") and st.discard[-1] in cards(MISS)
    assert st.to_act == (1,)


# ---------------------------------------------------------------------------------------------- Wyatt Earp


@pytest.mark.rule("wyatt_earp", "wyatt-earp.draw-two")
def test_wyatt_earp_draw_two() -> None:
    st = position(3, 0, hands={0: ["wyatt_earp", "bank_robbery"]}, supply=["jesse", "belle"], phase="play")
    act(st, 0, WyattEarpDraw())
    assert hand_kinds(st, 0) == sorted([kind("bank_robbery"), kind("belle"), kind("jesse")])
    assert events_of(st, CardsDrawn, 1)[-1] == CardsDrawn(0, 2, "wyatt_earp")
    assert st.discard[-1] in cards("wyatt_earp")
    assert sheriff_plays(st, 0) == []  # no second Sheriff card


@pytest.mark.rule("wyatt_earp", "wyatt-earp.search")
def test_wyatt_earp_search_never_takes_a_wyatt_earp() -> None:
    st = position(
        3,
        0,
        territories={0: {"billy": ["billy"] * 3}},
        hands={0: ["wyatt_earp", "jesse"]},
        discard=["wyatt_earp", "bank_robbery", "billy", "belle"],
        supply=[HIT],
        phase="play",
    )
    assert [a for a in st.legal_actions(0) if isinstance(a, WyattEarpSearch)] == [WyattEarpSearch()]
    act(st, 0, WyattEarpSearch())
    assert st.legal_actions(0) == [
        WyattEarpTake("outlaw", BILLY),
        WyattEarpTake("outlaw", BELLE),
        WyattEarpTake("bank_robbery", -1),
    ]
    act(st, 0, WyattEarpTake("bank_robbery", -1))
    # the one exception: the Sheriff card taken may be played immediately
    assert st.view(0).immediate is not None and st.view(0).immediate.name == "Bank robbery"
    assert st.view(1).immediate is None  # the others did not see which card was taken
    assert sheriff_plays(st, 0) == [PlaySheriff("bank_robbery")]
    act(st, 0, PlaySheriff("bank_robbery"))
    act(st, 0, ChooseTarget(0, BILLY))
    assert st.cp(0, BILLY) == 8
    assert sheriff_plays(st, 0) == []


@pytest.mark.rule("wyatt_earp", "wyatt-earp.search")
def test_wyatt_earp_search_sheriff_card_not_played_at_once_is_kept() -> None:
    st = position(
        3,
        0,
        territories={0: {"billy": ["billy"] * 3}},
        hands={0: ["wyatt_earp", "jesse", "billy"]},
        discard=["bank_robbery"],
        phase="play",
    )
    act(st, 0, WyattEarpSearch())
    act(st, 0, WyattEarpTake("bank_robbery", -1))
    act(st, 0, PlayOutlaws(BILLY, 1))
    assert sheriff_plays(st, 0) == []
    assert kind("bank_robbery") in hand_kinds(st, 0)


@pytest.mark.rule("wyatt_earp", "wyatt-earp.remove-hideout")
def test_wyatt_earp_removes_your_hideout_on_your_turn() -> None:
    st = position(
        3,
        0,
        territories={0: {"billy": ["billy"] * 3, "jesse": ["jesse"] * 3}},
        hideouts=[(0, JESSE)],
        hands={0: ["wyatt_earp", "wes"]},
        supply=[HIT],
        phase="play",
    )
    act(st, 0, WyattEarpRemoveHideout())
    assert st.legal_actions(0) == [ChooseTarget(0, JESSE), DeclineTarget()]
    act(st, 0, ChooseTarget(0, JESSE))
    assert st.hideout[0][JESSE] == -1 and st.cp(0, JESSE) == 6
    assert st.discard[-1] in cards("hideout")
    check_conservation(st)


# ---------------------------------------------------------------------------------------------- free_photo option


@pytest.mark.rule("wyatt_earp", "options.free-photo")
def test_free_photo_option_out_of_turn() -> None:
    options = {"free_photo": True}
    st = position(4, 0, hands={0: ["billy"] * 3 + ["wes"], 2: ["photo:billy", "jesse"]}, phase="play", options=options)
    act(st, 0, PlayOutlaws(BILLY, 3))
    assert st.phase == "free_photo" and st.to_act == (1,)
    assert st.legal_actions(1) == [DeclinePhoto()]
    act(st, 1, DeclinePhoto())
    assert st.to_act == (2,) and st.legal_actions(2) == [PlayPhoto(BILLY), DeclinePhoto()]
    act(st, 2, PlayPhoto(BILLY))
    assert events_of(st, PhotoPlayed)[0].out_of_turn
    assert events_of(st, PhotoDeclined) == [PhotoDeclined(1, BILLY)]
    assert st.cp(2, BILLY) == 4 and st.posters[BILLY] == 4000
    assert st.to_act == (0,) and st.phase == "play"
    act(st, 0, DISCARD[WES])
    assert st.to_act == (1,)


@pytest.mark.rule("wyatt_earp", "options.free-photo")
def test_free_photo_option_off_or_photo_face_up() -> None:
    st = position(4, 0, hands={0: ["billy"] * 3 + ["wes"], 2: ["photo:billy", "jesse"]}, phase="play")
    act(st, 0, PlayOutlaws(BILLY, 3))
    assert st.phase == "play"
    st = position(
        4, 0, hands={0: ["billy"] * 3 + ["wes"]}, discard=["photo:billy"], phase="play", options={"free_photo": True}
    )
    act(st, 0, PlayOutlaws(BILLY, 3))
    assert st.phase == "play"
    st = position(
        4, 0, hands={0: ["billy"] * 3 + ["wes"], 3: ["jesse"]}, phase="play", options={"free_photo": True}
    )  # the Photo is in the supply: everyone is asked, nobody plays it
    act(st, 0, PlayOutlaws(BILLY, 3))
    for seat in (1, 2, 3):
        act(st, seat, DeclinePhoto())
    assert st.to_act == (0,) and st.phase == "play"
