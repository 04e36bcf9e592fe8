"""Seating people at open tables: joining (with a private table's invite code), leaving, challenges and
their answers, house bots for the empty seats, rematches, and the sweep of tables nobody completes."""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from games.bots import BOT_LEVELS
from games.errors import (
    AlreadySeated,
    InvalidSeats,
    InviteRequired,
    ManagedMatch,
    MatchNotOpen,
    NotAllowed,
    NotInvited,
    NotSeated,
    RematchUnavailable,
    SeatTaken,
)
from games.events import publish_match_event
from games.models import Match, Player, Seat
from games.selectors import MatchContext, match_context
from games.services.matches import call_off, match_create, start_when_ready
from games.services.specs import Clock, SeatSpec, check_client_seed, match_spec, rated_for_bots

log = logging.getLogger(__name__)


def _seats_changed(context: MatchContext) -> None:
    """Start the match if its seats are all ready now; else tell its page, its players and the lobby."""
    if not start_when_ready(context):
        publish_match_event(context.match, context.seats)


def _check_invite(match: Match, invite_code: str | None) -> None:
    """A private table's seat is taken with its code; a wrong code and a missing one are refused alike."""
    if not match.private:
        return
    if not invite_code or not secrets.compare_digest(invite_code, match.invite_code or ""):
        raise InviteRequired()


@transaction.atomic
def seat_join(
    *,
    match_id: int,
    player: Player,
    seat: int | None = None,
    client_seed: str | None = None,
    invite_code: str | None = None,
) -> Match:
    """Take ``seat`` (or the first empty one); the match starts when its last seat is filled.

    A private table asks for its ``invite_code``. The seats are read after the match row's lock, so of
    two joins at once the second sees the first's seat; the seat's own conditional update and the
    one-seat-per-player constraint are the last guards.
    """
    if client_seed is not None:
        check_client_seed(client_seed)
    context = match_context(match_id, lock=True)
    match, seats = context.match, context.seats
    if match.status != Match.Status.OPEN:
        raise MatchNotOpen()
    _check_invite(match, invite_code)
    if context.seat_of(player) is not None:
        raise AlreadySeated()
    if match.rated:
        rated_for_bots(match.game, [player], True)
    if seat is None:
        target = next((s for s in seats if s.is_empty), None)
        if target is None:
            raise SeatTaken("No empty seat is left.")
    else:
        target = context.seat_at(seat)
        if target is None:
            raise InvalidSeats(f"This match has seats 0 to {len(seats) - 1}.")
        if not target.is_empty:
            raise SeatTaken(f"Seat {seat} is taken.")
    try:
        with transaction.atomic():
            taken = Seat.objects.filter(pk=target.pk, player__isnull=True, bot_level="").update(
                player=player, accepted=True, decline_reason="", client_seed=client_seed or ""
            )
    except IntegrityError:  # seat_one_per_player: the same player joined another seat meanwhile
        raise AlreadySeated() from None
    if taken != 1:
        raise SeatTaken(f"Seat {target.index} is taken.")
    target.player, target.accepted, target.decline_reason = player, True, ""
    target.client_seed = client_seed or ""
    _mark_seen(player)  # joining is being there: the seat is not given up as abandoned at once
    _seats_changed(context)
    return match


def _mark_seen(player: Player) -> None:
    now = timezone.now()
    Player.objects.filter(pk=player.pk).update(last_seen_at=now)
    player.last_seen_at = now


@transaction.atomic
def seat_leave(*, match_id: int, player: Player) -> Match:
    context = match_context(match_id, lock=True)
    if context.match.status != Match.Status.OPEN:
        raise MatchNotOpen("Seats can only be left before the match starts; resign instead.")
    seat = context.seat_of(player)
    if seat is None:
        raise NotSeated()
    _free(seat)
    publish_match_event(context.match, [*context.seats, Seat(player=player)])
    return context.match


def _free(seat: Seat) -> None:
    seat.player, seat.accepted, seat.client_seed = None, True, ""
    seat.save(update_fields=["player", "accepted", "client_seed"])


@transaction.atomic
def seats_fill_with_bots(*, match_id: int, by: Player, bot: str, seats: list[int] | None = None) -> Match:
    """The creator seats house bots of level ``bot`` in the empty seats (or in ``seats``, each empty);
    the match starts if that fills the table."""
    if bot not in BOT_LEVELS:
        raise InvalidSeats(f"unknown house bot level {bot!r}: choose from {', '.join(BOT_LEVELS)}")
    context = match_context(match_id, lock=True)
    match = context.match
    if match.managed:
        raise ManagedMatch()
    if match.created_by_id != by.user_id:
        raise NotAllowed("Only the table's creator seats house bots at it.")
    if match.status != Match.Status.OPEN:
        raise MatchNotOpen()
    if seats is None:
        targets = [s for s in context.seats if s.is_empty]
    else:
        targets = []
        for index in sorted(set(seats)):
            target = context.seat_at(index)
            if target is None:
                raise InvalidSeats(f"This match has seats 0 to {len(context.seats) - 1}.")
            if not target.is_empty:
                raise SeatTaken(f"Seat {index} is taken.")
            targets.append(target)
    if not targets:
        raise SeatTaken("No empty seat is left.")
    for target in targets:
        target.bot_level, target.decline_reason = bot, ""
        target.save(update_fields=["bot_level", "decline_reason"])
    _seats_changed(context)
    return match


@transaction.atomic
def challenge_accept(*, match_id: int, player: Player, client_seed: str | None = None) -> Match:
    """The challenged player takes the seat it was offered (with its client seed, if it gives one)."""
    if client_seed is not None:
        check_client_seed(client_seed)
    context = match_context(match_id, lock=True)
    seat = _challenged_seat(context, player)
    seat.accepted = True
    fields = ["accepted"]
    if client_seed is not None:
        seat.client_seed = client_seed
        fields.append("client_seed")
    seat.save(update_fields=fields)
    _mark_seen(player)
    _seats_changed(context)
    return context.match


@transaction.atomic
def challenge_decline(*, match_id: int, player: Player, reason: str = "") -> Match:
    """The challenged player refuses: the seat is empty again and keeps the reason for the creator, who
    may not challenge them again for ``TUTE_CHALLENGE_COOLDOWN_SECONDS``. A challenge between people
    only (no empty seat it could go on with) is called off."""
    context = match_context(match_id, lock=True)
    seat = _challenged_seat(context, player)
    seat.player = None
    seat.accepted = True
    seat.decline_reason = reason[:200] or "declined"
    seat.client_seed = ""
    seat.declined_by, seat.declined_at = player, timezone.now()
    seat.save(
        update_fields=["player", "accepted", "decline_reason", "client_seed", "declined_by", "declined_at"]
    )
    if context.match.private and not context.match.managed:
        call_off(context, reason="declined")
    else:
        publish_match_event(context.match, [*context.seats, Seat(player=player)])
    return context.match


def _challenged_seat(context: MatchContext, player: Player) -> Seat:
    if context.match.status != Match.Status.OPEN:
        raise MatchNotOpen("The challenge is no longer open.")
    seat = context.seat_of(player)
    if seat is None:
        raise NotSeated()
    if seat.accepted:
        raise NotInvited("That seat is already accepted.")
    return seat


@transaction.atomic
def match_rematch(*, match_id: int, player: Player) -> tuple[Match, bool]:
    """Offer the same table again after a finished match (same seats, game, rules and clock), or take up
    the offer another player of it made: the first to ask creates the rematch, a private table where
    the others are challenged; each other player asking accepts their seat in it. The match starts when
    everyone has accepted (house bots at once). Returns the rematch and whether this call created it."""
    context = match_context(match_id, lock=True)
    match = context.match
    if match.managed or match.status != Match.Status.FINISHED:
        raise RematchUnavailable()
    if context.seat_of(player) is None:
        raise NotSeated("Only the match's players may offer or accept its rematch.")
    offered = Match.objects.filter(rematch_of=match).exclude(status=Match.Status.ABORTED).first()
    if offered is not None:
        mine = offered.seats.filter(player=player).first()
        if offered.status == Match.Status.OPEN and mine is not None and not mine.accepted:
            return challenge_accept(match_id=offered.pk, player=player), False
        return offered, False
    seats = [
        SeatSpec(player=s.player.handle) if s.player else SeatSpec(bot=s.bot_level or None)
        for s in context.seats
    ]
    spec = match_spec(
        capped=True,
        created_by=player,
        game=match.game,
        players=match.num_players,
        options=match.options,
        format=match.format,
        format_target=match.format_target,
        seats=seats,
        rated=None if match.rated else False,
        clock=Clock(
            human_move_seconds=match.human_move_seconds,
            bot_move_seconds=match.bot_move_seconds,
            max_timeouts=match.max_timeouts,
        ),
        private=True,
        rematch_of=match,
    )
    return match_create(spec=spec), True


@dataclass(frozen=True, slots=True)
class Swept:
    expired: int
    seats_freed: int


@transaction.atomic
def open_tables_sweep() -> Swept:
    """Call off the open tables and challenges past their ``expires_at`` (finish reason ``expired``), and
    give up the seats of people gone from tables not yet started (unseen for ``TUTE_AWAY_SECONDS``;
    not the creator's seat: a table whose creator left expires)."""
    now = timezone.now()
    expired = 0
    due = Match.objects.filter(status=Match.Status.OPEN, managed=False, expires_at__lte=now)
    for match_id in due.values_list("pk", flat=True)[:200]:
        context = match_context(match_id, lock=True)
        if context.match.status == Match.Status.OPEN:
            call_off(context, reason="expired")
            expired += 1
    away = now - timedelta(seconds=settings.TUTE_AWAY_SECONDS)
    gone = Seat.objects.filter(
        Q(player__last_seen_at__lt=away),
        match__status=Match.Status.OPEN,
        match__managed=False,
        accepted=True,
        player__is_bot=False,
    ).exclude(match__created_by=F("player__user"))
    freed = 0
    for match_id, player_id in gone.values_list("match_id", "player_id")[:200]:
        context = match_context(match_id, lock=True)
        seat = next((s for s in context.seats if s.player_id == player_id), None)
        if context.match.status != Match.Status.OPEN or seat is None or not seat.accepted:
            continue
        log.info("seat %s of open match %s given up: its player has gone", seat.index, match_id)
        _free(seat)
        publish_match_event(context.match, context.seats)
        freed += 1
    return Swept(expired=expired, seats_freed=freed)
