"""Match services: the only writers of matches, seats, games and actions.

Every state-changing service locks the match row (``select_for_update`` on PostgreSQL) and, because that
lock does nothing on SQLite, also moves the ply with a conditional update; ``UNIQUE(match, ply)`` is the
last guard. One action per ply, whatever the database.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games.bots import BOT_LEVELS, get_bot
from games.engine import CODE_OF, RULES_VERSION, IllegalAction, Rules, RulesError, State
from games.errors import (
    AlreadySeated,
    IdempotencyKeyReused,
    IllegalActionError,
    InvalidRules,
    InvalidSeats,
    MatchNotFound,
    MatchNotInProgress,
    MatchNotOpen,
    NotAllowed,
    NotSeated,
    NotYourTurn,
    SeatTaken,
    StalePly,
    UnknownPlayer,
)
from games.models import Action, Game, Match, Player, Seat
from games.selectors import cache_state, current_game, game_state, match_rules
from games.signals import match_finished


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """How a seat starts: a player by handle, a house bot of a level, or empty (all None)."""

    player: str | None = None
    bot: str | None = None


def _lock_match(match_id: int) -> Match:
    qs = Match.objects.all()
    if connection.features.has_select_for_update:
        qs = qs.select_for_update()
    match = qs.filter(pk=match_id).first()
    if match is None:
        raise MatchNotFound()
    return match


def _sides(match: Match) -> int:
    return 2 if match.game == Match.GameName.TUTE4 else match.num_players


def _side_of(match: Match, seat: int) -> int:
    return seat % 2 if match.game == Match.GameName.TUTE4 else seat


# -- creating and seating -------------------------------------------------------------------------------


@transaction.atomic
def match_create(
    *,
    created_by: Player,
    game: str,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    format: str = Match.Format.SINGLE,
    format_target: int = 1,
    seats: list[SeatSpec] | None = None,
    rated: bool = True,
) -> Match:
    """A new match; the creator sits at seat 0 unless ``seats`` says otherwise. Starts when full."""
    try:
        rules = Rules.build(game, players, options or {})
    except RulesError as exc:
        raise InvalidRules(str(exc)) from None
    if format not in Match.Format.values:
        raise InvalidRules(f"format must be one of {', '.join(Match.Format.values)}")
    if format == Match.Format.SINGLE:
        format_target = 1
    if not 1 <= format_target <= 99:
        raise InvalidRules("the number of games N must be from 1 to 99")
    specs = seats if seats is not None else [SeatSpec(player=created_by.handle)]
    if len(specs) > rules.players:
        raise InvalidSeats(f"{game} has {rules.players} seats, not {len(specs)}")
    specs = specs + [SeatSpec()] * (rules.players - len(specs))
    handles = [s.player for s in specs if s.player]
    if len(handles) != len(set(handles)):
        raise InvalidSeats("a player takes at most one seat in a match")
    by_handle = {p.handle: p for p in Player.objects.filter(handle__in=handles)}
    for handle in handles:
        if handle not in by_handle:
            raise UnknownPlayer(f"No player has the handle {handle!r}.")
    for spec in specs:
        if spec.player and spec.bot:
            raise InvalidSeats("a seat holds a player or a house bot, not both")
        if spec.bot and spec.bot not in BOT_LEVELS:
            raise InvalidSeats(f"unknown house bot level {spec.bot!r}: choose from {', '.join(BOT_LEVELS)}")
    match = Match.objects.create(
        game=rules.game,
        num_players=rules.players,
        options=rules.to_options(),
        rules_version=RULES_VERSION,
        format=format,
        format_target=format_target,
        rated=rated,
        created_by=created_by.user,
    )
    Seat.objects.bulk_create(
        Seat(
            match=match,
            index=index,
            player=by_handle[spec.player] if spec.player else None,
            bot_level=spec.bot or "",
        )
        for index, spec in enumerate(specs)
    )
    if not any(spec.player is None and spec.bot is None for spec in specs):
        _start(match)
    return match


@transaction.atomic
def seat_join(*, match_id: int, player: Player, seat: int | None = None) -> Match:
    """Take ``seat`` (or the first empty one); the match starts when its last seat is filled."""
    match = _lock_match(match_id)
    if match.status != Match.Status.OPEN:
        raise MatchNotOpen()
    seats = list(match.seats.order_by("index"))
    if any(s.player_id == player.pk for s in seats):
        raise AlreadySeated()
    if seat is None:
        target = next((s for s in seats if s.is_empty), None)
        if target is None:
            raise SeatTaken("No empty seat is left.")
    else:
        target = next((s for s in seats if s.index == seat), None)
        if target is None:
            raise InvalidSeats(f"This match has seats 0 to {len(seats) - 1}.")
        if not target.is_empty:
            raise SeatTaken(f"Seat {seat} is taken.")
    target.player = player
    target.save(update_fields=["player"])
    if not any(s.is_empty for s in seats):
        _start(match)
    return match


@transaction.atomic
def seat_leave(*, match_id: int, player: Player) -> Match:
    match = _lock_match(match_id)
    if match.status != Match.Status.OPEN:
        raise MatchNotOpen("Seats can only be left before the match starts; resign instead.")
    updated = Seat.objects.filter(match=match, player=player).update(player=None)
    if not updated:
        raise NotSeated()
    return match


def _start(match: Match) -> None:
    match.status = Match.Status.IN_PROGRESS
    match.started_at = timezone.now()
    match.save(update_fields=["status", "started_at"])
    _deal_game(match, number=0)


def _deal_game(match: Match, *, number: int) -> Game:
    """A new game from a seed drawn from the OS's secure source; it stays secret until the game ends."""
    seed = secrets.token_hex(16)
    rules = match_rules(match)
    dealer = number % rules.players
    state = State.new(rules, dealer=dealer, seed=seed)
    decks = [[CODE_OF[c] for c in deck] for deck in state.table.decks]
    game = Game.objects.create(
        match=match, number=number, seed=seed, decks=decks, dealer=dealer, first_ply=match.ply
    )
    cache_state(game, match.ply, state)
    _queue_house_bot(match, state)
    return game


# -- acting ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Applied:
    """What an action did: the match after it and the ply the action took."""

    match: Match
    ply: int


@transaction.atomic
def action_submit(
    *, match_id: int, player: Player, code: str, ply: int, idempotency_key: str | None = None
) -> Applied:
    """Apply ``code`` for the caller's seat at ``ply``; the same idempotency key gets the first answer."""
    match = _lock_match(match_id)
    if idempotency_key:
        # Checked under the lock, so a retry racing its own first attempt still finds it.
        earlier = Action.objects.filter(match=match, player=player, idempotency_key=idempotency_key).first()
        if earlier is not None:
            if earlier.code != code or earlier.ply != ply:
                raise IdempotencyKeyReused()
            return Applied(match=match, ply=earlier.ply)
    seat = match.seats.filter(player=player).first()
    if seat is None:
        raise NotSeated()
    return _act(match, seat=seat.index, code=code, ply=ply, player=player, idempotency_key=idempotency_key)


@transaction.atomic
def bot_turn_play(*, match_id: int, ply: int) -> Applied | None:
    """Play a house bot's turn at ``ply``; nothing when the match has moved on or it is not a bot's turn."""
    match = _lock_match(match_id)
    if match.status != Match.Status.IN_PROGRESS or match.ply != ply:
        return None
    game = current_game(match)
    assert game is not None
    state = game_state(match=match, game=game)
    to_act = state.current_player()
    seat = match.seats.filter(index=to_act).first() if to_act is not None else None
    if seat is None or not seat.bot_level:
        return None
    code = house_bot_action(seat.bot_level, state, to_act, seed=f"{game.seed}:{ply}")
    return _act(match, seat=seat.index, code=code, ply=ply, player=None, idempotency_key=None)


def house_bot_action(level: str, state: State, seat: int | None, *, seed: str) -> str:
    """The bot's choice from the seat's view only, with randomness fixed by the game's seed and ply."""
    assert seat is not None
    bot = get_bot(level)
    return bot(state.view(seat), state.legal_actions(), random.Random(seed))


def _act(
    match: Match, *, seat: int, code: str, ply: int, player: Player | None, idempotency_key: str | None
) -> Applied:
    if match.status != Match.Status.IN_PROGRESS:
        raise MatchNotInProgress()
    if match.ply != ply:
        raise StalePly(current=match.ply)
    game = current_game(match)
    assert game is not None
    state = game_state(match=match, game=game)
    if state.current_player() != seat:
        raise NotYourTurn(f"It is seat {state.current_player()}'s turn, not seat {seat}'s.")
    try:
        after = state.apply(code)
    except IllegalAction as exc:
        raise IllegalActionError(
            exc.reason, action=code, ply=ply, legal=list(state.legal_actions())
        ) from None
    # The compare-and-swap on the ply: a no-op lock on SQLite still cannot let two actions share a ply.
    if Match.objects.filter(pk=match.pk, ply=ply).update(ply=ply + 1) != 1:
        raise StalePly(current=Match.objects.values_list("ply", flat=True).get(pk=match.pk))
    match.ply = ply + 1
    try:
        with transaction.atomic():
            Action.objects.create(
                match=match,
                game=game,
                ply=ply,
                seat=seat,
                code=code,
                player=player,
                idempotency_key=idempotency_key or None,
            )
    except IntegrityError:
        raise StalePly(current=ply + 1) from None
    cache_state(game, match.ply, after)
    if after.is_terminal():
        _finish_game(match, game, after)
    else:
        _queue_house_bot(match, after)
    return Applied(match=match, ply=ply)


def _queue_house_bot(match: Match, state: State) -> None:
    seat = state.current_player()
    if seat is None:
        return
    if match.seats.filter(index=seat).exclude(bot_level="").exists():
        from games.tasks import bot_play_turn  # tasks import services; import here to keep that one-way

        bot_play_turn.delay_on_commit(match.pk, match.ply)  # type: ignore[attr-defined]


# -- finishing ------------------------------------------------------------------------------------------


def _finish_game(match: Match, game: Game, state: State) -> None:
    result = state.result()
    assert result is not None
    game.status = Game.Status.FINISHED
    game.result = result.to_dict()
    game.finished_at = timezone.now()
    game.save(update_fields=["status", "result", "finished_at"])
    won = _games_won(match)
    games_played = game.number + 1
    target = match.format_target
    if match.format == Match.Format.FIRST_TO:
        over = max(won) >= target
    else:  # single is best of 1
        over = max(won) > target // 2 or games_played >= target
    if not over:
        _deal_game(match, number=game.number + 1)
        return
    best = max(won)
    winners = [side for side, count in enumerate(won) if count == best]
    _finish_match(
        match, result={"games_won": won, "winners": winners, "games": games_played}, reason="completed"
    )


def _games_won(match: Match) -> list[int]:
    """Games won per side so far; a shared Pocha win counts for every side that shares it."""
    won = [0] * _sides(match)
    for played in match.games.filter(status=Game.Status.FINISHED).only("result"):
        assert played.result is not None
        for side in played.result["winners"]:
            won[side] += 1
    return won


def _finish_match(match: Match, *, result: dict[str, Any], reason: str) -> None:
    match.status = Match.Status.FINISHED
    match.result = result
    match.finish_reason = reason
    match.finished_at = timezone.now()
    match.save(update_fields=["status", "result", "finish_reason", "finished_at"])
    transaction.on_commit(lambda: match_finished.send(sender=Match, match=match))


@transaction.atomic
def match_resign(*, match_id: int, player: Player) -> Match:
    """The caller's side concedes the match; every other side wins it."""
    match = _lock_match(match_id)
    if match.status != Match.Status.IN_PROGRESS:
        raise MatchNotInProgress()
    seat = match.seats.filter(player=player).first()
    if seat is None:
        raise NotSeated()
    loser = _side_of(match, seat.index)
    match.games.filter(status=Game.Status.IN_PROGRESS).update(status=Game.Status.ABANDONED)
    won = _games_won(match)
    winners = [side for side in range(_sides(match)) if side != loser]
    played = match.games.filter(status=Game.Status.FINISHED).count()
    result = {"games_won": won, "winners": winners, "games": played, "resigned": seat.index}
    _finish_match(match, result=result, reason="resigned")
    return match


@transaction.atomic
def match_abort(*, match_id: int, by: Player) -> Match:
    """The creator (or staff) calls the match off: it is never rated and has no result."""
    match = _lock_match(match_id)
    if match.created_by_id != by.user_id and not by.user.is_staff:
        raise NotAllowed("Only the match's creator or staff may abort it.")
    if match.status not in (Match.Status.OPEN, Match.Status.IN_PROGRESS):
        raise MatchNotInProgress("The match is already over.")
    match.games.filter(status=Game.Status.IN_PROGRESS).update(status=Game.Status.ABANDONED)
    match.status = Match.Status.ABORTED
    match.finish_reason = "aborted"
    match.finished_at = timezone.now()
    match.save(update_fields=["status", "finish_reason", "finished_at"])
    return match
