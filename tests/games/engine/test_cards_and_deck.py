"""docs/RULES.md section 1: cards, codes, the canonical deck, strengths and points."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import CODE_OF, Rules, State, parse_card
from games.engine.cards import ALL_CARDS_MASK, POINTS, card_points, cards_of, mask_of
from games.engine.deal import canonical_deck
from tests.games.engine.conftest import STRENGTH_ORDER, points, spec_deck


def test_card_codes_are_the_rank_number_then_the_suit_letter() -> None:
    # given: the 48 cards of the Spanish deck, as docs/RULES.md writes them
    codes = spec_deck(deck48=True)

    # then: every code parses, and its card prints back as the same code
    assert len(codes) == len(set(codes)) == 48
    for code in codes:
        assert CODE_OF[parse_card(code)] == code
    assert {"1O", "12C", "10E", "7B"} <= set(codes)


@pytest.mark.parametrize("bad", ["", "0O", "13O", "1X", "O1", "1o", "10", "12CC", " 1O"])
def test_an_unknown_card_code_is_refused_with_a_clear_message(bad: str) -> None:
    # when / then: parse_card says which code is wrong
    with pytest.raises(ValueError, match="unknown card code"):
        parse_card(bad)


OROS_40 = ["1O", "2O", "3O", "4O", "5O", "6O", "7O", "10O", "11O", "12O"]
OROS_48 = ["1O", "2O", "3O", "4O", "5O", "6O", "7O", "8O", "9O", "10O", "11O", "12O"]


@pytest.mark.parametrize(
    ("game", "players", "deck48", "size", "oros"),
    [
        ("tute2", 2, False, 40, OROS_40),
        ("tute4", 4, True, 48, OROS_48),
        ("pocha", 3, False, 36, [c for c in OROS_40 if c != "2O"]),
        ("pocha", 6, True, 44, [c for c in OROS_48 if c != "2O"]),
    ],
)
def test_the_canonical_deck_orders_suits_o_c_e_b_and_ranks_upwards(
    game: str, players: int, deck48: bool, size: int, oros: list[str]
) -> None:
    # given: a game's rules (Pocha with 3 or 6 players has no 2s)
    rules = Rules.build(game, players, {"deck48": deck48})

    # when: the engine lists its canonical deck
    codes = [CODE_OF[c] for c in canonical_deck(rules)]

    # then: it is section 1's order, with the 8s and 9s only under deck48
    assert codes == spec_deck(deck48=deck48, without_twos=game == "pocha" and players in (3, 6))
    assert len(codes) == size
    quarter = size // 4
    assert codes[:quarter] == oros
    assert [c[-1] for c in codes] == ["O"] * quarter + ["C"] * quarter + ["E"] * quarter + ["B"] * quarter


def test_the_8s_and_9s_exist_only_with_deck48(deal: Callable[..., State]) -> None:
    # given: a canonical 48-card deck
    deck48 = spec_deck(deck48=True)

    # when / then: a 40-card game refuses it, a deck48 game takes it
    with pytest.raises(ValueError, match="not the 40-card deck"):
        deal("tute2", decks=[deck48])
    state = deal("tute2", options={"deck48": True}, decks=[deck48])
    assert "8O" in state.view(1).hand


def test_the_deck_holds_120_points_with_or_without_the_8s_and_9s() -> None:
    # given: the two decks
    for deck48 in (False, True):
        codes = spec_deck(deck48=deck48)

        # then: 1 = 11, 3 = 10, 12 = 4, 11 = 3, 10 = 2, the rest 0; 120 in all
        assert card_points(mask_of([parse_card(c) for c in codes])) == 120
        for code in codes:
            assert POINTS[parse_card(code)] == points(code)
    by_rank = {rank: POINTS[parse_card(f"{rank}O")] for rank in STRENGTH_ORDER}
    assert by_rank == {1: 11, 3: 10, 12: 4, 11: 3, 10: 2, 9: 0, 8: 0, 7: 0, 6: 0, 5: 0, 4: 0, 2: 0}


def one_trick_pocha(lead: str, answer: str, turned: str, deck48: bool = False) -> State:
    """Two players, one card each: the mano (seat 1) leads ``lead``, the dealer (seat 0) answers."""
    rules = Rules.build("pocha", 2, {"pocha_sequence": [1], "deck48": deck48})
    rest = [c for c in spec_deck(deck48=deck48) if c not in (lead, answer, turned)]
    deck = [lead, answer, turned, *rest]
    state = State.new(rules, dealer=0, decks=(tuple(parse_card(c) for c in deck),))
    return state.apply("bid:0").apply("bid:0").apply(f"play:{lead}").apply(f"play:{answer}")


@pytest.mark.parametrize("deck48", [False, True])
def test_within_a_suit_strength_runs_1_3_12_11_10_9_8_7_6_5_4_2(deck48: bool) -> None:
    ranks = [r for r in STRENGTH_ORDER if deck48 or r not in (8, 9)]
    for high, low in combinations(ranks, 2):  # ranks run strong to weak: high beats low
        for lead, answer in ((f"{high}C", f"{low}C"), (f"{low}C", f"{high}C")):
            # given: a trick of two copas, espadas trump
            # when: it is played out
            state = one_trick_pocha(lead, answer, "4E", deck48)

            # then: the stronger copa wins it (seat 1 led, seat 0 answered)
            winner = 1 if lead == f"{high}C" else 0
            assert state.view(None).tricks_won[winner] == 1, (lead, answer)


def test_any_trump_beats_any_card_of_the_led_suit() -> None:
    # given: the ace of copas led, the 2 of espadas (trump) played on it
    state = one_trick_pocha("1C", "2E", "4E")

    # then: the trump wins the trick
    assert state.view(None).tricks_won == (1, 0)
    assert state.view(None).tricks[0].winner == 0


def test_a_card_of_another_suit_never_wins_the_trick() -> None:
    # given: the 2 of copas led, the ace of bastos (not trump) played on it
    state = one_trick_pocha("2C", "1B", "4E")

    # then: the led card wins
    assert state.view(None).tricks[0].winner == 1


@given(st.integers(min_value=0, max_value=ALL_CARDS_MASK))
def test_the_cards_of_a_mask_are_its_set_bits_lowest_first(mask: int) -> None:
    # when: a hand mask is listed as cards
    cards = cards_of(mask)

    # then: the cards are exactly the mask's bits, in ascending index order
    assert cards == [c for c in range(48) if (mask >> c) & 1]
    assert mask_of(cards) == mask
