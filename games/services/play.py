"""Playing a match: actions by seats, house bots and timeouts; finishing, resigning, forfeits.

Every service here loads the match's context with the match row locked (``select_for_update`` on
PostgreSQL) and, because that lock does nothing on SQLite, also moves the ply with a compare-and-swap
(``filter(pk=..., ply=ply).update(...) == 1``); ``UNIQUE(match, ply)`` is the last guard. One action
per ply, whatever the database.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from games.bots import get_bot
from games.engine import IllegalAction, State
from games.errors import (
    IdempotencyKeyReused,
    IllegalActionError,
    MatchNotInProgress,
    NotSeated,
    NotYourTurn,
    StalePly,
)
from games.events import publish_match_event
from games.models import Action, Game, Match, Player, Seat
from games.selectors import MatchContext, match_context
from games.services.boards import boards_reveal
from games.services.common import queue_house_bot, set_turn, turn_after, turn_started
from games.services.matches import deal_game, duplicate_plays
from games.signals import action_refused, match_finished, turn_timed_out
from games.states import cache_state, match_rules
from tute_site.celery import queue_on_commit
from tute_site.exceptions import error_body

#: The bot that plays for a seat whose clock ran out.
TIMEOUT_BOT = "rule"


@dataclass(frozen=True, slots=True)
class Applied:
    """What an action did: the match's context after it (its current game: the one the action was
    played in, or the next one dealt when it ended that game) and the ply the action took."""

    context: MatchContext
    ply: int

    @property
    def match(self) -> Match:
        return self.context.match


def action_submit(
    *, match_id: int, player: Player, code: str, ply: int, idempotency_key: str | None = None
) -> Applied:
    """Apply ``code`` for the caller's seat at ``ply``; the same idempotency key gets the first answer.

    A bot account's refused action is told (``games.signals.action_refused``: the ladder records it for
    its author's status page, its validation and its event stream) once its transaction has rolled
    back, then the refusal is raised as before.
    """
    try:
        return _action_submit(
            match_id=match_id, player=player, code=code, ply=ply, idempotency_key=idempotency_key
        )
    except IllegalActionError as exc:
        if player.is_bot:
            action_refused.send(
                sender=Match,
                match_id=match_id,
                player=player,
                code=code,
                ply=ply,
                answer=error_body(exc.code, exc.message, exc.detail),
            )
        raise


@transaction.atomic
def _action_submit(
    *, match_id: int, player: Player, code: str, ply: int, idempotency_key: str | None = None
) -> Applied:
    context = match_context(match_id, lock=True)
    if idempotency_key:
        # Checked under the lock, so a retry racing its own first attempt still finds it.
        earlier = (
            Action.objects.filter(match_id=match_id, player=player, idempotency_key=idempotency_key)
            .values_list("code", "ply")
            .first()
        )
        if earlier is not None:
            if earlier != (code, ply):
                raise IdempotencyKeyReused()
            return Applied(context=context, ply=ply)
    seat = context.seat_of(player)
    if seat is None:
        raise NotSeated()
    return _act(
        context,
        seat=seat.index,
        code=code,
        ply=ply,
        player=player,
        idempotency_key=idempotency_key,
        kind=Action.Kind.MOVE,
    )


@transaction.atomic
def bot_turn_play(*, match_id: int, ply: int) -> Applied | None:
    """Play a house bot's turn at ``ply``; nothing when the match has moved on or it is not a bot's turn."""
    context = match_context(match_id, lock=True)
    match, game, state = context.match, context.game, context.state
    if match.status != Match.Status.IN_PROGRESS or match.ply != ply or game is None or state is None:
        return None
    seat = context.seat_at(match.turn_seat)
    if seat is None or not seat.bot_level:
        return None
    code = house_bot_action(seat.bot_level, state, game.game_seat(seat.index), seed=_bot_seed(game, ply))
    return _act(
        context,
        seat=seat.index,
        code=code,
        ply=ply,
        player=None,
        idempotency_key=None,
        kind=Action.Kind.HOUSE_BOT,
    )


@transaction.atomic
def turn_timeout(*, match_id: int, ply: int, now: bool = False) -> Applied | None:
    """The sweeper's service for a turn past its deadline at ``ply``.

    A house bot's turn is queued again (its task was lost). A seat's turn gets the rule bot's move,
    recorded as a timeout; the seat forfeits the match at its ``max_timeouts``-th. ``now``: the turn is
    lost already, before its deadline (a push bot's endpoint failed); never for a house bot's turn.
    """
    context = match_context(match_id, lock=True)
    match, game, state = context.match, context.game, context.state
    if match.status != Match.Status.IN_PROGRESS or match.ply != ply or game is None or state is None:
        return None
    seat = context.seat_at(match.turn_seat)
    if seat is None or (now and seat.bot_level):
        return None
    if not now and (match.turn_deadline is None or match.turn_deadline > timezone.now()):
        return None
    if seat.bot_level:
        set_turn(context, state)  # a fresh deadline, and the task queued again
        return None
    code = house_bot_action(TIMEOUT_BOT, state, game.game_seat(seat.index), seed=_bot_seed(game, ply))
    seat.timeouts += 1
    seat.save(update_fields=["timeouts"])
    turn_timed_out.send(sender=Match, context=context, seat=seat, ply=ply, code=code)
    applied = _act(
        context,
        seat=seat.index,
        code=code,
        ply=ply,
        player=None,
        idempotency_key=None,
        kind=Action.Kind.TIMEOUT,
    )
    if seat.timeouts >= match.max_timeouts and match.status == Match.Status.IN_PROGRESS:
        _concede(applied.context, seat.index, reason="forfeit")
    return applied


def house_bot_action(level: str, state: State, seat: int, *, seed: str) -> str:
    """The bot's choice from the seat's view only, with randomness fixed by the game's seed and ply."""
    bot = get_bot(level)
    return bot(state.view(seat), state.legal_actions(), random.Random(seed))


def _bot_seed(game: Game, ply: int) -> str:
    return f"{game.seed}:{ply}"


def _act(
    context: MatchContext,
    *,
    seat: int,
    code: str,
    ply: int,
    player: Player | None,
    idempotency_key: str | None,
    kind: str,
) -> Applied:
    match, game, state = context.match, context.game, context.state
    if match.status != Match.Status.IN_PROGRESS:
        raise MatchNotInProgress()
    if match.ply != ply:
        raise StalePly(current=match.ply)
    assert game is not None and state is not None, "a match in progress has a current game"
    if state.current_player() != game.game_seat(seat):
        to_act = state.current_player()
        raise NotYourTurn(
            f"It is seat {None if to_act is None else game.match_seat(to_act)}'s turn, not seat {seat}'s."
        )
    try:
        after = state.apply(code)
    except IllegalAction as exc:
        raise IllegalActionError(
            exc.reason, action=code, ply=ply, legal=list(state.legal_actions())
        ) from None
    # The compare-and-swap on the ply (the row lock does nothing on SQLite), which also starts the
    # next turn's clock; then the action's row, whose UNIQUE(match, ply) is the last guard.
    turn_seat, turn_deadline = turn_after(match, context.seats, after, seat_map=game.seat_map)
    moved = Match.objects.filter(pk=match.pk, ply=ply).update(
        ply=ply + 1, turn_seat=turn_seat, turn_deadline=turn_deadline
    )
    if moved != 1:
        raise StalePly(current=Match.objects.values_list("ply", flat=True).get(pk=match.pk))
    try:
        Action.objects.create(
            match=match,
            game=game,
            ply=ply,
            seat=seat,
            code=code,
            kind=kind,
            player=player,
            idempotency_key=idempotency_key or None,
        )
    except IntegrityError:
        # Only a rival on this ply (or this key) gets here, and it came first: this transaction is
        # rolled back as the error leaves it.
        raise StalePly(current=ply + 1) from None
    match.ply, match.turn_seat, match.turn_deadline = ply + 1, turn_seat, turn_deadline
    cache_state(game, match.ply, after)
    played = MatchContext(match=match, seats=context.seats, game=game, state=after)
    if after.is_terminal():
        played = _finish_game(played)
    else:
        turn_started(played)
    return Applied(context=played, ply=ply)


# -- finishing ------------------------------------------------------------------------------------------


def _finish_game(context: MatchContext) -> MatchContext:
    """Store the game's result, then deal the next game or finish the match; the match's context now."""
    match, game, state = context.match, context.game, context.state
    assert game is not None and state is not None
    result = state.result()
    assert result is not None
    game.status = Game.Status.FINISHED
    game.result = result.to_dict()
    game.finished_at = timezone.now()
    game.save(update_fields=["status", "result", "finished_at"])
    # What these cards score on average: a worker's task, on the background queue (nobody waits for it).
    queue_on_commit("games.game_luck", game.pk, queue=settings.TUTE_BACKGROUND_QUEUE)
    games_played = game.number + 1
    if match.format == Match.Format.DUPLICATE:
        if games_played < match.format_target * duplicate_plays(match):
            return deal_game(context, number=game.number + 1)
        _finish_match(context, result=duplicate_result(match), reason="completed")
        return context
    won = _games_won(match)
    if not match_decided(format=match.format, target=match.format_target, won=won, played=games_played):
        return deal_game(context, number=game.number + 1)
    best = max(won)
    winners = [side for side, count in enumerate(won) if count == best]
    _finish_match(
        context,
        result={"games_won": won, "winners": winners, "games": games_played},
        reason="completed",
    )
    return context


def match_decided(*, format: str, target: int, won: list[int], played: int) -> bool:
    """Whether a match of ``format`` (not duplicate) is over after ``played`` games with ``won`` games won
    per side: first to ``target`` wins, or best of ``target`` (a single game is best of 1). Also decides
    over-the-board tournament results (tournaments' result entry)."""
    if format == Match.Format.FIRST_TO:
        return max(won) >= target
    return max(won) > target // 2 or played >= target


def _games_won(match: Match) -> list[int]:
    """Games won per side so far; a shared Pocha win counts for every side that shares it."""
    finished = Game.objects.filter(match=match, status=Game.Status.FINISHED, result__isnull=False)
    rules = match_rules(match)
    won = [0] * rules.sides
    for result, seat_map in finished.order_by("number").values_list("result", "seat_map"):
        for side in result["winners"] if result else ():
            # A duplicate game's side is its game seats': the side of the match seat holding them.
            won[rules.side_of(seat_map[side]) if seat_map else side] += 1
    return won


def duplicate_result(match: Match) -> dict[str, Any]:
    """A duplicate match's result from its finished games (docs/TOURNAMENTS.md, "Duplicate scoring").

    Tute 2 and Tute 4: the sum over the boards of each side's score difference (the card points and
    cantes of the game's result). Pocha: on each board every player holds every seat's cards once; a
    player's figure for those cards is its score minus the mean score of the others who held them, and
    ``score_difference`` sums it over the boards and seats (``matchpoints``: 2 per other holder of the
    same cards outscored, 1 per tie). Either way the side ahead wins (every side ahead on a tie): every
    side held the same cards, so the luck of the deal cancels out."""
    games = list(
        Game.objects.filter(match=match, status=Game.Status.FINISHED)
        .order_by("number")
        .values_list("board", "seat_map", "result")
    )
    if match.game == Match.GameName.POCHA:
        return _pocha_duplicate_result(match, games)
    rules = match_rules(match)
    boards = [[0, 0] for _ in range(match.format_target)]
    for board, seat_map, result in games:
        assert board is not None and seat_map is not None and result is not None, "a finished duplicate game"
        scores = result["scores"]
        for game_side, score in enumerate(scores[:2]):
            side = rules.side_of(seat_map[game_side])
            boards[board][side] += score - scores[1 - game_side]
    difference = [sum(b[0] for b in boards), sum(b[1] for b in boards)]
    winners = [0] if difference[0] > 0 else [1] if difference[0] < 0 else [0, 1]
    return {
        "format": "duplicate",
        "boards": len(boards),
        "games": len(games),
        "score_difference": difference,
        "board_differences": boards,
        "games_won": _games_won(match),
        "winners": winners,
    }


def _pocha_duplicate_result(
    match: Match, games: list[tuple[int | None, list[int] | None, dict[str, Any] | None]]
) -> dict[str, Any]:
    n = match.num_players
    # held[board][game seat]: (match seat, score) of each player who held those cards
    held: dict[int, dict[int, list[tuple[int, int]]]] = {}
    for board, seat_map, result in games:
        assert board is not None and seat_map is not None and result is not None, "a finished duplicate game"
        for game_seat, score in enumerate(result["scores"][:n]):
            held.setdefault(board, {}).setdefault(game_seat, []).append(
                (int(seat_map[game_seat]), int(score))
            )
    boards = [[Fraction(0)] * n for _ in range(match.format_target)]
    matchpoints = [0] * n
    for board, by_seat in held.items():
        for holders in by_seat.values():
            for seat, score in holders:
                others = [s for who, s in holders if who != seat]
                if not others:
                    continue  # nobody else has held these cards yet (a board left unfinished)
                boards[board][seat] += score - Fraction(sum(others), len(others))
                matchpoints[seat] += sum(2 if score > s else 1 if score == s else 0 for s in others)
    exact = [sum((b[seat] for b in boards), Fraction(0)) for seat in range(n)]
    best = max(exact)
    return {
        "format": "duplicate",
        "boards": len(boards),
        "games": len(games),
        "score_difference": [_shown(x) for x in exact],
        "board_differences": [[_shown(x) for x in b] for b in boards],
        "matchpoints": matchpoints,
        "games_won": _games_won(match),
        "winners": [seat for seat in range(n) if exact[seat] == best],
    }


def _shown(value: Fraction) -> int | float:
    """An exact figure as JSON shows it: a whole number as an int, else rounded to 2 decimals."""
    return int(value) if value.denominator == 1 else round(float(value), 2)


def _finish_match(context: MatchContext, *, result: dict[str, Any], reason: str) -> None:
    match = context.match
    match.status = Match.Status.FINISHED
    match.result = result
    match.finish_reason = reason
    match.finished_at = timezone.now()
    match.turn_seat = None
    match.turn_deadline = None
    match.save(
        update_fields=["status", "result", "finish_reason", "finished_at", "turn_seat", "turn_deadline"]
    )
    boards_reveal(match=match)
    publish_match_event(match, context.seats)
    transaction.on_commit(lambda: match_finished.send(sender=Match, match=match))


def _concede(context: MatchContext, seat: int, *, reason: str) -> None:
    """The seat's side loses the match; every other side wins it."""
    match = context.match
    rules = match_rules(match)
    loser = rules.side_of(seat)
    match.games.filter(status=Game.Status.IN_PROGRESS).update(status=Game.Status.ABANDONED)
    won = _games_won(match)
    winners = [side for side in range(rules.sides) if side != loser]
    played = match.games.filter(status=Game.Status.FINISHED).count()
    result: dict[str, Any] = {}
    if match.format == Match.Format.DUPLICATE:
        result = duplicate_result(match)  # the boards played so far, for the record
    result.update(games_won=won, winners=winners, games=played, conceded_by=seat)
    _finish_match(context, result=result, reason=reason)


@transaction.atomic
def match_resign(*, match_id: int, player: Player) -> Match:
    """The caller's side concedes the match."""
    context = match_context(match_id, lock=True)
    if context.match.status != Match.Status.IN_PROGRESS:
        raise MatchNotInProgress()
    seat = context.seat_of(player)
    if seat is None:
        raise NotSeated()
    _concede(context, seat.index, reason="resigned")
    return context.match


@transaction.atomic
def house_bot_turns_requeue(*, limit: int = 1000) -> int:
    """Queue again every house bot's turn waiting now; how many were queued.

    A worker calls this when it connects to the broker (tute_site.celery): turns whose task was lost
    while no worker was connected, or with a broker restart, are played at once instead of when their
    deadline passes. A turn queued twice is played once (bot_turn_play checks the ply). Each goes on the
    queue its turn would take (a match of house bots only: TUTE_BOT_ONLY_QUEUE).
    """
    waiting = list(
        Seat.objects.filter(
            match__status=Match.Status.IN_PROGRESS, index=F("match__turn_seat"), player__isnull=True
        )
        .exclude(bot_level="")
        .annotate(seated=Exists(Seat.objects.filter(match=OuterRef("match"), player__isnull=False)))
        .order_by("match__turn_deadline")
        .values_list("match_id", "match__ply", "seated")[:limit]
    )
    for match_id, ply, seated in waiting:
        queue_house_bot(match_id, ply, players=seated)
    return len(waiting)


def overdue_turns(*, limit: int = 500) -> list[tuple[int, int]]:
    """(match id, ply) of in-progress matches whose turn is past its deadline, oldest first."""
    return list(
        Match.objects.filter(status=Match.Status.IN_PROGRESS, turn_deadline__lt=timezone.now())
        .order_by("turn_deadline")
        .values_list("pk", "ply")[:limit]
    )
