"""The rule bot in Pocha: bid the tricks the hand is expected to take, then play to make it exactly."""

from __future__ import annotations

from typing import Final

from games.engine.cards import (
    INDEX_OF_CODE,
    STRENGTH,
    SUIT_MASK,
    SUIT_OF,
)
from games.engine.tricks import beats

from .knowledge import Knowledge, winner

#: Pocha bids: the share of a side card's trick chance counted when the bot does not lead trick 1,
#: by hand size (with one or two cards a side card rarely sees its suit led).
SIDE_CARD_SHARE: Final = {1: 0.3, 2: 0.7}
#: Pocha bids: the hand's expected tricks are scaled up by this (a made bid pays 5 a trick more).
BID_SCALE: Final = 1.25


def _card_values(k: Knowledge) -> dict[int, float]:
    """Per card of the hand: the chance it takes a trick when led, against every other seat."""
    others = [(k.seat + i) % k.n for i in range(1, k.n)]
    return {card: k.hold(card, SUIT_OF[card], others, k.seat) for card in k.cards}


def bid(k: Knowledge, legal: tuple[str, ...]) -> str:
    """Bid the tricks the hand should take: high trumps, unbeaten side cards, ruffs when short."""
    bids = sorted(int(code[4:]) for code in legal if code.startswith("bid:"))
    if not bids:
        return sorted(legal)[0]
    size = len(k.cards)
    leads_first = k.view.mano == k.seat
    side_share = 1.0 if leads_first else SIDE_CARD_SHARE.get(size, 1.0)
    trumps = k.hand & SUIT_MASK[k.trump]
    short_suit = size >= 3 and any(
        (k.hand & SUIT_MASK[suit]).bit_count() <= 1 for suit in range(4) if suit != k.trump
    )
    expected = 0.0
    for card, value in _card_values(k).items():
        if SUIT_OF[card] == k.trump:
            if short_suit and value < 0.4 and trumps.bit_count() >= 2:
                value = 0.4  # a low trump still takes a trick by ruffing a short side suit
        else:
            value *= side_share
        expected += value
    expected *= BID_SCALE
    return f"bid:{min(bids, key=lambda b: (abs(b - expected), b))}"


def pocha_card(k: Knowledge, cards: list[int]) -> int:
    view = k.view
    bid = view.bids[k.seat] or 0
    need = bid - view.tricks_won[k.seat]
    values = _card_values(k)
    trick = view.trick
    if not trick:
        if need > 0:
            best = max(cards, key=lambda c: (values[c], STRENGTH[c], -c))
            if values[best] >= 0.5 or need >= len(k.cards):
                return best
            return min(cards, key=lambda c: (values[c], STRENGTH[c], c))
        # duck: lead the card least likely to win, the strongest such card first
        return min(cards, key=lambda c: (round(values[c], 2), -STRENGTH[c], c))
    later = k.later_seats()
    lead = SUIT_OF[INDEX_OF_CODE[trick[0][1]]]
    _, win = winner(trick, k.trump)
    total = sum(values.values())
    best = cards[0]
    best_key: tuple[float, float, int, int] | None = None
    for card in cards:
        p = k.hold(card, lead, later, k.seat) if beats(card, win, k.trump) else 0.0
        expected = p + total - values[card]  # tricks the hand should end with after this card
        miss = abs(need - expected)
        # on a tie: win while short of the bid, lose once it is made; then the cheaper card
        key = (-round(miss, 6), p if need > 0 else -p, -STRENGTH[card] if need > 0 else STRENGTH[card], -card)
        if best_key is None or key > best_key:
            best, best_key = card, key
    return best
