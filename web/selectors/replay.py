"""A finished match's replay for the viewer (web/static/web/match.js): every game replayed from its seed
by the engine, step by step with every seat's hand, cached (a finished game never changes)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from games.engine import Rules, State
from games.engine.cards import codes_of
from games.engine.views import SeatView
from games.models import Action, Game, Match
from games.selectors import boards_sealed
from games.states import match_rules

#: A finished game's replay stays cached this long (it never changes).
REPLAY_CACHE_SECONDS = 24 * 3600
#: The replay viewer gets a game's steps this many at a time (a long Pocha has thousands).
REPLAY_PAGE_STEPS = 100


@dataclass(frozen=True, slots=True)
class ReplayGame:
    """One game's replay. Its steps speak in game seats (hands, tricks, the acting seat, bids, cantes,
    scores by game side); ``seat_map`` gives, for each game seat, the match seat that held it (a duplicate
    match's later plays rotate the seats; None: the identity)."""

    number: int
    result: dict[str, Any] | None
    steps: list[dict[str, Any]]
    board: int | None = None
    seat_map: list[int] | None = None


def match_replay(*, match: Match) -> list[ReplayGame]:
    """Every game of a finished match, step by step, with every seat's hand: the replay viewer's data.

    Only for finished matches: until then the deals are secret (docs/RULES.md 9). Two queries: the games and
    the actions; the engine replays each game from its seed.
    """
    if match.status != Match.Status.FINISHED or boards_sealed(match):  # other tables still play its boards
        return []
    # A finished match never changes: its replay is computed once per cache.
    key = f"web:replay:v3:{match.pk}:{match.finished_at.isoformat() if match.finished_at else ''}"
    cached = cache.get(key)
    if cached is not None:
        return list(cached)
    replay = _replay(match)
    cache.set(key, replay, REPLAY_CACHE_SECONDS)
    return replay


def replay_index(replay: list[ReplayGame]) -> list[dict[str, Any]]:
    """What the replay viewer needs to move through each game without its steps: the number of steps,
    the step each Pocha hand starts at and the steps that end a trick (the steps come a page at a time)."""
    out = []
    for game in replay:
        hands: list[list[int]] = []
        for i, step in enumerate(game.steps):
            if step["hands_total"] > 1 and (not hands or hands[-1][0] != step["hand_number"]):
                hands.append([step["hand_number"], i])
        out.append(
            {
                "number": game.number,
                "steps": len(game.steps),
                "hands_total": game.steps[0]["hands_total"] if game.steps else 1,
                "hands": hands,
                "trick_ends": [i for i, step in enumerate(game.steps) if step["trick_end"]],
                "board": game.board,
                "seat_map": game.seat_map,
            }
        )
    return out


def replay_whole(game: ReplayGame, *, names: list[str]) -> dict[str, Any]:
    """The replay viewer's data for one game shown whole, in one page (a board's play: one deal), its seats
    named by ``names`` (game seat -> who held it), not by the page's match."""
    return {
        "url": None,
        "page": max(len(game.steps), 1),
        "games": [{**replay_index([game])[0], "names": names}],
        "first": game.steps,
    }


def replay_page(replay: list[ReplayGame], *, game: int, start: int) -> list[dict[str, Any]] | None:
    """One page of a game's steps, from ``start`` (a multiple of REPLAY_PAGE_STEPS); None when there is
    no such game or page."""
    if not 0 <= game < len(replay) or start % REPLAY_PAGE_STEPS or not 0 <= start < len(replay[game].steps):
        return None
    return replay[game].steps[start : start + REPLAY_PAGE_STEPS]


def _replay(match: Match) -> list[ReplayGame]:
    games = list(match.games.all())
    actions: dict[int, list[Action]] = {game.pk: [] for game in games}
    for action in Action.objects.filter(match=match).order_by("ply").only("game_id", "ply", "seat", "code"):
        actions[action.game_id].append(action)
    rules = match_rules(match)
    return [game_replay(game, rules, actions[game.pk]) for game in games]


def game_replay(game: Game, rules: Rules, actions: list[Action]) -> ReplayGame:
    """A finished game replayed from its seed: one step for the deal, then one per action (no query)."""
    state = State.new(rules, dealer=game.dealer, seed=game.seed)
    public = state.view(None)
    steps = [_snapshot(state, public, None, tricks_before=0, hand_before=0)]
    for action in actions:
        state = state.apply(action.code)
        after = state.view(None)
        # The action's row keeps the match seat; the step speaks in the game's seats like the rest of it.
        acted = {"seat": game.game_seat(action.seat), "code": action.code}
        steps.append(
            _snapshot(state, after, acted, tricks_before=len(public.tricks), hand_before=public.hand_number)
        )
        public = after
    return ReplayGame(
        number=game.number, result=game.result, steps=steps, board=game.board, seat_map=game.seat_map
    )


def _snapshot(
    state: State,
    public: SeatView,
    action: dict[str, Any] | None,
    *,
    tricks_before: int,
    hand_before: int,
) -> dict[str, Any]:
    # Every hand, for a game that is over: the record (seed and actions) is public by then.
    hands = [codes_of(mask) for mask in state.table.hands]
    trick_end = (len(public.tricks) > tricks_before) or (public.hand_number != hand_before)
    last = public.tricks[-1].to_dict() if public.tricks else None
    if public.hand_number != hand_before and public.hands_played:
        # A Pocha hand just ended: its last trick is in the finished hand's record.
        finished = public.hands_played[-1]
        played = finished.get("played") or []
        last = played[-1] if played else last
    return {
        "action": action,
        "trick_end": trick_end,
        "hands": hands,
        "trick": [[s, c] for s, c in public.trick],
        "last_trick": last,
        "trump": public.trump,
        "trump_card": public.trump_card,
        "faceup": public.faceup,
        "stock_size": public.stock_size,
        "hand_number": public.hand_number,
        "hands_total": public.hands_total,
        "bids": list(public.bids),
        "tricks_won": list(public.tricks_won),
        "scores": list(public.scores),
        "cantes": [{"seat": s, "suit": suit, "points": p} for s, suit, p in public.cantes],
        "result": public.result,
        # The whole scoresheet on the game's last step only (the finished page's table reads it).
        "hands_played": list(public.hands_played) if public.result is not None else None,
    }
