"""Random playouts on the fast path: the same ``Table`` code as ``State``, stepped in place.

Search bots and benchmarks use this; nothing here is a second copy of the rules.
"""

from __future__ import annotations

import random

from .deal import canonical_deck
from .hands import OVER
from .rules import Rules
from .table import Table


def deal_random(rules: Rules, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """One freshly shuffled deck per hand, from ``rng`` (not the seeded SHA-256 shuffle)."""
    base = list(canonical_deck(rules))
    decks = []
    for _ in rules.hand_sizes():
        rng.shuffle(base)
        decks.append(tuple(base))
    return tuple(decks)


def random_playout(rules: Rules, rng: random.Random, *, dealer: int = 0) -> Table:
    """Deal at random and play uniformly random legal actions to the end; returns the final table."""
    table = Table.new(rules, dealer, deal_random(rules, rng))
    return play_out(table, rng)


def play_out(table: Table, rng: random.Random) -> Table:
    """Step ``table`` in place with uniformly random legal actions until the game is over."""
    choice = rng.choice
    legal = table.legal_ids
    step = table.step
    while table.phase != OVER:
        step(choice(legal()))
    return table
