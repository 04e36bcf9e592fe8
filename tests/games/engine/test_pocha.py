"""docs/RULES.md section 6: Pocha (hand sequences, dealing and trump, bidding, the hook, scoring)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.engine import IllegalAction, Rules, RulesError, State
from tests.games.engine.conftest import first_play, spec_deck

Deal = Callable[..., State]
Deck = Callable[..., list[str]]
Run = Callable[..., State]
Refuse = Callable[..., IllegalAction]


def spanish(n: int, most: int) -> tuple[int, ...]:
    """Section 6.2: n hands of 1, then 2 .. M-1, n hands of M, M-1 .. 2, n hands of 1."""
    return (1,) * n + tuple(range(2, most)) + (most,) * n + tuple(range(most - 1, 1, -1)) + (1,) * n


def up_down(most: int) -> tuple[int, ...]:
    return tuple(range(1, most + 1)) + tuple(range(most - 1, 0, -1))


# -- 6.1-6.2: players, decks and hand sequences ------------------------------------------------------------


def test_the_spanish_sequence_for_4_players_is_28_hands() -> None:
    # given: the default Pocha rules
    rules = Rules.build("pocha")

    # then: 4 players, M = 10: 1 1 1 1 2 .. 9 10 10 10 10 9 .. 2 1 1 1 1
    sizes = rules.hand_sizes()
    assert rules.players == 4
    assert len(sizes) == 28
    assert sizes == (1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 1)


@pytest.mark.parametrize(
    ("players", "deck", "most"), [(2, 40, 20), (3, 36, 12), (4, 40, 10), (5, 40, 8), (6, 36, 6)]
)
def test_hand_sizes_follow_the_deck_and_the_players(players: int, deck: int, most: int) -> None:
    # given: Pocha for n players (3 and 6 play without the 2s)
    spanish_rules = Rules.build("pocha", players)
    up_down_rules = Rules.build("pocha", players, {"pocha_sequence": "up_down"})

    # then: M = floor(D / n) in both sequences
    assert spanish_rules.deck_size == deck
    assert deck // players == most
    assert spanish_rules.hand_sizes() == spanish(players, most)
    assert up_down_rules.hand_sizes() == up_down(most)


@pytest.mark.parametrize(("players", "most"), [(3, 14), (4, 12), (5, 9), (6, 7)])
def test_deck48_raises_the_largest_hand(players: int, most: int) -> None:
    rules = Rules.build("pocha", players, {"deck48": True})
    assert rules.hand_sizes() == spanish(players, most)


def test_pocha_max_cards_caps_the_largest_hand() -> None:
    # given: 4 players capped at 5 cards
    spanish_rules = Rules.build("pocha", 4, {"pocha_max_cards": 5})
    up_down_rules = Rules.build("pocha", 4, {"pocha_max_cards": 5, "pocha_sequence": "up_down"})
    loose = Rules.build("pocha", 4, {"pocha_max_cards": 25})

    # then: M = 5 (a cap above floor(D / n) changes nothing)
    assert spanish_rules.hand_sizes() == (1, 1, 1, 1, 2, 3, 4, 5, 5, 5, 5, 4, 3, 2, 1, 1, 1, 1)
    assert up_down_rules.hand_sizes() == (1, 2, 3, 4, 5, 4, 3, 2, 1)
    assert loose.hand_sizes() == spanish(4, 10)


def test_an_explicit_sequence_is_played_as_given() -> None:
    rules = Rules.build("pocha", 4, {"pocha_sequence": [3, 1, 10, 2]})
    assert rules.hand_sizes() == (3, 1, 10, 2)


@pytest.mark.parametrize(
    ("players", "options"), [(4, {"pocha_sequence": [11]}), (6, {"pocha_sequence": [7]})]
)
def test_an_explicit_sequence_with_an_impossible_hand_is_refused(
    players: int, options: dict[str, Any]
) -> None:
    with pytest.raises(RulesError, match="not possible"):
        Rules.build("pocha", players, options)


@pytest.mark.parametrize("players", [3, 6])
def test_with_3_or_6_players_the_four_2s_are_removed(deal: Deal, players: int) -> None:
    # given: a seeded game
    state = State.new(Rules.build("pocha", players, {"pocha_sequence": [36 // players]}), dealer=0, seed="x")

    # then: 36 cards are dealt and none is a 2
    cards = [card for seat in range(players) for card in state.view(seat).hand]
    assert sorted(cards) == sorted(spec_deck(without_twos=True))
    # and: a 40-card deck does not fit the game
    with pytest.raises(RulesError, match="not the 36-card deck"):
        deal("pocha", players=players, options={"pocha_sequence": [1]}, decks=[spec_deck()])


def test_a_whole_spanish_game_deals_the_sequence_and_rotates_the_dealer() -> None:
    # given: Pocha for 4, first dealer seat 2
    state = State.new(Rules.build("pocha"), dealer=2, seed="whole")
    seen: list[tuple[int, int, int]] = []

    # when: played to the end, bidding the first legal bid and playing the first legal card
    while not state.is_terminal():
        view = state.view(None)
        if view.phase == "bid" and all(b is None for b in view.bids):
            seen.append((view.hand_number, view.cards_dealt, view.dealer))
            assert view.hand_sizes == (view.cards_dealt,) * 4
            assert view.hands_total == 28
        state = state.apply(state.legal_actions()[0])

    # then: 28 hands of the spanish sizes, the dealer moving one seat each hand
    assert [hand for hand, _, _ in seen] == list(range(28))
    assert tuple(cards for _, cards, _ in seen) == spanish(4, 10)
    assert [dealer for _, _, dealer in seen] == [(2 + h) % 4 for h in range(28)]
    result = state.result()
    assert result is not None
    assert len(result.to_dict()["hands"]) == 28


# -- 6.3: dealing and trump ----------------------------------------------------------------------------------


def test_with_cards_left_the_next_card_is_turned_up_and_belongs_to_nobody(deal: Deal) -> None:
    # given: 4 players, 1 card each, dealer 3, the canonical deck
    deck = spec_deck()
    state = deal("pocha", dealer=3, options={"pocha_sequence": [1]}, decks=[deck])

    # then: seats 0, 1, 2, 3 got 1O, 2O, 3O, 4O; the 5 of oros is turned up and sets trump
    assert [state.view(s).hand for s in range(4)] == [("1O",), ("2O",), ("3O",), ("4O",)]
    view = state.view(None).to_dict()
    assert view["trump"] == "O"
    assert view["trump_card"] == "5O"
    assert view["trump_card_holder"] is None
    assert view["known"] == [[], [], [], []]
    assert view["hand_sizes"] == [1, 1, 1, 1]


@pytest.mark.parametrize(
    ("players", "k", "deck48"), [(4, 10, False), (5, 8, False), (3, 12, False), (4, 12, True)]
)
def test_with_all_cards_dealt_the_dealers_last_card_is_shown_and_stays_in_its_hand(
    deal: Deal, players: int, k: int, deck48: bool
) -> None:
    # given: every card dealt; dealer 1, whose block is the last of the deck
    deck = spec_deck(deck48=deck48, without_twos=players in (3, 6))
    options = {"pocha_sequence": [k], "deck48": deck48}
    state = deal("pocha", players=players, dealer=1, options=options, decks=[deck])

    # then: the deck's last card, 12B, sets trump; everyone sees the dealer holds it
    assert players * k == len(deck)
    view = state.view(0).to_dict()
    assert view["trump"] == "B"
    assert view["trump_card"] == "12B"
    assert view["trump_card_holder"] == 1
    assert view["known"][1] == ["12B"]
    assert "12B" in state.view(1).hand
    assert len(state.view(1).hand) == k


# -- 6.4: bidding -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "dealer", "order"), [(4, 3, [0, 1, 2, 3]), (3, 1, [2, 0, 1]), (5, 0, [1, 2, 3, 4, 0])]
)
def test_bids_go_from_the_mano_round_to_the_dealer_then_the_mano_leads(
    deal: Deal, players: int, dealer: int, order: list[int]
) -> None:
    # given: a 2-card hand
    state = deal(
        "pocha", players=players, dealer=dealer, options={"pocha_sequence": [2], "pocha_hook": False}
    )
    seats = []

    # when: everyone bids
    while state.view(None).phase == "bid":
        seats.append(state.current_player())
        assert state.legal_actions() == ("bid:0", "bid:1", "bid:2")
        state = state.apply("bid:1")

    # then: the mano first, the dealer last; then the mano leads trick 1; every bid is public
    assert seats == order
    assert state.current_player() == (dealer + 1) % players
    assert state.view(None).bids == (1,) * players


def test_a_card_cannot_be_played_before_the_bids_nor_a_bid_made_during_play(
    deal: Deal, refuse: Refuse
) -> None:
    # given: a 1-card hand, dealer 3
    state = deal("pocha", {0: ["1O"]}, dealer=3, options={"pocha_sequence": [1]})

    # then: the mano must bid first; it may not bid more than the cards it holds
    refuse(state, "play:1O", "must bid")
    refuse(state, "bid:2", "0 to 1")

    # when: the bids are in
    state = state.apply("bid:0").apply("bid:0").apply("bid:0").apply("bid:0")

    # then: no more bids
    refuse(state, "bid:1", "start of a Pocha hand")


def test_the_hook_forbids_the_dealer_the_bid_that_makes_the_total_equal_the_tricks(
    deal: Deal, run: Run, refuse: Refuse
) -> None:
    # given: a 3-card hand; the others bid 1, 0 and 1
    state = run(deal("pocha", dealer=3, options={"pocha_sequence": [3]}), "bid:1", "bid:0", "bid:1")
    assert state.current_player() == 3

    # then: the dealer may not bid 1 (1 + 0 + 1 + 1 = 3)
    assert state.legal_actions() == ("bid:0", "bid:2", "bid:3")
    refuse(state, "bid:1", "pocha_hook")


def test_the_hook_forbids_nothing_when_the_others_already_bid_more_than_the_tricks(
    deal: Deal, run: Run
) -> None:
    # given: a 2-card hand; the others bid 2, 1 and 0
    state = run(deal("pocha", dealer=3, options={"pocha_sequence": [2]}), "bid:2", "bid:1", "bid:0")

    # then: every bid is open to the dealer
    assert state.legal_actions() == ("bid:0", "bid:1", "bid:2")


def test_the_hook_binds_the_dealer_only(deal: Deal, run: Run) -> None:
    # given: a 2-card hand; seat 0 bids 1
    state = run(deal("pocha", dealer=3, options={"pocha_sequence": [2]}), "bid:1")

    # then: seats 1 and 2 may bid anything; the dealer not 2 - 1 - 0 - 0 = 1
    assert state.legal_actions() == ("bid:0", "bid:1", "bid:2")
    state = run(state, "bid:0")
    assert state.legal_actions() == ("bid:0", "bid:1", "bid:2")
    state = run(state, "bid:0")
    assert state.legal_actions() == ("bid:0", "bid:2")


def test_without_the_hook_the_dealer_may_bid_anything(deal: Deal, run: Run) -> None:
    state = run(
        deal("pocha", dealer=3, options={"pocha_sequence": [3], "pocha_hook": False}),
        "bid:1",
        "bid:0",
        "bid:1",
    )
    assert state.legal_actions() == ("bid:0", "bid:1", "bid:2", "bid:3")


def test_pocha_has_no_cantes_and_no_swaps(deal: Deal, refuse: Refuse) -> None:
    # given: the mano to lead, holding the oros pair and the 7 of trumps
    state = deal(
        "pocha", {0: ["12O", "11O", "7O"]}, dealer=3, trump_card="1O", options={"pocha_sequence": [3]}
    )
    state = state.apply("bid:0").apply("bid:0").apply("bid:0").apply("bid:0")

    # then: only card plays
    assert all(code.startswith("play:") for code in state.legal_actions())
    refuse(state, "sing:O", "no cantes in Pocha")
    refuse(state, "exchange:7O", "swaps exist only in Tute 2")


# -- 6.5-6.6: play and scoring ---------------------------------------------------------------------------------

# Two-card hands, bastos trump (12B turned up), nobody holding bastos. Hand 1 (dealer 3): seat 0 takes
# trick 1 with the ace of oros, seat 1 trick 2 with the ace of copas. Hand 2 (dealer 0): seat 1 takes
# trick 1, seat 2 trick 2.
HAND_1 = {0: ["1O", "4C"], 1: ["3O", "1C"], 2: ["2E", "4E"], 3: ["5E", "6E"]}
HAND_2 = {1: ["1O", "4C"], 2: ["3O", "1C"], 3: ["2E", "4E"], 0: ["5E", "6E"]}
PLAYS_1 = ("play:1O", "play:3O", "play:2E", "play:5E", "play:4C", "play:1C", "play:4E", "play:6E")
PLAYS_2 = ("play:1O", "play:3O", "play:2E", "play:5E", "play:4C", "play:1C", "play:4E", "play:6E")


def two_hands(deal: Deal, deck: Deck, sequence: list[int]) -> State:
    decks = [
        deck("pocha", HAND_1, dealer=3, k=2, trump_card="12B"),
        deck("pocha", HAND_2, dealer=0, k=2, trump_card="12B"),
    ][: len(sequence)]
    return deal("pocha", dealer=3, options={"pocha_sequence": sequence}, decks=decks)


def bid_and_play(state: State, bids: list[int], plays: tuple[str, ...]) -> State:
    for bid in bids:
        state = state.apply(f"bid:{bid}")
    for code in plays:
        state = state.apply(code)
    return state


def test_the_mano_leads_trick_1_and_section_2_applies(deal: Deal, deck: Deck) -> None:
    # given: hand 1 after the bids
    state = bid_and_play(two_hands(deal, deck, [2]), [0, 0, 0, 0], ("play:1O",))

    # then: seat 1 must follow oros (but cannot beat the ace)
    assert state.legal_actions() == ("play:3O",)


@pytest.mark.parametrize(
    ("bids", "scores"),
    [
        ([1, 1, 0, 1], [15, 15, 10, -5]),  # exact: 10 + 5 per trick; the dealer missed by one
        ([0, 1, 2, 0], [-5, 15, -10, 10]),  # -5 per trick of difference, over or under
        ([2, 0, 1, 0], [-5, -5, -5, 10]),
    ],
)
def test_a_hand_scores_10_plus_5_a_trick_when_exact_else_minus_5_a_trick_of_difference(
    deal: Deal, deck: Deck, bids: list[int], scores: list[int]
) -> None:
    # when: hand 1 is bid and played (seats 0 and 1 take a trick each)
    state = bid_and_play(two_hands(deal, deck, [2]), bids, PLAYS_1)

    # then: the scores
    result = state.result()
    assert result is not None
    assert result.to_dict()["hands"] == [
        {
            "cards": 2,
            "dealer": 3,
            "trump": "B",
            "trump_card": "12B",
            "bids": bids,
            "tricks": [1, 1, 0, 0],
            "scores": scores,
        }
    ]
    assert list(result.scores) == scores


def test_the_highest_total_wins_and_a_tie_shares_the_win(deal: Deal, deck: Deck) -> None:
    # when: hand 1 is played with bids 1, 1, 0, 1
    state = bid_and_play(two_hands(deal, deck, [2]), [1, 1, 0, 1], PLAYS_1)

    # then: seats 0 and 1 share the win on 15
    result = state.result()
    assert result is not None
    assert result.to_dict()["winners"] == [0, 1]
    assert state.returns() == (0.5, 0.5, 0.0, 0.0)


def test_totals_add_up_over_the_hands(deal: Deal, deck: Deck) -> None:
    # given: two hands; hand 1 bid 1, 1, 0, 1 (15, 15, 10, -5)
    state = bid_and_play(two_hands(deal, deck, [2, 2]), [1, 1, 0, 1], PLAYS_1)
    view = state.view(2)
    assert view.hand_number == 1
    assert view.dealer == 0
    assert view.scores == (15, 15, 10, -5)
    assert view.to_dict()["hands_played"][0]["scores"] == [15, 15, 10, -5]

    # when: hand 2 (dealer 0, seat 1 leads) is bid 1, 1, 0 from the mano and 1 by the dealer
    assert state.current_player() == 1
    state = bid_and_play(state, [1, 1, 0, 1], PLAYS_2)

    # then: hand 2 scores -5, 15, 15, 10 for seats 0-3; totals 10, 30, 25, 5; seat 1 wins
    result = state.result()
    assert result is not None
    assert result.to_dict()["hands"][1]["scores"] == [-5, 15, 15, 10]
    assert result.to_dict()["hands"][1]["tricks"] == [0, 1, 1, 0]
    assert list(result.scores) == [10, 30, 25, 5]
    assert result.to_dict()["winners"] == [1]


def test_a_pocha_game_is_over_after_its_last_hand_only(deal: Deal, deck: Deck, refuse: Refuse) -> None:
    # given: two hands, the first played
    state = bid_and_play(two_hands(deal, deck, [2, 2]), [1, 1, 0, 1], PLAYS_1)
    assert not state.is_terminal()
    assert state.view(None).phase == "bid"

    # when: the second is played
    state = bid_and_play(state, [1, 1, 0, 1], PLAYS_2)

    # then: over; nothing more is accepted
    assert state.is_terminal()
    assert state.current_player() is None
    assert state.legal_actions() == ()
    refuse(state, "bid:0", "the game is over")


def test_first_play_policy_finishes_a_six_player_game() -> None:
    # given: 6 players (no 2s), up_down
    state = State.new(Rules.build("pocha", 6, {"pocha_sequence": "up_down"}), dealer=5, seed="six")

    # when: played out
    while not state.is_terminal():
        state = state.apply(
            first_play(state) if state.view(None).phase == "play" else state.legal_actions()[0]
        )

    # then: 11 hands (1..6..1), each scored
    result = state.result()
    assert result is not None
    assert [hand["cards"] for hand in result.to_dict()["hands"]] == list(up_down(6))
    assert list(result.scores) == [sum(h["scores"][s] for h in result.to_dict()["hands"]) for s in range(6)]
