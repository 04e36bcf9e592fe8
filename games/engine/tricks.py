"""Who takes a trick and which cards a seat may play to it (docs/RULES.md section 2): the one
implementation of the trick duties, which the table, the deal sampler and the bots all ask."""

from __future__ import annotations

from typing import Final

from .cards import NUM_CARDS, STRENGTH, STRONGER, SUIT_MASK, SUIT_OF
from .rules import Rules


def beats(card: int, win: int, trump: int) -> bool:
    """Whether ``card``, played to a trick ``win`` is winning, takes the trick over it."""
    if SUIT_OF[card] == SUIT_OF[win]:
        return STRENGTH[card] > STRENGTH[win]
    return SUIT_OF[card] == trump


#: ``TAKES[trump][win]``: the mask of the cards that take a trick over ``win`` (``beats``, tabled once),
#: so the table asks one bit per card played instead of calling ``beats``.
TAKES: Final = tuple(
    tuple(sum(1 << c for c in range(NUM_CARDS) if beats(c, win, trump)) for win in range(NUM_CARDS))
    for trump in range(4)
)


def duty_mask(
    rules: Rules,
    trump: int,
    trick: tuple[int, ...],
    win_seat: int,
    win_card: int,
    stock_open: bool,
    seat: int,
    hand: int,
) -> int:
    """docs/RULES.md section 2: the cards of ``hand`` that ``seat`` may play to ``trick`` (cards in play
    order, ``win_card`` by ``win_seat`` winning it so far); ``stock_open``: Tute 2 while the stock has
    cards. The one implementation of the trick duties."""
    if not trick:
        return hand
    lead_suit = SUIT_OF[trick[0]]
    if stock_open:  # rule 2.5: Tute 2 while the stock has cards
        duty = rules.stock_duty
        if duty == "free" or (duty == "trump_lead_only" and lead_suit != trump):
            return hand
    follow = hand & SUIT_MASK[lead_suit]
    if rules.partner_exception and rules.has_partners and win_seat == (seat + 2) % 4:
        return follow or hand  # rule 2.4
    win_suit = SUIT_OF[win_card]
    if follow:  # rule 2.2
        if win_suit == lead_suit:
            return (follow & STRONGER[win_card]) or follow
        if rules.beat_led_suit_even_if_trumped:
            best_led = max((c for c in trick if SUIT_OF[c] == lead_suit), key=STRENGTH.__getitem__)
            return (follow & STRONGER[best_led]) or follow
        return follow
    trumps = hand & SUIT_MASK[trump]  # rule 2.3
    if not trumps:
        return hand
    if win_suit != trump:
        return trumps
    over = trumps & STRONGER[win_card]
    if over:
        return over
    return trumps if rules.must_undertrump else hand
