"""The playout policy: a quick rule-guided action for the seat to act, on the engine's table (every
hand of the sampled deal seen), with its constants in one frozen ``PolicyWeights``."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from games.engine.actions import BID, EXCHANGE, PASS, SING, SING_TUTE
from games.engine.cards import KNIGHTS_MASK, PAIR_MASK, POINTS, STRENGTH, SUIT_MASK, SUIT_OF
from games.engine.hands import BIDDING, PARTNER_SINGING
from games.engine.table import Table
from games.engine.tricks import beats, duty_mask


@dataclass(frozen=True, slots=True)
class PolicyWeights:
    """The playout policy's constants, one value each, so variants are measured without editing code
    (``bench/policy_tune.py`` plays them against each other; ``bench/lab`` puts them in the search, and
    adds the policy's experimental options).
    """

    #: The chance a playout seat plays a random legal card instead of the policy's (keeps playouts varied).
    epsilon: float = 0.05
    #: A card kept is worth (points): a trump's base and per step of strength, and the share of a cante a
    #: card of a pair still to sing stands for.
    keep_trump: float = 3.0
    keep_trump_slope: float = 0.8
    pair_keep: float = 0.4
    #: The share of a cante a trick is worth when winning it lets the winner sing.
    cante_weight: float = 0.8
    #: Tute 4: a trick of fewer points (with the trump spent) is not worth trumping in unless last to play.
    tute4_ruff_points: float = 10.0

    @classmethod
    def parse(cls, text: str) -> PolicyWeights:
        """``keep_trump:2.5/tute4_cover:1`` (the fields not named keep their default; a flag is 0 or 1)."""
        values: dict[str, Any] = {}
        for item in filter(None, text.split("/")):
            key, _, value = (part.strip() for part in item.partition(":"))
            if key not in cls.__dataclass_fields__:
                raise ValueError(f"PolicyWeights has no field {key!r}")
            flag = isinstance(getattr(cls(), key), bool)
            values[key] = value.lower() in ("1", "true") if flag else float(value)
        return cls(**values)


#: Today's policy, as set by hand.
DEFAULT_WEIGHTS: Final = PolicyWeights()

#: A choice among the legal actions without randomness (``greedy``'s signature).
Greedy = Callable[[Table, list[int], PolicyWeights], int]


def greedy(t: Table, legal: list[int], w: PolicyWeights = DEFAULT_WEIGHTS) -> int:
    """The policy's choice among ``legal``, without randomness."""
    if len(legal) == 1:
        return legal[0]
    phase = t.phase
    if phase == BIDDING:
        return _policy_bid(t, legal)
    if phase == PARTNER_SINGING:
        return _best_sing(t, legal)
    if legal[-1] >= EXCHANGE:
        if SING_TUTE in legal:
            return SING_TUTE
        for a in legal:
            if EXCHANGE <= a < SING:
                return a
        sing = _best_sing(t, legal)
        if sing != PASS:
            return sing
    cards = [a for a in legal if a < EXCHANGE]
    if len(cards) == 1:
        return cards[0]
    if t.rules.is_tute:
        return _tute_card(t, cards, w)
    return _pocha_card(t, cards)


def policy(t: Table, rng: random.Random, w: PolicyWeights = DEFAULT_WEIGHTS, choose: Greedy = greedy) -> int:
    """A quick sensible action for the seat to act: swaps and cantes always, cheap winners for tricks
    worth taking, cheap discards otherwise; in Pocha, play to the bid. Now and then a random card.
    ``choose``: the choice without randomness (``bench/lab`` passes its own)."""
    legal = t.legal_ids()
    if len(legal) == 1:
        return legal[0]
    if t.phase not in (BIDDING, PARTNER_SINGING) and rng.random() < w.epsilon:
        cards = [a for a in legal if a < EXCHANGE]
        if len(cards) == len(legal):
            return rng.choice(cards)
    return choose(t, legal, w)


def _best_sing(t: Table, legal: list[int]) -> int:
    sings = [a for a in legal if SING <= a < SING_TUTE]
    if not sings:
        return PASS
    return max(sings, key=lambda a: a - SING == t.trump)


def _held_pairs(t: Table, seat: int) -> tuple[tuple[int, int], ...]:
    """The pairs ``seat`` holds and has not sung: (mask, cante value) each."""
    hand = t.hands[seat]
    if not hand & (hand >> 1) & KNIGHTS_MASK:  # no 11 beside its 12: no pair at all (the usual case)
        return ()
    sung, trump = t.sung, t.trump
    return tuple(
        (PAIR_MASK[suit], 40 if suit == trump else 20)
        for suit in range(4)
        if not (sung >> suit) & 1 and hand & PAIR_MASK[suit] == PAIR_MASK[suit]
    )


def _keep(
    t: Table,
    seat: int,
    card: int,
    pairs: tuple[tuple[int, int], ...] | None = None,
    w: PolicyWeights = DEFAULT_WEIGHTS,
) -> float:
    """What a card is worth kept for later tricks: trumps by strength, and each card of a pair still to
    be sung (a share of the cante). ``pairs``: the seat's ``_held_pairs``, when the caller has them."""
    value = w.keep_trump + w.keep_trump_slope * STRENGTH[card] if SUIT_OF[card] == t.trump else 0.0
    for mask, worth in _held_pairs(t, seat) if pairs is None else pairs:
        if (mask >> card) & 1:
            value += worth * w.pair_keep
    return value


def _cante_after(
    t: Table,
    seat: int,
    spent: int,
    pairs: tuple[tuple[int, int], ...] | None = None,
    w: PolicyWeights = DEFAULT_WEIGHTS,
) -> float:
    """The cante ``seat`` could sing on winning this trick without card ``spent``."""
    if not t.rules.is_tute or (not t.rules.cantes_in_arrastre and t.faceup < 0):
        return 0.0
    best = 0
    for mask, worth in _held_pairs(t, seat) if pairs is None else pairs:
        if not (mask >> spent) & 1 and worth > best:
            best = worth
    return best * w.cante_weight


def _tute_card(t: Table, cards: list[int], w: PolicyWeights = DEFAULT_WEIGHTS) -> int:
    if t.n == 2:
        return tute2_card(t, cards, w)
    trick = t.trick
    me = t.to_act
    if not trick:
        return discard(t, me, cards, w)
    last = len(trick) == t.n - 1
    if t.side_of(t.win_seat) == t.side_of(me):
        if last or (len(trick) == 2 and t.win_seat != (me + 1) % 4):
            # the partner holds the trick: load points onto it, keeping trumps
            trump = t.trump
            return max(
                cards, key=lambda c: (SUIT_OF[c] != trump, POINTS[c] - _keep(t, me, c, None, w), -STRENGTH[c])
            )
        return discard(t, me, cards, w)
    winners = [c for c in cards if beats(c, t.win_card, t.trump)]
    if winners:
        cheapest = cheapest_winner(t, winners)
        if worth_taking(t, cheapest, last, w):
            return cheapest
    return discard(t, me, cards, w)


def discard(t: Table, me: int, cards: list[int], w: PolicyWeights = DEFAULT_WEIGHTS) -> int:
    """Tute 4: the cheapest of ``cards`` to part with: a side card before a trump, fewest points and
    worth kept, then the weakest."""
    trump = t.trump
    return min(cards, key=lambda c: (SUIT_OF[c] == trump, POINTS[c] + _keep(t, me, c, None, w), STRENGTH[c]))


def cheapest_winner(t: Table, winners: list[int]) -> int:
    """Tute 4: the cheapest of ``winners`` (cards beating the trick): no trump on a side suit led if
    avoidable, then the weakest."""
    trump, lead = t.trump, t.trick[0]
    return min(winners, key=lambda c: (SUIT_OF[c] == trump and SUIT_OF[lead] != trump, STRENGTH[c]))


def worth_taking(t: Table, card: int, last: bool, w: PolicyWeights = DEFAULT_WEIGHTS) -> bool:
    """Tute 4: whether to take the trick with ``card``: last to play, a side card, or a trick of at least
    ``tute4_ruff_points`` with it."""
    value = sum(POINTS[c] for c in t.trick)
    return last or value + POINTS[card] >= w.tute4_ruff_points or SUIT_OF[card] != t.trump


def tute2_card(t: Table, cards: list[int], w: PolicyWeights = DEFAULT_WEIGHTS, draw: float = 0.0) -> int:
    """Two players, every card of the sample seen: a one-trick look-ahead against the other hand's
    replies the duties allow, counting the trick's points, the cante winning it opens, and what each
    card is worth kept; ``draw``, points more for winning the trick (``bench/lab``'s look at the stock)."""
    me = t.to_act
    other = 1 - me
    trump = t.trump
    trick = t.trick
    mine = _held_pairs(t, me)
    theirs = _held_pairs(t, other)
    if trick:
        lead = trick[0]
        taken = POINTS[lead]
        lost = _cante_after(t, other, lead, theirs, w) if theirs else 0.0
        best_card, best = cards[0], -1e9
        for c in cards:
            if beats(c, lead, trump):
                v = taken + POINTS[c] + (_cante_after(t, me, c, mine, w) if mine else 0.0) + draw
            else:
                v = -(taken + POINTS[c]) - lost - draw
            v -= _keep(t, me, c, mine, w)
            if v > best:
                best_card, best = c, v
        return best_card
    stock_open = t.faceup >= 0
    rules = t.rules
    their = t.hands[other]
    kept: dict[int, float] = {}  # the other hand's card worth kept, by card
    best_card, best = cards[0], -1e9
    for c in cards:
        replies = duty_mask(rules, trump, (c,), me, c, stock_open, other, their)
        gain = _cante_after(t, me, c, mine, w) if mine else 0.0
        worst = 1e9
        while replies:
            low = replies & -replies
            r = low.bit_length() - 1
            replies ^= low
            if beats(r, c, trump):
                v = (
                    -(POINTS[c] + POINTS[r])
                    - (_cante_after(t, other, r, theirs, w) if theirs else 0.0)
                    - draw
                )
            else:
                v = POINTS[c] + POINTS[r] + gain + draw
            keep = kept.get(r)
            if keep is None:
                keep = kept[r] = _keep(t, other, r, theirs, w)
            v += keep
            if v < worst:
                worst = v
        worst -= _keep(t, me, c, mine, w)
        if worst > best:
            best_card, best = c, worst
    return best_card


def _pocha_card(t: Table, cards: list[int]) -> int:
    me = t.to_act
    trump = t.trump
    need = t.bids[me] - t.tricks_won[me]
    trick = t.trick
    if not trick:
        if need > 0:
            return max(cards, key=lambda c: (STRENGTH[c] + (20 if SUIT_OF[c] == trump else 0), -c))
        return min(cards, key=lambda c: (STRENGTH[c] + (20 if SUIT_OF[c] == trump else 0), c))
    winners = [c for c in cards if beats(c, t.win_card, trump)]
    if need > 0:
        if winners:
            last = len(trick) == t.n - 1
            pick = min if last else max
            return pick(winners, key=lambda c: (STRENGTH[c] + (20 if SUIT_OF[c] == trump else 0), c))
        return min(cards, key=lambda c: (STRENGTH[c] + (20 if SUIT_OF[c] == trump else 0), c))
    losers = [c for c in cards if c not in winners]
    if losers:  # duck with the strongest card that still loses
        return max(losers, key=lambda c: (STRENGTH[c] + (20 if SUIT_OF[c] == trump else 0), c))
    return min(cards, key=lambda c: (STRENGTH[c] + (20 if SUIT_OF[c] == trump else 0), c))


def hand_tricks(t: Table, seat: int) -> float:
    """A quick count of the tricks a Pocha hand should take: high trumps, aces, and the threes."""
    hand = t.hands[seat]
    trump = t.trump
    expected = 0.0
    k = hand.bit_count()
    trumps = (hand & SUIT_MASK[trump]).bit_count()
    for suit in range(4):
        cards = hand & SUIT_MASK[suit]
        while cards:
            low = cards & -cards
            card = low.bit_length() - 1
            cards ^= low
            strength = STRENGTH[card]
            if suit == trump:
                expected += 1.0 if strength >= 10 else 0.6 if strength >= 8 else 0.35
            elif strength == 12:
                expected += 0.8 if k > 2 else 0.5
            elif strength == 11:
                expected += 0.4 if k > 3 else 0.2
    if trumps >= 2 and k >= 4:
        expected += 0.3
    return expected


def _policy_bid(t: Table, legal: list[int]) -> int:
    expected = hand_tricks(t, t.to_act)
    return min(legal, key=lambda a: (abs(a - BID - expected), a))
