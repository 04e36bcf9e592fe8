"""Creating matches, seating players and house bots, challenges, starting and aborting."""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.engine import CODE_OF, RULES_VERSION, State
from games.engine.fair import commitment, deal_seed
from games.errors import (
    AbortTooLate,
    BoardFixed,
    GameStarted,
    ManagedMatch,
    MatchNotInProgress,
    NotAllowed,
    NotSeated,
    TooManyOpenMatches,
)
from games.events import publish_match_event
from games.models import Action, Board, Game, Match, MatchBoard, Player, Seat
from games.selectors import MatchContext, match_context
from games.services.boards import board_create, board_redeal, boards_reveal, new_server_seed
from games.services.common import set_turn
from games.services.specs import MatchSpec, check_client_seed
from games.states import cache_state, match_rules

log = logging.getLogger(__name__)


@transaction.atomic
def match_create(*, spec: MatchSpec) -> Match:
    """The match ``spec`` describes (checked already by ``match_spec``), its seats and its boards; it
    starts at once when every seat is filled and accepted, and challenged bots hear of it.

    The first game's server seed is drawn now and its commitment shown while the match is open. A
    ``capped`` spec is counted against the creator's open matches here, under their row's lock, so
    that two creations at once are counted one after the other.
    """
    if spec.capped:
        _check_open_matches(spec.created_by)
    rules = spec.rules
    server_seed = new_server_seed()
    match = Match.objects.create(
        game=rules.game,
        num_players=rules.players,
        options=rules.to_options(),
        rules_version=RULES_VERSION,
        format=spec.format,
        format_target=spec.format_target,
        rated=spec.rated,
        managed=spec.managed,
        created_by_id=spec.created_by.user_id,  # the id is enough: no query for the account
        human_move_seconds=spec.clock.human_move_seconds,
        bot_move_seconds=spec.clock.bot_move_seconds,
        max_timeouts=spec.clock.max_timeouts,
        next_server_seed=server_seed,
        next_seed_sha256=commitment(server_seed),
        private=spec.private,
        invite_code=new_invite_code() if spec.private else None,
        expires_at=None if spec.managed else timezone.now() + timedelta(seconds=_open_seconds(spec)),
        rematch_of=spec.rematch_of,
    )
    new_seats = [
        Seat(
            match=match,
            index=index,
            player=plan.player,
            bot_level=plan.bot_level,
            accepted=plan.accepted,
            client_seed=plan.client_seed,
        )
        for index, plan in enumerate(spec.seats)
    ]
    Seat.objects.bulk_create(new_seats)
    if spec.boards is not None:
        MatchBoard.objects.bulk_create(
            [MatchBoard(match=match, number=number, board=board) for number, board in enumerate(spec.boards)]
        )
    start_when_ready(MatchContext(match=match, seats=new_seats, game=None, state=None))
    publish_match_event(match, new_seats)  # challenged bots hear of it at once
    return match


#: An invite code's random bytes: 96 bits, URL-safe (16 characters); never listed, shown to the creator.
INVITE_BYTES = 12


def new_invite_code() -> str:
    return secrets.token_urlsafe(INVITE_BYTES)


def _open_seconds(spec: MatchSpec) -> int:
    """How long the match may wait open for its seats: a challenge's answer, or a table's people."""
    if any(not seat.accepted for seat in spec.seats):
        return int(settings.TUTE_CHALLENGE_EXPIRE_SECONDS)
    return int(settings.TUTE_TABLE_EXPIRE_SECONDS)


def _check_open_matches(creator: Player) -> None:
    limit = settings.TUTE_MAX_OPEN_MATCHES
    if limit <= 0:
        return
    # The creator's row, locked: two creations at once are counted one after the other.
    Player.objects.select_for_update().filter(pk=creator.pk).first()
    live = Match.objects.filter(
        created_by=creator.user_id, managed=False, status__in=[Match.Status.OPEN, Match.Status.IN_PROGRESS]
    ).count()
    if live >= limit:
        raise TooManyOpenMatches(
            f"You have {live} matches open or in play; finish or abort one first (at most {limit}).",
            detail={"limit": limit, "open": live},
        )


@transaction.atomic
def match_abort(*, match_id: int, by: Player) -> Match:
    """Call off a match that has not really started: never rated, no result.

    The creator or staff may abort while some seat has not acted yet (as Lichess does: before each
    side has moved); after that only resigning or the clock ends it, so nobody dodges a rating change.
    A tournament's match (``managed``) is ended only by the tournament.
    """
    context = match_context(match_id, lock=True)
    match = context.match
    if match.managed:
        raise ManagedMatch()
    if match.created_by_id != by.user_id and not by.user.is_staff:
        raise NotAllowed("Only the match's creator or staff may abort it.")
    if match.status not in (Match.Status.OPEN, Match.Status.IN_PROGRESS):
        raise MatchNotInProgress("The match is already over.")
    if match.status == Match.Status.IN_PROGRESS:
        acted = Action.objects.filter(match=match).order_by().values("seat").distinct().count()
        if acted >= match.num_players:
            raise AbortTooLate()
    return call_off(context)


@transaction.atomic
def match_call_off(*, match_id: int) -> Match:
    """End a match with no result for the service that manages it (a tournament's no-show,
    withdrawal or cancellation, whose service checked who asked); a match already over is left as it is."""
    context = match_context(match_id, lock=True)
    match = context.match
    if match.status not in (Match.Status.OPEN, Match.Status.IN_PROGRESS):
        return match
    log.info("match %s called off by its managing service at ply %s", match.pk, match.ply)
    return call_off(context)


def call_off(context: MatchContext, *, reason: str = "aborted") -> Match:
    """End an open or running match with no result (``reason``: aborted, expired...)."""
    match = context.match
    match.games.filter(status=Game.Status.IN_PROGRESS).update(status=Game.Status.ABANDONED)
    match.status = Match.Status.ABORTED
    match.finish_reason = reason
    match.finished_at = timezone.now()
    match.turn_seat = None
    match.turn_deadline = None
    match.save(update_fields=["status", "finish_reason", "finished_at", "turn_seat", "turn_deadline"])
    boards_reveal(match=match)
    publish_match_event(match, context.seats)
    return match


def start_when_ready(context: MatchContext) -> bool:
    """Start the match once every seat is filled and accepted; whether it started."""
    match = context.match
    if all(seat.is_ready for seat in context.seats):
        match.status = Match.Status.IN_PROGRESS
        match.started_at = timezone.now()
        # The status is saved with the first turn's fields, in the same UPDATE.
        deal_game(context, number=0, also_save=("status", "started_at"))
        return True
    return False


#: How often a Tute board is played in a duplicate match (the seats rotated by one each time: Tute 2
#: swaps the players, Tute 4 moves each pair to the other side). A Pocha board is played once per
#: player, so that every player holds every seat's cards once (``duplicate_plays``).
DUPLICATE_PLAYS = 2


def duplicate_plays(match: Match) -> int:
    """How many times each board of a duplicate match is played: 2 in the Tute games, n in Pocha."""
    return match.num_players if match.game == Match.GameName.POCHA else DUPLICATE_PLAYS


def deal_game(context: MatchContext, *, number: int, also_save: tuple[str, ...] = ()) -> MatchContext:
    """A new game dealt from the match's committed server seed and the seats' client seeds (RULES.md
    section 11); the next game's server seed is drawn now from the OS's secure source and committed.

    In a duplicate match, game ``number`` is play ``number % p`` of board ``number // p`` (p plays per
    board: ``duplicate_plays``): the first play deals the board as above, play k deals the same seed
    with the same dealer, game seat g held by match seat (g + k) mod n.

    A duplicate match's boards are ``Board`` rows: the match's own (dealt at a board's first play from
    the committed server seed and the seats' client seeds) or given at its creation (shared with other
    matches).

    ``also_save`` names fields of the match the caller changed, saved with the turn's. Returns the
    match's context with the new game as its current one.
    """
    match, seats = context.match, context.seats
    rules = match_rules(match)
    n = rules.players
    board: int | None = None
    seat_map: list[int] | None = None
    dealt_from: Board | None = None
    first_play = True
    if match.format == Match.Format.DUPLICATE:
        board, play = divmod(number, duplicate_plays(match))
        seat_map = [(g + play) % n for g in range(n)]
        dealt_from = _board_of(match, board, first_play=play == 0, seats=seats)
        first_play = play == 0
    if dealt_from is not None:  # the board's deal: its seeds and dealer, whichever play this is
        server_seed, client_seeds, seed, dealer = (
            dealt_from.server_seed,
            dealt_from.client_seeds,
            dealt_from.seed,
            dealt_from.dealer,
        )
    else:
        server_seed = match.next_server_seed or new_server_seed()
        client_seeds = [s.client_seed for s in sorted(seats, key=lambda s: s.index)]
        seed = deal_seed(server_seed, client_seeds)
        dealer = number % n
    state = State.new(rules, dealer=dealer, seed=seed)
    decks = [[CODE_OF[c] for c in deck] for deck in state.table.decks]
    game = Game.objects.create(
        match=match,
        number=number,
        seed=seed,
        server_seed=server_seed,
        client_seeds=client_seeds,
        decks=decks,
        dealer=dealer,
        first_ply=match.ply,
        board=board,
        seat_map=seat_map,
        dealt_from=dealt_from,
    )
    match.current_game = game
    match.seed_sha256 = commitment(server_seed)
    fair = ["seed_sha256"]
    if dealt_from is None or (first_play and server_seed == match.next_server_seed):
        # the committed server seed is used now: the next game's is drawn and committed
        following = new_server_seed()
        match.next_server_seed = following
        match.next_seed_sha256 = commitment(following)
        fair += ["next_server_seed", "next_seed_sha256"]
    cache_state(game, match.ply, state)
    dealt = MatchContext(match=match, seats=seats, game=game, state=state)
    set_turn(dealt, state, also_save=(*also_save, "current_game", *fair))
    return dealt


def _board_of(match: Match, number: int, *, first_play: bool, seats: list[Seat]) -> Board:
    """Board ``number`` of a duplicate match: given at its creation, or dealt now at its first play from
    the match's committed server seed and the seats' client seeds (its dealer: game seat number mod n)."""
    linked = MatchBoard.objects.select_related("board").filter(match=match, number=number).first()
    if linked is not None:
        return linked.board
    if not first_play:  # a board dealt before boards were rows: its first play's deal
        plays = duplicate_plays(match)
        first = Game.objects.get(match=match, number=number * plays)
        board = board_create(
            game=match.game,
            players=match.num_players,
            options=match.options,
            dealer=first.dealer,
            server_seed=first.server_seed,
            client_seeds=first.client_seeds,
        )
        MatchBoard.objects.create(match=match, number=number, board=board)
        return board
    board = board_create(
        game=match.game,
        players=match.num_players,
        options=match.options,
        dealer=number % match.num_players,
        server_seed=match.next_server_seed or None,
        client_seeds=[s.client_seed for s in sorted(seats, key=lambda s: s.index)],
    )
    MatchBoard.objects.create(match=match, number=number, board=board)
    return board


@transaction.atomic
def client_seed_set(*, match_id: int, player: Player, client_seed: str) -> Match:
    """The caller's seat gives its client seed (RULES.md section 11): it counts for every game of the
    match dealt from now on, and for the current game while that game has no action yet (its deal is
    then made again from the new seed). After the current game's first action: 409 game_started.
    """
    check_client_seed(client_seed)
    context = match_context(match_id, lock=True)
    match, game = context.match, context.game
    seat = context.seat_of(player)
    if seat is None:
        raise NotSeated()
    if match.status not in (Match.Status.OPEN, Match.Status.IN_PROGRESS):
        raise MatchNotInProgress("The match is over: its deals are done.")
    if match.status == Match.Status.IN_PROGRESS:
        assert game is not None, "a match in progress has a current game"
        if match.ply != game.first_ply:
            raise GameStarted(
                f"Game {game.number} has begun: a client seed counts only before a game's first action."
            )
        if game.board is not None and game.seat_map and game.seat_map[0] != 0:
            raise GameStarted(
                f"Board {game.board} was dealt at its first play: its second play deals the same cards."
            )
    if MatchBoard.objects.filter(board__match_boards__match=match).exclude(match=match).exists():
        raise BoardFixed()  # its boards are other tables' too
    seat.client_seed = client_seed
    seat.save(update_fields=["client_seed"])
    if match.status == Match.Status.IN_PROGRESS and game is not None:
        state = _redeal(context, game)
        # The turn starts again with the new cards, and streams hear of it.
        set_turn(MatchContext(match=match, seats=context.seats, game=game, state=state), state)
    else:
        publish_match_event(match, context.seats)
    return match


def _redeal(context: MatchContext, game: Game) -> State:
    """Deal ``game`` (no action yet) again from its server seed and the seats' client seeds now."""
    match, seats = context.match, context.seats
    client_seeds = [s.client_seed for s in sorted(seats, key=lambda s: s.index)]
    seed = deal_seed(game.server_seed, client_seeds)
    state = State.new(match_rules(match), dealer=game.dealer, seed=seed)
    game.client_seeds = client_seeds
    game.seed = seed
    game.decks = [[CODE_OF[c] for c in deck] for deck in state.table.decks]
    game.save(update_fields=["client_seeds", "seed", "decks"])
    if game.dealt_from is not None:  # the match's own board, not played yet: dealt again with it
        board_redeal(game.dealt_from, client_seeds=client_seeds)
    cache_state(game, match.ply, state)
    return state
