"""The review of a seat's decisions (games.bots.review): the exact solver's values where every card is
known, and nothing but the seat's view behind any value (issue 32.2)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.bots import get_bot
from games.bots.arena import play_game
from games.bots.review import NOTABLE_COST, REVIEW_BUDGET, Reviewer, view_seed, worst_moments
from games.bots.search import Budget, Solver
from games.engine import Rules, State
from games.engine.actions import ACTION_OF_CODE
from games.engine.sampling import DealSampler

#: A small budget: the leak test reviews hundreds of decisions.
SMALL = Budget(samples=6, playouts=36, solve_cards=8, solve_nodes=3000, solve_samples=2, prior=0.0)
QUICK = Reviewer(SMALL, tute4=SMALL)


def decisions(rules: Rules, seed: str, rng_seed: int = 0) -> list[tuple[State, str]]:
    """Every decision with a choice of a game the rule bot plays at every seat: (the state, the move)."""
    final = play_game(rules, [get_bot("rule")] * rules.players, seed=seed, rng_seed=rng_seed)
    state = State.new(rules, seed=seed)
    out = []
    for code in final.history():
        if len(state.legal_actions()) > 1:
            out.append((state, code))
        state = state.apply(code)
    return out


def test_tute2_endgame_values_are_the_exact_solvers() -> None:
    """Once the stock is drawn every card is known in Tute 2: the review's value of each action is what
    the exact solver gives on the real deal."""
    reviewer = Reviewer()
    checked = 0
    for n in range(6):
        for state, played in decisions(Rules.build("tute2"), f"endgame-{n}"):
            table = state.table
            if table.stock_size or table.faceup >= 0:
                continue
            seat = state.current_player()
            assert seat is not None
            review = reviewer.review(state.view(seat), state.legal_actions(), played)
            solver = Solver(table, seat, REVIEW_BUDGET.solve_nodes)
            for code in state.legal_actions():
                child = table.clone()
                child.step(ACTION_OF_CODE[code])
                exact = solver.value(child)
                assert exact is not None
                assert review.values[code] == pytest.approx(exact, abs=0.01), (n, code)
            assert review.exact and review.deals == 1
            assert review.values[review.best] == max(review.values.values())
            assert review.cost == pytest.approx(review.values[review.best] - review.values[played], abs=0.02)
            checked += 1
    assert checked >= 30


@pytest.mark.parametrize(
    ("game", "players", "games"),
    [("tute2", 2, 12), ("tute4", 4, 6), ("pocha", 4, 1)],
)
def test_a_review_never_uses_a_card_the_seat_could_not_see(game: str, players: int, games: int) -> None:
    """At each decision, a deal sampled from the seat's view (other hidden cards, the same view) gives the
    same review as the real deal: what the seat could not see cannot change it."""
    rules = Rules.build(game, players)
    rng = random.Random(game)
    compared = differed = 0
    for n in range(games):
        for state, played in decisions(rules, f"leak-{game}-{n}")[:60]:
            seat = state.current_player()
            assert seat is not None
            view = state.view(seat)
            other = DealSampler(view).sample(rng)
            if other is None:
                continue
            twin = State(other)
            # a Pocha deal is sampled into its hand: the hands before it are the game's, not the sample's
            twin_view = dataclasses.replace(
                twin.view(seat), game_ply=view.game_ply, hands_played=view.hands_played
            )
            assert twin_view == view, "the sampled deal looks the same from the seat"
            if any(
                a != b
                for s, (a, b) in enumerate(zip(other.hands, state.table.hands, strict=True))
                if s != seat
            ):
                differed += 1
            assert view_seed(twin_view) == view_seed(view)
            assert QUICK.review(twin_view, twin.legal_actions(), played) == QUICK.review(
                view, state.legal_actions(), played
            )
            compared += 1
    assert compared >= 40 and differed >= compared // 2, (compared, differed)


def test_a_review_scores_every_legal_action_and_costs_nothing_for_the_best() -> None:
    for state, played in decisions(Rules.build("tute4"), "costs")[:12]:
        seat = state.current_player()
        assert seat is not None
        review = QUICK.review(state.view(seat), state.legal_actions(), played)
        assert set(review.values) <= set(state.legal_actions()) and played in review.values
        assert review.cost >= 0 and review.values[review.best] == max(review.values.values())
        assert QUICK.review(state.view(seat), state.legal_actions(), review.best).cost == 0


def test_a_forced_move_or_a_spectator_is_not_reviewed() -> None:
    state = State.new(Rules.build("tute2"), seed="forced")
    with pytest.raises(ValueError):
        QUICK.review(state.view(None), state.legal_actions(), state.legal_actions()[0])
    seat = state.current_player()
    with pytest.raises(ValueError):
        QUICK.review(state.view(seat), state.legal_actions()[:1], state.legal_actions()[0])
    with pytest.raises(ValueError):
        QUICK.review(state.view(seat), state.legal_actions(), "play:99X")


def test_the_worst_moments_are_the_costliest_notable_ones() -> None:
    assert worst_moments([0.0, 5.0, 1.0, 9.5, NOTABLE_COST, 5.0]) == [3, 1, 5]
    assert worst_moments([0.0, NOTABLE_COST - 0.01]) == []
