"""The work a search decision may do, per level: counted in deals, playouts and solver nodes, never in
time, so a decision is reproducible for a seed and a budget."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .policy import DEFAULT_WEIGHTS, PolicyWeights


@dataclass(frozen=True, slots=True)
class Budget:
    """The work a decision may do: ``samples`` deals, at most ``playouts`` playouts over them, and an exact
    solve once at most ``solve_cards`` cards are left in the hands and on the table (Tute 4; Tute 2 is
    solved as soon as its stock is drawn, whatever its size)."""

    samples: int = 16
    playouts: int = 96
    solve_cards: int = 16
    solve_nodes: int = 20000
    solve_samples: int = 16  # Tute 4: the sampled deals the exact solve is run on (the first ones)
    horizon: int = 0  # Tute: tricks a playout plays before the position is scored (0: to the end)
    #: Tute: points of value given to the rule bot's choice, so the playouts overturn it only by more
    #: than their noise and bias (Pocha: none, the playouts are the stronger there).
    prior: float = 6.0
    #: The rule bot's choice stands unless another action beats it on the same deals by this many
    #: standard errors of their paired differences (0: off): the samples' noise does not overturn it.
    confidence: float = 0.0
    #: Inference from the others' choices: a sampled deal in which another seat's past card is not the
    #: one the playout policy would have played there counts this much (1: no inference).
    mismatch: float = 1.0
    draws: int = 1  # deals sampled per deal kept, when weighing them
    weights: PolicyWeights = DEFAULT_WEIGHTS  # the playout policy's constants
    #: Tute 2's stock phase: "pimc" (score each action on each deal), "ismcts" (one tree over the
    #: seat's information sets, ``games.bots.search.ismcts``: its iterations and UCB exploration in points) or
    #: "replies" (below).
    method: str = "pimc"
    iterations: int = 400
    explore: float = 40.0
    #: "replies" (``games.bots.search.replies``): Tute 2's stock-phase leads scored against the other seat's
    #: best reply, each reply's value a mean over this many stock orders.
    reshuffles: int = 2
    #: Tute: a swap or cante the rule bot makes is made without search. Skipping one loses its points
    #: unless the seat wins another trick, yet the best of the leads scored instead beats it on a few
    #: sampled deals by their noise alone (the winner's curse).
    windows: bool = False
    #: Tute: every card's score by the rule bot (points: the trick's expected swing less the card's
    #: worth kept) is added to its playouts' mean times this (0: off; ``prior`` still goes to its pick).
    rule_weight: float = 0.0


#: Tute 4's default level (``SearchBot``'s ``tute4``): three hands are hidden, so more deals (the exact
#: solve still on 16 of them, the p99), and no prior: the rule bot's choice gains nothing here.
TUTE4_BUDGET: Final = Budget(samples=48, playouts=480, solve_samples=16, prior=0.0)
