"""Cards, their stable codes, strengths and points (docs/RULES.md section 1).

A card is an int index ``suit * 12 + rank_slot`` over the 48-card Spanish deck, so a hand fits in a
48-bit mask. The 40-card deck simply never uses the 8s and 9s. Codes (``"1O"``, ``"12C"``) are what
leaves the engine; indices and masks are what the rules compute with.
"""

from __future__ import annotations

from typing import Final

SUITS: Final = ("O", "C", "E", "B")
SUIT_NAMES: Final = ("oros", "copas", "espadas", "bastos")
RANKS: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
#: Rank order from strongest to weakest (the 8 and 9 only exist with ``deck48``).
STRENGTH_ORDER: Final = (1, 3, 12, 11, 10, 9, 8, 7, 6, 5, 4, 2)
RANK_POINTS: Final = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}

NUM_CARDS: Final = 48
ALL_CARDS_MASK: Final = (1 << NUM_CARDS) - 1


def card_index(rank: int, suit: int) -> int:
    return suit * 12 + RANKS.index(rank)


#: ``BIT[c] == 1 << c``: a card's bit in a hand mask.
BIT: Final = tuple(1 << c for c in range(NUM_CARDS))
SUIT_OF: Final = tuple(c // 12 for c in range(NUM_CARDS))
RANK_OF: Final = tuple(RANKS[c % 12] for c in range(NUM_CARDS))
CODE_OF: Final = tuple(f"{RANK_OF[c]}{SUITS[SUIT_OF[c]]}" for c in range(NUM_CARDS))
INDEX_OF_CODE: Final = {code: c for c, code in enumerate(CODE_OF)}
#: Higher is stronger; only comparable within a suit.
STRENGTH: Final = tuple(len(STRENGTH_ORDER) - STRENGTH_ORDER.index(RANK_OF[c]) for c in range(NUM_CARDS))
POINTS: Final = tuple(RANK_POINTS.get(RANK_OF[c], 0) for c in range(NUM_CARDS))
SUIT_MASK: Final = tuple(sum(1 << (s * 12 + r) for r in range(12)) for s in range(4))
#: Cards of the same suit that beat card c.
STRONGER: Final = tuple(
    sum(1 << d for d in range(NUM_CARDS) if SUIT_OF[d] == SUIT_OF[c] and STRENGTH[d] > STRENGTH[c])
    for c in range(NUM_CARDS)
)
KINGS_MASK: Final = sum(1 << card_index(12, s) for s in range(4))
KNIGHTS_MASK: Final = sum(1 << card_index(11, s) for s in range(4))
#: The 12 and 11 of each suit: the pair a player sings.
PAIR_MASK: Final = tuple((1 << card_index(12, s)) | (1 << card_index(11, s)) for s in range(4))
TWOS_MASK: Final = sum(1 << card_index(2, s) for s in range(4))
#: The 7 and the 2 of each suit (the cards a Tute 2 swap gives), by suit.
SEVENS: Final = tuple(card_index(7, s) for s in range(4))
TWOS: Final = tuple(card_index(2, s) for s in range(4))
EIGHTS_NINES_MASK: Final = sum((1 << card_index(8, s)) | (1 << card_index(9, s)) for s in range(4))


def parse_card(code: str) -> int:
    """The index of a card code such as ``"12C"``; ``ValueError`` says what is wrong."""
    if not isinstance(code, str) or code not in INDEX_OF_CODE:
        raise ValueError(
            f"unknown card code {code!r}: a rank (1-7, 10-12, or 8-9 with deck48) then O, C, E or B"
        )
    return INDEX_OF_CODE[code]


def _deck(deck48: bool, without_twos: bool) -> tuple[int, ...]:
    skip = (0 if deck48 else EIGHTS_NINES_MASK) | (TWOS_MASK if without_twos else 0)
    return tuple(c for c in range(NUM_CARDS) if not (skip >> c) & 1)


#: The four decks, built once: every random playout starts from one.
_DECKS: Final = {(d48, w2): _deck(d48, w2) for d48 in (False, True) for w2 in (False, True)}


def deck_cards(*, deck48: bool, without_twos: bool) -> tuple[int, ...]:
    """The canonical deck order (suits O, C, E, B; ranks ascending), as card indices."""
    return _DECKS[deck48, without_twos]


def mask_of(cards: tuple[int, ...] | list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


#: The cards of each 12-bit suit mask, by suit: ``_SUIT_CARDS[s][m]`` lists the cards of suit ``s`` whose
#: rank slots are the bits of ``m`` (4 x 4096 tuples, built once), so a hand's cards are four look-ups.
_SUIT_CARDS: Final = tuple(
    tuple(tuple(s * 12 + r for r in range(12) if (m >> r) & 1) for m in range(1 << 12)) for s in range(4)
)
_OROS, _COPAS, _ESPADAS, _BASTOS = _SUIT_CARDS


def cards_of(mask: int) -> list[int]:
    """The card indices in a mask, lowest index first."""
    return [
        *_OROS[mask & 0xFFF],
        *_COPAS[(mask >> 12) & 0xFFF],
        *_ESPADAS[(mask >> 24) & 0xFFF],
        *_BASTOS[mask >> 36],
    ]


def codes_of(mask: int) -> list[str]:
    """Card codes of a mask in canonical deck order (the order hands are shown in)."""
    return [CODE_OF[c] for c in cards_of(mask)]


def card_points(mask: int) -> int:
    return sum(POINTS[c] for c in cards_of(mask))
