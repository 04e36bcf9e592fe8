"""Hand-built positions for the engine's scenario tests.

The helpers read docs/RULES.md on their own, so that a test checks the engine against the spec and not against
itself: the canonical deck (section 1), the dealing order (section 7: the mano takes the first k cards,
then the next seats, the dealer last; Tute 2 then the face-up card, then the stock, top first), card
points and strengths, and who wins a trick (section 2). They are handed to the tests as fixtures.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from games.engine import IllegalAction, Rules, State, parse_card

SUITS = ("O", "C", "E", "B")
#: Ranks from strongest to weakest (section 1); the 8 and 9 only exist with deck48.
STRENGTH_ORDER = (1, 3, 12, 11, 10, 9, 8, 7, 6, 5, 4, 2)
RANK_POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}
DEFAULT_PLAYERS = {"tute2": 2, "tute4": 4, "pocha": 4}

Hands = Mapping[int, Sequence[str]]


def rank(card: str) -> int:
    return int(card[:-1])


def suit(card: str) -> str:
    return card[-1]


def points(card: str) -> int:
    return RANK_POINTS.get(rank(card), 0)


def beats(a: str, b: str) -> bool:
    """Whether ``a`` is stronger than ``b``, two cards of one suit."""
    return STRENGTH_ORDER.index(rank(a)) < STRENGTH_ORDER.index(rank(b))


def spec_deck(*, deck48: bool = False, without_twos: bool = False) -> list[str]:
    """The canonical order of section 1: suits O, C, E, B; ranks 1..7, (8, 9,) 10, 11, 12."""
    ranks = [1, 2, 3, 4, 5, 6, 7, *([8, 9] if deck48 else []), 10, 11, 12]
    return [f"{r}{s}" for s in SUITS for r in ranks if not (without_twos and r == 2)]


def trick_winner(cards: Sequence[str], trump: str) -> int:
    """Section 2: the index in ``cards`` of the strongest trump, else of the strongest card of the led suit."""
    best = 0
    for i, card in enumerate(cards[1:], start=1):
        top = cards[best]
        if suit(card) == suit(top):
            if beats(card, top):
                best = i
        elif suit(card) == trump:
            best = i
    return best


def deck_for(
    game: str,
    hands: Hands,
    *,
    players: int | None = None,
    dealer: int = 0,
    k: int | None = None,
    trump_card: str | None = None,
    stock: Sequence[str] = (),
    deck48: bool = False,
    void: Mapping[int, str] = {},
) -> list[str]:
    """A deck (top first) that deals ``hands`` (seat -> cards) in the order of docs/RULES.md section 7.

    Seats given fewer than k cards are filled up from the unnamed cards in canonical order, skipping the
    suits ``void`` lists for that seat (``{1: "CO"}``: no copas nor oros for seat 1). When cards
    remain after the deal, ``trump_card`` comes next (Tute 2's face-up card, Pocha's turned-up card),
    then ``stock`` (top first), then the unnamed cards. When all cards are dealt, ``trump_card`` is put
    last in the dealer's block: the dealer's shown card.
    """
    n = players or DEFAULT_PLAYERS[game]
    full = spec_deck(deck48=deck48, without_twos=game == "pocha" and n in (3, 6))
    if k is None:
        if game == "pocha":
            raise ValueError("deck_for needs k, the cards per player, for Pocha")
        k = 8 if game == "tute2" else len(full) // 4
    all_dealt = n * k == len(full)
    named = [c for seat_cards in hands.values() for c in seat_cards] + list(stock)
    if trump_card is not None and trump_card not in named:
        named.append(trump_card)
    if len(set(named)) != len(named) or not set(named) <= set(full):
        raise ValueError(f"named cards must be distinct cards of this deck: {named}")
    if all_dealt and stock:
        raise ValueError("no stock: every card is dealt")
    pool = [c for c in full if c not in named]
    mano = (dealer + 1) % n
    blocks: dict[int, list[str]] = {}
    # Seats with a void are filled first, so that the suits they must not get are left to the others.
    for seat in sorted(range(n), key=lambda s: (s not in void, s)):
        cards = list(hands.get(seat, ()))
        shown = all_dealt and trump_card is not None and seat == dealer
        if shown:
            assert trump_card is not None
            if trump_card in cards:
                cards.remove(trump_card)
        room = k - 1 if shown else k
        if len(cards) > room:
            raise ValueError(f"seat {seat} is given {len(cards)} cards, more than {room}")
        while len(cards) < room:
            filler = next((c for c in pool if suit(c) not in void.get(seat, "")), None)
            if filler is None:
                raise ValueError(f"no card left to fill seat {seat} without {void.get(seat)}")
            pool.remove(filler)
            cards.append(filler)
        if shown:
            assert trump_card is not None
            cards.append(trump_card)
        blocks[seat] = cards
    out = [card for block in range(n) for card in blocks[(mano + block) % n]]
    if not all_dealt:
        out.extend(([trump_card] if trump_card is not None else []) + list(stock) + pool)
    assert sorted(out) == sorted(full)
    return out


def make_state(
    game: str,
    hands: Hands | None = None,
    *,
    players: int | None = None,
    dealer: int = 0,
    options: Mapping[str, Any] | None = None,
    trump_card: str | None = None,
    stock: Sequence[str] = (),
    decks: Sequence[Sequence[str]] | None = None,
    void: Mapping[int, str] = {},
) -> State:
    """A game dealt from hand-built decks: the first from ``hands``, later Pocha hands in canonical order."""
    rules = Rules.build(game, players, options or {})
    if decks is None:
        first = deck_for(
            game,
            hands or {},
            players=rules.players,
            dealer=dealer,
            k=rules.hand_sizes()[0],
            trump_card=trump_card,
            stock=stock,
            deck48=rules.deck48,
            void=void,
        )
        rest = spec_deck(deck48=rules.deck48, without_twos=game == "pocha" and rules.players in (3, 6))
        decks = [first] + [rest] * (len(rules.hand_sizes()) - 1)
    return State.new(rules, dealer=dealer, decks=tuple(tuple(parse_card(c) for c in deck) for deck in decks))


def apply_all(state: State, *codes: str) -> State:
    for code in codes:
        state = state.apply(code)
    return state


def public_snapshot(state: State) -> tuple[object, ...]:
    """Everything the public API tells about a state, to check that a refused action changed nothing."""
    seats = [None, *range(state.rules.players)]
    result = state.result()
    return (
        state.ply,
        state.history(),
        state.current_player(),
        state.legal_actions(),
        state.is_terminal(),
        result.to_dict() if result else None,
        [state.view(seat).to_dict() for seat in seats],
    )


def refused(state: State, code: str, *reason_words: str) -> IllegalAction:
    """Assert that ``code`` is refused with a reason (holding ``reason_words``) and that nothing changed."""
    before = public_snapshot(state)
    with pytest.raises(IllegalAction) as caught:
        state.apply(code)
    reason = caught.value.reason
    assert reason, f"{code} was refused without a reason"
    for words in reason_words:
        assert words in reason, f"{words!r} not in the reason {reason!r}"
    assert public_snapshot(state) == before
    return caught.value


def plays(state: State) -> tuple[str, ...]:
    """The legal card plays only, as card codes."""
    return tuple(code[5:] for code in state.legal_actions() if code.startswith("play:"))


def first_play(state: State) -> str:
    """The first legal play in the order of ``legal_actions`` (a simple, deterministic policy)."""
    return next(code for code in state.legal_actions() if code.startswith("play:"))


def play_out(state: State, policy: Callable[[State], str] = first_play) -> State:
    while not state.is_terminal():
        state = state.apply(policy(state))
    return state


# -- fixtures ---------------------------------------------------------------------------------------


@pytest.fixture
def deal() -> Callable[..., State]:
    """``deal(game, {seat: cards}, dealer=, options=, trump_card=, stock=, decks=, void=)`` -> a new State."""
    return make_state


@pytest.fixture
def deck() -> Callable[..., list[str]]:
    """``deck(game, {seat: cards}, ...)`` -> the deck's card codes, top first (see ``deck_for``)."""
    return deck_for


@pytest.fixture
def run() -> Callable[..., State]:
    """``run(state, *codes)`` -> the state after applying every code in order."""
    return apply_all


@pytest.fixture
def refuse() -> Callable[..., IllegalAction]:
    """``refuse(state, code, *reason_words)``: the action raises IllegalAction and changes nothing."""
    return refused


# -- Tute 2: a whole hand in which the mano wins every trick of the stock phase -----------------------
#
# Dealer 1, mano 0, oros trump (face-up 5O). Seat 0 only ever holds oros and copas (and 7B, drawn last),
# seat 1 only espadas and bastos, so seat 0 wins tricks 1-12 by leading, whatever the stock duty.
# After each trick the winner (seat 0) draws first: it takes the even stock cards, seat 1 the odd ones
# and, as the loser of trick 12, the face-up 5O.

LONG_SEAT0 = ("2O", "4O", "6O", "7O", "2C", "4C", "5C", "6C")
LONG_SEAT1 = ("2E", "4E", "5E", "6E", "2B", "4B", "5B", "6B")
LONG_FACEUP = "5O"
LONG_STOCK = (
    *("7C", "10E", "10O", "10B", "10C", "11E", "3C", "11B", "1C", "12E", "12C", "12B"),
    *("11C", "7E", "3O", "3B", "1O", "3E", "12O", "1B", "11O", "1E", "7B"),
)
#: (seat 0's lead, seat 1's card) for tricks 1-12.
LONG_STOCK_TRICKS = (
    *(("2O", "2E"), ("4O", "4E"), ("6O", "5E"), ("7O", "6E"), ("2C", "2B"), ("4C", "4B")),
    *(("5C", "5B"), ("6C", "6B"), ("7C", "10E"), ("10O", "10B"), ("10C", "11E"), ("3C", "11B")),
)
#: Tricks 13-20 of the long hand after the stock phase: (leader's card, answer); seat 1 takes 13 and 15.
LONG_ARRASTRE = (
    ("7B", "1B"),
    ("3B", "11O"),
    ("1C", "5O"),
    ("12B", "12O"),
    ("12C", "1E"),
    ("11C", "3E"),
    ("3O", "7E"),
    ("1O", "12E"),
)
LONG_SEAT0_AT_13 = ("1O", "3O", "11O", "12O", "1C", "11C", "12C", "7B")
LONG_SEAT1_AT_13 = ("5O", "1E", "3E", "7E", "12E", "1B", "3B", "12B")


def long_tute2(options: Mapping[str, Any] | None = None) -> State:
    return make_state(
        "tute2",
        {0: LONG_SEAT0, 1: LONG_SEAT1},
        dealer=1,
        options=options,
        trump_card=LONG_FACEUP,
        stock=LONG_STOCK,
    )


def long_tute2_stock_phase(state: State, tricks: int = 12) -> State:
    """Play the first ``tricks`` tricks of the long Tute 2 hand (no swap, no cante)."""
    for lead, answer in LONG_STOCK_TRICKS[:tricks]:
        state = state.apply(f"play:{lead}").apply(f"play:{answer}")
    return state


@pytest.fixture
def long_hand() -> Callable[..., State]:
    """``long_hand(options)`` -> the long Tute 2 hand, dealt (see LONG_* in conftest)."""
    return long_tute2


@pytest.fixture
def stock_phase() -> Callable[..., State]:
    """``stock_phase(state, tricks=12)`` -> the long Tute 2 hand after its first tricks."""
    return long_tute2_stock_phase
