"""The ladder's writers: presence, ladder opt-in, validation, push bots.

The matchmaker's tick (which reads ratings) is ``ladder.tick``; it calls ``validations_start_due`` here
and makes ladder matches through ``ladder_match_create``.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.errors import (
    IllegalActionError,
    InvalidPushUrl,
    MatchNotInProgress,
    NotABot,
    NotYourTurn,
    StalePly,
    UnknownGame,
)
from games.models import Match, Player, Seat
from games.selectors import match_context, match_view_for
from games.services.matches import match_create
from games.services.play import action_submit, turn_timeout
from games.services.specs import Clock, SeatSpec, match_spec
from games.streams import api_time
from ladder.models import GAMES, BotIncident, BotProfile, LadderMatch, Validation
from ladder.push import PushError, check_url, push
from ladder.selectors import online_since, validation_required
from tute_site.celery import queue_on_commit

log = logging.getLogger(__name__)

#: A seen bot's ``last_seen_at`` is written at most this often (polling bots ask every second or two).
SEEN_WRITE_SECONDS = 5
HOST_HANDLE = "ladder-host"
#: The house bot a validation match is played against (and the partner or opponents at four seats).
VALIDATION_OPPONENT = "rule"


def bot_seen(*, player: Player, now: datetime | None = None) -> None:
    """The bot is online now (its stream is open, or it polled): at most one write per few seconds."""
    if not player.is_bot:
        return
    now = now or timezone.now()
    stale = Q(last_seen_at__isnull=True) | Q(last_seen_at__lt=now - timedelta(seconds=SEEN_WRITE_SECONDS))
    if not BotProfile.objects.filter(player=player).filter(stale).update(last_seen_at=now):
        BotProfile.objects.get_or_create(player=player, defaults={"last_seen_at": now})


def _owned_bot(owner: Any, handle: str) -> Player:
    bot = Player.objects.filter(handle=handle, is_bot=True, owner=owner).select_for_update().first()
    if bot is None:
        raise NotABot()
    return bot


def _check_games(games: Sequence[str]) -> list[str]:
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        raise UnknownGame(
            f"Unknown game {unknown[0]!r}: choose from {', '.join(GAMES)}.", detail={"games": unknown}
        )
    return sorted(set(games), key=GAMES.index)


@transaction.atomic
def ladder_games_set(*, owner: Any, handle: str, games: Sequence[str]) -> Player:
    """The games the owner's bot plays on the ladder; validation is requested for each one it lacks
    (the matchmaker starts it while the bot is online, and pairs it only once it passed)."""
    bot = _owned_bot(owner, handle)
    chosen = _check_games(games)
    profile, _ = BotProfile.objects.get_or_create(player=bot)
    profile.ladder_games = chosen
    profile.save(update_fields=["ladder_games"])
    for game in chosen:
        _validation_ensure(bot, game)
    return bot


@transaction.atomic
def validation_request(*, owner: Any, handle: str, game: str) -> Validation:
    """Start (or start again, after a failure) the validation of the owner's bot for ``game``."""
    bot = _owned_bot(owner, handle)
    _check_games([game])
    validation = _validation_ensure(bot, game)
    if validation.status == Validation.Status.FAILED:
        validation.status = Validation.Status.PENDING
        validation.passed = 0
        validation.required = validation_required()
        validation.failure = None
        validation.failure_reason = ""
        validation.save()
    return validation


def _validation_ensure(bot: Player, game: str) -> Validation:
    validation, _ = Validation.objects.get_or_create(
        player=bot, game=game, defaults={"required": validation_required()}
    )
    if validation.status != Validation.Status.PASSED and validation.required == 0:
        validation.status = Validation.Status.PASSED
        validation.save(update_fields=["status", "updated_at"])
    return validation


def ladder_host() -> Player:
    """The account the ladder creates its matches as: a person who never sits, so no bot can abort them."""
    user, _ = get_user_model().objects.get_or_create(username=HOST_HANDLE)
    player, _ = Player.objects.get_or_create(
        user=user, defaults={"handle": HOST_HANDLE, "display_name": "Ladder"}
    )
    return player


def ladder_clock() -> Clock:
    return Clock(bot_move_seconds=settings.TUTE_LADDER_MOVE_SECONDS)


@transaction.atomic
def ladder_match_create(
    *,
    game: str,
    seats: list[SeatSpec],
    bots: list[Player],
    kind: str = LadderMatch.Kind.LADDER,
    validation: Validation | None = None,
    host: Player | None = None,
) -> Match:
    """A match the ladder pairs (rated) or a validation match (unrated), started at once. ``host``: the
    ladder's host account when the caller has it already (the matchmaker makes many matches a tick)."""
    spec = match_spec(
        created_by=host or ladder_host(),
        game=game,
        seats=seats,
        rated=kind == LadderMatch.Kind.LADDER,
        clock=ladder_clock(),
        challenge=False,
        managed=True,  # nobody aborts a ladder match through the API: it is played or forfeited
    )
    match = match_create(spec=spec)
    ladder = LadderMatch.objects.create(match=match, kind=kind, game=game, validation=validation)
    ladder.bots.add(*bots)  # a new row: nothing to compare with, one INSERT
    return match


def _validation_seats(bot: Player, game: str) -> list[SeatSpec]:
    others = 1 if game == "tute2" else 3
    return [SeatSpec(player=bot.handle)] + [SeatSpec(bot=VALIDATION_OPPONENT)] * others


def validations_start_due(*, now: datetime | None = None) -> list[int]:
    """Start the next validation match of every validation under way whose bot is online and has no
    validation match in progress; the ids of the matches started.

    Each match is committed as it is made: the bot sees it, and its first move's clock runs, from then
    (a validation fails at its first timeout, so a clock running while the bot cannot see the match
    yet would fail it unfairly)."""
    due = list(
        Validation.objects.filter(status__in=[Validation.Status.PENDING, Validation.Status.RUNNING])
        .filter(player__ladder__last_seen_at__gte=online_since(now))
        .exclude(matches__finished=False)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    host = ladder_host() if due else None
    started = []
    for validation_id in due:
        match = _validation_match_start(validation_id=validation_id, host=host)
        if match is not None:
            started.append(match.pk)
    return started


@transaction.atomic
def _validation_match_start(*, validation_id: int, host: Player | None) -> Match | None:
    """The validation's next match, unless another run started it meanwhile (its row is locked, or it
    has a match under way now)."""
    validation = (
        Validation.objects.select_for_update(skip_locked=True, of=("self",))
        .filter(pk=validation_id, status__in=[Validation.Status.PENDING, Validation.Status.RUNNING])
        .exclude(matches__finished=False)
        .select_related("player")
        .first()
    )
    if validation is None:
        return None
    match = ladder_match_create(
        host=host,
        game=validation.game,
        seats=_validation_seats(validation.player, validation.game),
        bots=[validation.player],
        kind=LadderMatch.Kind.VALIDATION,
        validation=validation,
    )
    if validation.status == Validation.Status.PENDING:
        validation.status = Validation.Status.RUNNING
        validation.save(update_fields=["status", "updated_at"])
    return match


@transaction.atomic
def ladder_match_finished(*, match_id: int) -> None:
    """A ladder or validation match ended: the ladder stops counting it as under way; a validation
    match counts towards its validation when the bot played it clean (no refused action, no timeout),
    and fails the validation otherwise."""
    match_context(
        match_id, lock=True
    )  # the finishing transaction has committed; this orders repeated deliveries
    ladder = LadderMatch.objects.filter(match_id=match_id, finished=False).select_related("match").first()
    if ladder is None or ladder.match.status in (Match.Status.OPEN, Match.Status.IN_PROGRESS):
        return
    ladder.finished = True
    ladder.save(update_fields=["finished"])
    if ladder.validation_id is None:
        return
    validation = Validation.objects.select_for_update().get(pk=ladder.validation_id)
    if validation.status != Validation.Status.RUNNING:
        return
    match = ladder.match
    incident = (
        BotIncident.objects.filter(match=match, player_id=validation.player_id)
        .order_by("created_at", "id")
        .first()
    )
    if incident is not None:
        validation.status = Validation.Status.FAILED
        validation.failure = incident
        if incident.kind == BotIncident.Kind.ILLEGAL:
            reason = (incident.answer or {}).get("detail", {}).get("reason", "")
            validation.failure_reason = f"refused action at ply {incident.ply}: {reason}"[:200]
        else:
            validation.failure_reason = f"timeout at ply {incident.ply}"
    elif match.status != Match.Status.FINISHED:
        validation.status = Validation.Status.FAILED
        validation.failure_reason = "the validation match was aborted"
    else:
        validation.passed += 1
        if validation.passed >= validation.required:
            validation.status = Validation.Status.PASSED
    validation.save()


@transaction.atomic
def push_endpoint_set(*, owner: Any, handle: str, url: str) -> str | None:
    """Make the owner's bot a push bot (``url``: its HTTPS endpoint) or a streaming one again (``""``).
    Returns the new signing secret (shown once), or None when push is turned off."""
    bot = _owned_bot(owner, handle)
    profile, _ = BotProfile.objects.get_or_create(player=bot)
    if not url:
        profile.push_url = ""
        profile.push_secret = ""
        profile.save(update_fields=["push_url", "push_secret"])
        return None
    try:
        check_url(url, allow_local=settings.TUTE_PUSH_ALLOW_LOCAL)
    except PushError as exc:
        raise InvalidPushUrl(str(exc), detail={"push_url": url}) from None
    profile.push_url = url
    profile.push_secret = secrets.token_urlsafe(32)
    profile.save(update_fields=["push_url", "push_secret"])
    return profile.push_secret


def push_turn_queue(*, match: Match, seat: Seat) -> None:
    """When the seat to act is a push bot's, queue the POST of its turn (``push_turn``) on commit.

    The bot's profile is read with the match's seats (LadderConfig.ready() names it in
    ``games.selectors.SEAT_PLAYER_RELATIONS``), so a move costs no query for this."""
    player = seat.player
    if player is None or not player.is_bot:
        return
    try:
        push_url = player.ladder.push_url
    except BotProfile.DoesNotExist:  # a bot that never set up the ladder or push
        return
    if push_url:
        queue_on_commit("games.push_turn", match.pk, match.ply)


def push_turn(*, match_id: int, ply: int) -> str | None:
    """POST the push bot's turn at ``ply`` to its endpoint and play the action it answers; what
    happened (``"played"``, or why not). Outside any transaction: the call may take seconds. A failed
    call, or an answer without an action, counts as a timeout at once."""
    match = Match.objects.filter(pk=match_id).first()
    if (
        match is None
        or match.status != Match.Status.IN_PROGRESS
        or match.ply != ply
        or match.turn_seat is None
    ):
        return "moved on"
    seat = Seat.objects.select_related("player").filter(match=match, index=match.turn_seat).first()
    if seat is None or seat.player is None or not seat.player.is_bot:
        return "not a bot's turn"
    profile = BotProfile.objects.filter(player=seat.player).first()
    if profile is None or not profile.push_url:
        return "not a push bot"
    view = match_view_for(context=match_context(match.pk, lock=False), player=seat.player)
    if not view["legal"] or view["ply"] != ply:
        return "moved on"
    event = {
        "type": "your_turn",
        "match": match.pk,
        "ply": ply,
        "deadline": api_time(match.turn_deadline),
        "legal": view["legal"],
        "view": view["view"],
    }
    seconds = max(1.0, min(float(settings.TUTE_PUSH_TIMEOUT_SECONDS), match.bot_move_seconds - 1.0))
    try:
        code = push(
            profile.push_url,
            profile.push_secret,
            event,
            timeout=seconds,
            allow_local=settings.TUTE_PUSH_ALLOW_LOCAL,
        )
    except PushError as exc:
        log.info("push to %s for match %s ply %s failed: %s", seat.player.handle, match_id, ply, exc)
        turn_timeout(match_id=match_id, ply=ply, now=True)
        return f"failed: {exc}"
    try:
        action_submit(
            match_id=match_id, player=seat.player, code=code, ply=ply, idempotency_key=f"push-{ply}"
        )
    except IllegalActionError:
        turn_timeout(match_id=match_id, ply=ply, now=True)  # the refusal is recorded; the clock plays
        return "refused"
    except (StalePly, NotYourTurn, MatchNotInProgress):
        return "moved on"
    return "played"
