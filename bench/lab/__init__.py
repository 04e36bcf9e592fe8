"""The search bot's variants measured without a gain (docs/PERFORMANCE.md), kept out of the production
bot for further screening: the bench plays them as ``lab.<name>`` (``bench/bot_strength.py --bot
lab.ismcts``) once ``register()`` has put them in the bot registry.

Each is the production ``SearchBot`` subclassed (``LabSearchBot``) with a ``LabBudget``, the production
``Budget`` extended by the variants' fields, and playouts by the production policy with ``LabWeights``'
options: ``ismcts`` and ``replies`` (other searches of Tute 2's stock phase), ``windows`` (the rule
bot's swaps and cantes unsearched), ``rule_weight`` (the rule bot's card scores added), ``confidence``
(a paired test for the rule bot's choice), ``mismatch`` (deals weighed by the others' past choices; ``model``: by the rule bot's own choices),
``horizon`` (playouts cut and scored by an estimate), ``draw_weight``, ``sure_leads`` and ``cover`` (the
policy's options). Every field at its default, a lab bot plays as the production one.
"""

from __future__ import annotations

from typing import Any, Final

from games.bots import BOTS, register_bot
from games.bots.search.budget import TUTE4_BUDGET

from .bot import LabSearchBot
from .budget import LabBudget, lab_budget
from .policy import LAB_WEIGHTS, LabWeights

#: Each variant's fields, set over each game's default level (Tute 4's ``TUTE4_BUDGET``).
EXPERIMENTS: Final[dict[str, dict[str, Any]]] = {
    "ismcts": {"method": "ismcts"},
    "replies": {"method": "replies"},
    "windows": {"windows": True},
    "rule_weight": {"rule_weight": 0.5},
    "confidence": {"confidence": 1.0},
    "mismatch": {"mismatch": 0.5, "draws": 4},
    # issue 33: deals weighed by how well the rule bot's own choices explain the others' last 8 plies
    "model": {"mismatch": 0.1, "model": "rule", "model_plies": 8},
    # issue 33: the other side's next choice in each playout is the rule bot's own
    "reply": {"model_replies": 1},
    "horizon": {"horizon": 2},
    "draw_weight": {"weights": LabWeights(draw_weight=1.0)},
    "sure_leads": {"weights": LabWeights(tute4_sure_leads=True)},
    "cover": {"weights": LabWeights(tute4_cover=True)},
}


def lab_bot(fields: dict[str, Any]) -> LabSearchBot:
    """The search with ``fields`` of ``LabBudget`` set over each game's default level."""
    return LabSearchBot(LabBudget(**fields), tute4=lab_budget(TUTE4_BUDGET, **fields))


def register() -> None:
    """Put every variant in the bot registry as ``lab.<name>`` (again: nothing new)."""
    for name, fields in EXPERIMENTS.items():
        if f"lab.{name}" not in BOTS:
            register_bot(f"lab.{name}", lab_bot(fields))


__all__ = [
    "EXPERIMENTS",
    "LAB_WEIGHTS",
    "LabBudget",
    "LabSearchBot",
    "LabWeights",
    "lab_bot",
    "lab_budget",
    "register",
]
