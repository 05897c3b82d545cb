"""The 3 Laws of Deadwood that the engine enforces (rulebook: THE 3 LAWS OF DEADWOOD).

1. Safe order is kept: rows are only shuffled by :func:`shuffle_row`, right after their owner
   gains a Safe from a Robbery or a Heist.
2. Nobody shows their cards: enforced by the views.
3. The 3-Safe limit, until the Badge Round begins: :func:`gain_safe` and the ``give_safe`` phase.
"""

from __future__ import annotations

from engine.deadwood1876.actions import GiveSafe
from engine.deadwood1876.events import SafeGiven, SafesShuffled
from engine.deadwood1876.state import DeadwoodState


def gain_safe(st: DeadwoodState, seat: int, safe: int, after: str) -> None:
    """``seat`` gains ``safe`` from a Robbery or a Heist, then ``after`` continues the game.

    The Safe is laid at the right end of the row. If that makes more Safes than the limit (3)
    and the Badge Round has not begun, the player first gives one away (``give_safe`` phase);
    then the player shuffles their row (First Law). ``after`` is ``"end_turn"`` or ``"heist_done"``.
    Under ``prototype_rules`` the Dutch Third Law shuffles first and then gives one away.
    """
    st.rows[seat].append(safe)
    if st.badge == 0 and len(st.rows[seat]) > st.comp.safe_limit:
        if st.options.prototype_rules:
            shuffle_row(st, seat)
        st.giver = seat
        st.after_gain = after
        st.wait_for((seat,), "give_safe")
        return
    shuffle_row(st, seat)
    carry_on(st, after)


def shuffle_row(st: DeadwoodState, seat: int) -> None:
    """First Law: shuffle ``seat``'s row; others no longer know where its Safes lie.

    Safes with a Holster attached can't be shuffled (2-3 players), and revealed Badges lie face
    up: both keep their places and stay known (the Badges' place is a decision, listed with the
    others in the game docstring, :mod:`engine.deadwood1876`). A row of one loose Safe is
    unchanged by shuffling, so it stays known too.
    """
    row = st.rows[seat]
    loose = [i for i, s in enumerate(row) if s not in st.safe_holster and s not in st.revealed]
    moving = [row[i] for i in loose]
    st.chance.shuffle(moving)
    for i, s in zip(loose, moving, strict=True):
        row[i] = s
    if len(moving) > 1:
        here = set(moving)
        for other in range(st.n):
            if other != seat:
                st.known[other] -= here
    st.emit(SafesShuffled(seat))


def recipients(st: DeadwoodState, giver: int) -> list[int]:
    """Third Law: the other players (the Stranger counts as one) with the fewest Safes; the
    giver picks among ties."""
    others = [p for p in range(st.m) if p != giver]
    fewest = min(len(st.rows[p]) for p in others)
    return [p for p in others if len(st.rows[p]) == fewest]


def legal_give_safe(st: DeadwoodState, seat: int) -> list[GiveSafe]:
    """Any Safe of the row (the new one included) to any player with the fewest Safes."""
    to = recipients(st, seat)
    return [GiveSafe(i, r) for i in range(len(st.rows[seat])) for r in to]


def apply_give_safe(st: DeadwoodState, seat: int, action: GiveSafe) -> None:
    """Give the Safe (the recipient may not shuffle), then the giver shuffles and play goes on."""
    safe = st.rows[seat].pop(action.index)
    st.rows[action.recipient].append(safe)
    st.known[seat].add(safe)
    label = st.comp.safe_label(safe)
    pair = (seat, action.recipient)
    st.emit(
        SafeGiven(seat, action.recipient, action.index), pair, SafeGiven(seat, action.recipient, action.index, label)
    )
    st.giver = -1
    after, st.after_gain = st.after_gain, ""
    if not st.options.prototype_rules:
        shuffle_row(st, seat)
    carry_on(st, after)


def carry_on(st: DeadwoodState, after: str) -> None:
    """Continue after a Safe was gained: end the turn, or finish the Heist (:func:`.turn.end_turn`
    or :func:`.heist.finish_heist`, reached through the game's ``steps``: those modules import this one)."""
    if after == "end_turn":
        st.game.steps["end_turn"](st)
    else:
        st.game.steps["finish_heist"](st)
