"""docs/RULES.md section 9: what a seat may know, and nothing else."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.engine import Rules, State
from tests.games.engine.conftest import (
    LONG_ARRASTRE,
    LONG_FACEUP,
    LONG_SEAT0,
    LONG_SEAT1,
    LONG_SEAT1_AT_13,
    LONG_STOCK_TRICKS,
    play_out,
    spec_deck,
)

Deal = Callable[..., State]
Run = Callable[..., State]
LongHand = Callable[..., State]
StockPhase = Callable[..., State]

CODES = frozenset(spec_deck(deck48=True))
SECRET_KEYS = {"deck", "decks", "seed", "stock", "hands", "table"}


def cards_in(value: object) -> set[str]:
    """Every card code anywhere in a view's JSON."""
    if isinstance(value, str):
        return {value} & CODES
    if isinstance(value, dict):
        return set().union(set(), *(cards_in(v) for v in value.values()))
    if isinstance(value, list | tuple):
        return set().union(set(), *(cards_in(v) for v in value))
    return set()


def shared_part(view: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in view.items() if key not in ("seat", "hand")}


def assert_sees_exactly(state: State, public: set[str]) -> None:
    """Each seat's view holds its own hand and the public cards, no other card; the rest is shared."""
    spectator = state.view(None).to_dict()
    assert spectator["seat"] is None
    assert spectator["hand"] == []
    assert cards_in(spectator) == public
    assert not SECRET_KEYS & set(spectator)
    for seat in range(state.rules.players):
        view = state.view(seat).to_dict()
        assert view["seat"] == seat
        assert cards_in(view) == public | set(view["hand"])
        assert shared_part(view) == shared_part(spectator), "a seat sees nothing more than its hand"


def test_a_seat_sees_its_own_hand_and_the_face_up_card_only(long_hand: LongHand) -> None:
    # given: the long hand, just dealt
    state = long_hand()

    # then: each seat's hand is its own; the face-up card is the one public card; the stock is a count
    assert set(state.view(0).hand) == set(LONG_SEAT0)
    assert set(state.view(1).hand) == set(LONG_SEAT1)
    assert state.view(0).stock_size == 23
    assert state.view(0).hand_sizes == (8, 8)
    assert_sees_exactly(state, {LONG_FACEUP})


def test_a_card_taken_by_a_swap_is_known_in_that_hand(long_hand: LongHand) -> None:
    # when: the mano swaps its 2 of oros for the face-up 5
    state = long_hand().apply("exchange:2O")

    # then: everyone knows it holds the 5; the 2 lies face up
    assert state.view(1).known == (("5O",), ())
    assert state.view(1).faceup == "2O"
    assert_sees_exactly(state, {"5O", "2O"})


def test_a_sung_pair_is_known_until_its_cards_are_played(
    long_hand: LongHand, stock_phase: StockPhase
) -> None:
    # given: the long hand after trick 7; seat 0 sings copas
    state = stock_phase(long_hand(), 7).apply("sing:C")
    played = {card for trick in LONG_STOCK_TRICKS[:7] for card in trick}

    # then: the pair is known in seat 0's hand
    assert state.view(1).known == (("11C", "12C"), ())
    assert_sees_exactly(state, played | {LONG_FACEUP, "12C", "11C"})

    # when: the hand goes on until seat 0 has played the 12 of copas (trick 17)
    for lead, answer in LONG_STOCK_TRICKS[7:] + LONG_ARRASTRE[:5]:
        state = state.apply(f"play:{lead}").apply(f"play:{answer}")
    assert "12C" not in state.view(0).hand

    # then: only the 11 is still known in its hand
    assert state.view(1).known == (("11C",), ())


def test_the_face_up_card_drawn_at_the_end_of_the_stock_is_known(
    long_hand: LongHand, stock_phase: StockPhase
) -> None:
    # given: the long hand after trick 12: seat 1 drew the face-up 5 of oros
    state = stock_phase(long_hand())
    played = {card for trick in LONG_STOCK_TRICKS for card in trick}

    # then: everyone knows seat 1 holds it; no face-up card; nothing else of seat 1's hand shows
    assert state.view(0).known == ((), ("5O",))
    assert state.view(0).faceup is None
    assert set(state.view(1).hand) == set(LONG_SEAT1_AT_13)
    assert_sees_exactly(state, played | {LONG_FACEUP})


def test_played_cards_by_whom_and_trick_winners_are_public(
    long_hand: LongHand, stock_phase: StockPhase
) -> None:
    # given: the long hand after trick 1 and seat 0's lead of trick 2
    state = stock_phase(long_hand(), 1).apply("play:4O")

    # then: every seat sees the finished trick, its winner and points, and the card on the table
    view = state.view(1).to_dict()
    assert view["tricks"] == [{"leader": 0, "cards": [[0, "2O"], [1, "2E"]], "winner": 0, "points": 0}]
    assert view["trick"] == [[0, "4O"]]
    assert view["tricks_won"] == [1, 0]
    assert_sees_exactly(state, {"2O", "2E", "4O", LONG_FACEUP})


def test_tute4_the_dealers_shown_trump_card_is_known(deal: Deal) -> None:
    # given: the canonical deck, dealer 3 (its last card, the 12 of bastos, is shown)
    state = deal("tute4", dealer=3, decks=[spec_deck()])

    # then: every seat knows the dealer holds it, and sees no other card but its own
    assert state.view(0).known == ((), (), (), ("12B",))
    assert_sees_exactly(state, {"12B"})


def test_pocha_the_dealers_shown_card_is_known_when_all_cards_are_dealt(deal: Deal) -> None:
    state = deal("pocha", dealer=0, options={"pocha_sequence": [10]}, decks=[spec_deck()])
    assert state.view(2).known == (("12B",), (), (), ())
    assert_sees_exactly(state, {"12B"})


def test_pocha_a_turned_up_card_is_public_and_in_nobodys_hand(deal: Deal) -> None:
    state = deal("pocha", dealer=0, options={"pocha_sequence": [3]}, decks=[spec_deck()])
    assert state.view(2).known == ((), (), (), ())
    assert state.view(2).trump_card == "3C"
    assert_sees_exactly(state, {"3C"})


def test_pocha_bids_are_public(deal: Deal, run: Run) -> None:
    state = run(deal("pocha", dealer=0, options={"pocha_sequence": [3]}), "bid:2", "bid:0")
    for seat in (None, 0, 1, 2, 3):
        assert state.view(seat).to_dict()["bids"] == [None, 2, 0, None]


def test_a_finished_game_shows_the_result_to_every_seat(long_hand: LongHand) -> None:
    # given: the long hand played to the end
    state = play_out(long_hand())

    # then: every view carries the result
    result = state.result()
    assert result is not None
    for seat in (None, 0, 1):
        view = state.view(seat).to_dict()
        assert view["result"] == result.to_dict()
        assert view["phase"] == "over"
        assert view["to_act"] is None


@pytest.mark.parametrize("seat", [-1, 2])
def test_there_is_no_view_for_a_seat_not_in_the_game(long_hand: LongHand, seat: int) -> None:
    with pytest.raises(ValueError, match="no seat"):
        long_hand().view(seat)


def test_pocha_views_keep_the_cards_played_in_earlier_hands() -> None:
    # given: the first hand of a 4-player Pocha game (one card each) played out
    state = State.new(Rules.build("pocha", 4), dealer=0, seed="earlier-hands")
    played: list[str] = []
    while state.table.hand_no == 0:
        action = state.legal_actions()[0]
        if action.startswith("play:"):
            played.append(action[5:])
        state = state.apply(action)
    # then: every seat and the spectator still see who played what in hand 0, and who won the trick
    for seat in (None, 0, 1, 2, 3):
        [earlier] = state.view(seat).to_dict()["hands_played"]
        [trick] = earlier["played"]
        assert [card for _, card in trick["cards"]] == played
        assert earlier["tricks"][trick["winner"]] == 1


def test_a_finished_pocha_hand_s_record_is_built_once_and_shared_by_later_views() -> None:
    # given: a 4-player Pocha game two hands in
    state = State.new(Rules.build("pocha", 4), dealer=0, seed="shared-records")
    while state.table.hand_no < 2:
        state = state.apply(state.legal_actions()[0])
    first = state.view(0).hands_played
    # when: the game goes on and other seats look
    later = state.apply(state.legal_actions()[0])
    # then: every view shows the same record objects for the hands already finished
    assert len(first) == 2
    for seat in (None, 1, 2):
        assert all(a is b for a, b in zip(first, later.view(seat).hands_played, strict=True))
