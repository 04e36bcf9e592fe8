"""DealSampler (issue 19): every sampled deal is consistent with the seat's view, and the hand's public
actions replay legally under it."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Rules, State
from games.engine.actions import ACTION_OF_CODE
from games.engine.cards import INDEX_OF_CODE
from games.engine.sampling import DealSampler, rules_of
from games.engine.table import Table
from games.engine.tricks import beats

from .test_properties import games


def _mask(codes: tuple[str, ...]) -> int:
    m = 0
    for code in codes:
        m |= 1 << INDEX_OF_CODE[code]
    return m


def _check_sample(state: State, seat: int, table: Table) -> None:
    view = state.view(seat)
    real = state.table
    # the seat's own cards and everything public are the view's
    assert table.hands[seat] == _mask(view.hand)
    assert [h.bit_count() for h in table.hands] == list(view.hand_sizes)
    for other, known in enumerate(view.known):
        assert _mask(known) & ~table.hands[other] == 0
    assert table.trick == real.trick and table.log == real.log
    assert table.faceup == real.faceup and table.stock_size == real.stock_size
    assert table.points == real.points and table.cantes == real.cantes and table.bids == real.bids
    assert table.phase == real.phase and table.to_act == real.to_act
    # no card twice, and exactly the game's cards
    placed = sum(table.hands) | sum(1 << c for c in table.stock[table.stock_pos :])
    assert sum(h.bit_count() for h in table.hands) + table.stock_size == placed.bit_count()
    # the seat's own legal cards are the real ones
    assert table.play_mask_for(seat, table.hands[seat]) == real.play_mask_for(seat, real.hands[seat])


def _replays(view_actions: tuple[str, ...], table: Table, sampler: DealSampler) -> None:
    """The hand's actions replay legally on a fresh deal of the sampled deck."""
    deck = table.decks[table.hand_no]
    again = sampler.replay(deck)
    assert again is not None
    fresh = Table.new_at_hand(sampler.rules, sampler.first_dealer, table.decks, table.hand_no, table.totals)
    for code in view_actions:
        action = ACTION_OF_CODE[code]
        assert action in fresh.legal_ids()
        fresh.step(action)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games(), picks=st.integers(0, 2**32))
def test_every_sampled_deal_is_consistent_and_replays_legally(
    game: tuple[Rules, int, str, int], picks: int
) -> None:
    rules, dealer, seed, choices = game
    rng = random.Random(choices)
    pick = random.Random(picks)
    state = State.new(rules, dealer=dealer, seed=seed)
    found = tried = 0
    while not state.is_terminal():
        if pick.randrange(3) == 0:
            seat = pick.randrange(rules.players)
            view = state.view(seat)
            assert rules_of(view) == rules
            sampler = DealSampler(view)
            for _ in range(2):
                table = sampler.sample(pick)
                tried += 1
                if table is not None:
                    found += 1
                    _check_sample(state, seat, table)
                    _replays(view.actions, table, sampler)
        state = state.apply(rng.choice(state.legal_actions()))
    # a rare Tute 2 spot defeats the sampler (a fact it does not model, e.g. a 20 sung proving no 40
    # held under forty_before_twenty, rejected by the replay): the bot then plays without search
    assert found >= tried * 0.75


def test_a_void_shown_is_respected() -> None:
    """Tute 4: a seat that did not follow suit is never dealt that suit."""
    rules = Rules.build("tute4")
    rng = random.Random(7)
    for number in range(30):
        state = State.new(rules, dealer=number % 4, seed=f"void:{number}")
        while not state.is_terminal():
            seat = state.current_player()
            assert seat is not None
            view = state.view(seat)
            sampler = DealSampler(view)
            table = sampler.sample(rng)
            assert table is not None
            for trick in view.tricks:
                lead = trick.cards[0][1][-1]
                for who, card in trick.cards[1:]:
                    if card[-1] != lead and who != seat:
                        # it showed out of the led suit: none of the suit now (no draws in Tute 4)
                        suit_cards = [c for c in range(48) if c // 12 == "OCEB".index(lead)]
                        assert not any((table.hands[who] >> c) & 1 for c in suit_cards)
            state = state.apply(rng.choice(state.legal_actions()))


def test_the_view_carries_the_options_and_the_hands_actions() -> None:
    rules = Rules.build("pocha", 3, {"pocha_hook": False})
    state = State.new(rules, dealer=0, seed="x")
    first = state.legal_actions()[0]
    state = state.apply(first)
    view = state.view(0)
    assert view.options["pocha_hook"] is False and view.to_dict()["options"] == rules.to_options()
    assert view.actions == (first,) and view.to_dict()["actions"] == [first]


def test_beats() -> None:
    one_oros, three_oros, two_copas = INDEX_OF_CODE["1O"], INDEX_OF_CODE["3O"], INDEX_OF_CODE["2C"]
    assert beats(one_oros, three_oros, trump=2)
    assert not beats(three_oros, one_oros, trump=2)
    assert beats(two_copas, one_oros, trump=1) and not beats(two_copas, one_oros, trump=3)
