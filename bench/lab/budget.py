"""The search's budget with the fields of the variants measured without a gain (docs/PERFORMANCE.md):
``LabBudget`` extends the production ``Budget``; with every field at its default it plays as it does."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from games.bots.search.budget import Budget
from games.bots.search.policy import PolicyWeights

from .policy import LAB_WEIGHTS


@dataclass(frozen=True, slots=True)
class LabBudget(Budget):
    """``Budget`` and the variants' fields."""

    horizon: int = 0  # Tute: tricks a playout plays before the position is scored (0: to the end)
    #: The rule bot's choice stands unless another action beats it on the same deals by this many
    #: standard errors of their paired differences (0: off): the samples' noise does not overturn it.
    confidence: float = 0.0
    #: Inference from the others' choices: a sampled deal in which another seat's past card is not the
    #: one the playout policy would have played there counts this much (1: no inference).
    mismatch: float = 1.0
    draws: int = 1  # deals sampled per deal kept, when weighing them
    #: Issue 33's opponent model for ``mismatch``: "policy" (the playout policy's choice, as before) or
    #: "rule" (the rule bot's own choice at that seat's view of the sampled deal: exact for the house
    #: bots, softened by ``mismatch`` for anyone else), read over the others' choices in the hand's last
    #: ``model_plies`` plies (0: all of them; each costs the rule bot's decision, about a millisecond).
    model: str = "policy"
    model_plies: int = 0
    #: Issue 33's opponent model in the playouts: the other side's first ``model_replies`` choices of
    #: each playout are the rule bot's own (on the sampled deal, from that seat's view), the rest the
    #: playout policy's (0: the policy throughout). Each costs the rule bot's decision.
    model_replies: int = 0
    weights: PolicyWeights = LAB_WEIGHTS  # the playout policy's constants (``LabWeights``: its options too)
    #: Tute 2's stock phase: "pimc" (score each action on each deal, the production search), "ismcts"
    #: (one tree over the seat's information sets, ``bench.lab.ismcts``: its iterations and UCB
    #: exploration in points) or "replies" (below).
    method: str = "pimc"
    iterations: int = 400
    explore: float = 40.0
    #: "replies" (``bench.lab.replies``): Tute 2's stock-phase leads scored against the other seat's best
    #: reply, each reply's value a mean over this many stock orders.
    reshuffles: int = 2
    #: Tute: a swap or cante the rule bot makes is made without search. Skipping one loses its points
    #: unless the seat wins another trick, yet the best of the leads scored instead beats it on a few
    #: sampled deals by their noise alone (the winner's curse).
    windows: bool = False
    #: Tute: every card's score by the rule bot (points: the trick's expected swing less the card's
    #: worth kept) is added to its playouts' mean times this (0: off; ``prior`` still goes to its pick).
    rule_weight: float = 0.0


def lab_budget(base: Budget, **fields: Any) -> LabBudget:
    """``base`` (a production level, e.g. ``TUTE4_BUDGET``) with the lab's ``fields`` set."""
    values = {f.name: getattr(base, f.name) for f in dataclasses.fields(base)}
    return LabBudget(**{**values, **fields})
