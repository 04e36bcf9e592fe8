"""docs/RULES.md section 5: Tute 4 (pairs, the whole deck dealt, the dealer's shown trump card)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.engine import IllegalAction, Rules, State
from tests.games.engine.conftest import play_out, points, spec_deck, trick_winner

Deal = Callable[..., State]
Run = Callable[..., State]
Refuse = Callable[..., IllegalAction]


def recount(state: State) -> list[int]:
    """Card points per seat, from the public tricks and section 2's trick rule."""
    view = state.view(None)
    totals = [0] * 4
    for trick in view.tricks:
        cards = [card for _, card in trick.cards]
        winner = trick.cards[trick_winner(cards, view.trump)][0]
        assert winner == trick.winner
        totals[winner] += sum(points(c) for c in cards)
    return totals


@pytest.mark.parametrize(("dealer", "order"), [(3, [0, 1, 2, 3]), (1, [2, 3, 0, 1])])
def test_all_40_cards_are_dealt_10_each_from_the_mano_round_to_the_dealer(
    deal: Deal, dealer: int, order: list[int]
) -> None:
    # given: the canonical deck
    deck = spec_deck()

    # when: it is dealt
    state = deal("tute4", dealer=dealer, decks=[deck])

    # then: blocks of 10, the mano first and the dealer last; no stock
    for block, seat in enumerate(order):
        assert list(state.view(seat).hand) == deck[10 * block : 10 * block + 10]
    view = state.view(None).to_dict()
    assert view["hand_sizes"] == [10, 10, 10, 10]
    assert view["stock_size"] == 0
    assert view["faceup"] is None


def test_the_dealers_last_card_is_shown_sets_trump_and_stays_in_the_dealers_hand(deal: Deal) -> None:
    # given: the canonical deck, dealer 3: its last card is the 12 of bastos
    state = deal("tute4", dealer=3, decks=[spec_deck()])

    # then: bastos are trump; every seat sees that the dealer holds the 12 of bastos
    for seat in (None, 0, 1, 2, 3):
        view = state.view(seat).to_dict()
        assert view["trump"] == "B"
        assert view["trump_card"] == "12B"
        assert view["trump_card_holder"] == 3
        assert view["known"] == [[], [], [], ["12B"]]
    assert "12B" in state.view(3).hand


def test_the_shown_card_is_no_longer_known_in_hand_once_played(deal: Deal, run: Run) -> None:
    # given: dealer 3 holds the shown 12 of bastos; seat 0 leads a bastos card
    hands = {0: ["2O", "4B"], 3: ["12B"]}
    state = deal("tute4", hands, dealer=3, trump_card="12B", void={1: "B", 2: "B"})
    state = run(state, "play:4B")
    state = run(state, state.legal_actions()[0])
    state = run(state, state.legal_actions()[0])

    # when: the dealer plays it
    assert state.current_player() == 3
    state = state.apply("play:12B")

    # then: nobody is known to hold it any more
    assert state.view(None).to_dict()["known"] == [[], [], [], []]
    assert state.view(None).to_dict()["trump_card_holder"] is None


@pytest.mark.parametrize("holder", [0, 1, 2, 3])
def test_the_holder_of_the_2_of_oros_leads_trick_1(deal: Deal, holder: int) -> None:
    # given: dealer 0; the 2 of oros dealt to ``holder``
    state = deal("tute4", {holder: ["2O"]}, dealer=0, trump_card="5C")

    # then: it leads
    assert state.current_player() == holder


def test_first_lead_mano_makes_the_mano_lead(deal: Deal) -> None:
    # given: the 2 of oros with seat 3; dealer 0, so the mano is seat 1
    state = deal("tute4", {3: ["2O"]}, dealer=0, trump_card="5C", options={"first_lead": "mano"})

    # then: the mano leads
    assert state.current_player() == 1


def test_tute4_has_no_swaps(deal: Deal, refuse: Refuse) -> None:
    # given: the leader holds the 7 of trumps
    state = deal("tute4", {0: ["2O", "7B"]}, dealer=3, trump_card="12B")

    # then: no exchange
    refuse(state, "exchange:7B", "swaps exist only in Tute 2")


def test_partners_sit_opposite_and_score_together(deal: Deal) -> None:
    # given: a seeded game played out with the first legal card each time
    state = play_out(State.new(Rules.build("tute4"), dealer=2, seed="pairs"))

    # then: pair 0 is seats 0 and 2, pair 1 seats 1 and 3; the last trick's pair gets 10 more
    per_seat = recount(state)
    last = state.view(None).tricks[-1].winner
    result = state.result()
    assert result is not None
    expected = [per_seat[0] + per_seat[2], per_seat[1] + per_seat[3]]
    assert result.to_dict()["points"] == expected
    expected[last % 2] += 10
    assert result.to_dict()["scores"] == expected
    assert result.to_dict()["last_trick"] == last
    assert result.to_dict()["last_trick_bonus"] == 10


@pytest.mark.parametrize("seed", ["a", "b", "c", "d", "e"])
def test_a_hand_is_10_tricks_worth_130_plus_cantes(seed: str) -> None:
    # given: a seeded game played out
    state = play_out(State.new(Rules.build("tute4"), dealer=0, seed=seed))

    # then: 10 tricks of 4 cards; 120 card points, 10 for the last trick, and the cantes
    result = state.result()
    assert result is not None
    assert len(state.view(None).tricks) == 10
    assert sum(result.to_dict()["points"]) == 120
    assert sum(result.scores) == 130 + sum(result.to_dict()["cantes"])
    best = max(result.scores)
    if result.scores.count(best) == 1:
        assert result.to_dict()["winners"] == [result.scores.index(best)]


def test_last_trick_bonus_can_be_turned_off_in_tute4() -> None:
    # given: last_trick_bonus off
    state = play_out(State.new(Rules.build("tute4", 4, {"last_trick_bonus": False}), dealer=0, seed="a"))

    # then: the scores hold 120 points plus cantes
    result = state.result()
    assert result is not None
    assert sum(result.scores) == 120 + sum(result.to_dict()["cantes"])
    assert result.to_dict()["last_trick_bonus"] == 0


@pytest.mark.parametrize(("seed", "last_pair"), [("tie-44", 0), ("tie-111", 1)])
def test_a_tie_goes_to_the_pair_that_won_the_last_trick(seed: str, last_pair: int) -> None:
    # given: seeded hands that end 65-65 when every seat plays its first legal card
    state = play_out(State.new(Rules.build("tute4"), dealer=0, seed=seed))

    # then: a tie, counting the last trick's 10; the pair that took the last trick wins
    result = state.result()
    assert result is not None
    per_seat = recount(state)
    pair_points = [per_seat[0] + per_seat[2], per_seat[1] + per_seat[3]]
    pair_points[last_pair] += 10
    assert pair_points == [65, 65]
    assert result.to_dict()["scores"] == [65, 65]
    assert state.view(None).tricks[-1].winner % 2 == last_pair
    assert result.to_dict()["winners"] == [last_pair]
    assert [seat for seat, share in enumerate(state.returns()) if share] == [last_pair, last_pair + 2]


def test_with_deck48_tute4_deals_12_each_and_plays_12_tricks() -> None:
    # given: a 48-card seeded game
    state = State.new(Rules.build("tute4", 4, {"deck48": True}), dealer=0, seed="48")
    assert state.view(None).hand_sizes == (12, 12, 12, 12)

    # when: played out
    state = play_out(state)

    # then: 12 tricks, still 120 card points
    assert len(state.view(None).tricks) == 12
    assert sum(recount(state)) == 120
