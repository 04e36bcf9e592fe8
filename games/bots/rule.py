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
  rest of the hand is solved exactly; in Tute 4's last four tricks the unseen cards are dealt a few
  times at random (consistent with what the seat knows) and each deal is solved exactly.
- Pocha: it bids the tricks its hand is expected to take, then plays to make the bid exactly,
  winning while short of it and ducking (shedding its strongest cards) once it has enough.

The look-aheads assume the product's default flags (full duties; Tute 4's 10 for the last trick): a
view does not carry the options. The ``rng`` it is handed only draws Tute 4's endgame deals, so the
bot is deterministic for a seeded ``rng``; ties between cards go by a fixed card order.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from games.engine import SeatView
from games.engine.cards import (
    CODE_OF,
    EIGHTS_NINES_MASK,
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
#: Sampled deals respect the voids the seats showed, if a few tries find such a deal.
SAMPLE_TRIES: Final = 6
#: A won game is worth this many points of margin in the endgame's choice.
WIN_WEIGHT: Final = 50

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

    def p_beats(self, seat: int, win: int, lead: int) -> float:
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
                p *= 1.0 - self.p_beats(seat, win, lead)
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
    if view.game == "tute4":
        # Tute 4's first trick is led by the holder of the 2 of oros (first_lead's default): until it
        # is played, it is in that hand.
        first_leader = view.tricks[0].leader if view.tricks else view.leader
        if first_leader != seat and not (hand | played) & 1 << TWO_OF_OROS:
            known[first_leader] |= 1 << TWO_OF_OROS
    known_elsewhere = 0
    for cards in known:
        known_elsewhere |= cards
    faceup = _mask(() if view.faceup is None else (view.faceup,))
    trump_card = INDEX_OF_CODE[view.trump_card]
    visible = hand | played | known_elsewhere | faceup
    if view.game == "pocha":
        if view.trump_card_holder is None:  # the turned-up card belongs to nobody
            visible |= 1 << trump_card
        deck48 = bool((visible | 1 << trump_card) & EIGHTS_NINES_MASK)
    else:
        deck48 = sum(view.hand_sizes) + view.stock_size + faceup.bit_count() + played.bit_count() > 40
    deck = mask_of(deck_cards(deck48=deck48, without_twos=view.game == "pocha" and n in (3, 6)))
    unseen = deck & ~visible
    partners = view.game == "tute4"
    excluded = [0] * n
    if view.game != "tute2":  # Tute 2's stock refills voids, and its duties may be off while it lasts
        for done in view.tricks:
            _deduce(done.cards, trump, partners, excluded)
        _deduce(view.trick, trump, partners, excluded)
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


def _deduce(trick: Sequence[tuple[int, str]], trump: int, partners: bool, excluded: list[int]) -> None:
    """What each play of ``trick`` tells about the hand it came from (docs/RULES.md section 2)."""
    if not trick:
        return
    win_seat, code = trick[0]
    win = INDEX_OF_CODE[code]
    lead = SUIT_OF[win]
    for seat, code in trick[1:]:
        card = INDEX_OF_CODE[code]
        # With partner_exception a seat may play anything while its partner wins: learn nothing then.
        if not (partners and win_seat == (seat + 2) % 4):
            win_suit = SUIT_OF[win]
            if SUIT_OF[card] != lead:
                excluded[seat] |= SUIT_MASK[lead]
                if win_suit != trump and SUIT_OF[card] != trump:
                    excluded[seat] |= SUIT_MASK[trump]
                elif win_suit == trump and not (SUIT_OF[card] == trump and STRENGTH[card] > STRENGTH[win]):
                    excluded[seat] |= STRONGER[win]
            elif win_suit == lead and STRENGTH[card] < STRENGTH[win]:
                excluded[seat] |= STRONGER[win]
        if _beats(card, win, trump):
            win_seat, win = seat, card


def _beats(card: int, win: int, trump: int) -> bool:
    if SUIT_OF[card] == SUIT_OF[win]:
        return STRENGTH[card] > STRENGTH[win]
    return SUIT_OF[card] == trump


def _winner(trick: Sequence[tuple[int, str]], trump: int) -> tuple[int, int]:
    """The seat and card winning the trick so far."""
    win_seat, code = trick[0]
    win = INDEX_OF_CODE[code]
    for seat, code in trick[1:]:
        card = INDEX_OF_CODE[code]
        if _beats(card, win, trump):
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
    if view.game == "tute2" and view.faceup is None and len(k.cards) <= TUTE2_ENDGAME_CARDS:
        return _tute2_endgame(k, cards)
    if view.game == "tute4" and len(k.cards) <= TUTE4_ENDGAME_CARDS:
        return _tute4_endgame(k, cards, rng)
    trick = view.trick
    later = k.later_seats()
    side = k.side(k.seat)
    unseen = cards_of(k.unseen)
    average = sum(POINTS[c] for c in unseen) / len(unseen) if unseen else 0.0
    pot = sum(POINTS[INDEX_OF_CODE[code]] for _, code in trick) + average * len(later)
    if view.game == "tute4" and len(k.cards) == 1:
        pot += 10  # the last trick's bonus (last_trick_bonus is on by default in Tute 4)
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
        and not all(_beats(card, win, k.trump) for card in cards)
    )
    best = cards[0]
    best_key: tuple[float, int, int] | None = None
    for card in cards:
        if not trick:
            p = mine = k.hold(card, SUIT_OF[card], later, side)
            if partner in later:
                p += (1.0 - p) * LEAD_RESCUE * k.p_beats(partner, k.guard(card), SUIT_OF[card])
        elif _beats(card, win, k.trump):
            p = mine = k.hold(card, lead, later, side)
            if partner in later:
                p += (1.0 - p) * LEAD_RESCUE * k.p_beats(partner, k.guard(card), lead)
        elif k.side(win_seat) == side:
            p, mine = k.hold(win, lead, later, side), 0.0
        elif partner in later:
            p, mine = PARTNER_RESCUE * k.p_beats(partner, win, lead), 0.0
        else:
            p = mine = 0.0
        score = (
            (2.0 * p - 1.0) * (pot + POINTS[card])
            + mine * CANTE_WEIGHT * _cante_gain(k, card)
            - _keep(k, card)
        )
        if partner_sure and mine:
            score -= OVERTAKE
        key = (round(score, 6), -STRENGTH[card], -card)
        if best_key is None or key > best_key:
            best, best_key = card, key
    return best


# -- Tute 2 after the stock: both hands are known, so the rest is solved exactly -------------------


def _tute2_endgame(k: Knowledge, cards: list[int]) -> int:
    """Once the stock is drawn, the other hand is the unseen cards: the card of the best margin that
    the bot can force, every card and cante still to come counted."""
    me = k.hand
    other = k.unseen | k.known[1 - k.seat]
    trump = k.trump
    memo: dict[tuple[int, int, int], int] = {}
    trick = k.view.trick
    best = cards[0]
    best_key: tuple[int, int, int] | None = None
    for card in cards:
        if trick:  # the other seat led: this card closes the trick
            lead = INDEX_OF_CODE[trick[0][1]]
            margin = _close(me & ~(1 << card), other, lead, card, trump, k.sung, memo)
        else:
            margin = min(
                -_close(other & ~(1 << reply), me & ~(1 << card), card, reply, trump, k.sung, memo)
                for reply in cards_of(_reply_mask(other, card, trump))
            )
        key = (margin, -STRENGTH[card], -card)
        if best_key is None or key > best_key:
            best, best_key = card, key
    return best


def _solve(leader: int, follower: int, trump: int, sung: int, memo: dict[tuple[int, int, int], int]) -> int:
    """The best margin in card and cante points the leading hand can force over the rest of the hand."""
    if not leader:
        return 0
    key = (leader, follower, sung)
    found = memo.get(key)
    if found is not None:
        return found
    best = -1000
    for lead in cards_of(leader):
        rest = leader & ~(1 << lead)
        worst = 1000
        for reply in cards_of(_reply_mask(follower, lead, trump)):
            margin = -_close(follower & ~(1 << reply), rest, lead, reply, trump, sung, memo)
            if margin < worst:
                worst = margin
                if worst <= best:
                    break
        if worst > best:
            best = worst
    memo[key] = best
    return best


def _close(
    follower: int,
    leader: int,
    lead: int,
    reply: int,
    trump: int,
    sung: int,
    memo: dict[tuple[int, int, int], int],
) -> int:
    """The follower's margin once it answers ``lead`` with ``reply`` (both hands already without them)."""
    points = POINTS[lead] + POINTS[reply]
    if _beats(reply, lead, trump):
        gain, suit = _best_cante(follower, sung, trump)
        return points + gain + _solve(follower, leader, trump, sung | suit, memo)
    gain, suit = _best_cante(leader, sung, trump)
    return -(points + gain + _solve(leader, follower, trump, sung | suit, memo))


def _best_cante(hand: int, sung: int, trump: int) -> tuple[int, int]:
    """The cante the winner of a trick sings with ``hand`` left, and the suit bit it uses."""
    if not hand:
        return 0, 0
    if not (sung >> trump) & 1 and hand & PAIR_MASK[trump] == PAIR_MASK[trump]:
        return 40, 1 << trump
    for suit in range(4):
        if not (sung >> suit) & 1 and hand & PAIR_MASK[suit] == PAIR_MASK[suit]:
            return 20, 1 << suit
    return 0, 0


def _reply_mask(hand: int, lead: int, trump: int) -> int:
    """Two players: the cards of ``hand`` it may play on ``lead`` (docs/RULES.md 2, default flags)."""
    follow = hand & SUIT_MASK[SUIT_OF[lead]]
    if follow:
        return (follow & STRONGER[lead]) or follow
    trumps = hand & SUIT_MASK[trump]
    return trumps or hand


# -- Tute 4's last tricks: deals sampled from what the seat knows, each solved exactly --------------


def _tute4_endgame(k: Knowledge, cards: list[int], rng: random.Random) -> int:
    """The card that does best over the rest of the hand, every seat playing its best, averaged over deals
    of the unseen cards: winning the game first, then the margin."""
    trick = k.view.trick
    side = k.side(k.seat)
    ahead = k.view.scores[side] - k.view.scores[1 - side]
    trump = k.trump
    # the trick once this seat has played each card: led suit, winning seat and card, points
    after_card: dict[int, tuple[int, int, int, int]] = {}
    for card in cards:
        if trick:
            win_seat, win = _winner(trick, trump)
            if _beats(card, win, trump):
                win_seat, win = k.seat, card
            points = sum(POINTS[INDEX_OF_CODE[code]] for _, code in trick) + POINTS[card]
            after_card[card] = (SUIT_OF[INDEX_OF_CODE[trick[0][1]]], win_seat, win, points)
        else:
            after_card[card] = (SUIT_OF[card], k.seat, card, POINTS[card])
    totals = dict.fromkeys(cards, 0)
    for _ in range(TUTE4_ENDGAME_DEALS):
        hands = _sample_hands(k, rng)
        game = _Endgame(trump, side)
        for card in cards:
            hands[k.seat] = k.hand & ~(1 << card)
            lead, win_seat, win, points = after_card[card]
            margin = game.follow(
                tuple(hands),
                (k.seat + 1) % k.n,
                len(trick) + 1,
                lead,
                win_seat,
                win,
                points,
                k.sung,
                -1000,
                1000,
            )
            final = ahead + margin
            totals[card] += margin + (WIN_WEIGHT if final > 0 else -WIN_WEIGHT if final < 0 else 0)
    return max(cards, key=lambda c: (totals[c], -STRENGTH[c], -c))


def _sample_hands(k: Knowledge, rng: random.Random) -> list[int]:
    """One deal of the unseen cards to the other seats, with their known cards and, when it can, their voids."""
    hands = list(k.known)
    hands[k.seat] = k.hand
    slots = [k.view.hand_sizes[s] - k.known[s].bit_count() if s != k.seat else 0 for s in range(k.n)]
    pool = cards_of(k.unseen)
    for attempt in range(SAMPLE_TRIES + 1):
        strict = attempt < SAMPLE_TRIES
        rng.shuffle(pool)
        dealt = list(hands)
        left = list(slots)
        for card in pool:
            seats = [s for s in range(k.n) if left[s] and not (strict and (k.excluded[s] >> card) & 1)]
            if not seats:
                break
            pick = rng.random() * sum(left[s] for s in seats)
            for seat in seats:
                pick -= left[seat]
                if pick < 0:
                    break
            dealt[seat] |= 1 << card
            left[seat] -= 1
        else:
            return dealt
    raise AssertionError("unreachable: the last try ignores the voids")  # pragma: no cover


class _Endgame:
    """Tute 4 solved exactly with every hand known: alpha-beta over the pair margin, from ``side``'s view,
    with positions between tricks kept in ``memo`` (value, bound: 0 exact, 1 lower, -1 upper)."""

    __slots__ = ("memo", "side", "trump")

    def __init__(self, trump: int, side: int) -> None:
        self.trump = trump
        self.side = side
        self.memo: dict[tuple[tuple[int, ...], int, int], tuple[int, int]] = {}

    def lead(self, hands: tuple[int, ...], seat: int, sung: int, alpha: int, beta: int) -> int:
        key = (hands, seat, sung)
        found = self.memo.get(key)
        if found is not None:
            value, bound = found
            if bound == 0 or (bound > 0 and value >= beta) or (bound < 0 and value <= alpha):
                return value
        n = len(hands)
        ours = seat % 2 == self.side
        best = -1000 if ours else 1000
        low, high = alpha, beta
        hand = hands[seat]
        for card in _strongest_first(hand):
            after = (*hands[:seat], hand & ~(1 << card), *hands[seat + 1 :])
            value = self.follow(
                after, (seat + 1) % n, 1, SUIT_OF[card], seat, card, POINTS[card], sung, low, high
            )
            if ours:
                if value > best:
                    best = value
                    low = max(low, value)
            elif value < best:
                best = value
                high = min(high, value)
            if low >= high:
                break
        self.memo[key] = (best, 1 if best >= beta else -1 if best <= alpha else 0)
        return best

    def follow(
        self,
        hands: tuple[int, ...],
        seat: int,
        played: int,
        lead: int,
        win_seat: int,
        win: int,
        points: int,
        sung: int,
        alpha: int,
        beta: int,
    ) -> int:
        n = len(hands)
        trump = self.trump
        if played == n:
            if not hands[win_seat]:
                points += 10  # the last trick (last_trick_bonus, on by default in Tute 4)
                return points if win_seat % 2 == self.side else -points
            gain, suit = _best_cante(hands[win_seat], sung, trump)
            points += gain
            if win_seat % 2 != self.side:
                points = -points
            return points + self.lead(hands, win_seat, sung | suit, alpha - points, beta - points)
        hand = hands[seat]
        follow = hand & SUIT_MASK[lead]
        if follow:
            legal = ((follow & STRONGER[win]) or follow) if SUIT_OF[win] == lead else follow
        else:
            trumps = hand & SUIT_MASK[trump]
            if not trumps:
                legal = hand
            elif SUIT_OF[win] != trump:
                legal = trumps
            else:
                legal = (trumps & STRONGER[win]) or hand
        ours = seat % 2 == self.side
        best = -1000 if ours else 1000
        low, high = alpha, beta
        for card in _strongest_first(legal):
            after = (*hands[:seat], hand & ~(1 << card), *hands[seat + 1 :])
            ahead_seat, ahead = (seat, card) if _beats(card, win, trump) else (win_seat, win)
            value = self.follow(
                after,
                (seat + 1) % n,
                played + 1,
                lead,
                ahead_seat,
                ahead,
                points + POINTS[card],
                sung,
                low,
                high,
            )
            if ours:
                if value > best:
                    best = value
                    low = max(low, value)
            elif value < best:
                best = value
                high = min(high, value)
            if low >= high:
                break
        return best


def _strongest_first(mask: int) -> list[int]:
    """The cards of ``mask``, strongest first: the order that lets alpha-beta cut soonest, most often."""
    if not mask & (mask - 1):
        return [mask.bit_length() - 1]
    return sorted(cards_of(mask), key=STRENGTH.__getitem__, reverse=True)


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
        p = k.hold(card, lead, later, k.seat) if _beats(card, win, k.trump) else 0.0
        expected = p + total - values[card]  # tricks the hand should end with after this card
        miss = abs(need - expected)
        # on a tie: win while short of the bid, lose once it is made; then the cheaper card
        key = (-round(miss, 6), p if need > 0 else -p, -STRENGTH[card] if need > 0 else STRENGTH[card], -card)
        if best_key is None or key > best_key:
            best, best_key = card, key
    return best
