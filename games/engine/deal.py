"""Seeded decks (docs/RULES.md section 7): anyone can recompute a deal from its seed, in any language."""

from __future__ import annotations

import hashlib
from functools import lru_cache

from .cards import deck_cards
from .rules import Rules


def shuffled(cards: tuple[int, ...], seed: str, hand: int) -> tuple[int, ...]:
    """Fisher-Yates over ``cards`` with j = SHA-256("{seed}:{hand}:{i}")[:8] big-endian mod (i + 1)."""
    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):
        digest = hashlib.sha256(f"{seed}:{hand}:{i}".encode()).digest()
        j = int.from_bytes(digest[:8], "big") % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def canonical_deck(rules: Rules) -> tuple[int, ...]:
    return deck_cards(deck48=rules.deck48, without_twos=rules.without_twos)


@lru_cache(maxsize=512)
def seeded_decks(rules: Rules, seed: str) -> tuple[tuple[int, ...], ...]:
    """One shuffled deck per hand of the game, top card first. Kept for the last games asked about: a
    game's state is rebuilt from its deal whenever a process replays it (a move whose previous state it
    does not hold, a record checked, a review), and a Pocha game's decks cost hundreds of SHA-256s. A
    pure function of immutable arguments, so the memory never goes stale."""
    base = canonical_deck(rules)
    return tuple(shuffled(base, seed, hand) for hand in range(len(rules.hand_sizes())))
