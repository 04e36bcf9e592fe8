"""Deals consistent with what a seat has seen: the determinizations search plays on.

``DealSampler(view)`` reads a seat's view once: its hand, the cards played, the face-up card and the
swaps, the cantes shown, and what the public play proves about the other hands. A seat that did not
follow suit held none of it; one that did not beat when docs/RULES.md section 2 obliged it held nothing
higher; one that did not trump when obliged held no trump. Those facts are not coded here: for each
card played, the cards that would have made it illegal are asked of the engine's own duty code
(``duty_mask``), so every flag of docs/RULES.md is honoured as the rules apply it.

``sample(rng)`` then places every hidden card and returns a ``Table`` at the current position, built by
dealing the sampled deck and replaying the hand's public actions through the engine: a deal is only
returned when that replay is legal at every step and leaves the seat exactly the hand it holds. In
Tute 2 the draws make the past matter: a card a seat holds now may have been drawn after a trick that
proved it held none of that suit, so each card is given a place in the deal (a hand dealt or a draw)
within the window the play allows. Pocha bids are not read as facts (they are wishes, not proofs).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from .actions import ACTION_OF_CODE
from .cards import INDEX_OF_CODE, PAIR_MASK, SUITS, cards_of, deck_cards
from .hands import PHASE_NAMES
from .rules import Rules
from .table import Table
from .tricks import beats, duty_mask

if TYPE_CHECKING:
    from .views import SeatView

#: Shown each position of a replay with more than one legal action: (table, legal ids, action taken).
Watcher = Callable[[Table, list[int], int], None]

#: Fresh draws before a sampler gives up on one deal (each is checked by replay; a miss is rare).
TRIES: Final = 40
NEVER: Final = 1 << 30  # a release time for cards still held


def rules_of(view: SeatView) -> Rules:
    """The rules of the game a view shows (the view carries every flag)."""
    return Rules.build(view.game, view.players, view.options)


def _mask(codes: tuple[str, ...] | list[str]) -> int:
    m = 0
    for code in codes:
        m |= 1 << INDEX_OF_CODE[code]
    return m


class DealSampler:
    """Samples full deals of the current hand consistent with ``view`` (see the module's docstring)."""

    def __init__(self, view: SeatView, rules: Rules | None = None) -> None:
        if view.seat is None:
            raise ValueError("deals are sampled for a seat, not for a spectator")
        self.view = view
        self.rules = rules = rules or rules_of(view)
        self.seat = seat = view.seat
        self.n = n = view.players
        self.trump = SUITS.index(view.trump)
        self.trump_card = INDEX_OF_CODE[view.trump_card]
        self.hand = _mask(view.hand)
        self.known = [_mask(k) for k in view.known]
        self.known[seat] = 0
        self.actions = tuple(ACTION_OF_CODE[code] for code in view.actions)
        self.deck_cards = deck_cards(deck48=rules.deck48, without_twos=rules.without_twos)
        all_cards = 0
        for c in self.deck_cards:
            all_cards |= 1 << c
        self.all_cards = all_cards
        # every trick of the hand in order, the one on the table last: (seat, card) in play order
        tricks = [tuple((s, INDEX_OF_CODE[c]) for s, c in t.cards) for t in view.tricks]
        self.winners = [t.winner for t in view.tricks]
        current = tuple((s, INDEX_OF_CODE[c]) for s, c in view.trick)
        self.tricks: list[tuple[tuple[int, int], ...]] = tricks + ([current] if current else [])
        played = 0
        for trick in self.tricks:
            for _, card in trick:
                played |= 1 << card
        self.played = played
        self.faceup = INDEX_OF_CODE[view.faceup] if view.faceup else -1
        self.k = view.cards_dealt
        self.stock_tricks = (len(self.deck_cards) - n * self.k) // 2 if rules.has_stock else 0
        # the proofs: per seat, (trick number, cards it cannot have held then)
        self.proofs: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for number, trick in enumerate(self.tricks, start=1):
            self._read_trick(number, trick)
        if rules.game == "tute4" and rules.first_lead == "two_of_oros":
            two = INDEX_OF_CODE["2O"]
            first = self.tricks[0][0][0] if self.tricks else view.leader
            if not (self.played >> two) & 1 and first != seat:
                self.known[first] |= 1 << two  # the first leader is the one who holds it
        self.first_dealer = (view.dealer - view.hand_number) % n
        self.mano = (view.dealer + 1) % n

    # -- what the play proves ------------------------------------------------------------------------
    def _read_trick(self, number: int, trick: tuple[tuple[int, int], ...]) -> None:
        rules, trump = self.rules, self.trump
        stock_open = rules.has_stock and number <= self.stock_tricks
        cards: tuple[int, ...] = ()
        win_seat = win_card = -1
        for seat, card in trick:
            # the seat's own plays matter only where the past is sampled (Tute 2's draws)
            if cards and (seat != self.seat or rules.has_stock):
                bit = 1 << card
                ruled_out = 0
                for other in cards_of(self.all_cards & ~bit):
                    hand = bit | (1 << other)
                    if not (duty_mask(rules, trump, cards, win_seat, win_card, stock_open, seat, hand) & bit):
                        ruled_out |= 1 << other
                if ruled_out:
                    self.proofs[seat].append((number, ruled_out))
            if not cards or beats(card, win_card, trump):
                win_seat, win_card = seat, card
            cards = (*cards, card)

    def excluded(self, seat: int) -> int:
        """Cards ``seat`` cannot hold now, by the proofs (in Tute 2 only while nothing was drawn since)."""
        out = 0
        for number, ruled_out in self.proofs[seat]:
            if not self.rules.has_stock or number >= self.stock_tricks:
                out |= ruled_out
        return out

    # -- sampling ---------------------------------------------------------------------------------
    def sample(self, rng: random.Random, watch: Watcher | None = None) -> Table | None:
        """A table at the current position with every hidden card placed; None if no consistent deal
        was found in ``TRIES`` draws (the caller then plays without search). ``watch``, if given, is
        shown each position of the replay with the action taken there (a bot weighs samples by it)."""
        for _ in range(TRIES):
            deck = self._tute2_deck(rng) if self.rules.has_stock else self._dealt_deck(rng)
            if deck is None:
                continue
            table = self.replay(deck, watch)
            if table is not None:
                return table
        return None

    def replay(self, deck: tuple[int, ...], watch: Watcher | None = None) -> Table | None:
        """Deal ``deck`` as the current hand and replay the hand's actions; None unless every action is
        legal and the seat ends with exactly its hand and the public facts of the view."""
        view = self.view
        decks = tuple(deck for _ in range(view.hands_total))
        table = Table.new_at_hand(self.rules, self.first_dealer, decks, view.hand_number, tuple(view.scores))
        for action in self.actions:
            legal = table.legal_ids()
            if action not in legal:
                return None
            if watch is not None and len(legal) > 1:
                watch(table, legal, action)
            table.step(action)
        if (
            table.hands[self.seat] != self.hand
            or table.hand_no != view.hand_number
            or PHASE_NAMES[table.phase] != view.phase
            or (view.to_act is not None and table.to_act != view.to_act)
        ):
            return None  # e.g. a partner the deal gives a pair to sing, though it was never asked
        return table

    def _pool(self) -> int:
        """Cards whose place the seat does not know."""
        out = self.all_cards & ~self.hand & ~self.played
        for k in self.known:
            out &= ~k
        if self.faceup >= 0:
            out &= ~(1 << self.faceup)
        if self.rules.game == "pocha" and self.view.trump_card_holder is None:
            out &= ~(1 << self.trump_card)  # the turned-up card belongs to nobody
        return out

    def _dealt_deck(self, rng: random.Random) -> tuple[int, ...] | None:
        """Tute 4 and Pocha: nothing is drawn, so each seat's cards are its hand now plus what it played."""
        n, k, view = self.n, self.k, self.view
        pool = cards_of(self._pool())
        rng.shuffle(pool)
        hands = list(self.known)
        hands[self.seat] = self.hand
        room = [view.hand_sizes[s] - hands[s].bit_count() if s != self.seat else 0 for s in range(n)]
        allowed = [~self.excluded(s) if s != self.seat else 0 for s in range(n)]
        undealt = (
            len(self.deck_cards)
            - n * k
            - (1 if self.rules.game == "pocha" and n * k < len(self.deck_cards) else 0)
        )
        # the most constrained cards first
        pool.sort(key=lambda c: sum(1 for s in range(n) if room[s] and (allowed[s] >> c) & 1))
        rest: list[int] = []
        for card in pool:
            seats = [s for s in range(n) if room[s] and (allowed[s] >> card) & 1]
            weights = [room[s] for s in seats]
            free = undealt - len(rest)
            if free > 0:
                seats.append(-1)
                weights.append(free)
            if not seats:
                return None
            seat = rng.choices(seats, weights)[0]
            if seat < 0:
                rest.append(card)
            else:
                hands[seat] |= 1 << card
                room[seat] -= 1
        if any(room):
            return None
        for trick in self.tricks:
            for seat, card in trick:
                hands[seat] |= 1 << card
        deck: list[int] = []
        for block in range(n):
            seat = (self.mano + block) % n
            cards = cards_of(hands[seat])
            if n * k == len(self.deck_cards) and seat == view.dealer:
                cards.remove(self.trump_card)  # the dealer's last card is the one shown
                cards.append(self.trump_card)
            deck.extend(cards)
        if n * k < len(self.deck_cards):
            deck.append(self.trump_card)
            deck.extend(rest)
        return tuple(deck)

    def _tute2_deck(self, rng: random.Random) -> tuple[int, ...] | None:
        """Tute 2: place every card a seat held in a slot of the deal (hand dealt at time 0, a draw after
        trick t at time t + 0.5) before the time it left the hand (a play in trick j at j, a swap before
        trick j at j - 0.25) and after any trick that proves the seat did not hold it then."""
        slots = self._dealt_slots()
        events = self._tute2_events()
        intervals = self._tute2_windows(events, slots)
        pool = cards_of(self._pool())
        chosen = self._choose_unseen(rng, pool, slots, intervals)
        if chosen is None:
            return None
        return self._tute2_placed(rng, pool, chosen, slots, intervals)

    def _dealt_slots(self) -> list[list[tuple[float, int]]]:
        """The deck positions each seat's hand was dealt from, at time 0: (time, deck position) each."""
        n, k = self.n, self.k
        slots: list[list[tuple[float, int]]] = [[] for _ in range(n)]
        for block in range(n):
            seat = (self.mano + block) % n
            slots[seat].extend((0.0, block * k + i) for i in range(k))
        return slots

    def _tute2_events(self) -> list[tuple[float, int, str, int, int]]:
        """The hand's plays, swaps and draws in time order: (time, order, kind, seat, card or swap); the
        cantes set ``_deadlines`` (a pair sung was held when singing, or with cante_before_draw when the
        trick before was won)."""
        n = self.n
        exchanges = list(self.view.exchanges)
        events: list[tuple[float, int, str, int, int]] = []
        plays = 0
        ex_index = 0
        self._deadlines: list[dict[int, float]] = [{} for _ in range(n)]
        sung = [c for c in self.view.cantes if c[1] != "tute"]
        sing_index = 0
        for order, action in enumerate(self.actions):
            if action < 48:
                plays += 1
            elif 96 <= action < 100:
                seat, suit, _ = sung[sing_index]
                sing_index += 1
                self._sung_by(seat, suit, plays // n + 1)
            elif action < 96:
                who, gave_code, took_code = exchanges[ex_index]
                ex_index += 1
                swap = INDEX_OF_CODE[gave_code] * 64 + INDEX_OF_CODE[took_code]
                events.append((plays // n + 1 - 0.25, order, "swap", who, swap))
        for number, trick in enumerate(self.tricks, start=1):
            for seat, card in trick:
                events.append((float(number), 0, "play", seat, card))
            if number <= len(self.winners) and number <= self.stock_tricks:
                events.append((number + 0.5, 0, "draw", self.winners[number - 1], 0))
        events.sort()
        return events

    def _sung_by(self, seat: int, suit: str, number: int) -> None:
        """The pair of ``suit`` sung by ``seat`` in trick ``number``: both cards held by then."""
        by = (number - 0.5) if self.rules.cante_before_draw else (number - 0.25)
        for card in cards_of(PAIR_MASK[SUITS.index(suit)]):
            self._deadlines[seat][card] = min(by, self._deadlines[seat].get(card, NEVER))

    def _tute2_windows(
        self, events: list[tuple[float, int, str, int, int]], slots: list[list[tuple[float, int]]]
    ) -> list[list[tuple[float, float, int]]]:
        """Replay ``events``, each draw adding its slot to ``slots``: the window of every card each seat
        held and did not take face up, (after, before, card)."""
        n = self.n
        fixed: list[dict[int, float]] = [{} for _ in range(n)]  # card -> when taken face up
        intervals: list[list[tuple[float, float, int]]] = [[] for _ in range(n)]
        faceup = self.trump_card
        position = n * self.k + 1  # the stock's first card
        for time, _, kind, seat, value in events:
            if kind == "play":
                self._release(seat, value, time, fixed, intervals)
            elif kind == "swap":
                gave, took = divmod(value, 64)
                self._release(seat, gave, time, fixed, intervals)
                fixed[seat][took] = time
                faceup = gave
            else:
                for drawer in (seat, 1 - seat):
                    if position < len(self.deck_cards):
                        slots[drawer].append((time, position))
                        position += 1
                    else:
                        fixed[drawer][faceup] = time
        self._held_windows(fixed, intervals)
        return intervals

    def _held_windows(
        self, fixed: list[dict[int, float]], intervals: list[list[tuple[float, float, int]]]
    ) -> None:
        """The cards each seat holds now (its own hand, and those the others are known to hold)."""
        for seat in range(self.n):
            held = self.hand if seat == self.seat else self.known[seat]
            for card in cards_of(held):
                if card in fixed[seat]:
                    del fixed[seat][card]
                else:
                    intervals[seat].append(
                        (self._after(seat, card, NEVER), self._before(seat, card, NEVER), card)
                    )

    def _choose_unseen(
        self,
        rng: random.Random,
        pool: list[int],
        slots: list[list[tuple[float, int]]],
        intervals: list[list[tuple[float, float, int]]],
    ) -> list[int] | None:
        """The other seat's unknown cards, drawn from ``pool`` among those it may hold now (their windows
        added to ``intervals``); None when too few may."""
        other = 1 - self.seat
        unknown = self.view.hand_sizes[other] - self.known[other].bit_count()
        last_slot = max((t for t, _ in slots[other]), default=0.0)
        candidates = [c for c in pool if self._after(other, c, NEVER) < last_slot]
        if len(candidates) < unknown:
            return None
        chosen = rng.sample(candidates, unknown)
        for card in chosen:
            intervals[other].append((self._after(other, card, NEVER), float(NEVER), card))
        return chosen

    def _tute2_placed(
        self,
        rng: random.Random,
        pool: list[int],
        chosen: list[int],
        slots: list[list[tuple[float, int]]],
        intervals: list[list[tuple[float, float, int]]],
    ) -> tuple[int, ...] | None:
        """The deck: every seat's cards matched to its slots, the rest of ``pool`` shuffled into the
        stock's free places."""
        n, k = self.n, self.k
        deck = [-1] * len(self.deck_cards)
        deck[n * k] = self.trump_card
        for seat in range(n):
            placed = _match(slots[seat], intervals[seat])
            if placed is None:
                return None
            for pos, card in placed:
                deck[pos] = card
        chosen_mask = 0
        for card in chosen:
            chosen_mask |= 1 << card
        rest = [c for c in pool if not (chosen_mask >> c) & 1]
        rng.shuffle(rest)
        free = [i for i, c in enumerate(deck) if c < 0]
        if len(free) != len(rest):
            return None
        for i, card in zip(free, rest, strict=True):
            deck[i] = card
        return tuple(deck)

    def _after(self, seat: int, card: int, before: float) -> float:
        """The latest trick before ``before`` proving ``seat`` did not hold ``card`` (-1: none)."""
        latest = -1.0
        for number, ruled_out in self.proofs[seat]:
            if number < before and (ruled_out >> card) & 1 and number > latest:
                latest = float(number)
        return latest

    def _release(
        self,
        seat: int,
        card: int,
        time: float,
        fixed: list[dict[int, float]],
        intervals: list[list[tuple[float, float, int]]],
    ) -> None:
        if card in fixed[seat]:
            del fixed[seat][card]  # taken face up: no slot of the deal
        else:
            intervals[seat].append((self._after(seat, card, time), self._before(seat, card, time), card))

    def _before(self, seat: int, card: int, release: float) -> float:
        """When ``seat`` must have got ``card`` held until ``release``: before it left, and before any
        cante it made with it."""
        deadline = self._deadlines[seat].get(card, NEVER)
        return deadline if deadline < release else release


def _match(
    slots: list[tuple[float, int]], intervals: list[tuple[float, float, int]]
) -> list[tuple[int, int]] | None:
    """Give each card a slot strictly inside its window; the earliest-deadline greedy over slots in time
    order finds such a matching whenever one exists."""
    if len(slots) != len(intervals):
        return None
    waiting = sorted(intervals)
    open_: list[tuple[float, int]] = []  # (before, card) of windows already open
    out: list[tuple[int, int]] = []
    i = 0
    for time, position in sorted(slots):
        while i < len(waiting) and waiting[i][0] < time:
            open_.append((waiting[i][1], waiting[i][2]))
            i += 1
        open_.sort()
        while open_ and open_[0][0] <= time:
            return None  # a card had to be placed before now
        if not open_:
            return None
        _, card = open_.pop(0)
        out.append((position, card))
    if i < len(waiting) or open_:
        return None
    return out
