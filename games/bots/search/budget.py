"""The work a search decision may do, per level: counted in deals, playouts and solver nodes, never in
time, so a decision is reproducible for a seed and a budget."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Budget:
    """The work a decision may do: ``samples`` deals, at most ``playouts`` playouts over them, and an exact
    solve once at most ``solve_cards`` cards are left in the hands and on the table (Tute 4; Tute 2 is
    solved as soon as its stock is drawn, whatever its size). The variants measured without a gain extend
    it in ``bench/lab`` (``LabBudget``)."""

    samples: int = 16
    playouts: int = 96
    solve_cards: int = 16
    solve_nodes: int = 20000
    solve_samples: int = 16  # Tute 4: the sampled deals the exact solve is run on (the first ones)
    #: Tute: points of value given to the rule bot's choice, so the playouts overturn it only by more
    #: than their noise and bias (Pocha: none, the playouts are the stronger there).
    prior: float = 6.0


#: Tute 4's default level (``SearchBot``'s ``tute4``): three hands are hidden, so more deals (the exact
#: solve still on 16 of them, the p99), and no prior: the rule bot's choice gains nothing here.
TUTE4_BUDGET: Final = Budget(samples=48, playouts=480, solve_samples=16, prior=0.0)
