"""The rule bot in Tute: swaps and cantes, each card's expected point swing against what it is worth
kept, and the last tricks solved exactly."""

from __future__ import annotations

import random
from typing import Final

from games.engine import SeatView
from games.engine.cards import (
    INDEX_OF_CODE,
    PAIR_MASK,
    POINTS,
    RANK_OF,
    STRENGTH,
    SUIT_OF,
    cards_of,
)
from games.engine.tricks import beats

from ..solver import Solver
from .knowledge import Knowledge, winner

# Tute: what a card is worth kept for later tricks, in points (see _keep).
KEEP_TRUMP_BASE: Final = 4.0
KEEP_TRUMP_SLOPE: Final = 1.5  # per step of strength
KEEP_TRUMP_BOSS: Final = 4.0  # a trump nothing still out can beat
KEEP_SIDE_SLOPE: Final = 0.5
KEEP_SIDE_BOSS: Final = 5.0  # a side card nothing still out of its suit can beat
KEEP_HORIZON: Final = 3.0  # with fewer cards left than this, keeping is worth proportionally less
#: Share of a pair's cante points that keeping both cards is worth.
PAIR_KEEP: Final = 0.8
#: Tute 2: share of a cante's points a lone 12 or 11 is worth while its mate may still be drawn.
DRAW_PAIR: Final = 0.1
#: Share of a cante's points a trick is worth when winning it lets the bot sing.
CANTE_WEIGHT: Final = 0.6
#: Tute 4: how much a partner still to play is counted on to take back a trick the opponents win.
PARTNER_RESCUE: Final = 0.6
LEAD_RESCUE: Final = 0.6
#: Tute 4, partner_exception: the cost of taking over a partner's sure trick when not forced to.
OVERTAKE: Final = 8.0

#: Tute 2 once the stock is drawn: both hands are known, the rest is solved exactly.
TUTE2_ENDGAME_CARDS: Final = 8
#: Tute 4's last tricks: solved exactly on deals of the unseen cards sampled from what the seat knows.
TUTE4_ENDGAME_CARDS: Final = 4
TUTE4_ENDGAME_DEALS: Final = 8
#: The exact solve's size limit (positions searched) before the heuristics take over.
ENDGAME_NODES: Final = 60000


# -- swaps and cantes -------------------------------------------------------------------------------


def window_action(view: SeatView, legal: tuple[str, ...]) -> str | None:
    """Tute before a lead: declare tute, then swap, then sing the best pair (the 40 first)."""
    if "sing:tute" in legal:
        return "sing:tute"
    swaps = [code for code in legal if code.startswith("exchange:")]
    if swaps:  # the swap always brings a better trump: a 7 or a 2 for a stronger card
        return min(swaps)
    sings = [code for code in legal if code.startswith("sing:")]
    if sings:
        return max(sings, key=lambda code: (code == f"sing:{view.trump}", code))
    if view.phase == "partner_sing" and "pass" in legal:
        return "pass"
    return None


def _cante_gain(k: Knowledge, played: int) -> float:
    """Points the bot could sing after winning a trick with ``played``: its best unsung pair left."""
    if len(k.cards) <= 1:
        return 0.0
    rest = k.hand & ~(1 << played)
    best = 0.0
    for suit in range(4):
        if not (k.sung >> suit) & 1 and rest & PAIR_MASK[suit] == PAIR_MASK[suit]:
            best = max(best, 40.0 if suit == k.trump else 20.0)
    return best


# -- Tute -------------------------------------------------------------------------------------------


def _keep(k: Knowledge, card: int) -> float:
    """What holding ``card`` for later tricks is worth, in points, roughly."""
    left = len(k.cards)
    if left <= 1:
        return 0.0
    suit = SUIT_OF[card]
    boss = k.boss(card)
    if suit == k.trump:
        value = KEEP_TRUMP_BASE + KEEP_TRUMP_SLOPE * STRENGTH[card] + (KEEP_TRUMP_BOSS if boss else 0.0)
    else:
        value = KEEP_SIDE_SLOPE * STRENGTH[card] + (KEEP_SIDE_BOSS if boss else 0.0)
    if RANK_OF[card] in (11, 12) and not (k.sung >> suit) & 1:
        worth = 40.0 if suit == k.trump else 20.0
        mate = PAIR_MASK[suit] & ~(1 << card)
        if k.hand & mate:
            value += PAIR_KEEP * worth
        elif k.view.faceup is not None and mate & k.out:  # Tute 2: the mate may still be drawn
            value += DRAW_PAIR * worth
    return value * min(1.0, (left - 1) / KEEP_HORIZON)


def tute_card(k: Knowledge, cards: list[int], rng: random.Random) -> int:
    view = k.view
    solved = None
    if view.game == "tute2" and view.faceup is None and len(k.cards) <= TUTE2_ENDGAME_CARDS:
        solved = _endgame(k, cards, rng, 1)
    elif view.game == "tute4" and len(k.cards) <= TUTE4_ENDGAME_CARDS:
        solved = _endgame(k, cards, rng, TUTE4_ENDGAME_DEALS)
    if solved is not None:
        return solved
    scores = card_scores(k, cards)
    return max(cards, key=lambda card: (round(scores[card], 6), -STRENGTH[card], -card))


def card_scores(k: Knowledge, cards: list[int]) -> dict[int, float]:
    """Each card's score in points (``tute_card`` plays the best): the expected swing of the trick,
    the cante winning it opens, less what the card is worth kept. The search bot reads them as a prior."""
    view = k.view
    trick = view.trick
    later = k.later_seats()
    side = k.side(k.seat)
    unseen = cards_of(k.unseen)
    average = sum(POINTS[c] for c in unseen) / len(unseen) if unseen else 0.0
    pot = sum(POINTS[INDEX_OF_CODE[code]] for _, code in trick) + average * len(later)
    if k.rules.last_trick_bonus and len(k.cards) == 1:
        pot += 10  # the last trick's bonus
    if trick:
        lead = SUIT_OF[INDEX_OF_CODE[trick[0][1]]]
        win_seat, win = winner(trick, k.trump)
    partner = (k.seat + 2) % 4 if k.partners else -1
    # A partner's trick that no one left can take: taking it over only spends a card, unless forced.
    partner_sure = (
        bool(trick)
        and k.partners
        and k.side(win_seat) == side
        and k.hold(win, lead, later, side) >= 0.95
        and not all(beats(card, win, k.trump) for card in cards)
    )
    out: dict[int, float] = {}
    for card in cards:
        if not trick:
            p = mine = k.hold(card, SUIT_OF[card], later, side)
            if partner in later:
                p += (1.0 - p) * LEAD_RESCUE * k.pbeats(partner, k.guard(card), SUIT_OF[card])
        elif beats(card, win, k.trump):
            p = mine = k.hold(card, lead, later, side)
            if partner in later:
                p += (1.0 - p) * LEAD_RESCUE * k.pbeats(partner, k.guard(card), lead)
        elif k.side(win_seat) == side:
            p, mine = k.hold(win, lead, later, side), 0.0
        elif partner in later:
            p, mine = PARTNER_RESCUE * k.pbeats(partner, win, lead), 0.0
        else:
            p = mine = 0.0
        score = (
            (2.0 * p - 1.0) * (pot + POINTS[card])
            + mine * CANTE_WEIGHT * _cante_gain(k, card)
            - _keep(k, card)
        )
        if partner_sure and mine:
            score -= OVERTAKE
        out[card] = score
    return out


# -- the last tricks: deals sampled from what the seat knows, each solved exactly --------------------


def _endgame(k: Knowledge, cards: list[int], rng: random.Random, deals: int) -> int | None:
    """The card that does best over the rest of the hand, every seat playing its best (the search bot's
    exact solver, on the engine's table), averaged over deals of the unseen cards consistent with the
    view (in Tute 2 once the stock is drawn there is one: every card is known). None if no deal came."""
    if deals == 1:  # every card known: one root search for the best card
        table = k.sampler.sample(rng)
        if table is None:
            return None
        return Solver(table, k.seat, ENDGAME_NODES).best(table, cards)
    totals = dict.fromkeys(cards, 0.0)
    solved = False
    for _ in range(deals):
        table = k.sampler.sample(rng)
        if table is None:
            continue
        solver = Solver(table, k.seat, ENDGAME_NODES)
        for card in cards:
            child = table.clone()
            child.step(card)
            value = solver.value(child)
            if value is None:
                return None  # too big to solve here: the heuristics play it
            totals[card] += value
            solved = True
    if not solved:
        return None
    return max(cards, key=lambda c: (totals[c], -STRENGTH[c], -c))
