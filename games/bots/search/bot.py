"""The search bot's decision (``SearchBot``) and the bench-only cheat (``CheatBot``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from games.engine import SeatView
from games.engine.actions import ACTION_OF_CODE, CODE_OF_ACTION
from games.engine.sampling import DealSampler
from games.engine.table import Table

from ..rule import card_scores, read_view
from ..rule import choose as rule_choose
from ..solver import Solver
from .budget import TUTE4_BUDGET, Budget
from .policy import greedy
from .values import playout_value


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
        if (
            budget.windows
            and view.game != "pocha"
            and (view.game != "tute2" or view.faceup is not None)  # Tute 2's arrastre: the exact solve
            and any(not code.startswith("play:") for code in legal)
        ):
            window = rule_choose(view, legal, rng)
            if not window.startswith("play:"):
                return window
        sampler = DealSampler(view)
        if view.game == "tute2" and view.stock_size == 0 and view.faceup is None:
            samples = 1  # every card is known: the one deal is the real one
        else:
            samples = budget.samples
        tables: list[Table] = []
        weights: list[float] = []
        for _ in range(samples):
            table = None
            weight = 1.0
            for _ in range(budget.draws if budget.mismatch < 1.0 and samples > 1 else 1):
                seen = [1.0]

                def watch(t: Table, legal: list[int], action: int, seen: list[float] = seen) -> None:
                    if t.to_act != view.seat and greedy(t, legal, budget.weights) != action:
                        seen[0] *= budget.mismatch

                found = sampler.sample(rng, watch if budget.mismatch < 1.0 else None)
                if found is not None and (table is None or seen[0] > weight):
                    table, weight = found, seen[0]
                if weight >= 1.0:
                    break
            if table is not None:
                tables.append(table)
                weights.append(weight)
        if not tables:
            return rule_choose(view, legal, rng)  # a rare spot the sampler cannot fill
        guide = None
        if (budget.prior or budget.confidence) and view.game != "pocha":
            # Tute only: in Pocha the playouts are clearly stronger than the rule bot (docs/PERFORMANCE.md)
            guide = rule_guide(view, legal, rng)
        if budget.method == "ismcts" and view.game == "tute2" and view.faceup is not None:
            from . import ismcts

            return ismcts.decide(tables, legal, view.seat, rng, budget, guide)
        if budget.method == "replies" and view.game == "tute2" and view.faceup is not None and not view.trick:
            from . import replies

            lead = replies.decide(tables, legal, view.seat, rng, budget, None if guide is None else guide())
            if lead is not None:
                return lead
        scores = None
        if budget.rule_weight and view.game != "pocha" and all(code.startswith("play:") for code in legal):
            by_card = card_scores(read_view(view), [ACTION_OF_CODE[code] for code in legal])
            scores = {card: budget.rule_weight * score for card, score in by_card.items()}
        return self.decide(tables, legal, view.seat, rng, guide=guide, weights=weights, scores=scores)

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
        weights: list[float] | None = None,
        scores: dict[int, float] | None = None,
    ) -> str:
        """The best of ``legal`` for ``seat`` over ``tables`` (deals at the decision, the seat to act):
        each action played out or, once few cards are left, solved exactly on each deal; ``repeat``: more
        playouts than deals (the cheat's one deal), ``guide``: the rule bot's choice (``prior`` points
        more), ``weights``: each deal's, ``scores``: points added per action."""
        budget = self.budget_for(tables[0].rules.game)
        actions = [ACTION_OF_CODE[code] for code in legal]
        totals = dict.fromkeys(actions, 0.0)
        counts = dict.fromkeys(actions, 0.0)
        #: per action, its value on each deal (round) it was scored on: the paired test reads them
        seen: dict[int, dict[int, float]] = {a: {} for a in actions}
        if weights is None:
            weights = [1.0] * len(tables)
        first = tables[0]
        cards_left = sum(h.bit_count() for h in first.hands) + len(first.trick)
        if (
            first.rules.has_stock
        ):  # Tute 2: exact once the stock is drawn (before, the deal's stock would be searched)
            exact = first.faceup < 0 and first.stock_size == 0
        else:
            exact = first.rules.is_tute and cards_left <= budget.solve_cards
        if exact and len(tables) == 1:
            table = tables[0]
            available = table.legal_ids()
            choice = Solver(table, seat, budget.solve_nodes * 4).best(
                table, [a for a in actions if a in available]
            )
            if choice is not None:
                return CODE_OF_ACTION[choice]
        if exact:
            # the solves are the costly decisions: at most ``solve_samples`` deals of them
            solved = budget.solve_samples if not first.rules.has_stock else len(tables)
            for table, weight in zip(tables[:solved], weights[:solved], strict=True):
                solver = Solver(table, seat, budget.solve_nodes)
                for action in actions:
                    if action in table.legal_ids():
                        child = table.clone()
                        child.step(action)
                        value = solver.value(child)
                        if value is None:  # past its node budget: a playout instead
                            value = playout_value(child, seat, rng, weights=budget.weights)
                        totals[action] += weight * value
                        counts[action] += weight
                        seen[action][id(table)] = value
        else:
            rounds = max(1, budget.playouts // max(1, len(actions)))
            if not repeat:
                rounds = min(rounds, len(tables))
            for r in range(rounds):
                table = tables[r % len(tables)]
                weight = weights[r % len(tables)]
                available = table.legal_ids()
                seed = rng.random()  # every action's playout on this deal shares its randomness
                for action in actions:
                    if action not in available:
                        continue  # the sample's own window differs (a draw the view does not show)
                    child = table.clone()
                    child.step(action)
                    value = playout_value(child, seat, random.Random(seed), budget.horizon, budget.weights)
                    totals[action] += weight * value
                    counts[action] += weight
                    seen[action][r] = value
        scored = [a for a in actions if counts[a]]
        if not scored:
            return legal[0]
        # the rule bot's choice, where the playouts (not an exact solve) decide
        prior = guide() if guide is not None and not exact else None
        bonus = dict.fromkeys(scored, 0.0)
        if scores is not None and not exact:
            bonus = {a: scores.get(a, 0.0) for a in scored}
        if prior in bonus:
            bonus[prior] += budget.prior
        best = max(scored, key=lambda a: (totals[a] / counts[a] + bonus[a], -a))
        if (
            budget.confidence
            and prior in bonus
            and best != prior
            and not _clearly_better(seen[best], seen[prior], budget.confidence)
        ):
            best = prior  # the samples do not show the rule bot's choice is worse
        return CODE_OF_ACTION[best]


def rule_guide(view: SeatView, legal: tuple[str, ...], rng: random.Random) -> Callable[[], int]:
    """The rule bot's choice at ``view``, asked only where the playouts decide; its own ``rng`` is drawn
    now, so the search's stream is the same whether it is asked or not."""
    guide_rng = random.Random(rng.random())

    def guide() -> int:
        return ACTION_OF_CODE[rule_choose(view, legal, guide_rng)]

    return guide


def _clearly_better(values: dict[int, float], base: dict[int, float], z: float) -> bool:
    """Whether ``values`` beats ``base`` on the deals both were scored on by ``z`` standard errors of
    the mean paired difference."""
    diffs = [v - base[k] for k, v in values.items() if k in base]
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    if mean <= 0:
        return False
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return var == 0 or mean > z * (var / n) ** 0.5


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
