"""Wyatt Earp: tests for the rules of ``docs/rules/wyatt_earp.md`` that no other test checked.

The data's assumptions (``shared/data/wyatt_earp/NOTES.md``): the poster order and an unlimited
bank. Each test names its rule with ``@pytest.mark.rule`` (see ``saloon/rules_doc.py``).
"""

from __future__ import annotations

import pytest

from engine.wyatt_earp.actions import Discard
from engine.wyatt_earp.events import OutlawScored
from tests.wyatt_earp_helpers import BUTCH, COMP, WES, act, events_of, position


@pytest.mark.rule("wyatt_earp", "components.poster-order")
def test_posters_in_the_assumed_order_and_scored_in_it():
    """Setup: the seven posters in a circle (ASSUMED order, NOTES.md); Scoring goes poster by poster in that
    order ("Begin with any reward poster", so the order changes no result)."""
    assert COMP.outlaw_names == (
        "Billy the Kid",
        "Jesse James",
        "Wes Hardin",
        "Belle Starr",
        "Bob Dalton",
        "Butch Cassidy",
        "Sundance Kid",
    )
    st = position(2, 0, hands={0: ["wes"]}, phase="play")
    act(st, 0, Discard("outlaw", WES))
    assert [e.outlaw for e in events_of(st, OutlawScored)] == list(range(7))


@pytest.mark.rule("wyatt_earp", "setup.bank")
def test_the_bank_never_runs_out_and_money_is_dollars():
    """Setup, the Bank (ASSUMED unlimited, NOTES.md): a capture worth more than all 60 x $1,000 and
    18 x $5,000 tokens ($150,000) is paid in full; money is a plain number of dollars."""
    territories = {0: {"butch": ["butch", "butch", "butch", "photo:butch"]}}
    st = position(2, 0, territories=territories, hands={0: ["wes"]}, posters={BUTCH: 200_000}, phase="play")
    act(st, 0, Discard("outlaw", WES))
    assert st.money == [200_000, 0]
    assert st.is_over and st.outcome.winners == (0,)
    assert st.posters[BUTCH] == 0
