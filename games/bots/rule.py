"""The rule bot: a sensible player of Tute 2, Tute 4 and Pocha, from its seat's view alone.

It reads the view once into ``Knowledge``: where every card can still be (its own hand, the cards
known to be in another hand, the unseen rest), and which cards a seat cannot hold, deduced from the
duties it obeyed in earlier tricks. From that it estimates, for each legal card, the chance that its
side takes the trick (a one-trick look-ahead in which every seat still to play beats the card when it
can, as the duties make it), and picks:

- Tute: the card with the best expected point swing ``(2p - 1) * trick points``, plus the cante that
  winning lets it sing, minus what the card is worth kept (trumps, aces still unbeaten, the 12 and 11
  of a pair it can sing). So it wins valuable tricks with its cheapest winning card, plays its
  cheapest card when it cannot win, keeps trumps for tricks that count, leaves a partner's sure
  winner alone and loads points onto it. It always swaps and always sings, the 40 first.
- The last tricks are searched instead: in Tute 2 once the stock is drawn both hands are known and the
  rest of the hand is solved exactly; in Tute 4's last four tricks deals of the unseen cards consistent
  with the view are sampled (``games.engine.sampling``) and each is solved exactly (the search bot's
  solver, on the engine's table).
- Pocha: it bids the tricks its hand is expected to take, then plays to make the bid exactly,
  winning while short of it and ducking (shedding its strongest cards) once it has enough.

It reads the game's flags from the view and asks the engine what the public play proves (which cards a
seat cannot hold, by the duties it obeyed): no rule of the game is copied here. The ``rng`` it is handed
only draws the endgame's deals, so the bot is deterministic for a seeded ``rng``; ties between cards go
by a fixed card order.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from games.engine import Rules, SeatView
from games.engine.cards import (
    CODE_OF,
    INDEX_OF_CODE,
    PAIR_MASK,
    POINTS,
    RANK_OF,
    STRENGTH,
    STRONGER,
    SUIT_MASK,
    SUIT_OF,
    SUITS,
    card_index,
    cards_of,
    deck_cards,
    mask_of,
)
from games.engine.sampling import DealSampler, rules_of
from games.engine.table import beats

from .solver import Solver

TWO_OF_OROS: Final = card_index(2, 0)

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

#: Pocha bids: the share of a side card's trick chance counted when the bot does not lead trick 1,
#: by hand size (with one or two cards a side card rarely sees its suit led).
SIDE_CARD_SHARE: Final = {1: 0.3, 2: 0.7}
#: Pocha bids: the hand's expected tricks are scaled up by this (a made bid pays 5 a trick more).
BID_SCALE: Final = 1.25


def choose(view: SeatView, legal: tuple[str, ...], rng: random.Random) -> str:
    """The rule bot's action for the seat of ``view``; always one of ``legal``."""
    if not legal:
        raise ValueError(f"seat {view.seat} has no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    if view.phase == "bid":
        return _bid(read_view(view), legal)
    special = _window_action(view, legal)
    if special is not None:
        return special
    cards = [INDEX_OF_CODE[code[5:]] for code in legal if code.startswith("play:")]
    if not cards:  # not reached with the engine's actions: the window always comes with the lead
        return sorted(legal)[0]
    knowledge = read_view(view)
    card = _pocha_card(knowledge, cards) if view.game == "pocha" else _tute_card(knowledge, cards, rng)
    return f"play:{CODE_OF[card]}"


# -- what the seat knows ----------------------------------------------------------------------------


@dataclass(slots=True)
class Knowledge:
    """What one seat can tell about where the cards are, read from its view."""

    rules: Rules
    sampler: DealSampler
    view: SeatView
    seat: int
    n: int
    trump: int
    partners: bool
    hand: int  # own cards (mask)
    cards: list[int]  # own cards
    played: int  # every card played this hand, the trick on the table included
    unseen: int  # cards whose place the seat does not know: other hands, the stock, undealt cards
    out: int  # cards another hand holds or may still get: unseen, known in other hands, the face-up card
    known: list[int]  # per seat: cards known to be in that hand (own seat: 0)
    excluded: list[int]  # per seat: unseen cards that seat cannot hold, by the duties it obeyed
    share: list[float]  # per seat: the chance that a given unseen card it may hold is in its hand
    sung: int  # suits sung this hand (bit per suit)

    def side(self, seat: int) -> int:
        return seat % 2 if self.partners else seat

    def p_any(self, seat: int, mask: int) -> float:
        """The chance that ``seat`` holds at least one card of ``mask``."""
        if mask & self.known[seat]:
            return 1.0
        m = (mask & self.unseen & ~self.excluded[seat]).bit_count()
        if not m:
            return 0.0
        q = self.share[seat]
        return 1.0 if q >= 1.0 else 1.0 - (1.0 - q) ** m

    def pbeats(self, seat: int, win: int, lead: int) -> float:
        """The chance that ``seat``, still to play, beats the winning card ``win`` of a trick led in ``lead``."""
        trump = self.trump
        stronger = STRONGER[win]
        if SUIT_OF[win] == lead:
            above = self.p_any(seat, stronger)
            if lead == trump:
                return above
            void = 1.0 - self.p_any(seat, SUIT_MASK[lead] & ~stronger)
            return above + (1.0 - above) * void * self.p_any(seat, SUIT_MASK[trump])
        # a trump is winning a trick of another suit: only a void seat with a higher trump beats it
        return (1.0 - self.p_any(seat, SUIT_MASK[lead])) * self.p_any(seat, stronger)

    def hold(self, win: int, lead: int, seats: Iterable[int], side: int) -> float:
        """The chance that ``win`` still wins once every seat of ``seats`` outside ``side`` has played."""
        p = 1.0
        for seat in seats:
            if self.side(seat) != side:
                p *= 1.0 - self.pbeats(seat, win, lead)
        return p

    def boss(self, card: int) -> bool:
        """No card of its suit that another hand holds or may get beats ``card``."""
        return not STRONGER[card] & self.out

    def guard(self, card: int) -> int:
        """The weakest card of its suit still out that beats ``card`` (``card`` itself if none): an
        opponent who takes ``card`` in its suit plays this card or a stronger one."""
        above = STRONGER[card] & self.out
        if not above:
            return card
        return min(cards_of(above), key=STRENGTH.__getitem__)

    def later_seats(self) -> list[int]:
        """The seats still to play to the trick on the table after this one."""
        return [(self.seat + i) % self.n for i in range(1, self.n - len(self.view.trick))]


def read_view(view: SeatView) -> Knowledge:
    """Card counting from the view: played cards, known cards and the voids the duties reveal."""
    seat = view.seat
    if seat is None:
        raise ValueError("a bot plays a seat: a spectator's view has no hand")
    n = view.players
    trump = SUITS.index(view.trump)
    hand = _mask(view.hand)
    played = 0
    for done in view.tricks:
        played |= _mask(code for _, code in done.cards)
    played |= _mask(code for _, code in view.trick)
    known = [_mask(codes) & ~played for codes in view.known]
    known[seat] = 0
    rules = rules_of(view)
    sampler = DealSampler(view, rules)
    if view.game == "tute4" and rules.first_lead == "two_of_oros":
        # Tute 4's first trick is led by the holder of the 2 of oros: until it is played, it is in that hand.
        first_leader = view.tricks[0].leader if view.tricks else view.leader
        if first_leader != seat and not (hand | played) & 1 << TWO_OF_OROS:
            known[first_leader] |= 1 << TWO_OF_OROS
    known_elsewhere = 0
    for cards in known:
        known_elsewhere |= cards
    faceup = _mask(() if view.faceup is None else (view.faceup,))
    trump_card = INDEX_OF_CODE[view.trump_card]
    visible = hand | played | known_elsewhere | faceup
    if view.game == "pocha" and view.trump_card_holder is None:  # the turned-up card belongs to nobody
        visible |= 1 << trump_card
    deck = mask_of(deck_cards(deck48=rules.deck48, without_twos=rules.without_twos))
    unseen = deck & ~visible
    partners = view.game == "tute4"
    # what the public play proves, by the engine's own duties (in Tute 2 only since the last draw)
    excluded = [sampler.excluded(other) if other != seat else 0 for other in range(n)]
    share = [0.0] * n
    for other in range(n):
        if other == seat:
            continue
        slots = view.hand_sizes[other] - known[other].bit_count()
        pool = (unseen & ~excluded[other]).bit_count()
        share[other] = min(1.0, slots / pool) if pool and slots > 0 else 0.0
    sung = 0
    for _, suit, _points in view.cantes:
        if suit in SUITS:
            sung |= 1 << SUITS.index(suit)
    return Knowledge(
        rules=rules,
        sampler=sampler,
        view=view,
        seat=seat,
        n=n,
        trump=trump,
        partners=partners,
        hand=hand,
        cards=cards_of(hand),
        played=played,
        unseen=unseen,
        out=unseen | known_elsewhere | faceup,
        known=known,
        excluded=excluded,
        share=share,
        sung=sung,
    )


def _winner(trick: Sequence[tuple[int, str]], trump: int) -> tuple[int, int]:
    """The seat and card winning the trick so far."""
    win_seat, code = trick[0]
    win = INDEX_OF_CODE[code]
    for seat, code in trick[1:]:
        card = INDEX_OF_CODE[code]
        if beats(card, win, trump):
            win_seat, win = seat, card
    return win_seat, win


def _mask(codes: Iterable[str]) -> int:
    m = 0
    for code in codes:
        m |= 1 << INDEX_OF_CODE[code]
    return m


# -- swaps and cantes -------------------------------------------------------------------------------


def _window_action(view: SeatView, legal: tuple[str, ...]) -> str | None:
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


def _tute_card(k: Knowledge, cards: list[int], rng: random.Random) -> int:
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
    """Each card's score in points (``_tute_card`` plays the best): the expected swing of the trick,
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
        win_seat, win = _winner(trick, k.trump)
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


# -- Pocha ------------------------------------------------------------------------------------------


def _card_values(k: Knowledge) -> dict[int, float]:
    """Per card of the hand: the chance it takes a trick when led, against every other seat."""
    others = [(k.seat + i) % k.n for i in range(1, k.n)]
    return {card: k.hold(card, SUIT_OF[card], others, k.seat) for card in k.cards}


def _bid(k: Knowledge, legal: tuple[str, ...]) -> str:
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


def _pocha_card(k: Knowledge, cards: list[int]) -> int:
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
    _, win = _winner(trick, k.trump)
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
