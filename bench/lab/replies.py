"""Tute 2 stock-phase leads scored against the other seat's best reply (a two-ply search over deals).

Perfect-information Monte Carlo lets the playout policy answer each lead. Here every reply the duties
allow is tried, and the other seat is taken to answer with the one that is best for it on what it can
tell apart: its own hand. Each sampled deal fixes its hand; the stock is shuffled afresh ``reshuffles``
times under it (the other seat cannot see the stock's order either), the reply's value is its mean over
those, and the lead's value on that hand is the worst of its replies. Every lead and reply on a deal
shares the playouts' randomness, so their differences are paired.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

from games.engine.actions import ACTION_OF_CODE, CODE_OF_ACTION, EXCHANGE
from games.engine.table import Table

from .budget import LabBudget
from .values import lab_playout_value


def reshuffled(table: Table, rng: random.Random) -> Table:
    """A copy of ``table`` with the undrawn stock in a new order (the face-up card stays)."""
    copy = table.clone()
    rest = list(copy.stock[copy.stock_pos :])
    rng.shuffle(rest)
    copy.stock = copy.stock[: copy.stock_pos] + tuple(rest)
    return copy


def lead_values(
    deals: list[Table],
    seat: int,
    actions: list[int],
    rng: random.Random,
    reshuffles: int,
    *,
    value: Callable[[Table, int, random.Random], float] = lab_playout_value,
) -> dict[int, list[float]]:
    """Each card led's value on each deal it is legal in: the other seat's best reply's mean over
    ``reshuffles`` stock orders. ``value`` scores a position for the seat (a playout)."""
    out: dict[int, list[float]] = {a: [] for a in actions}
    for deal in deals:
        orders = [reshuffled(deal, rng) for _ in range(reshuffles)]
        seeds = [rng.random() for _ in range(reshuffles)]
        available = deal.legal_ids()
        for action in actions:
            if action not in available:
                continue
            child = deal.clone()
            child.step(action)
            replies = child.legal_ids() if child.to_act != seat else [-1]
            worst = float("inf")
            for reply in replies:
                total = 0.0
                for order, seed in zip(orders, seeds, strict=True):
                    line = order.clone()
                    line.step(action)
                    if reply >= 0:
                        line.step(reply)
                    total += value(line, seat, random.Random(seed))
                worst = min(worst, total / reshuffles)
            out[action].append(worst)
    return out


def decide(
    deals: list[Table],
    legal: tuple[str, ...],
    seat: int,
    rng: random.Random,
    budget: LabBudget,
    prior: int | None,
) -> str | None:
    """A lead of Tute 2's stock phase by this search, plus ``budget.prior`` points for the rule bot's
    choice ``prior``; None where the seat is not leading a card (the caller's search decides: a swap or
    cante on offer is compared with the leads by the playouts alone)."""
    actions = [ACTION_OF_CODE[code] for code in legal]
    if deals[0].trick or deals[0].faceup < 0 or any(a >= EXCHANGE for a in actions):
        return None
    value = partial(lab_playout_value, horizon=budget.horizon, weights=budget.weights)
    values = lead_values(deals, seat, actions, rng, max(1, budget.reshuffles), value=value)
    scored = [a for a in actions if values[a]]
    if not scored:
        return None

    def key(a: int) -> tuple[float, int]:
        return (sum(values[a]) / len(values[a]) + (budget.prior if a == prior else 0.0), -a)

    return CODE_OF_ACTION[max(scored, key=key)]
