"""The best responses to the rule bot (bench/lab/response.py), issue 33's ceilings: the seeing one never
does worse than the rule bot's own choice on its own yardstick, the fair one keeps only deals the rule
bot's observed choices fit, and both play whole games legally."""

from __future__ import annotations

import random

from bench.lab.response import BestResponse, FairBestResponse, rule_value
from games.bots import get_bot
from games.bots.arena import play_game
from games.bots.rule import choose as rule_choose
from games.engine import Rules, State
from games.engine.actions import ACTION_OF_CODE, CODE_OF_ACTION
from games.engine.sampling import DealSampler
from games.engine.table import Table
from games.engine.views import seat_view


def stock_phase_positions(game: str, count: int) -> list[State]:
    """Positions of rule-bot games where seat 0 has a choice (Tute 2: in the stock phase)."""
    rules = Rules.build(game)
    out: list[State] = []
    for n in range(count):
        state = State.new(rules, seed=f"response:{n}")
        rng = random.Random(n)
        target = 3 + 2 * n
        while not state.is_terminal():
            legal = state.legal_actions()
            seat = state.current_player()
            assert seat is not None
            if seat == 0 and len(legal) > 1 and state.ply >= target:
                out.append(state)
                break
            state = state.apply(rule_choose(state.view(seat), legal, rng))
    return out


def test_the_seeing_response_scores_its_choice_at_least_as_the_rule_bots_own() -> None:
    for state in stock_phase_positions("tute2", 6):
        legal = state.legal_actions()
        choice = BestResponse().choose_seeing_all(state.table.clone(), legal, random.Random(7))
        assert choice in legal
        own = rule_choose(state.view(0), legal, random.Random(0))
        seed = random.Random(7).random()  # the playouts' stream, as best_action draws it for the deal

        def value(code: str, state: State = state, seed: float = seed) -> float:
            child = state.table.clone()
            child.step(ACTION_OF_CODE[code])
            return rule_value(child, 0, random.Random(seed))

        assert value(choice) >= value(own)


def test_the_fair_response_keeps_only_deals_the_rule_bots_choices_fit() -> None:
    bot = FairBestResponse(samples=4, tries=200)
    replayed = 0
    for state in stock_phase_positions("tute2", 6):
        view = state.view(0)
        before = bot.kept
        tables = bot.consistent(view, random.Random(3))
        assert tables
        for table in tables:
            assert table.hands[0] == state.table.hands[0]  # the seat's own hand, as it holds it
        if bot.kept == before:
            continue  # no deal fit every choice: the loose samples, which are not checked here
        # each kept deal, replayed: at each choice of the other seat the rule bot makes the one it made
        for table in tables:
            checked: list[bool] = []

            def watch(t: Table, legal: list[int], action: int, checked: list[bool] = checked) -> None:
                if t.to_act != 0:
                    codes = tuple(CODE_OF_ACTION[a] for a in legal)
                    ours = rule_choose(seat_view(t, t.to_act, None), codes, random.Random(0))
                    checked.append(ACTION_OF_CODE[ours] == action)

            assert DealSampler(view).replay(table.decks[table.hand_no], watch) is not None
            assert all(checked)
            replayed += 1
    assert replayed and 0 < bot.kept <= bot.drawn


def test_both_responses_play_whole_games_legally() -> None:
    rules = Rules.build("tute2")
    seen = play_game(rules, [BestResponse(), get_bot("rule")], seed="br", rng_seed="br")
    fair = play_game(
        rules, [get_bot("rule"), FairBestResponse(samples=2, tries=20)], seed="br", rng_seed="br"
    )
    assert seen.is_terminal() and fair.is_terminal()
