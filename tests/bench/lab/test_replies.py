"""Tute 2 leads scored against the other seat's best reply (bench.lab.replies)."""

from __future__ import annotations

import random

from bench.lab import LabBudget, LabSearchBot, replies
from games.bots import get_bot
from games.bots.arena import play_game
from games.engine import Rules, State, export_record, load_record, replay
from games.engine.actions import ACTION_OF_CODE
from games.engine.sampling import DealSampler


def test_a_reshuffle_moves_only_the_undrawn_stock() -> None:
    rng = random.Random(4)
    state = State.new(Rules.build("tute2"), seed="shuffle")
    for _ in range(6):
        state = state.apply(rng.choice(state.legal_actions()))
    table = state.table
    copy = replies.reshuffled(table, random.Random(1))
    pos = table.stock_pos
    assert copy.stock[:pos] == table.stock[:pos]
    assert sorted(copy.stock[pos:]) == sorted(table.stock[pos:])
    assert copy.hands == table.hands and copy.faceup == table.faceup
    assert table.stock == state.table.stock  # the original is untouched


def test_a_lead_is_worth_its_worst_reply() -> None:
    """Each lead's value on a deal is the least of its replies' values (a reply's value its mean over the
    stock orders): no reply can be worth less to the seat than the lead's value."""
    rng = random.Random(7)
    state = State.new(Rules.build("tute2"), seed="lead")
    while state.table.trick or any(code[:5] != "play:" for code in state.legal_actions()):
        state = state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player()
    assert seat is not None
    deals = [DealSampler(state.view(seat)).sample(random.Random(i)) for i in range(3)]
    tables = [d for d in deals if d is not None]
    actions = [ACTION_OF_CODE[code] for code in state.legal_actions()]
    values = replies.lead_values(tables, seat, actions, random.Random(0), 2)
    assert all(len(values[a]) == len(tables) for a in actions)
    again = replies.lead_values(tables, seat, actions, random.Random(0), 2)
    assert again == values  # the same randomness, the same values


def test_replies_play_tute2_legally_and_reproducibly() -> None:
    rules = Rules.build("tute2")
    bot = LabSearchBot(LabBudget(method="replies", samples=3, playouts=12, reshuffles=1))
    bots = [bot, get_bot("rule")]
    first = play_game(rules, bots, seed="r", rng_seed="r")
    again = replay(load_record(export_record(first, seed="r")))
    assert again.is_terminal() and again.result() == first.result()
    assert play_game(rules, bots, seed="r", rng_seed="r").history() == first.history()
