"""The playout policy's options measured without a gain, on top of the production policy
(``games.bots.search.policy``): its weights extended (``LabWeights``) and its choice overridden only where
an option is on, so with every option off ``lab_policy`` plays as ``policy`` does."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from games.bots.search.policy import (
    PolicyWeights,
    cheapest_winner,
    discard,
    greedy,
    policy,
    tute2_card,
    worth_taking,
)
from games.engine.actions import EXCHANGE
from games.engine.cards import POINTS, STRENGTH, STRONGER, SUIT_MASK, SUIT_OF
from games.engine.hands import BIDDING, PARTNER_SINGING
from games.engine.table import Table
from games.engine.tricks import beats, duty_mask


@dataclass(frozen=True, slots=True)
class LabWeights(PolicyWeights):
    """The production weights and the options measured (``bench/policy_tune.py``, ``--budget weights=``)."""

    #: Tute 2, stock open: the share of the difference between the two cards drawn next (points, and a
    #: trump's worth kept) that winning the trick is worth (0: the stock is not looked at).
    draw_weight: float = 0.0
    #: Tute 4: lead the richest side card none of the others can beat (both opponents hold its suit and
    #: nobody a higher card of it), before the cheapest card.
    tute4_sure_leads: bool = False
    #: Tute 4: take a trick with the cheapest card the opponent still to play cannot beat (not merely the
    #: cheapest that beats the table); none: a cheap discard where the duties allow it.
    tute4_cover: bool = False


#: The production policy's weights, every option off.
LAB_WEIGHTS: Final = LabWeights()


def lab_policy(t: Table, rng: random.Random, w: PolicyWeights = LAB_WEIGHTS) -> int:
    """The production ``policy`` with ``lab_greedy`` choosing."""
    return policy(t, rng, w, lab_greedy)


def lab_greedy(t: Table, legal: list[int], w: PolicyWeights = LAB_WEIGHTS) -> int:
    """The production ``greedy``, its card overridden by the options that are on."""
    choice = greedy(t, legal, w)
    if not isinstance(w, LabWeights) or choice >= EXCHANGE or t.phase in (BIDDING, PARTNER_SINGING):
        return choice
    if not t.rules.is_tute:
        return choice
    cards = [a for a in legal if a < EXCHANGE]
    if len(cards) < 2:
        return choice  # production's card came by its Tute card choice from here on
    if t.n == 2:
        if w.draw_weight and t.faceup >= 0:
            return tute2_card(t, cards, w, _draw_swing(t, w))
        return choice
    lab = _tute4_card(t, cards, w)
    return choice if lab is None else lab


def _tute4_card(t: Table, cards: list[int], w: LabWeights) -> int | None:
    """Tute 4's card by ``tute4_sure_leads`` and ``tute4_cover``; None where production's stands."""
    me, trick, trump = t.to_act, t.trick, t.trump
    if not trick:
        if w.tute4_sure_leads:
            sure = [c for c in cards if SUIT_OF[c] != trump and _sure_lead(t, me, c)]
            if sure:
                return max(sure, key=lambda c: (POINTS[c], -c))
        return None
    last = len(trick) == t.n - 1
    if not w.tute4_cover or last or t.side_of(t.win_seat) == t.side_of(me):
        return None
    winners = [c for c in cards if beats(c, t.win_card, trump)]
    if not winners:
        return None
    held = [c for c in winners if not _overtaken(t, me, c)]
    if held:
        cheapest = cheapest_winner(t, held)
        return cheapest if worth_taking(t, cheapest, last, w) else discard(t, me, cards, w)
    if len(winners) < len(cards):
        return discard(t, me, [c for c in cards if c not in winners], w)
    return None


def _sure_lead(t: Table, me: int, card: int) -> bool:
    """Tute 4, every hand seen: ``card`` led wins the trick (both opponents must follow its suit and no
    other hand holds a higher card of it)."""
    suit = SUIT_MASK[SUIT_OF[card]]
    if STRONGER[card] & suit & (t.hands[(me + 1) % 4] | t.hands[(me + 2) % 4] | t.hands[(me + 3) % 4]):
        return False
    return bool(t.hands[(me + 1) % 4] & suit) and bool(t.hands[(me + 3) % 4] & suit)


def _overtaken(t: Table, me: int, card: int) -> bool:
    """Tute 4, every hand seen: whether the opponent next to play could beat ``card`` played now."""
    other = (me + 1) % 4
    replies = duty_mask(t.rules, t.trump, (*t.trick, card), me, card, False, other, t.hands[other])
    while replies:
        low = replies & -replies
        replies ^= low
        if beats(low.bit_length() - 1, card, t.trump):
            return True
    return False


def _draw_swing(t: Table, w: LabWeights) -> float:
    """Tute 2 with the stock open, every card seen: what winning the trick is worth in the cards drawn
    (the winner draws the top card, the other the next), ``draw_weight`` of the difference."""
    stock, pos = t.stock, t.stock_pos
    first = stock[pos] if pos < len(stock) else t.faceup
    second = stock[pos + 1] if pos + 1 < len(stock) else t.faceup
    trump = t.trump

    def worth(card: int) -> float:
        if SUIT_OF[card] == trump:
            return POINTS[card] + w.keep_trump + w.keep_trump_slope * STRENGTH[card]
        return float(POINTS[card])

    return w.draw_weight * (worth(first) - worth(second))
