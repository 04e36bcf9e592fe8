"""What a playout is worth to the searching seat: a finished hand's margin (a won Tute game, a tute
declared, a Pocha hand's score against the others')."""

from __future__ import annotations

import random

from games.engine.hands import OVER
from games.engine.table import Table

from ..solver import TUTE_VALUE, WIN_BONUS
from .policy import policy


def _pocha_value(table: Table, seat: int) -> float:
    """The hand just finished: the seat's score against the other seats' mean."""
    scores = table.hand_results[-1].scores
    return scores[seat] - (sum(scores) - scores[seat]) / (len(scores) - 1)


def _tute_value(table: Table, seat: int) -> float:
    side = table.side_of(seat)
    scores = table.result_scores
    margin = scores[side] - scores[1 - side]
    if table.tute_by >= 0:
        return TUTE_VALUE if side in table.result_winners else -TUTE_VALUE
    return margin + (WIN_BONUS if side in table.result_winners else -WIN_BONUS)


def hand_value(table: Table, seat: int) -> float:
    """The hand just finished, for ``seat``: Tute's margin and win bonus (or a tute), Pocha's score
    against the others' mean."""
    return _tute_value(table, seat) if table.rules.is_tute else _pocha_value(table, seat)


def playout_value(table: Table, seat: int, rng: random.Random) -> float:
    """Play the hand out in place with the policy: the seat's value at its end."""
    if table.rules.is_tute:
        while table.phase != OVER:
            table.step(policy(table, rng))
        return _tute_value(table, seat)
    hand = table.hand_no
    while table.hand_no == hand and table.phase != OVER:
        table.step(policy(table, rng))
    return _pocha_value(table, seat)
