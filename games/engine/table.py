"""The one implementation of the rules: a position that steps forward in place.

``Table`` holds only immutable values (ints, bitmasks, tuples), so ``clone()`` is a cheap shallow copy.
The public ``State`` never mutates a table: it clones, then steps. Random playouts step a table
directly and skip the copies; both paths run this same code, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import add
from typing import Final

from .actions import BID, CODE_OF_ACTION, EXCHANGE, MAX_BID, PASS, SING, SING_TUTE
from .cards import (
    BIT,
    KINGS_MASK,
    KNIGHTS_MASK,
    NUM_CARDS,
    PAIR_MASK,
    POINTS,
    RANK_OF,
    SEVENS,
    STRENGTH,
    SUIT_OF,
    TWOS,
    card_index,
    cards_of,
)
from .explain import why_illegal
from .hands import (
    BIDDING,
    EV_BID,
    EV_EXCHANGE,
    EV_PASS,
    EV_PLAY,
    EV_SING,
    EV_TRICK,
    OVER,
    PARTNER_SINGING,
    PLAYING,
    TUTE_SUIT,
    HandResult,
)
from .rules import PLAYERS, Rules, side_of
from .tricks import TAKES, duty_mask

#: Every action id of the game, newest first, as a cons list: appending is O(1) and shares the past.
ActionList = tuple[int, "ActionList"] | None
TWO_TAKES_RANKS: Final = frozenset((4, 5, 6, 7))
TWO_OF_OROS: Final = card_index(2, 0)
#: ``PLAY_EVENTS[seat][card]``: the log's one-event tuple of ``seat`` playing ``card``, built once and shared
#: (events are immutable), so a card played appends to the log without building its event.
PLAY_EVENTS: Final = tuple(
    tuple(((EV_PLAY, seat, card, 0),) for card in range(NUM_CARDS)) for seat in range(PLAYERS["pocha"][1])
)
#: ``BID_IDS[k]``: the ids of the bids 0 to k, the bidding phase's actions before the hook.
BID_IDS: Final = tuple(tuple(range(BID, BID + k + 1)) for k in range(MAX_BID + 1))


class IllegalAction(ValueError):
    """An action refused by the rules; ``reason`` says why. The state it was tried on is unchanged."""

    def __init__(self, reason: str, action: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.action = action


def pocha_hand_score(bid: int, won: int) -> int:
    """A Pocha hand's score for one player (RULES.md 6.6): the bid made, 10 + 5 a trick won; missed, -5 a
    trick of difference. Also scores hands played over the board (tournaments' result entry)."""
    return 10 + 5 * won if bid == won else -5 * abs(won - bid)


def tute_winners(
    scores: Sequence[int], *, last_trick_side: int, tute_side: int | None = None
) -> tuple[int, ...]:
    """Who wins a Tute hand (RULES.md 3, 4.6, 5.6): a side that sang tute; else more points (card points,
    cantes and, with ``last_trick_bonus``, the last trick's 10, in ``scores``), a tie going to the side
    that won the last trick."""
    if tute_side is not None:
        return (tute_side,)
    best = max(scores)
    leaders = [side for side, score in enumerate(scores) if score == best]
    return (leaders[0],) if len(leaders) == 1 else (last_trick_side,)


class Table:
    __slots__ = (
        "actions",
        "bids",
        "cantes",
        "dealer",
        "decks",
        "faceup",
        "first_dealer",
        "hand_no",
        "hand_results",
        "hands",
        "known",
        "last_winner",
        "leader",
        "log",
        "n",
        "phase",
        "ply",
        "points",
        "pre_draw",
        "result_scores",
        "result_winners",
        "rules",
        "sizes",
        "stock",
        "stock_pos",
        "sung",
        "to_act",
        "totals",
        "trick",
        "tricks_done",
        "tricks_won",
        "trump",
        "trump_card",
        "tute_by",
        "win_card",
        "win_seat",
        "window_sang",
    )

    rules: Rules
    n: int
    decks: tuple[tuple[int, ...], ...]
    sizes: tuple[int, ...]
    first_dealer: int
    hand_no: int
    dealer: int
    hands: tuple[int, ...]
    known: tuple[int, ...]
    trump: int
    trump_card: int
    faceup: int
    stock: tuple[int, ...]
    stock_pos: int
    phase: int
    to_act: int
    leader: int
    trick: tuple[int, ...]
    win_seat: int
    win_card: int
    tricks_done: int
    last_winner: int
    window_sang: bool
    sung: int
    pre_draw: int
    points: tuple[int, ...]
    cantes: tuple[int, ...]
    tricks_won: tuple[int, ...]
    bids: tuple[int, ...]
    totals: tuple[int, ...]
    hand_results: tuple[HandResult, ...]
    log: tuple[tuple[int, int, int, int], ...]
    actions: ActionList
    ply: int
    tute_by: int
    result_scores: tuple[int, ...]
    result_winners: tuple[int, ...]

    # -- construction -----------------------------------------------------------------------------
    @classmethod
    def new(cls, rules: Rules, dealer: int, decks: tuple[tuple[int, ...], ...]) -> Table:
        t = cls()
        t.rules = rules
        t.n = rules.players
        t.decks = decks
        t.sizes = rules.hand_sizes()
        t.first_dealer = dealer
        t.totals = (0,) * t.n
        t.hand_results = ()
        t.actions = None
        t.ply = 0
        t.result_scores = ()
        t.result_winners = ()
        t._deal(0)
        return t

    @classmethod
    def new_at_hand(
        cls,
        rules: Rules,
        first_dealer: int,
        decks: tuple[tuple[int, ...], ...],
        hand_no: int,
        totals: tuple[int, ...],
    ) -> Table:
        """A Pocha game dealt straight into hand ``hand_no`` with the totals so far: what search needs to
        play a sampled deal of the current hand without replaying the hands before it."""
        t = cls.new(rules, first_dealer, decks)
        if hand_no:
            t._deal(hand_no)
            t.totals = totals
        return t

    def clone(self) -> Table:
        """A shallow copy: every field holds an immutable value, so the copy is independent."""
        o = Table.__new__(Table)
        o.actions = self.actions
        o.bids = self.bids
        o.cantes = self.cantes
        o.dealer = self.dealer
        o.decks = self.decks
        o.faceup = self.faceup
        o.first_dealer = self.first_dealer
        o.hand_no = self.hand_no
        o.hand_results = self.hand_results
        o.hands = self.hands
        o.known = self.known
        o.last_winner = self.last_winner
        o.leader = self.leader
        o.log = self.log
        o.n = self.n
        o.phase = self.phase
        o.ply = self.ply
        o.points = self.points
        o.pre_draw = self.pre_draw
        o.result_scores = self.result_scores
        o.result_winners = self.result_winners
        o.rules = self.rules
        o.sizes = self.sizes
        o.stock = self.stock
        o.stock_pos = self.stock_pos
        o.sung = self.sung
        o.to_act = self.to_act
        o.totals = self.totals
        o.trick = self.trick
        o.tricks_done = self.tricks_done
        o.tricks_won = self.tricks_won
        o.trump = self.trump
        o.trump_card = self.trump_card
        o.tute_by = self.tute_by
        o.win_card = self.win_card
        o.win_seat = self.win_seat
        o.window_sang = self.window_sang
        return o

    def _deal(self, hand_no: int) -> None:
        rules, n = self.rules, self.n
        k = self.sizes[hand_no]
        deck = self.decks[hand_no]
        self.hand_no = hand_no
        self.dealer = dealer = (self.first_dealer + hand_no) % n
        mano = (dealer + 1) % n
        hands = [0] * n
        for block in range(n):
            mask = 0
            for card in deck[block * k : (block + 1) * k]:  # a plain loop: sum(map(...)) costs more here
                mask |= BIT[card]
            hands[(mano + block) % n] = mask
        self.hands = tuple(hands)
        known = [0] * n
        self.faceup = -1
        self.stock = ()
        self.stock_pos = 0
        if n * k < len(deck):
            # Tute 2's face-up card under the stock, or Pocha's turned-up card that belongs to nobody.
            self.trump_card = deck[n * k]
            if rules.has_stock:
                self.faceup = deck[n * k]
                self.stock = deck[n * k + 1 :]
        else:
            # All dealt: the dealer's last card is shown and stays in the dealer's hand.
            self.trump_card = deck[n * k - 1]
            known[dealer] = 1 << self.trump_card
        self.known = tuple(known)
        self.trump = SUIT_OF[self.trump_card]
        self.trick = ()
        self.win_seat = -1
        self.win_card = -1
        self.tricks_done = 0
        self.last_winner = -1
        self.window_sang = False
        self.sung = 0
        self.pre_draw = 0
        self.points = (0,) * n
        self.cantes = (0,) * n
        self.tricks_won = (0,) * n
        self.bids = (-1,) * n
        self.log = ()
        self.tute_by = -1
        if rules.game == "pocha":
            self.phase = BIDDING
            self.to_act = mano
            self.leader = mano
        else:
            self.phase = PLAYING
            leader = mano
            if rules.game == "tute4" and rules.first_lead == "two_of_oros":
                leader = next(s for s in range(n) if (hands[s] >> TWO_OF_OROS) & 1)
            self.to_act = leader
            self.leader = leader

    # -- facts --------------------------------------------------------------------------------------
    @property
    def stock_size(self) -> int:
        """Face-down cards left in the Tute 2 stock (the face-up card not counted)."""
        return len(self.stock) - self.stock_pos

    def _cards_to_draw(self) -> bool:
        return self.faceup >= 0

    def partner(self, seat: int) -> int:
        return (seat + 2) % 4

    # -- legal actions ----------------------------------------------------------------------------
    def legal_ids(self) -> list[int]:
        """Legal action ids in ascending order."""
        phase = self.phase
        if phase == PLAYING:
            seat = self.to_act
            hand = self.hands[seat]
            trick = self.trick
            if not trick:  # a lead: any card (duty_mask's first rule), then the Tute leader's window
                out = cards_of(hand)
                if self.rules.is_tute:
                    out.extend(self._window_ids(seat))
                return out
            # The cards the trick duties allow (play_mask_for, spelled out: this runs before every card)
            return cards_of(
                duty_mask(
                    self.rules,
                    self.trump,
                    trick,
                    self.win_seat,
                    self.win_card,
                    self.faceup >= 0,
                    seat,
                    hand,
                )
            )
        if phase == BIDDING:
            bids = list(BID_IDS[self.sizes[self.hand_no]])
            if self.to_act == self.dealer:
                forbidden = self._hooked_bid()
                if forbidden >= 0:
                    bids.remove(BID + forbidden)
            return bids
        if phase == PARTNER_SINGING:
            return [SING + s for s in self._singable_suits(self.to_act)] + [PASS]
        return []

    def play_mask_for(self, seat: int, hand: int) -> int:
        """The cards of ``hand`` that ``seat`` could play to the current trick if it held ``hand``.

        Search and deal sampling ask this of hands a seat might hold; it is the same code that decides
        legality, so they cannot disagree with the rules.
        """
        # A face-up card under the stock is Tute 2's only (_deal): while it is there, the stock is open.
        return duty_mask(
            self.rules, self.trump, self.trick, self.win_seat, self.win_card, self.faceup >= 0, seat, hand
        )

    def _window_ids(self, seat: int) -> list[int]:
        """Swaps and cantes open to the leader before it leads (Tute games)."""
        out = []
        rules = self.rules
        faceup = self.faceup
        hand = self.hands[seat]
        if faceup >= 0 and (self.tricks_done > 0 or not rules.exchange_requires_trick_win):
            seven = SEVENS[self.trump]
            if (hand >> seven) & 1 and STRENGTH[faceup] > STRENGTH[seven]:
                out.append(EXCHANGE + seven)
            two = TWOS[self.trump]
            if (hand >> two) & 1 and RANK_OF[faceup] in TWO_TAKES_RANKS:
                out.append(EXCHANGE + two)
            out.sort()
        if self.tricks_done > 0 and not self.window_sang and seat == self.last_winner:
            if hand & (hand >> 1) & KNIGHTS_MASK:  # some 11 sits beside its 12: a pair is held
                out.extend(SING + s for s in self._singable_suits(seat))
            if rules.tute_declaration == "wins_hand" and self.cantes_open():
                source = self.sing_source(seat)
                if source & KINGS_MASK == KINGS_MASK or source & KNIGHTS_MASK == KNIGHTS_MASK:
                    out.append(SING_TUTE)
        return out

    def cantes_open(self) -> bool:
        # Tute 4 has no stock, so without cantes_in_arrastre it has no cantes at all (docs/RULES.md 3).
        return self.rules.cantes_in_arrastre or self._cards_to_draw()

    def sing_source(self, seat: int) -> int:
        """The cards a cante may be made from: with cante_before_draw, those held when the trick was won."""
        hand = self.hands[seat]
        if self.rules.cante_before_draw and self.rules.has_stock:
            return hand & self.pre_draw
        return hand

    def _singable_suits(self, seat: int) -> list[int]:
        if not self.cantes_open():
            return []
        source = self.sing_source(seat)
        suits = [s for s in range(4) if not (self.sung >> s) & 1 and source & PAIR_MASK[s] == PAIR_MASK[s]]
        if self.rules.forty_before_twenty:
            # "Holds the trump pair" reads the same cards as the cante itself (docs/RULES.md 3): with
            # cante_before_draw, the hand held when the trick was won.
            trump = self.trump
            if not (self.sung >> trump) & 1 and source & PAIR_MASK[trump] == PAIR_MASK[trump]:
                suits = [s for s in suits if s == trump]
        return suits

    def _hooked_bid(self) -> int:
        """The bid the dealer may not make under pocha_hook, or -1."""
        if not self.rules.pocha_hook or self.to_act != self.dealer:
            return -1
        k = self.sizes[self.hand_no]
        bids = self.bids
        rest = k - (sum(bids) - bids[self.dealer])  # the others' bids
        return rest if 0 <= rest <= k else -1

    # -- stepping ---------------------------------------------------------------------------------
    def step(self, action: int) -> None:
        """Apply a legal action id in place. Callers check legality first (see ``check``)."""
        seat = self.to_act
        self.actions = (action, self.actions)
        self.ply += 1
        if action < EXCHANGE:  # a card played: the hot path, written out here rather than called
            bit = 1 << action
            hands = [*self.hands]  # [*t] copies a tuple into a list without list()'s call
            hands[seat] ^= bit
            self.hands = tuple(hands)
            if self.known[seat] & bit:
                known = [*self.known]
                known[seat] ^= bit
                self.known = tuple(known)
            trick = self.trick
            if not trick or (TAKES[self.trump][self.win_card] >> action) & 1:
                self.win_seat = seat
                self.win_card = action
            trick += (action,)
            self.trick = trick
            self.log += PLAY_EVENTS[seat][action]
            n = self.n
            if len(trick) < n:
                self.to_act = (seat + 1) % n
            else:
                self._close_trick()
        elif action >= BID:
            self._bid(seat, action - BID)
        elif action < SING:
            self._exchange(seat, action - EXCHANGE)
        elif action < SING_TUTE:
            self._sing(seat, action - SING)
        elif action == SING_TUTE:
            self.log = (*self.log, (EV_SING, seat, TUTE_SUIT, 0))
            self.tute_by = seat
            self._finish_hand()
        else:  # PASS
            self.log = (*self.log, (EV_PASS, seat, 0, 0))
            self.phase = PLAYING
            self.to_act = self.last_winner

    def check(self, action: int) -> None:
        """Raise IllegalAction with the reason when ``action`` is not legal now."""
        if action in self.legal_ids():
            return
        raise IllegalAction(why_illegal(self, action), CODE_OF_ACTION[action])

    def _close_trick(self) -> None:
        winner = self.win_seat
        value = 0
        for card in self.trick:  # a plain loop: sum(map(...)) costs more on four cards
            value += POINTS[card]
        points = [*self.points]
        points[winner] += value
        self.points = tuple(points)
        won = [*self.tricks_won]
        won[winner] += 1
        self.tricks_won = tuple(won)
        self.log += ((EV_TRICK, winner, value, 0),)
        self.tricks_done += 1
        self.last_winner = winner
        self.trick = ()
        self.win_seat = self.win_card = -1
        self.window_sang = False
        self.pre_draw = self.hands[winner]
        if self.faceup >= 0:
            self._draw(winner)
            self._draw(1 - winner)
        if not any(self.hands):
            self._finish_hand()
            return
        self.leader = self.to_act = winner
        rules = self.rules
        if rules.partner_may_sing and rules.has_partners:
            partner = self.partner(winner)
            if self._singable_suits(partner):
                self.phase = PARTNER_SINGING
                self.to_act = partner

    def _draw(self, seat: int) -> None:
        hands = [*self.hands]
        if self.stock_pos < len(self.stock):
            card = self.stock[self.stock_pos]
            self.stock_pos += 1
        else:
            card = self.faceup
            self.faceup = -1
            known = [*self.known]
            known[seat] |= 1 << card
            self.known = tuple(known)
        hands[seat] |= 1 << card
        self.hands = tuple(hands)

    def _exchange(self, seat: int, card: int) -> None:
        taken = self.faceup
        hands = [*self.hands]
        hands[seat] = (hands[seat] ^ (1 << card)) | (1 << taken)
        self.hands = tuple(hands)
        known = [*self.known]
        known[seat] |= 1 << taken
        self.known = tuple(known)
        self.faceup = card
        self.log = (*self.log, (EV_EXCHANGE, seat, card, taken))

    def _sing(self, seat: int, suit: int) -> None:
        value = 40 if suit == self.trump else 20
        cantes = [*self.cantes]
        cantes[seat] += value
        self.cantes = tuple(cantes)
        self.sung |= 1 << suit
        known = [*self.known]
        known[seat] |= PAIR_MASK[suit]
        self.known = tuple(known)
        self.window_sang = True
        self.log = (*self.log, (EV_SING, seat, suit, value))
        if self.phase == PARTNER_SINGING:
            self.phase = PLAYING
            self.to_act = self.last_winner

    def _bid(self, seat: int, bid: int) -> None:
        bids = [*self.bids]
        bids[seat] = bid
        self.bids = tuple(bids)
        self.log += ((EV_BID, seat, bid, 0),)
        if seat == self.dealer:
            self.phase = PLAYING
            self.to_act = self.leader
        else:
            self.to_act = (seat + 1) % self.n

    # -- scoring ----------------------------------------------------------------------------------
    def _finish_hand(self) -> None:
        if self.rules.is_tute:
            self._finish_tute()
        else:
            self._finish_pocha_hand()

    def side_scores(self) -> tuple[int, ...]:
        """Points so far per side (seat, or pair for Tute 4), last-trick bonus included when earned."""
        per_seat = [p + c for p, c in zip(self.points, self.cantes, strict=True)]
        if self.rules.last_trick_bonus and self.phase == OVER and self.tute_by < 0:
            per_seat[self.last_winner] += 10
        if self.rules.has_partners:
            return (per_seat[0] + per_seat[2], per_seat[1] + per_seat[3])
        return tuple(per_seat)

    def side_of(self, seat: int) -> int:
        return side_of(self.rules.game, seat)

    def _finish_tute(self) -> None:
        self.phase = OVER
        self.to_act = -1
        scores = self.side_scores()
        self.result_scores = scores
        tute_side = self.side_of(self.tute_by) if self.tute_by >= 0 else None
        self.result_winners = tute_winners(
            scores, last_trick_side=self.side_of(self.last_winner), tute_side=tute_side
        )

    def _finish_pocha_hand(self) -> None:
        scores = tuple(map(pocha_hand_score, self.bids, self.tricks_won))
        self.totals = tuple(map(add, self.totals, scores))
        finished = HandResult(
            cards=self.sizes[self.hand_no],
            dealer=self.dealer,
            trump=self.trump,
            trump_card=self.trump_card,
            bids=self.bids,
            tricks=self.tricks_won,
            scores=scores,
            log=self.log,
        )
        self.hand_results = (*self.hand_results, finished)
        if self.hand_no + 1 < len(self.sizes):
            self._deal(self.hand_no + 1)
            return
        self.phase = OVER
        self.to_act = -1
        self.result_scores = self.totals
        best = max(self.totals)
        self.result_winners = tuple(s for s, total in enumerate(self.totals) if total == best)
