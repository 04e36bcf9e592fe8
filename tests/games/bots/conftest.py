"""Hand-built positions for the bots' tests.

``deal`` stacks a deck as docs/RULES.md section 7 deals it: the mano (the seat after the dealer) takes the
first k cards, the next seats the next k, the dealer the last block; Tute 2 then the face-up card, then
the stock, top first. Cards a test does not name fill the hands and the stock in canonical order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from games.engine import Rules, State, parse_card

SUITS = ("O", "C", "E", "B")

Deal = Callable[..., State]


def canonical(rules: Rules) -> list[str]:
    ranks = [1, 2, 3, 4, 5, 6, 7, *([8, 9] if rules.deck48 else []), 10, 11, 12]
    return [f"{r}{s}" for s in SUITS for r in ranks if not (rules.without_twos and r == 2)]


def build_state(
    game: str,
    hands: Mapping[int, Sequence[str]],
    *,
    dealer: int = 0,
    after: Sequence[str] = (),
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> State:
    """A one-hand game whose seats hold ``hands`` (filled up from unnamed cards); ``after`` follows the
    dealt cards (Tute 2: the face-up card, then the stock's top; Pocha: the turned-up trump card)."""
    rules = Rules.build(game, players, options)
    k = rules.hand_sizes()[0]
    named = [card for cards in hands.values() for card in cards] + list(after)
    assert len(named) == len(set(named)), "a card is named twice"
    spare = [card for card in canonical(rules) if card not in named]
    deck: list[str] = []
    for block in range(rules.players):
        seat = (dealer + 1 + block) % rules.players
        cards = list(hands.get(seat, ()))
        assert len(cards) <= k, f"seat {seat} gets {k} cards, not {len(cards)}"
        while len(cards) < k:
            cards.append(spare.pop(0))
        deck += cards
    deck += list(after) + spare
    return State.new(rules, dealer=dealer, decks=(tuple(parse_card(card) for card in deck),))


@pytest.fixture
def deal() -> Deal:
    return build_state
