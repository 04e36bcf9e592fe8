"""Information-set MCTS for Tute 2's stock phase (bench.lab.ismcts): the tree's bookkeeping, legal and
reproducible play through the search bot."""

from __future__ import annotations

import random

from bench.lab import LabBudget, LabSearchBot, ismcts
from games.bots import get_bot
from games.bots.arena import play_game
from games.engine import Rules, State, export_record, load_record, replay
from games.engine.sampling import DealSampler
from games.engine.table import Table

QUICK = LabSearchBot(LabBudget(method="ismcts", samples=4, iterations=60))


def _deals(seed: str, plies: int, count: int) -> tuple[list[Table], int, tuple[str, ...]]:
    """``count`` deals sampled for the seat to act after ``plies`` random actions of a Tute 2 hand."""
    rng = random.Random(seed)
    state = State.new(Rules.build("tute2"), seed=seed)
    for _ in range(plies):
        state = state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player()
    assert seat is not None
    sampler = DealSampler(state.view(seat))
    deals = [d for d in (sampler.sample(rng) for _ in range(count)) if d is not None]
    return deals, seat, state.legal_actions()


def _check(node: ismcts.Node) -> int:
    """Every node's visits are its children's plus the iterations that stopped at it; an edge was
    available at least as often as it was taken. Returns the nodes below."""
    below = 0
    taken = sum(child.visits for child in node.children.values())
    assert taken <= node.visits
    for child in node.children.values():
        assert 1 <= child.visits <= child.avail
        below += 1 + _check(child)
    return below


def test_the_tree_counts_every_iteration_once() -> None:
    deals, seat, legal = _deals("tree", 6, 8)
    from games.engine.actions import ACTION_OF_CODE

    actions = [ACTION_OF_CODE[code] for code in legal]
    root = ismcts.search(deals, seat, actions, random.Random(1), 300, 40.0)
    children = root.children
    assert set(children) <= set(actions)
    assert sum(child.visits for child in children.values()) == 300
    root.visits = 300  # the root has no edge into it: give it the iterations to check its children
    nodes = _check(root)
    assert nodes <= 300  # one node added an iteration at most
    # the other seat's replies were searched below the seat's own actions
    assert any(child.children for child in children.values())
    pick = ismcts.choose(root, actions, None, 0.0)
    assert pick in actions


def test_the_seat_searches_and_picks_its_best_action() -> None:
    """A toy value (+10 for one of the seat's actions, -10 for the others, whatever follows): UCB spends
    most visits on that action, the choice is that action, and a smaller prior does not overturn it."""
    deals, seat, legal = _deals("toy", 6, 4)
    from games.engine.actions import ACTION_OF_CODE

    actions = [ACTION_OF_CODE[code] for code in legal]
    good = actions[-1]
    first: dict[int, int] = {}

    def value(table: Table, who: int, rng: random.Random) -> float:
        assert who == seat
        # the first action of the line taken from the decision: its value is known, nothing else counts
        action = table.actions
        line = []
        while action is not None:
            line.append(action[0])
            action = action[1]
        chosen = line[len(line) - 1 - deals[0].ply]
        first[chosen] = first.get(chosen, 0) + 1
        return 10.0 if chosen == good else -10.0

    root = ismcts.search(deals, seat, actions, random.Random(2), 200, 5.0, value=value)
    assert ismcts.choose(root, actions, None, 0.0) == good
    assert root.children[good].visits == max(c.visits for c in root.children.values())
    # a prior of 6 points for another action does not overturn a 20-point difference
    other = actions[0]
    assert ismcts.choose(root, actions, other, 6.0) == good


def test_ismcts_plays_tute2_legally_and_reproducibly() -> None:
    rules = Rules.build("tute2")
    for seed in ("a", "b"):
        bots = [QUICK, get_bot("rule")]
        first = play_game(rules, bots, seed=seed, rng_seed=seed)
        again = replay(load_record(export_record(first, seed=seed)))
        assert again.is_terminal() and again.result() == first.result()
        second = play_game(rules, bots, seed=seed, rng_seed=seed)
        assert first.history() == second.history()
