"""What a seat knows, read once from its view: where every card can still be, and which cards each
seat cannot hold, by the duties the public play shows it obeyed (the engine's own deductions)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from games.engine import Rules, SeatView
from games.engine.cards import (
    INDEX_OF_CODE,
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
from games.engine.tricks import beats

TWO_OF_OROS: Final = card_index(2, 0)


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
        return self.rules.side_of(seat)

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


def winner(trick: Sequence[tuple[int, str]], trump: int) -> tuple[int, int]:
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
