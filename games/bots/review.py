"""The review of one seat's decision: what each legal action was worth from that seat's view.

A review asks the same analysis the strongest house level plays by, with more work: deals sampled from
the seat's view (``games.engine.sampling.DealSampler``: never the hidden cards), each action scored on
every deal by a playout, or solved exactly once few cards are left (Tute 2 once its stock is drawn:
every card is known then and the one deal is the real one, so the values are the exact solver's). The
values are in the search's points (``games.bots.search.values``): a Tute hand's final margin with the win
bonus (a tute declared: ``TUTE_VALUE``), a Pocha hand's score against the other seats' mean.

The input is a ``SeatView`` and nothing else, and the random stream is seeded from that view's content,
so two deals that look the same to the seat give the same review: no hidden card can reach it.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from typing import Any, Final

from games.engine import SeatView
from games.engine.actions import ACTION_OF_CODE

from .search import TUTE4_BUDGET, Budget, SearchBot
from .search.bot import Tally

#: The review's work per decision: the playing level's deals and playouts several times over (Tute 2's
#: exact phase solves its one deal with a far larger node budget than a move in play may spend).
REVIEW_BUDGET: Final = Budget(
    samples=1000, playouts=12000, solve_nodes=400_000, solve_samples=1000, prior=0.0
)
REVIEW_TUTE4_BUDGET: Final = Budget(
    samples=1200,
    playouts=24000,
    solve_cards=TUTE4_BUDGET.solve_cards,
    solve_nodes=60_000,
    solve_samples=160,
    prior=0.0,
)

#: A decision that cost less than this many points is not a mistake worth marking (playout noise).
NOTABLE_COST: Final = 2.0


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """One decision: the action played, the best by the analysis, each legal action's expected points,
    and what the played action cost against the best (0 when it was the best)."""

    game_ply: int
    hand_number: int
    phase: str
    played: str
    best: str
    values: dict[str, float]
    cost: float
    exact: bool
    deals: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_ply": self.game_ply,
            "hand_number": self.hand_number,
            "phase": self.phase,
            "played": self.played,
            "best": self.best,
            "values": self.values,
            "cost": self.cost,
            "exact": self.exact,
            "deals": self.deals,
        }


def view_seed(view: SeatView) -> str:
    """The review's random stream for ``view``: a digest of what the seat sees, and of nothing else."""
    text = json.dumps(view.to_dict(), sort_keys=True, separators=(",", ":"), default=list)
    return hashlib.sha256(text.encode()).hexdigest()


class Reviewer:
    """Reviews decisions of any game (``review``), each from the deciding seat's view only."""

    def __init__(
        self, budget: Budget = REVIEW_BUDGET, *, tute4: Budget = REVIEW_TUTE4_BUDGET, salt: str = ""
    ) -> None:
        """``salt``: mixed into each view's seed (the bench's second opinion on the same decisions)."""
        self.search = SearchBot(budget, tute4=tute4)
        self.salt = salt

    def review(self, view: SeatView, legal: tuple[str, ...], played: str) -> DecisionReview:
        """What each of ``legal`` was worth to ``view``'s seat, and what ``played`` cost; ``legal`` must
        hold more than one action and ``played`` (a forced move is not a decision)."""
        if view.seat is None:
            raise ValueError("a review is of a seat's decision, not a spectator's")
        if played not in legal or len(legal) < 2:
            raise ValueError(f"{played!r} is not a choice among {legal!r}")
        rng = random.Random(view_seed(view) + self.salt)
        budget = self.search.budget_for(view.game)
        tables = self.search.sample(view, budget, rng)
        actions = [ACTION_OF_CODE[code] for code in legal]
        tally = Tally(actions)
        exact = bool(tables) and self.search.exact(tables[0], budget)
        if tables:
            if exact:
                self.search.solve(tables, actions, view.seat, rng, budget, tally)
            else:
                self.search.play_out(tables, actions, view.seat, rng, budget, tally, repeat=len(tables) == 1)
        values = {
            code: round(tally.mean(a), 2) for code, a in zip(legal, actions, strict=True) if tally.counts[a]
        }
        if played not in values:  # no deal could be sampled (a rare spot): nothing to say about it
            return DecisionReview(
                view.game_ply, view.hand_number, view.phase, played, played, {}, 0.0, exact, len(tables)
            )
        best = max(values, key=lambda code: (values[code], code == played))
        cost = round(max(0.0, values[best] - values[played]), 2)
        return DecisionReview(
            view.game_ply, view.hand_number, view.phase, played, best, values, cost, exact, len(tables)
        )


def worst_moments(costs: list[float], *, count: int = 3) -> list[int]:
    """The indexes of the ``count`` costliest decisions that cost at least ``NOTABLE_COST``, costliest
    first (earlier first on ties)."""
    notable = [i for i, cost in enumerate(costs) if cost >= NOTABLE_COST]
    return sorted(notable, key=lambda i: (-costs[i], i))[:count]
