"""The search bot: perfect-information Monte Carlo over deals sampled from what its seat has seen.

Each decision samples deals consistent with the seat's view (``games.engine.sampling.DealSampler``: the
cards seen, the face-up card and swaps, cantes, and the voids and limits the public play proves), and on
each deal scores every legal action by playing the rest of the hand out with a rule-guided policy on the
engine's own ``Table`` (the same code that decides legality, stepped in place). Once few cards are left
the deal is solved exactly instead (alpha-beta over the rest of the hand, cantes and the last trick
included); in Tute 2 once the stock is drawn every card is known, so that solve is the exact answer.
Pocha bids are chosen by playing each sample out once per candidate bid, the bot steering to that bid
(taking tricks while short of it, ducking once it has it), and keeping the bid with the best score.

The work per decision is a number of samples and playouts (``Budget``), never a clock, so a decision is
reproducible for a seed and a budget. Perfect-information Monte Carlo was chosen over information-set
MCTS for its cost: in pure Python a decision affords a few hundred playouts, and spread over sampled
deals they buy more than a tree would (docs/PERFORMANCE.md has the figures).

The package: ``bot`` (the decision, and the bench-only cheat), ``budget`` (the levels), ``policy`` (the
playouts' policy and its weights), ``values`` (what a playout is worth); the exact solver is
``games.bots.solver``. It holds what the levels play: the variants measured without a gain (other
searches of Tute 2's stock phase, inference, the policy's options...) subclass it in ``bench/lab``.
"""

from __future__ import annotations

from ..solver import TUTE_VALUE, WIN_BONUS, Solver
from .bot import CheatBot, SearchBot
from .budget import TUTE4_BUDGET, Budget
from .policy import DEFAULT_WEIGHTS, PolicyWeights, greedy, policy
from .values import playout_value

__all__ = [
    "DEFAULT_WEIGHTS",
    "TUTE4_BUDGET",
    "TUTE_VALUE",
    "WIN_BONUS",
    "Budget",
    "CheatBot",
    "PolicyWeights",
    "SearchBot",
    "Solver",
    "greedy",
    "playout_value",
    "policy",
]
