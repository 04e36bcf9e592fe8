"""The exact solver: its savings (equivalent cards, move ordering, steps in place) change no value and no
best action against the straightforward alpha-beta, under every flag that touches duties and cantes."""

from __future__ import annotations

import random

import pytest

from games.bots.search import Budget, CheatBot
from games.bots.solver import PlainSolver, Solver, _distinct
from games.engine import Rules, State
from games.engine.actions import ACTION_OF_CODE, CODE_OF_ACTION
from games.engine.cards import card_index
from games.engine.hands import OVER
from games.engine.table import Table

FLAGS = (
    "must_undertrump",
    "beat_led_suit_even_if_trumped",
    "partner_exception",
    "cantes_in_arrastre",
    "forty_before_twenty",
    "last_trick_bonus",
    "deck48",
)


def _position(game: str, seed: int, cards: int) -> Table | None:
    """Random flags, random legal play down to ``cards`` cards left (Tute 2: its stock drawn)."""
    rng = random.Random(seed)
    options: dict[str, object] = {name: rng.random() < 0.5 for name in FLAGS}
    options["tute_declaration"] = rng.choice(["off", "wins_hand"])
    if game == "tute4":
        options["partner_may_sing"] = rng.random() < 0.5
    table = State.new(Rules.build(game, options=options), seed=f"solver:{seed}").table.clone()
    while table.phase != OVER and (
        sum(h.bit_count() for h in table.hands) + len(table.trick) > cards
        or table.faceup >= 0
        or table.stock_size
    ):
        table.step(rng.choice(table.legal_ids()))
    return None if table.phase == OVER else table


@pytest.mark.parametrize(("game", "cards"), [("tute4", 8), ("tute4", 12), ("tute4", 14), ("tute2", 12)])
def test_the_solver_agrees_with_the_plain_alpha_beta(game: str, cards: int) -> None:
    checked = 0
    for seed in range(30):
        table = _position(game, seed, cards)
        if table is None:
            continue
        seat = table.to_act
        before = (table.hands, table.trick, table.ply, table.points)
        assert Solver(table, seat, 10**7).value(table) == PlainSolver(table, seat, 10**7).value(table)
        assert (table.hands, table.trick, table.ply, table.points) == before  # the table given is untouched
        legal = table.legal_ids()
        assert Solver(table, seat, 10**7).best(table, legal) == PlainSolver(table, seat, 10**7).best(
            table, legal
        )
        checked += 1
    assert checked >= 20


def test_equivalent_cards_are_searched_once() -> None:
    """Between two cards of a suit with the same points, a card still in play keeps both; one played
    (or in the mover's own hand beside them) makes them one."""
    table = State.new(Rules.build("tute4"), seed="twins").table.clone()
    four, five, six = (card_index(rank, 1) for rank in (4, 5, 6))
    others = table.hands[1] | table.hands[2] | table.hands[3]
    hands = list(table.hands)
    hands[0] = (1 << four) | (1 << six)
    hands[1] = others & ~((1 << four) | (1 << six) | (1 << five))
    hands[2] = hands[3] = 0
    table.hands = tuple(hands)
    table.trick = ()
    assert _distinct(table, [six, four]) == [six]  # the 5 has been played: one card, the first
    hands[1] |= 1 << five  # the 5 is still in play: both
    table.hands = tuple(hands)
    assert _distinct(table, [six, four]) == [six, four]
    hands[1] &= ~(1 << five)
    hands[0] |= 1 << five  # the mover holds the 5 too: the three are one
    table.hands = tuple(hands)
    assert _distinct(table, [six, five, four]) == [six]
    hands[0] &= ~(1 << five)
    table.hands = tuple(hands)
    table.trick = (five,)  # the 5 on the trick decides which of them wins it: both
    assert _distinct(table, [six, four]) == [six, four]
    table.trick = ()
    ace, three = card_index(1, 1), card_index(3, 1)
    hands[0] |= (1 << ace) | (1 << three)  # neighbours, but 11 and 10 points: both
    table.hands = tuple(hands)
    assert _distinct(table, [ace, three, six, four]) == [ace, three, six]


def test_the_cheat_keeps_its_solver_for_the_deal() -> None:
    """The cheat's solver remembers the positions it searched for the rest of the deal: its choices are
    the fresh solver's, and it plays legally to the end."""
    rules = Rules.build("tute4")
    cheat = CheatBot(Budget(samples=2, playouts=8, solve_cards=16))
    state = State.new(rules, seed="keep")
    rng = random.Random(0)
    while not state.is_terminal():
        legal = state.legal_actions()
        table = state.table
        cards_left = sum(h.bit_count() for h in table.hands) + len(table.trick)
        if table.to_act % 2 == 0 and cards_left <= 16 and len(legal) > 1:
            choice = cheat.choose_seeing_all(table, legal, rng)
            fresh = Solver(table, table.to_act, 10**7).best(table, [ACTION_OF_CODE[c] for c in legal])
            assert fresh is not None and choice == CODE_OF_ACTION[fresh]
        else:
            choice = rng.choice(legal)
        state = state.apply(choice)
