"""Running a tournament: the start (seeding), results, the next round (``rounds``), withdrawals, calling
it off; and the sweeper that catches up with anything a lost task left behind.

Every service locks the tournament row first (``lock_tournament``), so one tournament's results,
rounds and withdrawals are applied one at a time whichever worker or request brings them. A result is
recorded once: a ``TournamentMatch`` moves from playing to done under that lock, and a task that finds
it done does nothing.
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.models import Match, Player
from games.services import match_call_off, match_resign
from ratings.facts import house_subject, pair_subject, player_subject
from ratings.models import Pool, Rating
from tournaments.errors import (
    EntrantNotFound,
    InvalidSeeding,
    NotEntered,
    PairIncomplete,
    TooFewEntrants,
    TournamentMatchNotFound,
    WrongStatus,
)
from tournaments.models import Entrant, Round, Tournament, TournamentMatch
from tournaments.pairing import PairingError, seed
from tournaments.services.common import lock_tournament, require_organiser
from tournaments.services.duplicate import duplicate_round_score
from tournaments.services.rounds import (
    add_match,
    advance_rounds,
    complete_round_if_done,
    derived_walkovers,
    queue_advance,
)
from tournaments.services.setup import ENTERED, entrant_of, organiser_or_self
from tournaments.state import (
    LOSS,
    WIN,
    bracket_of,
    elimination_winner,
    outcome_of,
    slot_entrants,
    stored_points,
)
from tute_site.celery import queue_on_commit
from tute_site.exceptions import ApplicationError

log = logging.getLogger(__name__)

#: Seed numbers past every real one, for entrants that have none.
UNSEEDED = 1_000_000


# -- the start --------------------------------------------------------------------------------------------


@transaction.atomic
def tournament_start(
    *, tournament_id: int, by: Player | None, order: list[int] | None = None, now: datetime | None = None
) -> Tournament:
    """Close entries, seed the entrants and start round 1.

    ``by`` is the organiser (None: the sweeper, at ``starts_at``). With a check-in window, whoever did
    not check in is absent and does not play. Seeding: by rating (the game's pool; a pair by its pairs
    rating, else its two players' mean; unrated: the initial rating), at random, or by hand (``order``:
    every entrant id once; without it, registration order). An ``order`` for a tournament that does not
    seed by hand is refused (``invalid_seeding``), never silently ignored.
    """
    tournament = lock_tournament(tournament_id)
    if by is not None:
        require_organiser(tournament.club, by)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise WrongStatus("The tournament has already started.")
    if order is not None and tournament.seeding != Tournament.Seeding.MANUAL:
        raise InvalidSeeding(
            f"This tournament seeds {tournament.get_seeding_display().lower()} ({tournament.seeding!r}): "
            "an order is for manual seeding. Set seeding to 'manual' first, or start without an order.",
            detail={"seeding": tournament.seeding},
        )
    at = now or timezone.now()
    entrants = list(
        Entrant.objects.filter(tournament=tournament, status__in=ENTERED)
        .select_related("player", "partner")
        .order_by("registered_at", "id")
    )
    if tournament.check_in_opens_at is not None:
        absent = [e.pk for e in entrants if e.status != Entrant.Status.CHECKED_IN]
        Entrant.objects.filter(pk__in=absent).update(status=Entrant.Status.ABSENT)
        entrants = [e for e in entrants if e.pk not in absent]
    if tournament.game == Match.GameName.TUTE4:
        incomplete = [e.pk for e in entrants if not e.is_pair_complete]
        if incomplete:
            raise PairIncomplete(detail={"entrants": incomplete})
    minimum = 3 if tournament.format == Tournament.Format.POCHA_TABLES else 2
    if len(entrants) < minimum:
        raise TooFewEntrants(detail={"entrants": len(entrants), "minimum": minimum})
    ids = [e.pk for e in entrants]
    try:
        if tournament.seeding == Tournament.Seeding.RATING:
            seeds = seed(ids, "rating", ratings=_ratings(tournament, entrants))
        elif tournament.seeding == Tournament.Seeding.RANDOM:
            seeds = seed(ids, "random", rng=secrets.token_hex(16))
        else:
            seeds = seed(ids, "manual", order=order if order is not None else ids)
    except PairingError as exc:
        raise InvalidSeeding(str(exc)) from None
    for number, entrant_id in enumerate(seeds, start=1):
        Entrant.objects.filter(pk=entrant_id).update(seed=number, status=Entrant.Status.ACTIVE)
    tournament.seeds = list(seeds)
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = at
    tournament.save(update_fields=["seeds", "status", "started_at"])
    advance_rounds(tournament, at)
    return tournament


def _ratings(tournament: Tournament, entrants: list[Entrant]) -> dict[int, float]:
    """Each entrant's rating in the tournament's game, for seeding."""
    initial = float(settings.RATINGS_INITIAL)

    def member(player: Player | None, bot: str) -> str:
        return player_subject(player.pk) if player is not None else house_subject(bot)

    wanted: dict[int, list[tuple[str, str]]] = {}
    for e in entrants:
        first = member(e.player, e.house_bot)
        if tournament.game != Match.GameName.TUTE4:
            wanted[e.pk] = [(tournament.game, first)]
        elif e.player is not None and e.partner is not None:
            wanted[e.pk] = [(Pool.TUTE4_PAIRS, pair_subject(e.player.pk, e.partner.pk))]
        else:
            wanted[e.pk] = [(Pool.TUTE4, first), (Pool.TUTE4, member(e.partner, e.partner_bot))]
    subjects = {s for keys in wanted.values() for _, s in keys}
    known = {
        (r.pool, r.subject): r.rating
        for r in Rating.objects.filter(subject__in=subjects).only("pool", "subject", "rating")
    }
    out = {}
    for entrant_id, keys in wanted.items():
        values = [known.get(k, initial) for k in keys]
        out[entrant_id] = sum(values) / len(values)
    return out


# -- results ---------------------------------------------------------------------------------------------------


@transaction.atomic
def match_result_record(*, match_id: int) -> TournamentMatch | None:
    """Record a finished games match as its tournament match's result, once; None when there is nothing
    to do (not a tournament match, not over yet, already recorded)."""
    found = TournamentMatch.objects.filter(match_id=match_id).values_list("pk", "tournament_id").first()
    if found is None:
        return None
    tournament = lock_tournament(found[1])
    tm = TournamentMatch.objects.select_related("round", "match").get(pk=found[0])
    assert tm.match is not None
    if tm.status == TournamentMatch.Status.DONE:
        return None
    if tm.match.status not in (Match.Status.FINISHED, Match.Status.ABORTED):
        return None
    _record(tournament, tm)
    if tournament.match_format == Match.Format.DUPLICATE:
        duplicate_round_score(tournament, tm.round)  # every table of the round against the others
    complete_round_if_done(tournament, tm.round)
    return tm


def _record(tournament: Tournament, tm: TournamentMatch, *, called_off: bool = False) -> None:
    """Store the finished (or aborted) games match of ``tm`` as its result. ``called_off``: aborted by
    the tournament's cancellation, so nobody scores, wins or forfeits."""
    assert tm.match is not None
    entrants = {e.pk: e for e in Entrant.objects.filter(slots__tournament_match=tm)}
    order = [entrants[i] for i in slot_entrants(tm)]
    seeds = [e.seed or UNSEEDED for e in order]
    withdrawn = [e.status == Entrant.Status.WITHDRAWN for e in order]
    outcome = outcome_of(tm.match, len(order), withdrawn=withdrawn, seeds=seeds)
    winner = outcome.winner
    if tournament.is_elimination:
        winner = elimination_winner(outcome, seeds)
    tm.points = stored_points([LOSS] * len(order) if called_off else outcome.points)
    tm.games_won = outcome.games_won
    tm.card_points = outcome.card_points
    tm.forfeit = outcome.forfeit and not called_off
    tm.winner = order[winner] if winner is not None and not called_off else None
    tm.status = TournamentMatch.Status.DONE
    tm.recorded_at = timezone.now()
    tm.save(
        update_fields=["points", "games_won", "card_points", "forfeit", "winner", "status", "recorded_at"]
    )


@transaction.atomic
def tournament_advance(
    *, tournament_id: int, after_round: int, now: datetime | None = None, reschedule: bool = True
) -> Tournament | None:
    """Generate the round after ``after_round`` once it is complete (or end the tournament); None when
    that is already done, or not due yet. Not due yet and ``reschedule``: the task is queued again for
    when it is (the sweeper, which looks every few seconds anyway, passes False)."""
    tournament = lock_tournament(tournament_id)
    if tournament.status != Tournament.Status.RUNNING or tournament.current_round != after_round:
        return None
    before = tournament.current_round
    at = now or timezone.now()
    due = advance_rounds(tournament, at)
    if due is not None and reschedule:
        queue_advance(tournament, after_round, due, at)
    if tournament.current_round == before and tournament.status == Tournament.Status.RUNNING:
        return None
    return tournament


@transaction.atomic
def no_show(*, tournament_id: int, tournament_match_id: int, by: Player, entrant_id: int) -> TournamentMatch:
    """The organiser records that ``entrant_id`` did not turn up for a match of two in play: its games
    match is called off and the opponent wins by walkover (the entrant stays in the tournament)."""
    tournament = lock_tournament(tournament_id)
    require_organiser(tournament.club, by)
    tm = (
        TournamentMatch.objects.select_related("round", "match")
        .filter(tournament=tournament, pk=tournament_match_id)
        .first()
    )
    if tm is None:
        raise TournamentMatchNotFound()
    entrants = slot_entrants(tm)
    if tm.status != TournamentMatch.Status.PLAYING or len(entrants) != 2:
        raise WrongStatus("Only a match of two still in play can be a no-show.")
    if entrant_id not in entrants:
        raise EntrantNotFound("That entrant does not play this match.")
    if tm.match is not None and tm.match.status == Match.Status.IN_PROGRESS:
        match_call_off(match_id=tm.match.pk)
    log.info(
        "tournament %s: %s recorded as a no-show of entrant %s by %s",
        tournament.pk,
        tm.code,
        entrant_id,
        by.handle,
    )
    present = 1 - entrants.index(entrant_id)
    tm.points = stored_points([WIN, LOSS] if present == 0 else [LOSS, WIN])
    tm.winner_id = entrants[present]
    tm.forfeit = True
    tm.status = TournamentMatch.Status.DONE
    tm.recorded_at = timezone.now()
    tm.save(update_fields=["points", "winner", "forfeit", "status", "recorded_at"])
    if tournament.match_format == Match.Format.DUPLICATE:
        duplicate_round_score(tournament, tm.round)
    complete_round_if_done(tournament, tm.round)
    return tm


# -- withdrawals -------------------------------------------------------------------------------------------------


@transaction.atomic
def withdraw(*, tournament_id: int, by: Player, entrant_id: int | None = None) -> Entrant:
    """An entrant leaves (themselves, or by an organiser). Before the start the entry is simply gone;
    after it, a match in play is conceded and every later match is a walkover (never paired again in
    Swiss or Pocha)."""
    tournament = lock_tournament(tournament_id)
    if entrant_id is None:
        entrant = entrant_of(tournament, by)
        if entrant is None:
            raise NotEntered()
    else:
        entrant = Entrant.objects.filter(tournament=tournament, pk=entrant_id).first()
        if entrant is None:
            raise EntrantNotFound()
    organiser_or_self(tournament, by, entrant)
    if entrant.status in (Entrant.Status.WITHDRAWN, Entrant.Status.ABSENT):
        return entrant
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise WrongStatus("The tournament is over.")
    now = timezone.now()
    entrant.status = Entrant.Status.WITHDRAWN
    entrant.withdrawn_at = now
    entrant.save(update_fields=["status", "withdrawn_at"])
    if tournament.status != Tournament.Status.RUNNING or entrant.seed is None:
        return entrant
    playing = TournamentMatch.objects.filter(
        tournament=tournament, status=TournamentMatch.Status.PLAYING, slots__entrant=entrant
    ).select_related("match")
    for tm in playing:
        _concede_for(tournament, tm, entrant)
    if tournament.is_elimination and tournament.current_round:
        current = Round.objects.get(tournament=tournament, number=tournament.current_round)
        existing = set(TournamentMatch.objects.filter(tournament=tournament).values_list("code", flat=True))
        rows = derived_walkovers(bracket_of(tournament), existing)
        if rows:
            board = TournamentMatch.objects.filter(round=current).count()
            ids = {i for r in rows for i in r.entrants}
            by_id = {e.pk: e for e in Entrant.objects.filter(pk__in=ids)}
            for offset, row in enumerate(rows, start=1):
                add_match(tournament, current, board + offset, row, [by_id[i] for i in row.entrants], now)
            if current.status == Round.Status.COMPLETE:
                # The walkovers may make new matches ready: the next round is generated as usual.
                queue_on_commit("tournaments.advance", tournament.pk, current.number)
    return entrant


def _concede_for(tournament: Tournament, tm: TournamentMatch, entrant: Entrant) -> None:
    """The withdrawn entrant's match in play ends: its player resigns (a house bot's is aborted; the
    result then counts as the withdrawn entrant's forfeit)."""
    match = tm.match
    if match is None or match.status != Match.Status.IN_PROGRESS:
        return
    seated = entrant.player or entrant.partner
    if seated is not None:
        match_resign(match_id=match.pk, player=seated)
    else:
        match_call_off(match_id=match.pk)


# -- calling it off -------------------------------------------------------------------------------------------


@transaction.atomic
def tournament_cancel(*, tournament_id: int, by: Player) -> Tournament:
    """The organiser calls the tournament off: matches in play are aborted (never rated), nothing more
    is paired, and the standings so far stay readable.

    Every row still playing is closed at once, with its round: a games match that had already ended
    keeps its result; one called off here is done with no points and no winner for anyone.
    """
    tournament = lock_tournament(tournament_id)
    require_organiser(tournament.club, by)
    if tournament.status not in (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING):
        raise WrongStatus("The tournament is already over.")
    now = timezone.now()
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])
    log.info("tournament %s cancelled by %s", tournament.pk, by.handle)
    playing = TournamentMatch.objects.filter(
        tournament=tournament, status=TournamentMatch.Status.PLAYING
    ).select_related("round", "match")
    for tm in playing:
        assert tm.match is not None  # only matches play
        if tm.match.status in (Match.Status.OPEN, Match.Status.IN_PROGRESS):
            match_call_off(match_id=tm.match.pk)
            tm.match.refresh_from_db()
            _record(tournament, tm, called_off=True)
        else:
            _record(tournament, tm)
    Round.objects.filter(tournament=tournament, status=Round.Status.PLAYING).update(
        status=Round.Status.COMPLETE, completed_at=now
    )
    return tournament


# -- the sweeper -------------------------------------------------------------------------------------------------------


def tournaments_sweep(*, now: datetime | None = None, limit: int = 200) -> int:
    """Start tournaments whose time has come, record results whose task was lost, and generate rounds
    that are complete and due. Each step is its own transaction; returns how many did something."""
    at = now or timezone.now()
    handled = 0
    due = Tournament.objects.filter(status=Tournament.Status.REGISTRATION, starts_at__lte=at)
    for tournament_id in due.values_list("pk", flat=True)[:limit]:
        try:
            tournament_start(tournament_id=tournament_id, by=None, now=at)
        except ApplicationError as exc:
            log.warning("tournament %s could not start at its time: %s", tournament_id, exc)
        else:
            handled += 1
    lost = TournamentMatch.objects.filter(
        status=TournamentMatch.Status.PLAYING,
        match__status__in=(Match.Status.FINISHED, Match.Status.ABORTED),
    ).values_list("match_id", flat=True)
    for match_id in lost[:limit]:
        assert match_id is not None
        if match_result_record(match_id=match_id) is not None:
            handled += 1
    stalled = Round.objects.filter(
        status=Round.Status.COMPLETE,
        tournament__status=Tournament.Status.RUNNING,
        number=F("tournament__current_round"),
    ).values_list("tournament_id", "number")
    for tournament_id, number in stalled[:limit]:
        if tournament_advance(tournament_id=tournament_id, after_round=number, now=at, reschedule=False):
            handled += 1
    return handled
