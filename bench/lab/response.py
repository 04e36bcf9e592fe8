"""Best responses to the rule bot: the ceilings of issue 33, bench only (docs/PERFORMANCE.md, "Ceilings").

The rule bot is a fixed, deterministic policy whose code we have, so the most any bot can take from it
is a best response to that policy, not the minimax value the ``cheat`` plays for. Two are measured:

- ``BestResponse`` (``--bot br``) sees every card (the stock's order too) and, at each of its decisions,
  plays each legal action out with the rule bot at every seat (its own included) and keeps the best: a
  one-step best response, the rule bot's own choice simulated exactly at its seats. A one-step response
  is itself a lower bound on the full best response (which would also re-optimise its later moves).
- ``FairBestResponse`` (``--bot fairbr``) does the same from its seat's view only: on deals sampled from
  that view and kept only where the rule bot, given the hand the deal puts at its seat, would have made
  every choice it was seen making; each action played out with the rule bot on those deals. What it
  takes is what a fair bot that models this opponent exactly can reach with this evaluation.

Once every card is known and the rule bot solves exactly (Tute 2 after the stock; Tute 4's last
``SOLVE_CARDS`` cards, where the rule bot samples deals and solves each), a playout is cut and the rest
is the exact solver's value: the rule bot plays that endgame as the solver does, and the response cannot
beat a perfect player of a perfect-information rest. The playouts use fresh randomness for the rule bot's
endgame deals (Tute 4's last four tricks), the only place it draws.
"""

from __future__ import annotations

import random
from typing import Final

from games.bots.rule import choose as rule_choose
from games.bots.search.values import hand_value
from games.bots.solver import Solver
from games.engine import SeatView
from games.engine.actions import ACTION_OF_CODE, CODE_OF_ACTION
from games.engine.hands import OVER
from games.engine.sampling import DealSampler
from games.engine.table import Table
from games.engine.views import seat_view

#: Tute 4: cards left (hands and table) from which a playout is solved exactly instead.
SOLVE_CARDS: Final = 16
SOLVE_NODES: Final = 200_000


class Rejected(Exception):
    """A sampled deal in which the rule bot would have chosen otherwise than it did."""


def rule_action(table: Table, legal: list[int], rng: random.Random) -> int:
    """The rule bot's action at the seat to act, from that seat's view of ``table``."""
    codes = tuple(CODE_OF_ACTION[a] for a in legal)
    return ACTION_OF_CODE[rule_choose(seat_view(table, table.to_act, None), codes, rng)]


def rule_step(table: Table, rng: random.Random) -> None:
    """One action of the rule bot at the seat to act, in place."""
    legal = table.legal_ids()
    table.step(legal[0] if len(legal) == 1 else rule_action(table, legal, rng))


def solvable(table: Table) -> bool:
    """Whether the rest is played as the exact solver plays it (see the module's docstring)."""
    if not table.rules.is_tute:
        return False
    if table.rules.has_stock:
        return table.faceup < 0 and table.stock_size == 0
    return sum(h.bit_count() for h in table.hands) + len(table.trick) <= SOLVE_CARDS


def rule_value(table: Table, seat: int, rng: random.Random) -> float:
    """``table`` played out in place by the rule bot at every seat: ``seat``'s value of the hand (the
    search's scale: Tute's margin and win bonus, Pocha's score against the others' mean)."""
    hand = table.hand_no
    while table.phase != OVER and table.hand_no == hand:
        if solvable(table):
            value = Solver(table, seat, SOLVE_NODES).value(table)
            if value is not None:
                return value
        rule_step(table, rng)
    return hand_value(table, seat)


def best_action(tables: list[Table], legal: tuple[str, ...], seat: int, rng: random.Random) -> str:
    """The action of ``legal`` whose rule-bot playouts score best for ``seat``, summed over ``tables``."""
    totals: dict[str, float] = {}
    for table in tables:
        available = table.legal_ids()
        seed = rng.random()
        for code in legal:
            action = ACTION_OF_CODE[code]
            if action not in available:
                continue
            child = table.clone()
            child.step(action)
            totals[code] = totals.get(code, 0.0) + rule_value(child, seat, random.Random(seed))
    if not totals:
        return legal[0]
    return max(legal, key=lambda c: (totals.get(c, float("-inf")), c))


class BestResponse:
    """``--bot br``: the one-step best response to the rule bot, every card seen (bench only)."""

    sees_all: Final = True

    def __call__(self, view: SeatView, legal: tuple[str, ...], rng: random.Random, /) -> str:
        raise TypeError("the best response sees every hand: only the bench's arena can seat it")

    def choose_seeing_all(self, table: Table, legal: tuple[str, ...], rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        return best_action([table], legal, table.to_act, rng)


class FairBestResponse:
    """``--bot fairbr``: the best response from the seat's view, on deals the rule bot's observed choices
    fit exactly (see the module's docstring). ``samples`` deals kept a decision, at most ``tries``
    drawn; with none kept (a choice no deal explains), deals sampled without the filter."""

    def __init__(self, samples: int = 8, tries: int = 400) -> None:
        self.samples = samples
        self.tries = tries
        self.kept = 0
        self.drawn = 0

    def __call__(self, view: SeatView, legal: tuple[str, ...], rng: random.Random, /) -> str:
        if len(legal) == 1:
            return legal[0]
        assert view.seat is not None
        tables = self.consistent(view, rng)
        if not tables:
            return rule_choose(view, legal, rng)
        return best_action(tables, legal, view.seat, rng)

    def consistent(self, view: SeatView, rng: random.Random) -> list[Table]:
        """Deals sampled from ``view`` in which every choice of another seat is the rule bot's."""
        sampler = DealSampler(view)
        seat = view.seat
        if view.game == "tute2" and view.stock_size == 0 and view.faceup is None:
            table = sampler.sample(rng)
            return [table] if table is not None else []
        watch_rng = random.Random(rng.random())

        def watch(table: Table, legal: list[int], action: int) -> None:
            if table.to_act != seat and rule_action(table, legal, watch_rng) != action:
                raise Rejected

        kept: list[Table] = []
        for _ in range(self.tries):
            if len(kept) >= self.samples:
                break
            self.drawn += 1
            try:
                table = sampler.sample(rng, watch)
            except Rejected:
                continue
            if table is not None:
                kept.append(table)
        self.kept += len(kept)
        if kept:
            return kept
        loose = [sampler.sample(rng) for _ in range(self.samples)]
        return [t for t in loose if t is not None]
