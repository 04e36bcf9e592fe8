"""Reads: a match's engine state, what a caller may see of it, lists of matches."""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock
from typing import Any

from django.db import transaction
from django.db.models import F, Prefetch, Q, QuerySet

from games.engine import Rules, State, export_record
from games.models import Action, Game, Match, Player, Seat

# Engine states by (game id, game seed, match ply), stored only after commit. A committed (game, ply)
# names one state for good, so any node may keep this cache without invalidating it; the seed guards
# against a reused id (a restored or test database). A miss replays from the database.
_STATES: OrderedDict[tuple[int, str, int], State] = OrderedDict()
_STATES_LOCK = Lock()
_STATES_MAX = 2048


def match_rules(match: Match) -> Rules:
    return Rules.build(match.game, match.num_players, match.options)


def _cache_get(key: tuple[int, str, int]) -> State | None:
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
    state = _cache_get((game.pk, game.seed, upto))
    if state is not None:
        return state
    state = State.new(match_rules(match), dealer=game.dealer, seed=game.seed)
    codes = Action.objects.filter(game=game, ply__lt=upto).order_by("ply").values_list("code", flat=True)
    for code in codes:
        state = state.apply(code)
    cache_state(game, upto, state)
    return state


def current_game(match: Match) -> Game | None:
    return match.games.order_by("-number").first()


def seat_of(match: Match, player: Player | None) -> Seat | None:
    if player is None:
        return None
    return next((seat for seat in match.seats.all() if seat.player_id == player.pk), None)


def match_view_for(*, match: Match, player: Player | None, ply: int | None = None) -> dict[str, Any]:
    """What the caller may see: its seat's view (RULES.md 9), or the spectator's without a seat.

    ``ply`` asks for the view as it was at that ply (the answer an idempotent retry gets again).
    """
    seat = seat_of(match, player)
    at = match.ply if ply is None else ply
    game = match.games.filter(first_ply__lte=at).order_by("-number").first()
    live = at == match.ply and match.status == Match.Status.IN_PROGRESS
    out: dict[str, Any] = {
        "match": match.pk,
        "status": match.status,
        "ply": at,
        "seat": seat.index if seat else None,
        "game_number": game.number if game else None,
        "to_act": None,
        "legal": None,
        "view": None,
    }
    if game is None:
        return out
    state = game_state(match=match, game=game, ply=at)
    view = state.view(seat.index if seat else None)
    to_act = state.current_player() if live or ply is not None else None
    out["to_act"] = to_act
    out["view"] = view.to_dict()
    if seat is not None and to_act == seat.index:
        out["legal"] = list(state.legal_actions())
    return out


def match_records(match: Match) -> list[dict[str, Any]]:
    """Each game's record (RULES.md 10) with its seed, and its result."""
    records = []
    for game in match.games.order_by("number"):
        state = game_state(match=match, game=game, ply=_game_end_ply(match, game))
        records.append(
            {"number": game.number, "record": export_record(state, seed=game.seed), "result": game.result}
        )
    return records


def _game_end_ply(match: Match, game: Game) -> int:
    following = match.games.filter(number=game.number + 1).values_list("first_ply", flat=True).first()
    return following if following is not None else match.ply


def matches_list(
    *, status: str | None = None, game: str | None = None, player: str | None = None
) -> QuerySet[Match]:
    qs = Match.objects.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("index"))
    )
    if status:
        qs = qs.filter(status=status)
    if game:
        qs = qs.filter(game=game)
    if player:
        qs = qs.filter(Q(seats__player__handle=player)).distinct()
    return qs.order_by("-created_at", "-id")


def match_detail(*, match_id: int) -> Match | None:
    return (
        Match.objects.prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("index"))
        )
        .filter(pk=match_id)
        .first()
    )


def my_turns(*, player: Player) -> QuerySet[Match]:
    """Matches in progress where it is ``player``'s turn now, oldest deadline first."""
    return Match.objects.filter(
        status=Match.Status.IN_PROGRESS, seats__player=player, seats__index=F("turn_seat")
    ).order_by("turn_deadline", "pk")
