"""The search bot (issue 19): legal in every game and flag set, reproducible for a seed and a budget,
and the cheat stays on the bench."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bots import BOT_LEVELS, BOTS, get_bot
from games.bots.arena import play_game
from games.bots.search import (
    DEFAULT_WEIGHTS,
    TUTE4_BUDGET,
    WIN_BONUS,
    Budget,
    CheatBot,
    PolicyWeights,
    SearchBot,
    Solver,
)
from games.engine import Rules, State, export_record, load_record, replay
from games.engine.cards import INDEX_OF_CODE
from games.engine.hands import OVER
from games.engine.table import Table

from ..engine.test_properties import games

QUICK = SearchBot(Budget(samples=3, playouts=12, solve_cards=8, solve_nodes=2000))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games(), opponent=st.sampled_from(["random", "rule"]))
def test_search_plays_every_game_and_flag_set_legally(
    game: tuple[Rules, int, str, int], opponent: str
) -> None:
    rules, dealer, seed, choices = game
    other = get_bot(opponent)
    bots = [QUICK if seat % 2 == choices % 2 else other for seat in range(rules.players)]
    # the arena refuses an illegal action (BotError); the engine then replays the record
    state = play_game(rules, bots, seed=seed, dealer=dealer, rng_seed=choices)
    record = load_record(export_record(state, seed=seed))
    again = replay(record)
    assert again.is_terminal() and again.result() == state.result()


def test_search_is_reproducible_for_a_seed_and_a_budget() -> None:
    rules = Rules.build("tute4")
    bots = [QUICK, get_bot("rule")] * 2
    first = play_game(rules, bots, seed="same", rng_seed="same")
    second = play_game(rules, bots, seed="same", rng_seed="same")
    assert first.history() == second.history()


def test_the_levels_and_the_cheat() -> None:
    assert BOT_LEVELS == ("random", "beginner", "casual", "rule", "search")
    assert isinstance(BOTS["search"], SearchBot)
    assert "cheat" not in BOTS and "cheat" not in BOT_LEVELS
    rules = Rules.build("tute2")
    state = State.new(rules, seed="c")
    cheat = CheatBot(Budget(samples=2, playouts=8))
    try:
        cheat(state.view(0), state.legal_actions(), random.Random(0))
    except TypeError:
        pass
    else:  # pragma: no cover
        raise AssertionError("the cheat must not play from a view")
    # seated by the arena it sees the table and plays legally
    done = play_game(rules, [cheat, get_bot("rule")], seed="c")
    assert done.is_terminal()


def test_the_solver_takes_the_last_trick_that_wins_the_game() -> None:
    """Tute 2 with the stock drawn: one card each, the solver's value is the exact margin."""
    rules = Rules.build("tute2")
    rng = random.Random(3)
    state = State.new(rules, seed="solve")
    while state.table.faceup >= 0 or state.table.stock_size:
        state = state.apply(rng.choice(state.legal_actions()))
    # play on until two cards are left in all, then compare the solver with the true end
    while sum(h.bit_count() for h in state.table.hands) + len(state.table.trick) > 2:
        state = state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player()
    assert seat is not None
    value = Solver(state.table, seat, 1000).value(state.table.clone())
    end = state
    while not end.is_terminal():
        end = end.apply(end.legal_actions()[0])
    result = end.result()
    assert result is not None
    margin = result.scores[seat] - result.scores[1 - seat]
    assert value is not None and abs(value) >= abs(margin)
    assert INDEX_OF_CODE  # the module's card table is importable alongside


def _minimax_margin(table: Table, side: int) -> float:
    """Brute force, no pruning and no memory: the side's final margin under best play by both sides."""
    if table.phase == OVER:
        scores = table.side_scores()
        return float(scores[side] - scores[1 - side])
    values = []
    for action in table.legal_ids():
        child = table.clone()
        child.step(action)
        values.append(_minimax_margin(child, side))
    return max(values) if table.side_of(table.to_act) == side else min(values)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(["tute2", "tute4"]),
    seed=st.integers(0, 10**6),
    arrastre_cantes=st.booleans(),
    partner_may_sing=st.booleans(),
)
def test_the_solver_agrees_with_brute_force_on_small_endgames(
    game: str, seed: int, arrastre_cantes: bool, partner_may_sing: bool
) -> None:
    """Every card known, a few tricks left (mid-trick too): the alpha-beta solver with its memory gives
    the exact minimax margin, and its best action is worth that margin."""
    options: dict[str, object] = {"cantes_in_arrastre": arrastre_cantes}
    if game == "tute4":
        options["partner_may_sing"] = partner_may_sing
    rules = Rules.build(game, options=options)
    rng = random.Random(seed)
    table = State.new(rules, seed=f"brute:{seed}").table.clone()
    left = 6 if game == "tute2" else 8  # cards in all hands and on the table
    while table.phase != OVER and sum(h.bit_count() for h in table.hands) + len(table.trick) > left:
        table.step(rng.choice(table.legal_ids()))
    if table.phase == OVER:
        return
    seat = table.to_act
    side = table.side_of(seat)
    exact = _minimax_margin(table, side)
    solver = Solver(table, seat, 10**6)
    value = solver.value(table.clone())
    assert value is not None
    # the solver's value is the final margin plus its win bonus (by the margin's sign)
    margin = value - WIN_BONUS if value > 0 else value + WIN_BONUS if value < 0 else 0.0
    assert margin == exact
    legal = table.legal_ids()
    best = Solver(table, seat, 10**6).best(table, legal)
    assert best is not None
    child = table.clone()
    child.step(best)
    assert _minimax_margin(child, side) == exact


def test_tute4_has_its_own_default_budget() -> None:
    """The registered level plays Tute 4 with ``TUTE4_BUDGET`` and the other games with ``Budget()``; a
    budget given applies to every game unless Tute 4's is given too."""
    default = SearchBot()
    assert default.budget_for("tute4") == TUTE4_BUDGET != default.budget_for("tute2") == Budget()
    assert BOTS["search"].budget_for("tute4") == TUTE4_BUDGET  # type: ignore[attr-defined]
    small = Budget(samples=2)
    assert SearchBot(small).budget_for("tute4") is small
    assert SearchBot(small, tute4=TUTE4_BUDGET).budget_for("tute4") is TUTE4_BUDGET


def test_tute4_solves_at_most_solve_samples_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tute 4 near its end: many deals are sampled, the exact solve runs on ``solve_samples`` of them
    (the solves are the slow decisions), and the choice is legal and the same for the same seed."""
    built: list[Solver] = []

    class Counted(Solver):
        def __init__(self, root: Table, seat: int, max_nodes: int) -> None:
            super().__init__(root, seat, max_nodes)
            built.append(self)

    monkeypatch.setattr("games.bots.search.bot.Solver", Counted)
    rules = Rules.build("tute4")
    rng = random.Random(5)
    state = State.new(rules, seed="solve4")
    while True:  # play on to 12 cards left with a choice of cards to make
        table = state.table
        legal = state.legal_actions()
        if sum(h.bit_count() for h in table.hands) + len(table.trick) <= 12 and len(legal) > 1:
            break
        state = state.apply(rng.choice(legal))
    bot = SearchBot(Budget(samples=6, solve_samples=2, solve_cards=16))
    seat = state.current_player()
    assert seat is not None
    first = bot(state.view(seat), legal, random.Random(1))
    assert first in legal and len(built) == 2
    assert bot(state.view(seat), legal, random.Random(1)) == first


def test_the_playout_policy_weights_are_one_frozen_value() -> None:
    """Today's constants by default; ``parse`` reads the bench's ``weights=`` text."""
    assert PolicyWeights() == DEFAULT_WEIGHTS
    assert PolicyWeights.parse("") == DEFAULT_WEIGHTS
    parsed = PolicyWeights.parse("keep_trump:2.5/epsilon:0")
    assert parsed == dataclasses.replace(DEFAULT_WEIGHTS, keep_trump=2.5, epsilon=0.0)
    with pytest.raises(ValueError, match="no field"):
        PolicyWeights.parse("keep_trumps:1")
    with pytest.raises(dataclasses.FrozenInstanceError):
        parsed.epsilon = 0.0  # type: ignore[misc]
