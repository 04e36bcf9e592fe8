"""The random bot: a uniformly random legal action, the floor every other bot must clear."""

from __future__ import annotations

import random

from games.engine import SeatView


def choose(view: SeatView, legal: tuple[str, ...], rng: random.Random) -> str:
    """Any legal action, uniformly; the same ``rng`` state gives the same action."""
    if not legal:
        raise ValueError(f"seat {view.seat} has no legal action to choose from")
    return rng.choice(sorted(legal))
