"""Hypothesis invariants over random games of every kind (issue 2)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import IllegalAction, Rules, State, export_record, load_record, replay
from games.engine.actions import CODE_OF_ACTION, NUM_ACTIONS
from games.engine.cards import CODE_OF, INDEX_OF_CODE, POINTS
from games.engine.deal import canonical_deck, seeded_decks
from games.engine.table import Table

CARD_CODES = frozenset(INDEX_OF_CODE)

common_flags: dict[str, Any] = {
    "must_undertrump": st.booleans(),
    "beat_led_suit_even_if_trumped": st.booleans(),
    "deck48": st.booleans(),
}
tute_flags: dict[str, Any] = {
    **common_flags,
    "stock_duty": st.sampled_from(["full", "trump_lead_only", "free"]),
    "partner_exception": st.booleans(),
    "partner_may_sing": st.booleans(),
    "exchange_requires_trick_win": st.booleans(),
    "cante_before_draw": st.booleans(),
    "cantes_in_arrastre": st.booleans(),
    "forty_before_twenty": st.booleans(),
    "tute_declaration": st.sampled_from(["off", "wins_hand"]),
    "last_trick_bonus": st.booleans(),
    "first_lead": st.sampled_from(["two_of_oros", "mano"]),
}
pocha_flags: dict[str, Any] = {
    **common_flags,
    "pocha_sequence": st.sampled_from(["spanish", "up_down", [1, 2, 3], [3, 1, 2]]),
    "pocha_max_cards": st.sampled_from([None, 3, 4]),
    "pocha_hook": st.booleans(),
}


@st.composite
def games(draw: st.DrawFn) -> tuple[Rules, int, str, int]:
    game = draw(st.sampled_from(["tute2", "tute4", "pocha"]))
    if game == "pocha":
        players = draw(st.integers(2, 6))
        options = draw(st.fixed_dictionaries({}, optional=pocha_flags))
    else:
        players = 2 if game == "tute2" else 4
        options = draw(st.fixed_dictionaries({}, optional=tute_flags))
    rules = Rules.build(game, players, options)
    dealer = draw(st.integers(0, players - 1))
    seed = draw(st.text(max_size=12))
    choices = draw(st.integers(0, 2**32))
    return rules, dealer, seed, choices


def play(rules: Rules, dealer: int, seed: str, choices: int) -> list[State]:
    """Every state of a game played with uniformly random legal actions."""
    rng = random.Random(choices)
    state = State.new(rules, dealer=dealer, seed=seed)
    states = [state]
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, "a legal action exists until the end"
        state = state.apply(rng.choice(legal))
        states.append(state)
    return states


def snapshot(state: State) -> tuple[object, ...]:
    return tuple(getattr(state.table, name) for name in Table.__slots__)


PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(games())
def test_every_dealt_card_is_played_once_and_points_add_up(game: tuple[Rules, int, str, int]) -> None:
    rules, dealer, seed, choices = game
    states = play(rules, dealer, seed, choices)
    final = states[-1]
    decks = seeded_decks(rules, seed)
    plays_per_hand: dict[int, list[str]] = {}
    for before, code in zip(states, final.history(), strict=False):
        if code.startswith("play:"):
            plays_per_hand.setdefault(before.table.hand_no, []).append(code[5:])
    result = final.result()
    assert result is not None
    sizes = rules.hand_sizes()
    for hand, played in plays_per_hand.items():
        assert len(played) == len(set(played)), "a card is played at most once"
        in_play = len(decks[hand]) if rules.has_stock else rules.players * sizes[hand]
        dealt = {CODE_OF[c] for c in decks[hand][:in_play]}
        assert set(played) <= dealt
    if rules.is_tute and result.details["tute"] is None:
        played = plays_per_hand[0]
        assert sorted(played) == sorted(CODE_OF[c] for c in decks[0]), "every card is played"
        tricks = len(played) // rules.players
        assert tricks == (24 if rules.deck48 else 20) if rules.game == "tute2" else 12 if rules.deck48 else 10
        bonus = 10 if rules.last_trick_bonus else 0
        assert sum(result.details["points"]) == 120
        assert sum(result.scores) == 120 + bonus + sum(result.details["cantes"])
    if rules.game == "pocha":
        assert len(result.details["hands"]) == len(sizes)
        for hand, summary in enumerate(result.details["hands"]):
            assert sum(summary["tricks"]) == sizes[hand]
            assert len(plays_per_hand[hand]) == rules.players * sizes[hand]
        assert list(result.scores) == [
            sum(h["scores"][s] for h in result.details["hands"]) for s in range(rules.players)
        ]


@PROPERTY
@given(games(), st.randoms(use_true_random=False))
def test_an_illegal_action_raises_and_changes_nothing(
    game: tuple[Rules, int, str, int], rng: random.Random
) -> None:
    rules, dealer, seed, choices = game
    states = play(rules, dealer, seed, choices)
    for state in rng.sample(states, min(len(states), 25)):
        before = snapshot(state)
        legal = set(state.legal_actions())
        illegal = [code for code in CODE_OF_ACTION[:NUM_ACTIONS] if code not in legal]
        code = rng.choice(illegal)
        with pytest.raises(IllegalAction) as caught:
            state.apply(code)
        assert caught.value.reason
        assert snapshot(state) == before


def cards_in(value: object) -> set[str]:
    """Every card code among the strings of a view (dict values, list and tuple items, at any depth).

    A loop over one stack, not a recursion of set unions: a late view holds every trick played so far,
    and the property reads a view per seat at every ply."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in CARD_CODES:
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


@PROPERTY
@given(games())
def test_views_hold_nothing_their_seat_may_not_know(game: tuple[Rules, int, str, int]) -> None:
    rules, dealer, seed, choices = game
    states = play(rules, dealer, seed, choices)
    history = states[-1].history()
    public: set[str] = set()  # built from public events only, independently of the engine's bookkeeping
    for index, state in enumerate(states):
        t = state.table
        if index == 0 or t.hand_no != states[index - 1].table.hand_no:
            public.add(CODE_OF[t.trump_card])  # the face-up / turned-up / dealer's shown card
        if t.faceup >= 0:
            public.add(CODE_OF[t.faceup])
        hands = [{CODE_OF[c] for c in range(48) if (h >> c) & 1} for h in t.hands]
        for seat in [None, *range(rules.players)]:
            view = state.view(seat).to_dict()
            own = hands[seat] if seat is not None else set()
            assert set(view["hand"]) == own
            leaked = cards_in(view) - public - own
            assert not leaked, f"seat {seat} sees {leaked} at ply {state.ply}"
            for other, known in enumerate(view["known"]):
                assert set(known) <= hands[other], "known cards are really in that hand"
            assert view["hand_sizes"] == [len(h) for h in hands]
        if index < len(history):
            kind, _, arg = history[index].partition(":")
            if kind == "play":
                public.add(arg)
            elif kind == "exchange":
                public.update({arg, CODE_OF[t.faceup]})
            elif kind == "sing" and arg != "tute":
                public.update({f"12{arg}", f"11{arg}"})


@PROPERTY
@given(games())
def test_a_replayed_record_gives_the_same_states(game: tuple[Rules, int, str, int]) -> None:
    rules, dealer, seed, choices = game
    states = play(rules, dealer, seed, choices)
    for record in (export_record(states[-1], seed=seed), export_record(states[-1])):
        loaded = load_record(record)
        state = loaded.initial_state()
        assert snapshot(state) == snapshot(states[0])
        for code, expected in zip(loaded.actions, states[1:], strict=True):
            state = state.apply(code)
            assert snapshot(state) == snapshot(expected)
        assert snapshot(replay(loaded)) == snapshot(states[-1])


@PROPERTY
@given(games())
def test_the_fast_path_agrees_with_the_state_api(game: tuple[Rules, int, str, int]) -> None:
    rules, dealer, seed, choices = game
    rng = random.Random(choices)
    table = Table.new(rules, dealer, seeded_decks(rules, seed))
    state = State.new(rules, dealer=dealer, seed=seed)
    while not state.is_terminal():
        legal = table.legal_ids()
        assert tuple(sorted(CODE_OF_ACTION[a] for a in legal)) == state.legal_actions()
        action = rng.choice(legal)
        table.step(action)
        state = state.apply(CODE_OF_ACTION[action])
    assert table.phase == state.table.phase
    assert table.result_scores == state.table.result_scores
    assert table.result_winners == state.table.result_winners


@settings(max_examples=200, deadline=None)
@given(
    st.text(max_size=20),
    st.sampled_from([("tute2", 2, False), ("pocha", 3, False), ("pocha", 6, True), ("tute4", 4, True)]),
)
def test_a_seed_gives_the_same_deck_every_time(seed: str, spec: tuple[str, int, bool]) -> None:
    game, players, deck48 = spec
    rules = Rules.build(game, players, {"deck48": deck48})
    first = seeded_decks(rules, seed)
    assert first == seeded_decks(rules, seed)
    for deck in first:
        assert sorted(deck) == sorted(canonical_deck(rules))
    assert sum(POINTS[c] for c in first[0]) == 120
