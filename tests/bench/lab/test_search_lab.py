"""The lab's variants of the search bot (bench/lab): their budget and weights extend production's, each
plays legally, and with every field at its default a lab bot plays exactly as the production one."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bench.lab import EXPERIMENTS, LabBudget, LabSearchBot, LabWeights, lab_budget, register
from bench.lab.policy import LAB_WEIGHTS, lab_greedy
from games.bots import BOTS, get_bot
from games.bots.arena import play_game
from games.bots.search import DEFAULT_WEIGHTS, TUTE4_BUDGET, Budget, PolicyWeights, SearchBot
from games.engine import Rules, State, export_record, load_record, replay
from games.engine.cards import INDEX_OF_CODE
from games.engine.deal import seeded_decks
from games.engine.table import Table


def test_the_lab_extends_the_production_budget_and_weights() -> None:
    """A ``LabBudget`` is a ``Budget`` (production's fields and defaults), ``LabWeights`` a
    ``PolicyWeights``; ``parse`` reads their options too."""
    assert isinstance(LabBudget(), Budget) and isinstance(LAB_WEIGHTS, PolicyWeights)
    for field in dataclasses.fields(Budget):
        assert getattr(LabBudget(), field.name) == getattr(Budget(), field.name)
        assert getattr(lab_budget(TUTE4_BUDGET), field.name) == getattr(TUTE4_BUDGET, field.name)
    for field in dataclasses.fields(PolicyWeights):
        assert getattr(LAB_WEIGHTS, field.name) == getattr(DEFAULT_WEIGHTS, field.name)
    parsed = LabWeights.parse("keep_trump:2.5/tute4_cover:1")
    assert parsed == dataclasses.replace(LAB_WEIGHTS, keep_trump=2.5, tute4_cover=True)
    with pytest.raises(ValueError, match="no field"):
        LabWeights.parse("keep_trumps:1")


@pytest.mark.parametrize("game", ["tute2", "tute4", "pocha"])
def test_a_lab_bot_at_its_defaults_plays_as_the_production_bot(game: str) -> None:
    rules = Rules.build(game, 4) if game == "pocha" else Rules.build(game)
    quick = Budget(samples=3, playouts=12, solve_cards=8, solve_nodes=2000)
    seats = rules.players
    plays = [
        play_game(
            rules, [bot if s % 2 == 0 else get_bot("rule") for s in range(seats)], seed=game, rng_seed=game
        )
        for bot in (SearchBot(quick), LabSearchBot(quick))
    ]
    assert plays[0].history() == plays[1].history()


def test_every_variant_is_registered_as_lab_name() -> None:
    try:
        register()
        register()  # again: nothing new
        for name in EXPERIMENTS:
            assert isinstance(BOTS[f"lab.{name}"], LabSearchBot)
    finally:  # the other tests see the production levels only
        for name in EXPERIMENTS:
            BOTS.pop(f"lab.{name}", None)


@pytest.mark.parametrize("name", sorted(EXPERIMENTS))
def test_every_variant_plays_legally(name: str) -> None:
    fields = {**EXPERIMENTS[name], "samples": 2, "playouts": 8, "iterations": 40}
    bot = LabSearchBot(LabBudget(**fields), tute4=lab_budget(TUTE4_BUDGET, **fields, solve_cards=8))
    game = "tute4" if name in ("sure_leads", "cover") else "tute2"
    rules = Rules.build(game)
    state = play_game(rules, [bot, get_bot("rule")] * (rules.players // 2), seed=name, rng_seed=name)
    again = replay(load_record(export_record(state, seed=name)))
    assert again.is_terminal() and again.result() == state.result()


def test_tute4_playouts_lead_a_sure_winner() -> None:
    """Seat 3 leads with the ace of oros, which nobody can beat and both opponents must follow: the
    policy with ``tute4_sure_leads`` leads it (their oros come to its side); without, its cheapest card."""
    rules = Rules.build("tute4")
    table = Table.new(rules, 0, seeded_decks(rules, "lead:3"))
    legal = table.legal_ids()
    assert table.to_act == 3 and table.trick == ()
    ace, two = INDEX_OF_CODE["1O"], INDEX_OF_CODE["2O"]
    assert lab_greedy(table, legal, LabWeights(tute4_sure_leads=False)) == two
    assert lab_greedy(table, legal, LabWeights(tute4_sure_leads=True)) == ace


def test_windows_makes_the_rule_bots_swaps_and_cantes() -> None:
    """``LabBudget.windows``: in Tute 2's stock phase a swap or cante the rule bot makes is made, unsearched;
    a window it passes up (it leads a card) is searched as before."""
    rules = Rules.build("tute2")
    bot = LabSearchBot(LabBudget(samples=3, playouts=12, windows=True))
    rule = get_bot("rule")
    found = 0
    for game in range(12):
        state = State.new(rules, seed=f"window:{game}")
        rng = random.Random(game)
        while not state.is_terminal():
            seat = state.current_player()
            assert seat is not None
            legal = state.legal_actions()
            view = state.view(seat)
            if view.faceup is not None and any(not code.startswith("play:") for code in legal):
                expected = rule(view, legal, random.Random(0))
                if not expected.startswith("play:"):
                    assert bot(view, legal, random.Random(1)) == expected
                    found += 1
            state = state.apply(rng.choice(legal))
    assert found


def test_rule_weight_plays_legally_and_the_rule_bot_plays_its_best_score() -> None:
    """``LabBudget.rule_weight`` reads the rule bot's score of every card (``rule.card_scores``); the rule bot
    itself plays the card that scores best."""
    from games.bots.rule import card_scores, read_view

    rules = Rules.build("tute2")
    bot = LabSearchBot(LabBudget(samples=3, playouts=12, rule_weight=0.5))
    state = play_game(rules, [bot, get_bot("rule")], seed="weight", rng_seed="weight")
    assert state.is_terminal()
    rng = random.Random(5)
    state = State.new(rules, seed="scores")
    for _ in range(7):
        state = state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player()
    assert seat is not None
    legal = state.legal_actions()
    cards = [INDEX_OF_CODE[code[5:]] for code in legal if code.startswith("play:")]
    scores = card_scores(read_view(state.view(seat)), cards)
    assert set(scores) == set(cards)
    choice = get_bot("rule")(state.view(seat), legal, random.Random(0))
    if choice.startswith("play:"):
        assert scores[INDEX_OF_CODE[choice[5:]]] == max(scores.values())
