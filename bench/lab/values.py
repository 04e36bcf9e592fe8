"""Playouts for the lab's variants: the lab policy (``LabWeights``), and in Tute a ``horizon`` of tricks
after which the position is scored by an estimate instead of being played to its end."""

from __future__ import annotations

import random
from typing import Final

from games.bots.search.policy import PolicyWeights
from games.bots.search.values import hand_value
from games.engine.cards import PAIR_MASK, POINTS, STRENGTH, SUIT_OF
from games.engine.hands import OVER, PARTNER_SINGING
from games.engine.table import Table

from .policy import LAB_WEIGHTS, lab_policy

#: A hand's worth where a playout stops early: per trump (base and per step of strength), per card point
#: of a side card, and the share of a pair still to sing.
EST_TRUMP: Final = 4.0
EST_TRUMP_SLOPE: Final = 1.0
EST_POINTS: Final = 0.4
EST_PAIR: Final = 0.7


def lab_playout_value(
    table: Table,
    seat: int,
    rng: random.Random,
    horizon: int = 0,
    weights: PolicyWeights = LAB_WEIGHTS,
) -> float:
    """Play the hand out in place with the lab policy; the seat's value at its end, or after ``horizon``
    more tricks (Tute), scored as the margin so far and what the hands left are worth."""
    if table.rules.is_tute:
        stop = table.tricks_done + horizon + (1 if table.trick else 0) if horizon else 1 << 30
        while table.phase != OVER:
            if table.tricks_done >= stop and not table.trick and table.phase != PARTNER_SINGING:
                return _tute_estimate(table, seat)
            table.step(lab_policy(table, rng, weights))
        return hand_value(table, seat)
    hand = table.hand_no
    while table.hand_no == hand and table.phase != OVER:
        table.step(lab_policy(table, rng, weights))
    return hand_value(table, seat)


def _tute_estimate(t: Table, seat: int) -> float:
    """A Tute position mid-hand: the margin so far plus the worth of each side's hand (trumps by
    strength, pairs still to sing, the aces and threes that will take points)."""
    side = t.side_of(seat)
    scores = t.side_scores()
    value = float(scores[side] - scores[1 - side])
    for other in range(t.n):
        worth = _hand_worth(t, other)
        value += worth if t.side_of(other) == side else -worth
    return value


def _hand_worth(t: Table, seat: int) -> float:
    hand = t.hands[seat]
    trump = t.trump
    worth = 0.0
    cards = hand
    while cards:
        low = cards & -cards
        card = low.bit_length() - 1
        cards ^= low
        if SUIT_OF[card] == trump:
            worth += EST_TRUMP + EST_TRUMP_SLOPE * STRENGTH[card]
        else:
            worth += EST_POINTS * POINTS[card]
    if t.rules.cantes_in_arrastre or t.faceup >= 0:
        for suit in range(4):
            if not (t.sung >> suit) & 1 and hand & PAIR_MASK[suit] == PAIR_MASK[suit]:
                worth += EST_PAIR * (40 if suit == trump else 20)
    return worth
