"""The search bot's decision (``SearchBot``) and the bench-only cheat (``CheatBot``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from games.engine import SeatView
from games.engine.actions import ACTION_OF_CODE, CODE_OF_ACTION
from games.engine.sampling import DealSampler
from games.engine.table import Table

from ..rule import choose as rule_choose
from ..solver import Solver
from .budget import TUTE4_BUDGET, Budget
from .values import playout_value


class Tally:
    """Per action, the values its playouts or solves scored, summed over the deals it was scored on.
    ``deal`` (the deal's index) and ``key`` (the round) are what ``bench/lab``'s tallies weigh and pair by."""

    __slots__ = ("counts", "totals")

    def __init__(self, actions: list[int]) -> None:
        self.totals = dict.fromkeys(actions, 0.0)
        self.counts = dict.fromkeys(actions, 0)

    def add(self, action: int, key: int, deal: int, value: float) -> None:
        self.totals[action] += value
        self.counts[action] += 1

    def mean(self, action: int) -> float:
        return self.totals[action] / self.counts[action]


class SearchBot:
    """A bot (``games.bots.Bot``): ``bot(view, legal, rng)``; ``choose_full`` is the bench-only cheat."""

    def __init__(self, budget: Budget | None = None, *, tute4: Budget | None = None) -> None:
        """``budget`` for every game; ``tute4``, Tute 4's own (by default ``TUTE4_BUDGET`` when no budget
        is given, else ``budget``): its three hidden hands are measured apart (docs/PERFORMANCE.md)."""
        self.budget = budget or Budget()
        self.tute4 = tute4 or (budget if budget is not None else TUTE4_BUDGET)

    def budget_for(self, game: str) -> Budget:
        return self.tute4 if game == "tute4" else self.budget

    def __call__(self, view: SeatView, legal: tuple[str, ...], rng: random.Random, /) -> str:
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        assert view.seat is not None
        budget = self.budget_for(view.game)
        tables = self.sample(view, budget, rng)
        if not tables:
            return rule_choose(view, legal, rng)  # a rare spot the sampler cannot fill
        guide = None
        if budget.prior and view.game != "pocha":
            # Tute only: in Pocha the playouts are clearly stronger than the rule bot (docs/PERFORMANCE.md)
            guide = rule_guide(view, legal, rng)
        return self.decide(tables, legal, view.seat, rng, guide=guide)

    def sample(self, view: SeatView, budget: Budget, rng: random.Random) -> list[Table]:
        """The deals the decision is searched on: ``samples`` drawn, those the sampler filled kept."""
        sampler = DealSampler(view)
        if view.game == "tute2" and view.stock_size == 0 and view.faceup is None:
            samples = 1  # every card is known: the one deal is the real one
        else:
            samples = budget.samples
        tables = [sampler.sample(rng) for _ in range(samples)]
        return [table for table in tables if table is not None]

    def choose_full(self, table: Table, legal: tuple[str, ...], rng: random.Random) -> str:
        """The cheat: the same search on the real deal (every hand seen). Bench only, never offered."""
        if len(legal) == 1:
            return legal[0]
        return self.decide([table.clone()], legal, table.to_act, rng, repeat=True)

    # -- the decision -----------------------------------------------------------------------------
    def decide(
        self,
        tables: list[Table],
        legal: tuple[str, ...],
        seat: int,
        rng: random.Random,
        *,
        repeat: bool = False,
        guide: Callable[[], int] | None = None,
        tally: Tally | None = None,
    ) -> str:
        """The best of ``legal`` for ``seat`` over ``tables`` (deals at the decision, the seat to act):
        each action played out or, once few cards are left, solved exactly on each deal; ``repeat``: more
        playouts than deals (the cheat's one deal), ``guide``: the rule bot's choice (``prior`` points
        more), ``tally``: where the values are summed (by default a plain ``Tally``)."""
        budget = self.budget_for(tables[0].rules.game)
        actions = [ACTION_OF_CODE[code] for code in legal]
        exact = self.exact(tables[0], budget)
        if exact and len(tables) == 1:
            table = tables[0]
            available = table.legal_ids()
            choice = Solver(table, seat, budget.solve_nodes * 4).best(
                table, [a for a in actions if a in available]
            )
            if choice is not None:
                return CODE_OF_ACTION[choice]
        tally = tally or Tally(actions)
        if exact:
            self.solve(tables, actions, seat, rng, budget, tally)
        else:
            self.play_out(tables, actions, seat, rng, budget, tally, repeat)
        scored = [a for a in actions if tally.counts[a]]
        if not scored:
            return legal[0]
        # the rule bot's choice, where the playouts (not an exact solve) decide
        prior = guide() if guide is not None and not exact else None
        return CODE_OF_ACTION[self.pick(tally, scored, prior, exact, budget)]

    @staticmethod
    def exact(first: Table, budget: Budget) -> bool:
        """Whether the deals are solved exactly: Tute 2 once the stock is drawn (before, the deal's stock
        would be searched), Tute 4 once at most ``solve_cards`` cards are left."""
        if first.rules.has_stock:
            return first.faceup < 0 and first.stock_size == 0
        cards_left = sum(h.bit_count() for h in first.hands) + len(first.trick)
        return first.rules.is_tute and cards_left <= budget.solve_cards

    def solve(
        self,
        tables: list[Table],
        actions: list[int],
        seat: int,
        rng: random.Random,
        budget: Budget,
        tally: Tally,
    ) -> None:
        """Each action solved exactly on the deals (the costly decisions: at most ``solve_samples`` of
        them in Tute 4), a playout where the solver runs past its node budget."""
        solved = budget.solve_samples if not tables[0].rules.has_stock else len(tables)
        for index, table in enumerate(tables[:solved]):
            solver = Solver(table, seat, budget.solve_nodes)
            for action in actions:
                if action in table.legal_ids():
                    child = table.clone()
                    child.step(action)
                    value = solver.value(child)
                    if value is None:  # past its node budget: a playout instead
                        value = self.playout(child, seat, rng, budget)
                    tally.add(action, index, index, value)

    def play_out(
        self,
        tables: list[Table],
        actions: list[int],
        seat: int,
        rng: random.Random,
        budget: Budget,
        tally: Tally,
        repeat: bool,
    ) -> None:
        """Each action played out on the deals in turn, ``playouts`` in all (at most one round per deal
        unless ``repeat``), every action's playout on a deal sharing its randomness."""
        rounds = max(1, budget.playouts // max(1, len(actions)))
        if not repeat:
            rounds = min(rounds, len(tables))
        for r in range(rounds):
            table = tables[r % len(tables)]
            available = table.legal_ids()
            seed = rng.random()
            for action in actions:
                if action not in available:
                    continue  # the sample's own window differs (a draw the view does not show)
                child = table.clone()
                child.step(action)
                tally.add(action, r, r % len(tables), self.playout(child, seat, random.Random(seed), budget))

    def playout(self, table: Table, seat: int, rng: random.Random, budget: Budget) -> float:
        """One playout's value for ``seat`` (``budget``: what ``bench/lab``'s playouts read)."""
        return playout_value(table, seat, rng)

    def pick(self, tally: Tally, scored: list[int], prior: int | None, exact: bool, budget: Budget) -> int:
        """The best mean of ``scored``, ``prior`` (the rule bot's choice) ``budget.prior`` points more."""
        return max(scored, key=lambda a: (tally.mean(a) + (budget.prior if a == prior else 0.0), -a))


def rule_guide(view: SeatView, legal: tuple[str, ...], rng: random.Random) -> Callable[[], int]:
    """The rule bot's choice at ``view``, asked only where the playouts decide; its own ``rng`` is drawn
    now, so the search's stream is the same whether it is asked or not."""
    guide_rng = random.Random(rng.random())

    def guide() -> int:
        return ACTION_OF_CODE[rule_choose(view, legal, guide_rng)]

    return guide


class CheatBot:
    """The bench's ceiling: the search bot's search on the real deal, every hand seen. It cannot play
    from a view (``arena`` hands it the state), is not registered, and is never offered to users."""

    sees_all: Final = True

    def __init__(self, budget: Budget | None = None) -> None:
        self.search = SearchBot(budget)
        #: the solver of the deal being played, by (deal, rules, side): its memory of the positions it
        #: searched serves every later decision of that side, so a deep solve is paid once a game
        self._solver: tuple[object, Solver] | None = None

    def __call__(self, view: SeatView, legal: tuple[str, ...], rng: random.Random, /) -> str:
        raise TypeError("the cheat bot sees every hand: only the bench's arena can seat it")

    def choose_seeing_all(self, table: Table, legal: tuple[str, ...], rng: random.Random) -> str:
        budget = self.search.budget_for(table.rules.game)
        cards_left = sum(h.bit_count() for h in table.hands) + len(table.trick)
        if (
            len(legal) > 1
            and table.rules.is_tute
            and not table.rules.has_stock
            and cards_left <= budget.solve_cards
        ):
            key = (table.decks, table.rules, table.side_of(table.to_act))
            if self._solver is None or self._solver[0] != key:
                self._solver = (key, Solver(table, table.to_act, budget.solve_nodes * 4))
            available = table.legal_ids()
            choice = self._solver[1].best(
                table, [a for a in map(ACTION_OF_CODE.__getitem__, legal) if a in available]
            )
            if choice is not None:
                return CODE_OF_ACTION[choice]
        return self.search.choose_full(table, legal, rng)
