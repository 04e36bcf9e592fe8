"""The rule bot in hand-built positions: it sings, swaps, meets its duties cheaply, helps its partner,
bids from its hand and plays Pocha to its bid. Seat 0 deals, so seat 1 is the mano."""

import random
from collections.abc import Callable

import pytest

from games.bots import get_bot
from games.bots.arena import seat_rngs
from games.engine import Rules, State

Deal = Callable[..., State]  # the ``deal`` fixture of conftest.py

rule = get_bot("rule")


def act(state: State) -> str:
    """The rule bot's choice for the seat to act, from that seat's view."""
    seat = state.current_player()
    assert seat is not None
    return rule(state.view(seat), state.legal_actions(), random.Random(0))


def play(state: State, *codes: str) -> State:
    for code in codes:
        state = state.apply(code)
    return state


# -- cantes and swaps -----------------------------------------------------------------------------


def test_it_sings_the_forty_before_the_twenty(deal: Deal) -> None:
    # given: the mano holds the 12 and 11 of oros (trumps) and of copas, and wins trick 1 with the 1E
    state = deal(
        "tute2",
        {
            1: ["12O", "11O", "12C", "11C", "1E", "3E", "4B", "5B"],
            0: ["2E", "4C", "5C", "6C", "7C", "10C", "6B", "7B"],
        },
        after=["4O"],
    )
    state = play(state, "play:1E", "play:2E")
    assert {"sing:O", "sing:C"} <= set(state.legal_actions())

    # when / then: it sings the 40 first, the 20 after its next trick won
    assert act(state) == "sing:O"


def test_it_sings_the_twenty_when_that_is_the_pair_it_holds(deal: Deal) -> None:
    state = deal(
        "tute2",
        {
            1: ["12C", "11C", "1E", "3E", "4B", "5B", "6B", "7B"],
            0: ["2E", "4C", "5C", "6C", "7C", "10C", "1B", "3B"],
        },
        after=["4O"],
    )
    state = play(state, "play:1E", "play:2E")
    assert act(state) == "sing:C"


def test_it_swaps_the_seven_for_a_stronger_face_up_trump(deal: Deal) -> None:
    # given: the mano holds the 7 of oros and the face-up card is the ace of oros
    state = deal("tute2", {1: ["7O", "1E", "3E", "4B", "5B", "6B", "7B", "10B"]}, after=["1O"])
    assert "exchange:7O" in state.legal_actions()

    # then: it takes the ace before leading
    assert act(state) == "exchange:7O"


def test_it_swaps_the_two_for_a_face_up_six(deal: Deal) -> None:
    state = deal("tute2", {1: ["2O", "1E", "3E", "4B", "5B", "6B", "7B", "10B"]}, after=["6O"])
    assert act(state) == "exchange:2O"


def test_it_swaps_then_sings_the_forty_the_swap_made(deal: Deal) -> None:
    # given: the mano holds the 12 and the 7 of oros; the face-up card is the 11 of oros
    state = deal(
        "tute2",
        {
            1: ["12O", "7O", "1E", "3E", "4B", "5B", "6B", "7B"],
            0: ["2E", "4C", "5C", "6C", "7C", "10C", "1B", "3B"],
        },
        after=["11O"],
    )

    # when: it swaps, leads the ace of espadas and wins the trick
    assert act(state) == "exchange:7O"
    state = play(state, "exchange:7O", "play:1E", "play:2E")

    # then: it sings the 40
    assert act(state) == "sing:O"


def test_it_declares_tute_when_the_flag_allows_it(deal: Deal) -> None:
    state = deal(
        "tute2",
        {
            1: ["12O", "12C", "12E", "12B", "1E", "3B", "4B", "5B"],
            0: ["2E", "4C", "5C", "6C", "7C", "10C", "1B", "6B"],
        },
        after=["4O"],
        options={"tute_declaration": "wins_hand"},
    )
    state = play(state, "play:1E", "play:2E")
    assert "sing:tute" in state.legal_actions()
    assert act(state) == "sing:tute"


def test_a_partner_sings_its_pair_when_partner_may_sing(deal: Deal) -> None:
    # given: Tute 4, the mano leads; its partner (seat 3) holds the 12 and 11 of copas
    state = deal(
        "tute4",
        {
            1: ["1E", "3O", "4O", "5O", "6O", "7O", "10O", "11O", "12O", "1O"],
            2: ["2E", "2O", "2C", "3C", "4C", "5C", "6C", "7C", "10C", "1C"],
            3: ["12C", "11C", "4E", "2B", "3B", "4B", "5B", "6B", "7B", "10B"],
            0: ["5E", "3E", "6E", "7E", "10E", "11E", "12E", "11B", "12B", "1B"],
        },
        options={"partner_may_sing": True, "first_lead": "mano"},
    )

    # when: the mano wins trick 1 with the ace of espadas
    state = play(state, "play:1E", "play:2E", "play:4E", "play:5E")
    assert state.view(None).phase == "partner_sing"
    assert state.current_player() == 3

    # then: the partner sings rather than passes
    assert act(state) == "sing:C"


def test_it_always_takes_a_swap_or_a_cante_it_is_offered() -> None:
    offered = 0
    for options in ({}, {"forty_before_twenty": True, "cante_before_draw": True}):
        for game in ("tute2", "tute4"):
            rules = Rules.build(game, options={**options, "partner_may_sing": game == "tute4"})
            for seed in range(12):
                state = State.new(rules, dealer=seed % rules.players, seed=f"offers:{seed}")
                rngs = seat_rngs(seed, rules.players)
                while not state.is_terminal():
                    legal = state.legal_actions()
                    action = act(state)
                    swaps = [code for code in legal if code.startswith("exchange:")]
                    sings = [code for code in legal if code.startswith("sing:")]
                    if swaps:
                        offered += 1
                        assert action in swaps
                    elif sings:
                        offered += 1
                        assert action.startswith("sing:")
                        forty = f"sing:{state.view(None).trump}"
                        if forty in sings:
                            assert action == forty
                    seat = state.current_player()
                    assert seat is not None
                    # the other seats play at random, so positions vary
                    state = state.apply(action if seat % 2 == 0 else rngs[seat].choice(legal))
    assert offered > 30


# -- Tute card play -------------------------------------------------------------------------------


def test_it_follows_with_its_cheapest_card_when_it_cannot_win(deal: Deal) -> None:
    # given: the mano leads the ace of copas; the dealer holds the 4 and the 12 of copas
    state = deal(
        "tute2",
        {
            1: ["1C", "3E", "4E", "5E", "6E", "7E", "10E", "11E"],
            0: ["4C", "12C", "1B", "3B", "4B", "5B", "6B", "7B"],
        },
        after=["4O"],
    )
    state = play(state, "play:1C")
    assert set(state.legal_actions()) == {"play:4C", "play:12C"}

    # then: it keeps the 12 and gives the 4
    assert act(state) == "play:4C"


def test_it_takes_a_valuable_trick_with_its_cheapest_trump(deal: Deal) -> None:
    # given: the mano leads the 3 of copas; the dealer has no copas and must trump (oros)
    state = deal(
        "tute2",
        {
            1: ["3C", "3E", "4E", "5E", "6E", "7E", "10E", "11E"],
            0: ["4O", "12O", "1O", "1B", "3B", "4B", "5B", "6B"],
        },
        after=["5O"],
    )
    state = play(state, "play:3C")
    assert set(state.legal_actions()) == {"play:4O", "play:12O", "play:1O"}

    # then: the 4 of trumps does it
    assert act(state) == "play:4O"


def test_it_keeps_its_trumps_off_a_worthless_trick_when_free_to(deal: Deal) -> None:
    # given: the stock duty is off; the dealer has no copas, some trumps and low espadas/bastos
    hands = {
        1: ["4C", "1C", "4E", "5E", "6E", "7E", "10E", "11E"],
        0: ["3O", "5O", "2E", "1B", "3B", "4B", "5B", "6B"],
    }
    state = deal("tute2", hands, after=["6O"], options={"stock_duty": "free"})

    # when: the mano leads the 4 of copas, then (another deal) the ace of copas
    low = act(play(state, "play:4C"))
    ace = act(play(state, "play:1C"))

    # then: it throws a low card on the 4, and trumps the ace with its cheaper trump
    assert low == "play:2E"
    assert ace == "play:5O"


def test_it_loads_points_on_its_partners_sure_trick(deal: Deal) -> None:
    # given: Tute 4 with partner_exception; seat 1 leads the 4 of bastos, the rule bot's partner (seat 2)
    # plays the ace, seat 3 the 5; the rule bot (seat 0, the dealer, last to play) has no bastos and no
    # pair to sing (winning the trick itself would be worth a cante)
    state = deal(
        "tute4",
        {
            1: ["4B", "1O", "3O", "4O", "5O", "6O", "7O", "10O", "11O", "12O"],
            2: ["1B", "2O", "1C", "3C", "4C", "5C", "6C", "7C", "10C", "11C"],
            3: ["5B", "2B", "3B", "6B", "7B", "10B", "11B", "12B", "1E", "11E"],
            0: ["3E", "2E", "4E", "5E", "6E", "7E", "10E", "12C", "12E", "2C"],
        },
        options={"partner_exception": True, "first_lead": "mano"},
    )
    state = play(state, "play:4B", "play:1B", "play:5B")

    # then: the partner's trick is sure, so it gets the 3 of espadas (10 points), not a trump
    assert act(state) == "play:3E"


def test_it_does_not_spend_its_ace_over_its_partners_sure_trick(deal: Deal) -> None:
    # given: as above, but the partner wins with the 3 of bastos and the rule bot holds the ace and the 6
    state = deal(
        "tute4",
        {
            1: ["4B", "1O", "3O", "4O", "5O", "6O", "7O", "10O", "11O", "12O"],
            2: ["3B", "2O", "1C", "3C", "4C", "5C", "6C", "7C", "10C", "11C"],
            3: ["5B", "2B", "7B", "10B", "11B", "12B", "1E", "3E", "11E", "2E"],
            0: ["1B", "6B", "4E", "5E", "6E", "7E", "10E", "12C", "12E", "2C"],
        },
        options={"partner_exception": True, "first_lead": "mano"},
    )
    state = play(state, "play:4B", "play:3B", "play:5B")
    assert set(state.legal_actions()) == {"play:1B", "play:6B"}

    # then: the ace stays in hand for a trick of its own
    assert act(state) == "play:6B"


# -- Pocha ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "low", "high"),
    [
        (["1O", "3O", "12O", "1C", "1E"], 4, 5),  # three top trumps and two side aces
        (["2C", "4C", "2E", "4B", "5B"], 0, 0),  # nothing
        (["1O", "4C", "5C", "2E", "4B"], 1, 1),  # the ace of trumps
    ],
)
def test_it_bids_the_tricks_its_hand_should_take(deal: Deal, hand: list[str], low: int, high: int) -> None:
    # given: a hand of five cards, oros turned up as trump; the rule bot is the mano and bids first
    state = deal("pocha", {1: hand}, after=["7O"], options={"pocha_sequence": [5]})
    assert state.current_player() == 1

    # then: its bid matches the hand
    bid = int(act(state).removeprefix("bid:"))
    assert low <= bid <= high


def pocha_trick(deal: Deal, bid: int, rule_hand: list[str]) -> State:
    """Two-card Pocha: seats 1, 2, 3 bid 0 and play copas below the 5; the rule bot (seat 0) bid ``bid``."""
    state = deal(
        "pocha",
        {1: ["5C", "6E"], 2: ["4C", "4E"], 3: ["2C", "5E"], 0: rule_hand},
        after=["7O"],
        options={"pocha_sequence": [2], "pocha_hook": False},
    )
    return play(state, "bid:0", "bid:0", "bid:0", f"bid:{bid}", "play:5C", "play:4C", "play:2C")


def test_pocha_it_wins_with_the_small_card_while_it_needs_both_tricks(deal: Deal) -> None:
    assert act(pocha_trick(deal, 2, ["1C", "6C"])) == "play:6C"


def test_pocha_it_takes_its_one_trick_with_the_ace_and_keeps_the_loser(deal: Deal) -> None:
    assert act(pocha_trick(deal, 1, ["1C", "6C"])) == "play:1C"


def test_pocha_it_sheds_its_ace_once_it_has_enough(deal: Deal) -> None:
    # given: it bid 0 and cannot follow copas: any card loses this trick
    assert act(pocha_trick(deal, 0, ["1E", "2E"])) == "play:1E"


def test_pocha_it_keeps_its_ace_while_short_of_its_bid(deal: Deal) -> None:
    assert act(pocha_trick(deal, 1, ["1E", "2E"])) == "play:2E"
