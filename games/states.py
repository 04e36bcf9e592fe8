"""Engine states of games, kept in memory by (game, seed, ply) so a move need not replay its game.

A committed (game, ply) names one state for good, so any process may keep this cache without ever
invalidating it; the seed guards against a reused id (a restored or test database). States are stored
only after the transaction that reached them commits. A miss replays the game's actions from the
database, from the nearest earlier state this process holds.
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock

from django.db import transaction

from games.engine import Rules, State
from games.models import Action, Game, Match

_STATES: OrderedDict[tuple[int, str, int], State] = OrderedDict()
_STATES_LOCK = Lock()
_STATES_MAX = 2048

#: How many plies back a miss looks for a cached state to replay from. With several processes serving
#: one match, the previous state is usually in this process's cache from its last request.
_NEAR_MISS_PLIES = 8


def match_rules(match: Match) -> Rules:
    return Rules.build(match.game, match.num_players, match.options)


def _cached(key: tuple[int, str, int]) -> State | None:
    with _STATES_LOCK:
        state = _STATES.get(key)
        if state is not None:
            _STATES.move_to_end(key)
        return state


def cache_state(game: Game, ply: int, state: State) -> None:
    """Remember ``state`` as the game's state at ``ply`` once the current transaction commits.

    Never before: a rolled-back action must not leave a state the database does not hold.
    """
    key = (game.pk, game.seed, ply)

    def store() -> None:
        with _STATES_LOCK:
            _STATES[key] = state
            _STATES.move_to_end(key)
            while len(_STATES) > _STATES_MAX:
                _STATES.popitem(last=False)

    transaction.on_commit(store)


def game_state(*, match: Match, game: Game, ply: int | None = None) -> State:
    """The engine state of ``game`` after the match's actions before ``ply`` (default: all of them)."""
    upto = match.ply if ply is None else ply
    state = _cached((game.pk, game.seed, upto))
    if state is not None:
        return state
    since = game.first_ply
    for earlier in range(upto - 1, max(game.first_ply, upto - _NEAR_MISS_PLIES) - 1, -1):
        state = _cached((game.pk, game.seed, earlier))
        if state is not None:
            since = earlier
            break
    else:
        state = State.new(match_rules(match), dealer=game.dealer, seed=game.seed)
    codes = (
        Action.objects.filter(game=game, ply__gte=since, ply__lt=upto)
        .order_by("ply")
        .values_list("code", flat=True)
    )
    for code in codes:
        state = state.apply(code)
    cache_state(game, upto, state)
    return state
