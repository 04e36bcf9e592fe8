"""Quick pairing's writers: making, cancelling and keeping seeks alive, and the pairer that seats them.

The pairer (``seeks_pair``, run by the worker every ``TUTE_PAIR_SECONDS`` and at once after each new
seek) takes the waiting seeks oldest first. Two seeks fit when they ask for the same game, player count,
rated or not and clock, each one's rating is within the other's range (if it gave one), and their
ratings differ by no more than either one's window: ``TUTE_SEEK_RATING_WINDOW`` points, widened by
``TUTE_SEEK_WINDOW_GROWTH`` a second of its waiting. A table is seated when enough seeks fit each other;
a seek with ``bots_after_seconds`` that waited that long is seated with the seeks that fit it then
(however they chose to wait: more people at the table, fewer bots), and house bots of the level rated
nearest them in the other seats.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.bots import BOT_LEVELS
from games.engine.rules import PLAYERS
from games.errors import PeopleOnly
from games.events import publish_lobby_event
from games.models import Match, Player
from games.services import Clock, SeatSpec, match_create, match_spec
from games.services.specs import MAX_MOVE_SECONDS
from lobby.errors import InvalidSeek, SeekExists, SeekMatched, SeekNotFound, SeekOutOfRange, TooManySeeks
from lobby.models import Seek
from ratings.facts import house_subject, player_subject
from ratings.selectors import current_ratings, measured_level_ratings
from tute_site.celery import queue_on_commit

log = logging.getLogger(__name__)

#: Seeks an account may make in ``SEEKS_WINDOW`` (cancelled and ended ones count): the lobby is not a
#: place to flash a seek on and off.
MAX_SEEKS_PER_WINDOW = 30
SEEKS_WINDOW = timedelta(minutes=10)


def seek_players(game: str, players: int | None) -> int:
    """The table's size: the game's own (Tute 2: 2, Tute 4: 4), or Pocha's ``players`` (default 4)."""
    if game not in PLAYERS:
        raise InvalidSeek(f"game must be one of {', '.join(PLAYERS)}")
    low, high, default = PLAYERS[game]
    n = default if players is None else players
    if not low <= n <= high:
        span = str(low) if low == high else f"{low} to {high}"
        raise InvalidSeek(f"{game} is played by {span} players, not {n}")
    return n


@transaction.atomic
def seek_create(
    *,
    player: Player,
    game: str,
    players: int | None = None,
    rated: bool = True,
    human_move_seconds: int = 120,
    max_timeouts: int = 3,
    rating_min: float | None = None,
    rating_max: float | None = None,
    bots_after_seconds: int | None = None,
) -> Seek:
    """A person looks for a game: at most one waiting seek per game (``seek_exists``), at most
    ``MAX_SEEKS_PER_WINDOW`` seeks in ``SEEKS_WINDOW`` (``too_many_seeks``). Bot accounts play people
    through challenges and the ladder, not seeks."""
    if player.is_bot:
        raise PeopleOnly(
            "Quick pairing is for people; a bot account plays through challenges and the ladder."
        )
    n = seek_players(game, players)
    if not 1 <= human_move_seconds <= MAX_MOVE_SECONDS:
        raise InvalidSeek(f"human_move_seconds must be from 1 to {MAX_MOVE_SECONDS}")
    if not 1 <= max_timeouts <= 100:
        raise InvalidSeek("max_timeouts must be from 1 to 100")
    if rating_min is not None and rating_max is not None and rating_min > rating_max:
        raise InvalidSeek("rating_min must not be above rating_max")
    if bots_after_seconds is not None and not 0 <= bots_after_seconds <= 3600:
        raise InvalidSeek("bots_after_seconds must be from 0 to 3600")
    now = timezone.now()
    Player.objects.select_for_update().filter(pk=player.pk).first()  # one seek of the account at a time
    waiting = Seek.objects.filter(player=player, game=game, status=Seek.Status.WAITING).first()
    if waiting is not None:
        raise SeekExists(detail={"seek": waiting.pk})
    recent = Seek.objects.filter(player=player, created_at__gte=now - SEEKS_WINDOW).order_by("created_at")
    if recent.count() >= MAX_SEEKS_PER_WINDOW:
        oldest = recent.values_list("created_at", flat=True).first()
        wait = int((oldest + SEEKS_WINDOW - now).total_seconds()) + 1 if oldest else 60
        raise TooManySeeks(retry_after=max(wait, 1), detail={"limit": MAX_SEEKS_PER_WINDOW})
    rating = current_ratings(pool=game, subjects=[player_subject(player.pk)])[player_subject(player.pk)]
    try:
        with transaction.atomic():
            seek = Seek.objects.create(
                player=player,
                game=game,
                num_players=n,
                rated=rated,
                human_move_seconds=human_move_seconds,
                max_timeouts=max_timeouts,
                rating=rating,
                rating_min=rating_min,
                rating_max=rating_max,
                bots_after_seconds=bots_after_seconds,
                last_seen_at=now,
            )
    except IntegrityError:  # seek_one_waiting_per_game, from a second request of the same person
        raise SeekExists() from None
    queue_on_commit("lobby.pair_seeks")
    if bots_after_seconds:  # its bots come on time, not at the next periodic pass
        queue_on_commit("lobby.pair_seeks", eta=now + timedelta(seconds=bots_after_seconds, milliseconds=100))
    publish_lobby_event()
    return seek


def _own(seek_id: int, player: Player, *, lock: bool) -> Seek:
    qs = Seek.objects.filter(pk=seek_id, player=player)
    seek = (qs.select_for_update() if lock else qs).first()
    if seek is None:
        raise SeekNotFound()
    return seek


@transaction.atomic
def seek_cancel(*, seek_id: int, player: Player) -> Seek:
    """The person stops looking. Idempotent for a seek already ended; a matched one is refused."""
    seek = _own(seek_id, player, lock=True)
    if seek.status == Seek.Status.MATCHED:
        raise SeekMatched(detail={"match": seek.match_id})
    if seek.status == Seek.Status.WAITING:
        seek.status, seek.ended_at = Seek.Status.CANCELLED, timezone.now()
        seek.save(update_fields=["status", "ended_at"])
        publish_lobby_event()
    return seek


def seek_seen(*, seek_id: int, player: Player) -> Seek:
    """The person polled their seek: it stays alive (``TUTE_SEEK_IDLE_SECONDS`` from now)."""
    seek = _own(seek_id, player, lock=False)
    if seek.status == Seek.Status.WAITING:
        seek.last_seen_at = timezone.now()
        Seek.objects.filter(pk=seek.pk, status=Seek.Status.WAITING).update(last_seen_at=seek.last_seen_at)
    return seek


def seeks_seen(*, player: Player) -> int:
    """The person streams the lobby: all their waiting seeks stay alive."""
    return Seek.objects.filter(player=player, status=Seek.Status.WAITING).update(last_seen_at=timezone.now())


def window(seek: Seek, now: datetime) -> float:
    """How far from its own rating the seek takes opponents now: the window widens as it waits."""
    waited = max((now - seek.created_at).total_seconds(), 0.0)
    return float(settings.TUTE_SEEK_RATING_WINDOW) + float(settings.TUTE_SEEK_WINDOW_GROWTH) * waited


def _kind(seek: Seek) -> tuple[str, int, bool, int, int]:
    return (seek.game, seek.num_players, seek.rated, seek.human_move_seconds, seek.max_timeouts)


def _takes(seek: Seek, rating: float) -> bool:
    return (seek.rating_min is None or rating >= seek.rating_min) and (
        seek.rating_max is None or rating <= seek.rating_max
    )


def fits(a: Seek, b: Seek, now: datetime) -> bool:
    """Two seeks that may share a table now."""
    if a.player_id == b.player_id or _kind(a) != _kind(b):
        return False
    if not (_takes(a, b.rating) and _takes(b, a.rating)):
        return False
    gap = abs(a.rating - b.rating)
    return gap <= window(a, now) and gap <= window(b, now)


def _bots_due(seek: Seek, now: datetime) -> bool:
    return seek.bots_after_seconds is not None and now - seek.created_at >= timedelta(
        seconds=seek.bots_after_seconds
    )


def _group(anchor: Seek, others: list[Seek], now: datetime, *, size: int) -> list[Seek]:
    """``anchor`` and up to ``size - 1`` of ``others`` that fit it and each other, closest ratings first."""
    group = [anchor]
    for other in sorted(others, key=lambda s: (abs(s.rating - anchor.rating), s.created_at, s.pk)):
        if len(group) == size:
            break
        if all(fits(member, other, now) for member in group):
            group.append(other)
    return group


@dataclass(frozen=True, slots=True)
class Paired:
    matches: list[int]
    expired: int


@transaction.atomic
def seeks_pair() -> Paired:
    """End the seeks whose person went away, then seat every table the waiting seeks make now."""
    now = timezone.now()
    idle = now - timedelta(seconds=settings.TUTE_SEEK_IDLE_SECONDS)
    expired = Seek.objects.filter(status=Seek.Status.WAITING, last_seen_at__lt=idle).update(
        status=Seek.Status.EXPIRED, ended_at=now
    )
    waiting = list(
        Seek.objects.select_for_update(of=("self",))
        .filter(status=Seek.Status.WAITING)
        .select_related("player")
        .order_by("created_at", "id")
    )
    taken: set[int] = set()  # players seated in this pass (a person may seek several games)
    made: list[int] = []
    for anchor in waiting:
        if anchor.player_id in taken:
            continue
        free = [s for s in waiting if s.player_id not in taken and s.pk != anchor.pk]
        group = _group(anchor, free, now, size=anchor.num_players)
        bots = 0
        if len(group) < anchor.num_players:
            if not _bots_due(anchor, now):
                continue
            # Its wait for people is over: the people who fit it now sit with it, house bots in the rest.
            bots = anchor.num_players - len(group)
        match = _seat(group, bots=bots, now=now)
        made.append(match.pk)
        taken.update(s.player_id for s in group)
    if expired or made:
        publish_lobby_event()
    return Paired(matches=made, expired=expired)


def house_level_near(game: str, rating: float) -> str:
    """The house bot level whose rating in ``game``'s pool is nearest ``rating``: its measured rating
    (``manage.py rate_levels``) where it has one, else its rating from rated games (or the initial)."""
    ratings = current_ratings(pool=game, subjects=[house_subject(level) for level in BOT_LEVELS])
    measured = measured_level_ratings(pool=game)

    def level_rating(level: str) -> float:
        row = measured.get(level, {}).get(game)
        return row.rating if row is not None else ratings[house_subject(level)]

    return min(BOT_LEVELS, key=lambda level: (abs(level_rating(level) - rating), level))


def _seating(group: list[Seek], game: str) -> list[Seek]:
    """The seats' order. Tute 4 with four people: the strongest partners the weakest (seats 0 and 2 are
    partners), so the sides' ratings are as close as they can be; otherwise the order they came."""
    if game == Match.GameName.TUTE4 and len(group) == 4:
        a, b, c, d = sorted(group, key=lambda s: -s.rating)
        return [a, b, d, c]
    return group


def _seat(group: list[Seek], *, bots: int, now: datetime) -> Match:
    anchor = group[0]
    level = house_level_near(anchor.game, sum(s.rating for s in group) / len(group)) if bots else ""
    match = _table(anchor, [s.player for s in _seating(group, anchor.game)], bots=[level] * bots, now=now)
    Seek.objects.filter(pk__in=[s.pk for s in group]).update(
        status=Seek.Status.MATCHED, match=match, ended_at=now
    )
    log.info(
        "seeks %s seated at match %s (%s, %d house bots)", [s.pk for s in group], match.pk, anchor.game, bots
    )
    return match


def _table(seek: Seek, people: list[Player], *, bots: list[str], now: datetime) -> Match:
    """The match of ``seek``'s kind for ``people`` (in seat order) and house ``bots``, started at once
    (each of them asked for it); the people's other waiting seeks end, since they are seated now."""
    spec = match_spec(
        created_by=seek.player,
        game=seek.game,
        players=seek.num_players,
        seats=[SeatSpec(player=p.handle) for p in people] + [SeatSpec(bot=level) for level in bots],
        rated=seek.rated,
        clock=Clock(human_move_seconds=seek.human_move_seconds, max_timeouts=seek.max_timeouts),
        challenge=False,
    )
    match = match_create(spec=spec)
    Seek.objects.filter(player__in=people, status=Seek.Status.WAITING).exclude(pk=seek.pk).update(
        status=Seek.Status.CANCELLED, ended_at=now
    )
    return match


@transaction.atomic
def seek_answer(*, seek_id: int, player: Player) -> Match:
    """Take up a two-player seek from the lobby: its person and ``player`` are seated at once, whatever
    the rating window (the answer is a choice), if ``player``'s rating is in the seek's own range."""
    seek = Seek.objects.select_for_update(of=("self",)).select_related("player").filter(pk=seek_id).first()
    if seek is None or seek.status != Seek.Status.WAITING:
        raise SeekNotFound("No such seek is waiting.")
    if seek.player_id == player.pk:
        raise InvalidSeek("That is your own seek.")
    if player.is_bot:
        raise PeopleOnly(
            "Quick pairing is for people; a bot account plays through challenges and the ladder."
        )
    if seek.num_players != 2:
        raise InvalidSeek("Only a two-player seek is answered at once; seek the same game to join this one.")
    rating = current_ratings(pool=seek.game, subjects=[player_subject(player.pk)])[player_subject(player.pk)]
    if not _takes(seek, rating):
        raise SeekOutOfRange(detail={"rating_min": seek.rating_min, "rating_max": seek.rating_max})
    now = timezone.now()
    match = _table(seek, [seek.player, player], bots=[], now=now)
    seek.status, seek.match, seek.ended_at = Seek.Status.MATCHED, match, now
    seek.save(update_fields=["status", "match", "ended_at"])
    publish_lobby_event()
    return match
