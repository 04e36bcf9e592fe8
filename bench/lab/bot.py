"""The production ``SearchBot`` with the variants of ``LabBudget`` (each off by default): swaps and
cantes left to the rule bot, deals weighed by the others' past choices, the ISMCTS and best-reply
searches, the rule bot's card scores, a paired-confidence test for its choice, and the lab's playouts."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import cast

from games.bots.rule import card_scores, read_view
from games.bots.rule import choose as rule_choose
from games.bots.search.bot import SearchBot, Tally, rule_guide
from games.bots.search.budget import Budget
from games.bots.search.values import hand_value
from games.engine import SeatView
from games.engine.actions import ACTION_OF_CODE
from games.engine.hands import OVER
from games.engine.sampling import DealSampler
from games.engine.table import Table

from . import ismcts, replies
from .budget import LabBudget, lab_budget
from .policy import lab_greedy
from .response import rule_action
from .values import lab_playout_value


class LabTally(Tally):
    """A tally whose deals count ``weights`` each, keeping each action's value per round (the paired
    test reads them) and the points added per action (``scores``)."""

    __slots__ = ("scores", "seen", "weights")

    def __init__(self, actions: list[int], weights: list[float], scores: dict[int, float] | None) -> None:
        self.totals = dict.fromkeys(actions, 0.0)
        self.counts = dict.fromkeys(actions, 0.0)  # float weights, where production counts deals
        self.weights = weights
        self.scores = scores
        self.seen: dict[int, dict[int, float]] = {a: {} for a in actions}

    def add(self, action: int, key: int, deal: int, value: float) -> None:
        weight = self.weights[deal]
        self.totals[action] += weight * value
        self.counts[action] += weight
        self.seen[action][key] = value


class LabSearchBot(SearchBot):
    """``SearchBot`` with ``LabBudget`` levels (a production ``Budget`` given is read with the lab's
    fields at their defaults)."""

    def __init__(self, budget: Budget | None = None, *, tute4: Budget | None = None) -> None:
        super().__init__(budget, tute4=tute4)
        self.budget = _lab(self.budget)
        self.tute4 = _lab(self.tute4)

    def lab_budget_for(self, game: str) -> LabBudget:
        return cast(LabBudget, self.budget_for(game))

    def __call__(self, view: SeatView, legal: tuple[str, ...], rng: random.Random, /) -> str:
        if len(legal) < 2:
            return super().__call__(view, legal, rng)
        assert view.seat is not None
        budget = self.lab_budget_for(view.game)
        if (
            budget.windows
            and view.game != "pocha"
            and (view.game != "tute2" or view.faceup is not None)  # Tute 2's arrastre: the exact solve
            and any(not code.startswith("play:") for code in legal)
        ):
            window = rule_choose(view, legal, rng)
            if not window.startswith("play:"):
                return window
        tables, weights = self.weighed_samples(view, budget, rng)
        if not tables:
            return rule_choose(view, legal, rng)  # a rare spot the sampler cannot fill
        guide = None
        if (budget.prior or budget.confidence) and view.game != "pocha":
            guide = rule_guide(view, legal, rng)
        stock_phase = view.game == "tute2" and view.faceup is not None
        if budget.method == "ismcts" and stock_phase:
            return ismcts.decide(tables, legal, view.seat, rng, budget, guide)
        if budget.method == "replies" and stock_phase and not view.trick:
            lead = replies.decide(tables, legal, view.seat, rng, budget, None if guide is None else guide())
            if lead is not None:
                return lead
        scores = None
        if budget.rule_weight and view.game != "pocha" and all(code.startswith("play:") for code in legal):
            by_card = card_scores(read_view(view), [ACTION_OF_CODE[code] for code in legal])
            scores = {card: budget.rule_weight * score for card, score in by_card.items()}
        return self.decide(tables, legal, view.seat, rng, guide=guide, weights=weights, scores=scores)

    def weighed_samples(
        self, view: SeatView, budget: LabBudget, rng: random.Random
    ) -> tuple[list[Table], list[float]]:
        """The production ``sample`` unless ``mismatch``: then per deal kept up to ``draws`` are drawn and
        the one the others' past choices fit best is kept, weighed by that fit."""
        if budget.mismatch >= 1.0:
            tables = self.sample(view, budget, rng)
            return tables, [1.0] * len(tables)
        sampler = DealSampler(view)
        if view.game == "tute2" and view.stock_size == 0 and view.faceup is None:
            samples = 1  # every card is known: the one deal is the real one
        else:
            samples = budget.samples
        tables: list[Table] = []
        weights: list[float] = []
        model_rng = random.Random(rng.random())
        # the others' choices the model is asked about: those of the last model_plies plies
        since = view.game_ply - budget.model_plies if budget.model_plies else -1
        for _ in range(samples):
            table = None
            weight = 1.0
            for _ in range(budget.draws if samples > 1 else 1):
                seen = [1.0]

                def watch(t: Table, legal: list[int], action: int, seen: list[float] = seen) -> None:
                    if t.to_act == view.seat or t.ply < since:
                        return
                    if budget.model == "rule":
                        choice = rule_action(t, legal, model_rng)
                    else:
                        choice = lab_greedy(t, legal, budget.weights)
                    if choice != action:
                        seen[0] *= budget.mismatch

                found = sampler.sample(rng, watch)
                if found is not None and (table is None or seen[0] > weight):
                    table, weight = found, seen[0]
                if weight >= 1.0:
                    break
            if table is not None:
                tables.append(table)
                weights.append(weight)
        return tables, weights

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
        weights: list[float] | None = None,
        scores: dict[int, float] | None = None,
    ) -> str:
        """The production decision, the deals weighed by ``weights`` and ``scores`` points added per
        action (``rule_weight``)."""
        actions = [ACTION_OF_CODE[code] for code in legal]
        tally = tally or LabTally(actions, weights or [1.0] * len(tables), scores)
        return super().decide(tables, legal, seat, rng, repeat=repeat, guide=guide, tally=tally)

    def playout(self, table: Table, seat: int, rng: random.Random, budget: Budget) -> float:
        lab = cast(LabBudget, budget)
        if lab.model_replies and table.rules.is_tute:
            side = table.side_of(seat)
            replies = lab.model_replies
            # in the stock phase only: once it is drawn the rule bot solves exactly, at a price
            while replies and table.phase != OVER and (not table.rules.has_stock or table.faceup >= 0):
                legal = table.legal_ids()
                if len(legal) == 1:
                    table.step(legal[0])
                elif table.side_of(table.to_act) == side:
                    table.step(lab_greedy(table, legal, lab.weights))
                else:
                    table.step(rule_action(table, legal, rng))
                    replies -= 1
            if table.phase == OVER:
                return hand_value(table, seat)
        return lab_playout_value(table, seat, rng, lab.horizon, lab.weights)

    def pick(self, tally: Tally, scored: list[int], prior: int | None, exact: bool, budget: Budget) -> int:
        """Production's pick with the rule bot's card scores added, and the paired-confidence test."""
        lab = cast(LabBudget, budget)
        scores = tally.scores if isinstance(tally, LabTally) and not exact else None
        bonus = dict.fromkeys(scored, 0.0) if scores is None else {a: scores.get(a, 0.0) for a in scored}
        if prior in bonus:
            bonus[prior] += lab.prior
        best = max(scored, key=lambda a: (tally.mean(a) + bonus[a], -a))
        if (
            lab.confidence
            and isinstance(tally, LabTally)
            and prior in bonus
            and best != prior
            and not clearly_better(tally.seen[best], tally.seen[prior], lab.confidence)
        ):
            best = prior  # the samples do not show the rule bot's choice is worse
        return best


def _lab(budget: Budget) -> LabBudget:
    return budget if isinstance(budget, LabBudget) else lab_budget(budget)


def clearly_better(values: dict[int, float], base: dict[int, float], z: float) -> bool:
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
