"""Why an action is not legal now, in words a player understands: the reason an ``IllegalAction`` carries
(the API's ``illegal_action`` message)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import BID, CODE_OF_ACTION, EXCHANGE, PASS, SING, SING_TUTE
from .cards import CODE_OF, PAIR_MASK, RANK_OF, SEVENS, SUIT_MASK, SUIT_NAMES, SUIT_OF, TWOS
from .hands import BIDDING, OVER, PARTNER_SINGING

if TYPE_CHECKING:
    from .table import Table


def why_illegal(t: Table, action: int) -> str:
    """Why ``action`` is not legal now, in words a player understands."""
    seat = t.to_act
    if t.phase == OVER:
        return "the game is over"
    legal = t.legal_ids()
    if t.phase == BIDDING:
        if action < BID:
            return f"seat {seat} must bid now (bid:0 to bid:{t.sizes[t.hand_no]})"
        bid = action - BID
        if bid > t.sizes[t.hand_no]:
            return f"a bid is 0 to {t.sizes[t.hand_no]} tricks in a hand of {t.sizes[t.hand_no]} cards"
        return (
            f"the dealer may not bid {bid}: the bids would add up to the {t.sizes[t.hand_no]} "
            "tricks of the hand (pocha_hook)"
        )
    if t.phase == PARTNER_SINGING:
        options = ", ".join(CODE_OF_ACTION[a] for a in legal)
        return f"seat {seat}, partner of the trick's winner, may only sing or pass now ({options})"
    if action >= BID:
        return "bids are made only at the start of a Pocha hand"
    if action == PASS:
        return "pass is only offered to the winner's partner when partner_may_sing is on"
    if action < EXCHANGE:
        card = action
        if not (t.hands[seat] >> card) & 1:
            return f"{CODE_OF[card]} is not in seat {seat}'s hand"
        allowed = " ".join(CODE_OF[a] for a in legal if a < EXCHANGE)
        return f"{CODE_OF[card]} breaks the duty to {_duty_words(t, seat)}: playable now: {allowed}"
    if action < SING:
        return _explain_exchange(t, seat, action - EXCHANGE)
    return _explain_sing(t, seat, action)


def _duty_words(t: Table, seat: int) -> str:
    lead_suit = SUIT_OF[t.trick[0]]
    hand = t.hands[seat]
    if hand & SUIT_MASK[lead_suit]:
        if SUIT_OF[t.win_card] == lead_suit:
            return f"follow {SUIT_NAMES[lead_suit]} and beat {CODE_OF[t.win_card]} when able"
        return f"follow {SUIT_NAMES[lead_suit]}"
    if SUIT_OF[t.win_card] == t.trump:
        return f"overtrump {CODE_OF[t.win_card]} when able (no {SUIT_NAMES[lead_suit]} in hand)"
    return f"trump (no {SUIT_NAMES[lead_suit]} in hand)"


def _explain_exchange(t: Table, seat: int, card: int) -> str:
    if not t.rules.has_stock:
        return "swaps exist only in Tute 2"
    if t.trick:
        return "a swap is made only before leading a trick"
    if t.faceup < 0:
        return "the face-up card has been drawn: no more swaps"
    if t.tricks_done == 0 and t.rules.exchange_requires_trick_win:
        return "no swap before trick 1 (exchange_requires_trick_win)"
    if card not in (SEVENS[t.trump], TWOS[t.trump]):
        return f"only the 7 or the 2 of trumps ({SUIT_NAMES[t.trump]}) can be swapped"
    if not (t.hands[seat] >> card) & 1:
        return f"{CODE_OF[card]} is not in seat {seat}'s hand"
    if RANK_OF[card] == 7:
        return f"the 7 takes only a face-up card stronger than the 7, not {CODE_OF[t.faceup]}"
    return f"the 2 takes only a face-up 7, 6, 5 or 4, not {CODE_OF[t.faceup]}"


def _explain_sing(t: Table, seat: int, action: int) -> str:
    if not t.rules.is_tute:
        return "there are no cantes in Pocha"
    if t.trick:
        return "a cante is made only before leading a trick"
    if t.tricks_done == 0:
        return "no cante before trick 1: only the winner of the previous trick sings"
    if t.window_sang:
        return "one cante per trick won, and it has been made"
    if not t.cantes_open():
        return "no cantes once the stock is empty (cantes_in_arrastre is off)"
    if action == SING_TUTE:
        if t.rules.tute_declaration != "wins_hand":
            return "tute is not declared in this game (tute_declaration is off)"
        return "tute needs all four 12s or all four 11s"
    suit = action - SING
    if (t.sung >> suit) & 1:
        return f"{SUIT_NAMES[suit]} has been sung already this hand"
    if t.hands[seat] & PAIR_MASK[suit] != PAIR_MASK[suit]:
        return f"seat {seat} does not hold the 12 and 11 of {SUIT_NAMES[suit]}"
    if t.sing_source(seat) & PAIR_MASK[suit] != PAIR_MASK[suit]:
        return "only a pair held when the trick was won may be sung (cante_before_draw)"
    return f"the 40 in {SUIT_NAMES[t.trump]} must be sung first (forty_before_twenty)"
