"""docs/RULES.md section 2: tricks and the legal-move rule, with every flag that changes it.

Most positions are Tute 4 tricks (all 40 cards dealt, no stock, no window before trick 1): dealer 3,
so seat 0 is the mano, leading trick 1 with ``first_lead: mano``; the dealer's last card, the 12 of
bastos, makes bastos trump. The seat whose duty is checked always has its whole hand written out.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from games.engine import IllegalAction, Rules, State
from tests.games.engine.conftest import LONG_STOCK_TRICKS, beats, plays, suit, trick_winner

Deal = Callable[..., State]
Run = Callable[..., State]
Refuse = Callable[..., IllegalAction]

MANO_LEADS = {"first_lead": "mano"}


def tute4(deal: Deal, hands: dict[int, list[str]], void: str = "C", **flags: Any) -> State:
    """A Tute 4 deal, dealer 3, bastos trump (12B, the dealer's last card), the mano (seat 0) to lead.

    Seats 1 and 2, when given fewer than 10 cards, get no more copas (the suit led in these tests).
    """
    voids = {1: void, 2: void}
    return deal("tute4", hands, dealer=3, trump_card="12B", options={**MANO_LEADS, **flags}, void=voids)


# -- rule 1 and the trick winner -----------------------------------------------------------------------


def test_the_leader_may_lead_any_card(deal: Deal) -> None:
    # given: a fresh Tute 4 deal; seat 0 is the mano and leads
    hand = ["1O", "2O", "4C", "5C", "6E", "7E", "10B", "11B", "1B", "3B"]
    state = tute4(deal, {0: hand})

    # then: every card of the hand may lead (rule 1)
    assert state.current_player() == 0
    assert state.legal_actions() == tuple(sorted(f"play:{c}" for c in hand))


def test_play_passes_to_the_next_seat_and_the_trick_winner_leads_the_next_trick(deal: Deal, run: Run) -> None:
    # given: seat 0 leads the 4 of copas; seat 2 will take the trick with the ace
    state = tute4(deal, {0: ["4C"], 1: ["5C"], 2: ["1C"], 3: ["6C"]})

    # when: the trick is played round the table
    seats = []
    for card in ("4C", "5C", "1C", "6C"):
        seats.append(state.current_player())
        state = state.apply(f"play:{card}")

    # then: seats 0, 1, 2, 3 played in turn and seat 2, the winner, leads next
    assert seats == [0, 1, 2, 3]
    assert state.view(None).tricks[0].winner == 2
    assert state.current_player() == 2


# -- rule 2: following the led suit --------------------------------------------------------------------


def test_a_player_of_the_led_suit_must_beat_the_winning_card_when_able(deal: Deal) -> None:
    # given: seat 0 leads the 4 of copas; seat 1 holds the 1, 10 and 2 of copas
    hand = ["1C", "10C", "2C", "1O", "3O", "4O", "5O", "6O", "7O", "10O"]
    state = tute4(deal, {0: ["4C"], 1: hand}).apply("play:4C")

    # then: only the copas stronger than the 4 are legal
    assert state.legal_actions() == ("play:10C", "play:1C")


def test_a_player_who_cannot_beat_plays_any_card_of_the_led_suit(deal: Deal) -> None:
    # given: the ace of copas is led; seat 1 holds two low copas and trumps
    hand = ["2C", "4C", "1B", "3B", "2B", "1O", "3O", "4O", "5O", "6O"]
    state = tute4(deal, {0: ["1C"], 1: hand}).apply("play:1C")

    # then: any of its copas, but no trump
    assert state.legal_actions() == ("play:2C", "play:4C")


def test_the_card_to_beat_is_the_one_winning_the_trick_not_the_lead(deal: Deal, run: Run) -> None:
    # given: 4C led, 12C played on it; seat 2 holds the 3, 10 and 5 of copas
    hand = ["3C", "10C", "5C", "1O", "3O", "4O", "5O", "6O", "7O", "10O"]
    state = run(tute4(deal, {0: ["4C"], 1: ["12C"], 2: hand}), "play:4C", "play:12C")

    # then: only the 3 beats the 12
    assert state.legal_actions() == ("play:3C",)


def test_on_a_trump_lead_a_higher_trump_must_be_played_when_able(deal: Deal) -> None:
    # given: seat 0 leads the 10 of bastos (trump); seat 1 holds the 4 and 11 of bastos
    hand = ["4B", "11B", "1C", "3C", "1O", "3O", "4O", "5O", "6O", "7O"]
    state = tute4(deal, {0: ["10B"], 1: hand}).apply("play:10B")

    # then: the 11 only
    assert state.legal_actions() == ("play:11B",)


def test_in_a_trumped_trick_any_card_of_the_led_suit_may_be_played(deal: Deal, run: Run) -> None:
    # given: 4C led and trumped by seat 1; seat 2 holds the 2 and the ace of copas, and trumps
    hand = ["2C", "1C", "1B", "3B", "1O", "3O", "4O", "5O", "6O", "7O"]
    state = run(tute4(deal, {0: ["4C"], 1: ["2B", "1E"], 2: hand}), "play:4C", "play:2B")

    # then: it must follow copas, with either card: no duty to beat the 4, nor to overtrump
    assert state.legal_actions() == ("play:1C", "play:2C")


def test_beat_led_suit_even_if_trumped_asks_for_a_copa_above_the_best_copa(deal: Deal, run: Run) -> None:
    # given: 4C led, 5C on it, then trumped; seat 3 holds the 2, 6 and ace of copas
    hand = ["2C", "6C", "1C", "3B", "1O", "3O", "4O", "5O", "6O", "12B"]
    hands = {0: ["4C"], 1: ["5C"], 2: ["2B"], 3: hand}
    state = run(tute4(deal, hands, beat_led_suit_even_if_trumped=True), "play:4C", "play:5C", "play:2B")

    # then: the copas stronger than the 5 (the strongest copa in the trick)
    assert state.legal_actions() == ("play:1C", "play:6C")


def test_beat_led_suit_even_if_trumped_allows_any_copa_when_none_is_higher(deal: Deal, run: Run) -> None:
    # given: the ace of copas led and trumped; seat 2 holds only low copas
    hand = ["2C", "4C", "3B", "1O", "3O", "4O", "5O", "6O", "7O", "10O"]
    state = run(
        tute4(deal, {0: ["1C"], 1: ["2B", "1E"], 2: hand}, beat_led_suit_even_if_trumped=True),
        "play:1C",
        "play:2B",
    )

    # then: any of them
    assert state.legal_actions() == ("play:2C", "play:4C")


# -- rule 3: no card of the led suit ---------------------------------------------------------------------


def test_without_the_led_suit_or_trumps_any_card_may_be_played(deal: Deal) -> None:
    # given: 4C led; seat 1 has neither copas nor bastos
    hand = ["1O", "2O", "3O", "4O", "5O", "1E", "2E", "3E", "4E", "5E"]
    state = tute4(deal, {0: ["4C"], 1: hand}).apply("play:4C")

    # then: its whole hand
    assert state.legal_actions() == tuple(sorted(f"play:{c}" for c in hand))


def test_without_the_led_suit_a_player_must_trump_with_any_trump(deal: Deal) -> None:
    # given: the ace of copas led (not trumped); seat 1 holds the 2 and ace of bastos, no copas
    hand = ["2B", "1B", "1O", "2O", "3O", "4O", "5O", "1E", "2E", "3E"]
    state = tute4(deal, {0: ["1C"], 1: hand}).apply("play:1C")

    # then: either trump, the low one too
    assert state.legal_actions() == ("play:1B", "play:2B")


def test_over_a_trump_a_player_without_the_led_suit_must_overtrump_when_able(deal: Deal, run: Run) -> None:
    # given: 4C led, trumped with the 10 of bastos; seat 2 has no copas and the 2, 11 and ace of bastos
    hand = ["2B", "11B", "1B", "1O", "2O", "3O", "4O", "5O", "1E", "2E"]
    state = run(tute4(deal, {0: ["4C"], 1: ["10B"], 2: hand}), "play:4C", "play:10B")

    # then: the trumps above the 10
    assert state.legal_actions() == ("play:11B", "play:1B")


def test_unable_to_overtrump_a_player_may_play_any_card(deal: Deal, run: Run) -> None:
    # given: 4C led, trumped with the ace; seat 2 has no copas and only the 2 of bastos as trump
    hand = ["2B", "1O", "2O", "3O", "4O", "5O", "1E", "2E", "3E", "4E"]
    state = run(tute4(deal, {0: ["4C"], 1: ["1B"], 2: hand}), "play:4C", "play:1B")

    # then: anything, the trump included (no duty to undertrump)
    assert state.legal_actions() == tuple(sorted(f"play:{c}" for c in hand))


def test_must_undertrump_obliges_a_trump_when_unable_to_overtrump(deal: Deal, run: Run) -> None:
    # given: the same trick with must_undertrump
    hand = ["2B", "1O", "2O", "3O", "4O", "5O", "1E", "2E", "3E", "4E"]
    state = run(tute4(deal, {0: ["4C"], 1: ["1B"], 2: hand}, must_undertrump=True), "play:4C", "play:1B")

    # then: the 2 of bastos only
    assert state.legal_actions() == ("play:2B",)


def test_must_undertrump_still_lets_a_player_without_trumps_play_anything(deal: Deal, run: Run) -> None:
    # given: a trumped trick, must_undertrump, and seat 2 with neither copas nor trumps
    hand = ["1O", "2O", "3O", "4O", "5O", "1E", "2E", "3E", "4E", "5E"]
    state = run(tute4(deal, {0: ["4C"], 1: ["1B"], 2: hand}, must_undertrump=True), "play:4C", "play:1B")

    # then: anything
    assert len(state.legal_actions()) == 10


# -- rule 4: partners ------------------------------------------------------------------------------------


def test_by_default_a_player_must_beat_even_its_partners_winning_card(deal: Deal, run: Run) -> None:
    # given: seat 0 leads the 10 of copas, seat 1 plays the 2; seat 2 (seat 0's partner) holds 1C and 4C
    hand = ["1C", "4C", "1B", "1O", "2O", "3O", "4O", "5O", "1E", "2E"]
    state = run(tute4(deal, {0: ["10C"], 1: ["2C"], 2: hand}), "play:10C", "play:2C")

    # then: the ace, which beats the partner's card (docs/RULES.md 5.4)
    assert state.legal_actions() == ("play:1C",)


def test_by_default_a_player_must_trump_its_partners_winning_card(deal: Deal, run: Run) -> None:
    # given: the partner's 10 of copas wins; seat 2 has no copas and holds trumps
    hand = ["1B", "2B", "1O", "2O", "3O", "4O", "5O", "1E", "2E", "3E"]
    state = run(tute4(deal, {0: ["10C"], 1: ["2C"], 2: hand}), "play:10C", "play:2C")

    # then: it must trump
    assert state.legal_actions() == ("play:1B", "play:2B")


def test_partner_exception_only_asks_to_follow_while_the_partner_wins(deal: Deal, run: Run) -> None:
    # given: partner_exception; the partner's 10 of copas is winning; seat 2 holds 1C and 4C
    hand = ["1C", "4C", "1B", "1O", "2O", "3O", "4O", "5O", "1E", "2E"]
    state = run(tute4(deal, {0: ["10C"], 1: ["2C"], 2: hand}, partner_exception=True), "play:10C", "play:2C")

    # then: either copa, no duty to beat the partner
    assert state.legal_actions() == ("play:1C", "play:4C")


def test_partner_exception_frees_a_player_without_the_led_suit_from_trumping(deal: Deal, run: Run) -> None:
    # given: partner_exception; the partner's card wins; seat 2 has no copas and holds trumps
    hand = ["1B", "2B", "1O", "2O", "3O", "4O", "5O", "1E", "2E", "3E"]
    state = run(tute4(deal, {0: ["10C"], 1: ["2C"], 2: hand}, partner_exception=True), "play:10C", "play:2C")

    # then: any card
    assert state.legal_actions() == tuple(sorted(f"play:{c}" for c in hand))


def test_partner_exception_applies_to_a_partners_winning_trump(deal: Deal, run: Run) -> None:
    # given: partner_exception; 4C led, trumped by seat 1 with the 3 of bastos, followed by seat 2;
    # seat 3, seat 1's partner, has no copas and holds higher trumps
    seat1 = ["3B", "6O", "7O", "10O", "11O", "12O", "6E", "7E", "10E", "11E"]
    hand = ["1B", "1O", "2O", "3O", "4O", "5O", "1E", "2E", "3E", "12B"]
    hands = {0: ["4C"], 1: seat1, 2: ["5C"], 3: hand}
    with_exception = run(tute4(deal, hands, partner_exception=True), "play:4C", "play:3B", "play:5C")
    without = run(tute4(deal, hands), "play:4C", "play:3B", "play:5C")

    # then: with the flag it need not overtrump its partner; without it, it must (the ace: 12 < 3)
    assert with_exception.legal_actions() == tuple(sorted(f"play:{c}" for c in hand))
    assert without.legal_actions() == ("play:1B",)


def test_partner_exception_gives_no_relief_when_an_opponent_wins(deal: Deal, run: Run) -> None:
    # given: partner_exception; seat 0 leads 4C, seat 1 (an opponent of seat 2) wins with the 10
    hand = ["1C", "5C", "1B", "1O", "2O", "3O", "4O", "5O", "1E", "2E"]
    state = run(tute4(deal, {0: ["4C"], 1: ["10C"], 2: hand}, partner_exception=True), "play:4C", "play:10C")

    # then: seat 2 must still beat the 10
    assert state.legal_actions() == ("play:1C",)


def test_partner_exception_has_no_effect_in_pocha_where_there_are_no_partners(deal: Deal, run: Run) -> None:
    # given: Pocha for 4 with partner_exception set; seat 0 leads 10C, seat 1 plays 2C; seat 2 holds 1C, 4C
    hand = ["1C", "4C", "1B", "1O", "2O", "3O", "4O", "5O", "1E", "2E"]
    state = deal(
        "pocha",
        {0: ["10C"], 1: ["2C"], 2: hand},
        dealer=3,
        trump_card="12B",
        options={"pocha_sequence": [10], "partner_exception": True},
        void={1: "C"},
    )
    state = run(state, "bid:0", "bid:0", "bid:0", "bid:0", "play:10C", "play:2C")

    # then: section 2 without rule 4: seat 2 must beat the 10
    assert state.legal_actions() == ("play:1C",)


# -- rule 5: Tute 2 while the stock has cards -----------------------------------------------------------

# Dealer 1, mano 0, oros trump (face-up 4O). Seat 1 holds copas and trumps.
SEAT1 = ["1C", "2C", "2O", "12O", "1E", "2E", "3E", "4E"]


def tute2(deal: Deal, lead: str, stock_duty: str | None = None) -> State:
    options = {"stock_duty": stock_duty} if stock_duty else {}
    state = deal("tute2", {0: [lead], 1: SEAT1}, dealer=1, trump_card="4O", options=options)
    return state.apply(f"play:{lead}")


def test_stock_duty_full_applies_the_duties_while_the_stock_has_cards(deal: Deal) -> None:
    # given: the default stock_duty (full); the mano leads the 4 of copas, then the 5 of bastos
    on_copas = tute2(deal, "4C")
    on_bastos = tute2(deal, "5B")
    on_trump = tute2(deal, "10O")

    # then: follow and beat; trump when void; beat a trump lead
    assert on_copas.legal_actions() == ("play:1C",)
    assert on_bastos.legal_actions() == ("play:12O", "play:2O")
    assert on_trump.legal_actions() == ("play:12O",)
    assert on_copas.view(None).stock_size == 23


def test_stock_duty_trump_lead_only_frees_the_answer_to_a_plain_lead(deal: Deal) -> None:
    # given: stock_duty trump_lead_only; the mano leads a copa, then (another deal) a trump
    on_copas = tute2(deal, "4C", "trump_lead_only")
    on_trump = tute2(deal, "10O", "trump_lead_only")

    # then: any card on the copa; the duties on the trump lead
    assert on_copas.legal_actions() == tuple(sorted(f"play:{c}" for c in SEAT1))
    assert on_trump.legal_actions() == ("play:12O",)


def test_stock_duty_free_allows_any_card_while_the_stock_has_cards(deal: Deal) -> None:
    # given: stock_duty free
    for lead in ("4C", "5B", "10O"):
        state = tute2(deal, lead, "free")

        # then: any card, on any lead
        assert state.legal_actions() == tuple(sorted(f"play:{c}" for c in SEAT1))


@pytest.mark.parametrize("stock_duty", ["full", "trump_lead_only", "free"])
def test_once_the_stock_is_empty_the_duties_apply_whatever_stock_duty_says(
    long_hand: Callable[..., State], stock_phase: Callable[..., State], stock_duty: str
) -> None:
    # given: the long hand after trick 12 (seat 1 drew the face-up 5 of oros: its one trump)
    state = stock_phase(long_hand({"stock_duty": stock_duty}))
    assert state.view(None).stock_size == 0
    assert state.view(None).faceup is None

    # when: seat 0 leads the ace of copas, a suit seat 1 lacks
    state = state.apply("play:1C")

    # then: seat 1 must trump
    assert state.legal_actions() == ("play:5O",)


def test_stock_duty_still_applies_on_trick_12_whose_draw_empties_the_stock(
    long_hand: Callable[..., State], stock_phase: Callable[..., State]
) -> None:
    # given: the long hand with stock_duty free, before trick 12: one stock card and the face-up card left
    state = stock_phase(long_hand({"stock_duty": "free"}), 11)
    assert state.view(None).stock_size == 1
    lead, answer = LONG_STOCK_TRICKS[11]

    # when: seat 0 leads trick 12
    state = state.apply(f"play:{lead}")

    # then: seat 1 may still play anything
    assert len(state.legal_actions()) == 8
    assert f"play:{answer}" in state.legal_actions()


# -- refusals -----------------------------------------------------------------------------------------------


def test_a_card_that_breaks_a_duty_is_refused_with_the_duty_and_nothing_changes(
    deal: Deal, refuse: Refuse
) -> None:
    # given: seat 1 must beat the 4 of copas
    hand = ["1C", "10C", "2C", "1O", "3O", "4O", "5O", "6O", "7O", "10O"]
    state = tute4(deal, {0: ["4C"], 1: hand}).apply("play:4C")

    # when / then: the 2 of copas and the ace of oros are refused, saying why
    refuse(state, "play:2C", "beat")
    refuse(state, "play:1O", "copas")


def test_a_card_not_in_hand_is_refused(deal: Deal, refuse: Refuse) -> None:
    # given: the mano to lead
    state = tute4(deal, {0: ["1O", "2O", "3O", "4O", "5O", "6O", "7O", "10O", "11O", "12O"]}, void="")

    # when / then: a card of another seat cannot be played
    error = refuse(state, "play:1C", "not in seat 0's hand")
    assert error.action == "play:1C"


@pytest.mark.parametrize("code", ["play:13O", "play", "jump:1O", "bid:x", "", "sing:X"])
def test_a_malformed_action_code_is_refused(deal: Deal, refuse: Refuse, code: str) -> None:
    # given: any position
    state = tute4(deal, {})

    # when / then: IllegalAction, with a reason
    refuse(state, code)


# -- a second reading of section 2, checked against the engine over whole random games -----------------------


def spec_legal(state: State) -> set[str]:
    """The cards docs/RULES.md section 2 lets the seat to act play, computed from its view alone."""
    rules = state.rules
    seat = state.current_player()
    assert seat is not None
    view = state.view(seat)
    hand, trick, trump = list(view.hand), list(view.trick), view.trump
    if not trick:
        return set(hand)  # rule 1
    led = suit(trick[0][1])
    stock_rule = rules.game == "tute2" and view.stock_size > 0  # rule 5: "while the stock has cards"
    if stock_rule and (
        rules.stock_duty == "free" or (rules.stock_duty == "trump_lead_only" and led != trump)
    ):
        return set(hand)
    w_seat, w = trick[trick_winner([card for _, card in trick], trump)]
    follow = [c for c in hand if suit(c) == led]
    if rules.partner_exception and rules.game == "tute4" and w_seat == (seat + 2) % 4:
        return set(follow or hand)  # rule 4
    if follow:  # rule 2
        if suit(w) == led:
            return set([c for c in follow if beats(c, w)] or follow)
        if rules.beat_led_suit_even_if_trumped:
            led_cards = [card for _, card in trick if suit(card) == led]
            best = led_cards[trick_winner(led_cards, trump)]
            return set([c for c in follow if beats(c, best)] or follow)
        return set(follow)
    trumps = [c for c in hand if suit(c) == trump]  # rule 3
    if not trumps:
        return set(hand)
    if suit(w) != trump:
        return set(trumps)
    over = [c for c in trumps if beats(c, w)]
    if over:
        return set(over)
    return set(trumps) if rules.must_undertrump else set(hand)


FLAG_SETS: list[tuple[str, int, dict[str, Any]]] = [
    ("tute2", 2, {}),
    ("tute2", 2, {"stock_duty": "trump_lead_only", "must_undertrump": True}),
    ("tute2", 2, {"stock_duty": "free", "beat_led_suit_even_if_trumped": True, "deck48": True}),
    ("tute4", 4, {}),
    ("tute4", 4, {"partner_exception": True, "must_undertrump": True}),
    (
        "tute4",
        4,
        {"partner_exception": True, "beat_led_suit_even_if_trumped": True, "partner_may_sing": True},
    ),
    ("pocha", 4, {"pocha_sequence": "up_down", "partner_exception": True}),
    ("pocha", 3, {"pocha_sequence": [12, 5], "must_undertrump": True, "beat_led_suit_even_if_trumped": True}),
    ("pocha", 6, {"pocha_sequence": [6, 6], "deck48": True}),
]


@pytest.mark.parametrize(("game", "players", "options"), FLAG_SETS)
@pytest.mark.parametrize("seed", ["1", "2", "3"])
def test_the_engine_agrees_with_a_second_reading_of_section_2(
    game: str, players: int, options: dict[str, Any], seed: str
) -> None:
    # given: a seeded game, played with random legal actions (swaps, cantes and bids included)
    rng = random.Random(seed)
    state = State.new(Rules.build(game, players, options), dealer=int(seed) % players, seed=seed)
    checked = 0

    # then: at every card play, the engine's legal cards are section 2's
    while not state.is_terminal():
        if state.view(None).phase == "play":
            assert set(plays(state)) == spec_legal(state), state.view(state.current_player()).to_dict()
            checked += 1
        state = state.apply(rng.choice(state.legal_actions()))
    assert checked > 0
