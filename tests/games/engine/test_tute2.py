"""docs/RULES.md section 4: Tute 2 (with section 7's dealing order and the deck48 flag)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.engine import IllegalAction, Rules, State
from tests.games.engine.conftest import (
    LONG_ARRASTRE,
    LONG_FACEUP,
    LONG_SEAT0,
    LONG_SEAT0_AT_13,
    LONG_SEAT1,
    LONG_SEAT1_AT_13,
    LONG_STOCK,
    LONG_STOCK_TRICKS,
    first_play,
    play_out,
    points,
    spec_deck,
    trick_winner,
)

Deal = Callable[..., State]
Run = Callable[..., State]
Refuse = Callable[..., IllegalAction]
LongHand = Callable[..., State]
StockPhase = Callable[..., State]


def hand_of(state: State, seat: int) -> list[str]:
    return list(state.view(seat).hand)


# -- 4.1-4.2 and section 7: the deal ---------------------------------------------------------------------


@pytest.mark.parametrize(("dealer", "mano"), [(1, 0), (0, 1)])
def test_the_mano_gets_the_first_8_cards_the_dealer_the_next_8_then_the_face_up_card(
    deal: Deal, dealer: int, mano: int
) -> None:
    # given: the canonical deck, top first
    deck = spec_deck()

    # when: it is dealt
    state = deal("tute2", dealer=dealer, decks=[deck])

    # then: 8 cards to the mano, 8 to the dealer, the 17th card face up (its suit is trump), 23 in the stock
    view = state.view(mano).to_dict()
    assert view["hand"] == deck[:8]
    assert state.view(dealer).to_dict()["hand"] == deck[8:16]
    assert view["faceup"] == view["trump_card"] == deck[16] == "7C"
    assert view["trump"] == "C"
    assert view["stock_size"] == 23
    assert view["hand_sizes"] == [8, 8]
    assert view["mano"] == mano
    assert view["dealer"] == dealer


@pytest.mark.parametrize(("dealer", "mano"), [(1, 0), (0, 1)])
def test_the_mano_leads_trick_1(deal: Deal, dealer: int, mano: int) -> None:
    # given: a fresh deal
    state = deal("tute2", dealer=dealer)

    # then: the mano is to act
    assert state.current_player() == mano


# -- 4.3: drawing ------------------------------------------------------------------------------------------


def test_the_winner_of_a_trick_draws_the_top_card_then_the_loser(
    long_hand: LongHand, stock_phase: StockPhase
) -> None:
    # given: the long hand (seat 0 wins trick 1)
    state = long_hand()

    # when: trick 1 is played
    state = stock_phase(state, 1)

    # then: seat 0 drew the top stock card, seat 1 the next; 21 are left
    assert "7C" in hand_of(state, 0)
    assert "10E" in hand_of(state, 1)
    assert state.view(None).hand_sizes == (8, 8)
    assert state.view(None).stock_size == 21


def test_when_the_dealer_wins_the_trick_the_dealer_draws_first(deal: Deal, run: Run) -> None:
    # given: the mano (seat 0) leads the 4 of copas and the dealer takes it with the ace
    state = deal("tute2", {0: ["4C"], 1: ["1C"]}, dealer=1, trump_card="4O", stock=["3E", "3B"])

    # when: the trick is played
    state = run(state, "play:4C", "play:1C")

    # then: the dealer drew the top card (3E), the mano the next one (3B); the dealer leads
    assert "3E" in hand_of(state, 1)
    assert "3B" in hand_of(state, 0)
    assert state.current_player() == 1


def test_the_face_up_card_is_drawn_last_by_the_loser_of_trick_12(
    long_hand: LongHand, stock_phase: StockPhase
) -> None:
    # given: the long hand after 11 tricks: one stock card left, the 5 of oros still face up
    state = stock_phase(long_hand(), 11)
    assert state.view(None).stock_size == 1
    assert state.view(None).faceup == LONG_FACEUP

    # when: trick 12 is played (seat 0 wins it)
    lead, answer = LONG_STOCK_TRICKS[11]
    state = state.apply(f"play:{lead}").apply(f"play:{answer}")

    # then: the winner drew the last stock card, the loser the face-up card, which everyone knows it holds
    view = state.view(0).to_dict()
    assert view["stock_size"] == 0
    assert view["faceup"] is None
    assert view["trump"] == "O"
    assert view["known"] == [[], [LONG_FACEUP]]
    assert hand_of(state, 0) == list(LONG_SEAT0_AT_13)
    assert hand_of(state, 1) == list(LONG_SEAT1_AT_13)


def test_a_hand_is_20_tricks_12_with_drawing_then_8_without(long_hand: LongHand) -> None:
    # given: the long hand
    state = long_hand()
    sizes = []

    # when: it is played to the end
    while not state.is_terminal():
        view = state.view(None)
        if not view.trick:
            sizes.append((view.stock_size, view.hand_sizes))
        state = state.apply(first_play(state))

    # then: 20 tricks; hands stay at 8 while drawing, then shrink by one a trick
    final = state.view(None).to_dict()
    assert len(final["tricks"]) == 20
    assert all(len(trick["cards"]) == 2 for trick in final["tricks"])
    assert sizes[:12] == [(23 - 2 * t, (8, 8)) for t in range(12)]
    assert sizes[12:] == [(0, (8 - t, 8 - t)) for t in range(8)]
    assert state.current_player() is None
    assert state.legal_actions() == ()


# -- 4.4: the swaps of the 7 and the 2 ---------------------------------------------------------------------


def swap_deal(deal: Deal, faceup: str, seat0: list[str], **options: Any) -> State:
    """Dealer 1: the mano (seat 0) holds ``seat0`` and no other oros; ``faceup`` is turned up."""
    return deal("tute2", {0: seat0}, dealer=1, trump_card=faceup, options=options, void={0: "O"})


@pytest.mark.parametrize("faceup", ["1O", "3O", "12O", "11O", "10O"])
def test_the_7_of_trumps_may_be_swapped_for_a_stronger_face_up_card(deal: Deal, faceup: str) -> None:
    state = swap_deal(deal, faceup, ["7O"])
    assert "exchange:7O" in state.legal_actions()


@pytest.mark.parametrize("faceup", ["6O", "5O", "4O", "2O"])
def test_the_7_of_trumps_may_not_take_a_weaker_face_up_card(deal: Deal, refuse: Refuse, faceup: str) -> None:
    state = swap_deal(deal, faceup, ["7O"])
    assert not [code for code in state.legal_actions() if code.startswith("exchange")]
    refuse(state, "exchange:7O", "the 7 takes only a face-up card stronger than the 7")


@pytest.mark.parametrize("faceup", ["7O", "6O", "5O", "4O"])
def test_the_2_of_trumps_may_be_swapped_for_a_face_up_7_6_5_or_4(deal: Deal, faceup: str) -> None:
    state = swap_deal(deal, faceup, ["2O"])
    assert "exchange:2O" in state.legal_actions()


@pytest.mark.parametrize("faceup", ["1O", "3O", "12O", "11O", "10O"])
def test_the_2_of_trumps_may_not_take_a_face_up_figure_ace_or_3(
    deal: Deal, refuse: Refuse, faceup: str
) -> None:
    state = swap_deal(deal, faceup, ["2O"])
    assert "exchange:2O" not in state.legal_actions()
    refuse(state, "exchange:2O", "the 2 takes only a face-up 7, 6, 5 or 4")


@pytest.mark.parametrize("faceup", ["8O", "9O"])
def test_with_deck48_the_7_takes_a_face_up_8_or_9_and_the_2_does_not(deal: Deal, faceup: str) -> None:
    # given: deck48; the mano holds the 7 and the 2 of oros; an 8 or 9 of oros is face up
    state = deal(
        "tute2", {0: ["7O", "2O"]}, dealer=1, trump_card=faceup, options={"deck48": True}, void={0: "O"}
    )

    # then: the 8 and 9 are stronger than the 7; the 2 only takes a 7, 6, 5 or 4
    assert "exchange:7O" in state.legal_actions()
    assert "exchange:2O" not in state.legal_actions()


def test_a_swap_is_public_and_leaves_the_trump_suit(deal: Deal) -> None:
    # given: the mano holds the 7 of oros; the ace of oros is face up
    state = swap_deal(deal, "1O", ["7O"])

    # when: it swaps
    state = state.apply("exchange:7O")

    # then: it holds the ace, the 7 lies face up; both seats see the swap and the card taken
    assert "1O" in hand_of(state, 0)
    assert "7O" not in hand_of(state, 0)
    for seat in (None, 0, 1):
        view = state.view(seat).to_dict()
        assert view["faceup"] == "7O"
        assert view["trump"] == "O"
        assert view["trump_card"] == "1O"
        assert view["exchanges"] == [{"seat": 0, "gave": "7O", "took": "1O"}]
        assert view["known"] == [["1O"], []]
        assert view["hand_sizes"] == [8, 8]
    # and: it is still the mano's turn, to lead
    assert state.current_player() == 0
    assert all(code.startswith("play:") for code in state.legal_actions())


def test_a_7_put_face_up_by_a_swap_can_be_taken_with_the_2_by_the_same_player(deal: Deal) -> None:
    # given: the mano holds the 7 and the 2 of oros; the ace of oros is face up
    state = swap_deal(deal, "1O", ["7O", "2O"])
    assert "exchange:2O" not in state.legal_actions()

    # when: it swaps the 7 for the ace, then the 2 for the 7
    state = state.apply("exchange:7O")
    assert "exchange:2O" in state.legal_actions()
    state = state.apply("exchange:2O")

    # then: it holds the ace and the 7; the 2 lies face up
    assert {"1O", "7O"} <= set(hand_of(state, 0))
    view = state.view(1).to_dict()
    assert view["faceup"] == "2O"
    assert view["exchanges"] == [
        {"seat": 0, "gave": "7O", "took": "1O"},
        {"seat": 0, "gave": "2O", "took": "7O"},
    ]
    assert view["known"] == [["1O", "7O"], []]


def test_a_7_put_face_up_by_a_swap_can_be_taken_with_the_2_by_the_opponent(deal: Deal, run: Run) -> None:
    # given: the mano swaps its 7 of oros for the face-up ace and leads the 4 of copas;
    # the dealer, holding the 2 of oros, takes the trick with the ace of copas
    state = deal("tute2", {0: ["7O", "4C"], 1: ["2O", "1C"]}, dealer=1, trump_card="1O", void={0: "O"})
    state = run(state, "exchange:7O", "play:4C", "play:1C")
    assert state.current_player() == 1

    # when: the dealer, now leading trick 2, swaps its 2
    assert "exchange:2O" in state.legal_actions()
    state = state.apply("exchange:2O")

    # then: it holds the 7, which everyone knows
    assert "7O" in hand_of(state, 1)
    assert state.view(0).faceup == "2O"
    assert state.view(0).known[1] == ("7O",)


def test_only_the_leader_may_swap_before_it_leads(deal: Deal, refuse: Refuse) -> None:
    # given: the dealer holds the 7 of oros, the ace of oros is face up, and the mano has led
    state = deal("tute2", {0: ["4C"], 1: ["7O", "1C"]}, dealer=1, trump_card="1O").apply("play:4C")

    # then: the dealer may not swap while answering
    assert not [code for code in state.legal_actions() if code.startswith("exchange")]
    refuse(state, "exchange:7O", "only before leading")


def test_only_the_7_or_the_2_of_trumps_may_be_swapped(deal: Deal, refuse: Refuse) -> None:
    # given: the mano holds the 7 and 2 of copas; oros are trump
    state = deal("tute2", {0: ["7C", "2C"]}, dealer=1, trump_card="5O", void={0: "O"})

    # then: neither can be swapped
    refuse(state, "exchange:7C", "only the 7 or the 2 of trumps")
    refuse(state, "exchange:2C", "only the 7 or the 2 of trumps")


def test_a_swap_needs_the_card_in_hand(deal: Deal, refuse: Refuse) -> None:
    # given: the 7 of oros is in the dealer's hand, not the mano's
    state = deal("tute2", {1: ["7O"]}, dealer=1, trump_card="1O", void={0: "O"})

    # then: the mano cannot swap it
    refuse(state, "exchange:7O", "not in seat 0's hand")


# Long hand B: the long hand with the ace of oros face up (and the 5 of oros in the stock in its place);
# seat 0 keeps its 7 of oros to the end, leading the 10 and the 5 of oros instead.
LONG_B_STOCK = tuple("5O" if card == "1O" else card for card in LONG_STOCK)
LONG_B_TRICKS = tuple(
    ("10O", answer) if lead == "7O" else ("5O", answer) if lead == "10O" else (lead, answer)
    for lead, answer in LONG_STOCK_TRICKS
)


def long_hand_b(deal: Deal, tricks: int, **options: Any) -> State:
    state = deal(
        "tute2",
        {0: LONG_SEAT0, 1: LONG_SEAT1},
        dealer=1,
        trump_card="1O",
        stock=LONG_B_STOCK,
        options=options,
    )
    for lead, answer in LONG_B_TRICKS[:tricks]:
        state = state.apply(f"play:{lead}").apply(f"play:{answer}")
    return state


def test_a_swap_is_open_before_trick_12_while_the_face_up_card_lies_there(deal: Deal) -> None:
    # given: long hand B before trick 12: the ace of oros still face up, seat 0 holding the 7
    state = long_hand_b(deal, 11)

    # then: seat 0 may swap
    assert state.view(0).faceup == "1O"
    assert "exchange:7O" in state.legal_actions()


def test_no_swap_once_the_face_up_card_has_been_drawn(deal: Deal, refuse: Refuse) -> None:
    # given: long hand B after trick 12: seat 1 drew the ace; seat 0 still holds the 7 of oros
    state = long_hand_b(deal, 12)
    assert "7O" in hand_of(state, 0)
    assert state.current_player() == 0

    # then: no swap
    assert not [code for code in state.legal_actions() if code.startswith("exchange")]
    refuse(state, "exchange:7O", "the face-up card has been drawn")


def test_exchange_requires_trick_win_forbids_a_swap_before_trick_1(
    long_hand: LongHand, refuse: Refuse
) -> None:
    # given: the long hand: the mano holds the 2 of oros, the 5 of oros is face up
    default = long_hand()
    flagged = long_hand({"exchange_requires_trick_win": True})

    # then: by default the mano may swap before trick 1; with the flag it may not
    assert "exchange:2O" in default.legal_actions()
    assert "exchange:2O" not in flagged.legal_actions()
    refuse(flagged, "exchange:2O", "exchange_requires_trick_win")


def test_exchange_requires_trick_win_allows_the_swap_after_a_trick_won(long_hand: LongHand, run: Run) -> None:
    # given: the flag; seat 0 leads the 4 of oros (keeping its 2) and wins trick 1
    state = run(long_hand({"exchange_requires_trick_win": True}), "play:4O", "play:2E")
    assert state.current_player() == 0

    # then: it may swap before leading trick 2
    assert "exchange:2O" in state.legal_actions()


# -- 4.5: the leader's window: swaps and a cante in any order ---------------------------------------------


def window_deal(deal: Deal, run: Run) -> State:
    """Seat 0 (the mano) wins trick 1 holding the 7 of oros and the copas pair; the ace of oros is face up."""
    state = deal(
        "tute2",
        {0: ["7O", "12C", "11C", "4E", "5E", "6E", "7E", "10E"], 1: ["2E", "1B", "3B", "12B", "11B", "10B"]},
        dealer=1,
        trump_card="1O",
        stock=["4C", "5C"],
        void={1: "EO"},
    )
    return run(state, "play:10E", "play:2E")


def test_after_a_trick_won_the_leader_may_swap_and_sing_in_either_order(deal: Deal, run: Run) -> None:
    # given: seat 0 won trick 1
    state = window_deal(deal, run)
    assert {"exchange:7O", "sing:C"} <= set(state.legal_actions())

    # when: it swaps then sings, or sings then swaps
    swap_first = run(state, "exchange:7O", "sing:C")
    sing_first = run(state, "sing:C", "exchange:7O")

    # then: the same hand, the same 20 points, either way; it still leads
    for after in (swap_first, sing_first):
        assert after.current_player() == 0
        assert after.view(0).hand == swap_first.view(0).hand
        assert after.view(None).scores == (2 + 20, 0)  # the 10 of espadas' 2 points and the cante
        assert all(code.startswith("play:") for code in after.legal_actions())


def test_the_leaders_play_ends_the_window(deal: Deal, run: Run, refuse: Refuse) -> None:
    # given: seat 0 won trick 1 and may swap and sing
    state = window_deal(deal, run)

    # when: it leads without doing either
    state = state.apply("play:4E")

    # then: neither is open any more, to it or to the other seat
    assert not [code for code in state.legal_actions() if not code.startswith("play:")]
    refuse(state, "sing:C", "only before leading")


# -- 4.6: scoring -----------------------------------------------------------------------------------------


def play_long_hand(long_hand: LongHand, options: dict[str, Any] | None = None, sing: bool = False) -> State:
    state = long_hand(options)
    for number, (lead, answer) in enumerate(LONG_STOCK_TRICKS, start=1):
        if sing and number == 8:
            state = state.apply("sing:C")
        if sing and number == 12:
            state = state.apply("sing:O")
        state = state.apply(f"play:{lead}").apply(f"play:{answer}")
    for lead, answer in LONG_ARRASTRE:
        state = state.apply(f"play:{lead}").apply(f"play:{answer}")
    return state


def test_the_score_is_the_card_points_of_the_tricks_won(long_hand: LongHand) -> None:
    # when: the long hand is played without cantes
    state = play_long_hand(long_hand)

    # then: seat 0 took 24 points in the stock phase and 74 after; seat 1 took 22; seat 0 wins
    result = state.result()
    assert result is not None
    assert result.to_dict()["scores"] == [98, 22]
    assert result.to_dict()["points"] == [98, 22]
    assert result.to_dict()["cantes"] == [0, 0]
    assert result.to_dict()["winners"] == [0]
    assert result.to_dict()["last_trick"] == 0
    assert result.to_dict()["last_trick_bonus"] == 0
    assert result.to_dict()["tricks"] == [18, 2]


def test_cantes_add_to_the_singers_score(long_hand: LongHand) -> None:
    # when: seat 0 sings copas (20) before trick 8 and oros, the trump suit (40), before trick 12
    state = play_long_hand(long_hand, sing=True)

    # then: 98 + 60
    result = state.result()
    assert result is not None
    assert result.to_dict()["scores"] == [158, 22]
    assert result.to_dict()["cantes"] == [60, 0]
    assert result.to_dict()["sung"] == [
        {"seat": 0, "suit": "C", "points": 20},
        {"seat": 0, "suit": "O", "points": 40},
    ]


def test_last_trick_bonus_adds_10_for_the_last_trick(long_hand: LongHand) -> None:
    # when: the long hand is played with last_trick_bonus (seat 0 takes trick 20)
    state = play_long_hand(long_hand, {"last_trick_bonus": True}, sing=True)

    # then: 10 more for seat 0
    result = state.result()
    assert result is not None
    assert result.to_dict()["scores"] == [168, 22]
    assert result.to_dict()["last_trick_bonus"] == 10


def recount(state: State) -> list[int]:
    """Card points per seat, recounted from the public tricks with section 2's trick rule."""
    view = state.view(None)
    totals = [0] * view.players
    for trick in view.tricks:
        cards = [card for _, card in trick.cards]
        seats = [seat for seat, _ in trick.cards]
        winner = seats[trick_winner(cards, view.trump)]
        assert winner == trick.winner
        totals[winner] += sum(points(c) for c in cards)
    return totals


@pytest.mark.parametrize(("seed", "last"), [("tie-13", 0), ("tie-42", 1)])
def test_a_tie_goes_to_the_winner_of_the_last_trick(seed: str, last: int) -> None:
    # given: seeded hands that end 60-60 when both seats always play their first legal card
    state = State.new(Rules.build("tute2"), dealer=0, seed=seed)

    # when: played out
    state = play_out(state)

    # then: a tie on points; the seat that won trick 20 wins
    result = state.result()
    assert result is not None
    assert recount(state) == [60, 60]
    assert result.to_dict()["scores"] == [60, 60]
    assert state.view(None).tricks[-1].winner == last
    assert result.to_dict()["winners"] == [last]
    assert state.returns()[last] == 1.0


# -- deck48 -----------------------------------------------------------------------------------------------


def test_with_deck48_tute2_deals_8_each_and_plays_24_tricks_16_with_drawing(deal: Deal) -> None:
    # given: the canonical 48-card deck
    state = deal("tute2", dealer=1, options={"deck48": True}, decks=[spec_deck(deck48=True)])
    assert state.view(None).hand_sizes == (8, 8)
    assert state.view(None).stock_size == 31
    stock_sizes = []

    # when: it is played out
    while not state.is_terminal():
        view = state.view(None)
        if not view.trick:
            stock_sizes.append((view.stock_size, view.faceup is not None))
        state = state.apply(first_play(state))

    # then: 24 tricks; the face-up card is drawn with the 16th
    assert len(state.view(None).tricks) == 24
    assert stock_sizes[15] == (1, True)
    assert stock_sizes[16] == (0, False)
    assert sum(recount(state)) == 120
