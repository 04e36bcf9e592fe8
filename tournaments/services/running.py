"""Running a tournament: the start (seeding), rounds and their games matches, results, withdrawals, the
next round, the end; and the sweeper that catches up with anything a lost task left behind.

Every service locks the tournament row first (``lock_tournament``), so one tournament's results,
rounds and withdrawals are applied one at a time whichever worker or request brings them. A result is
recorded once: a ``TournamentMatch`` moves from playing to done under that lock, and a task that finds
it done does nothing.
"""

from __future__ import annotations

import logging
import secrets
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import Match, Player
from games.services import SeatSpec, match_abort, match_create, match_resign
from ratings.facts import house_subject, pair_subject, player_subject
from ratings.models import Pool, Rating
from tournaments.errors import (
    EntrantNotFound,
    InvalidSeeding,
    NotEntered,
    PairIncomplete,
    TooFewEntrants,
    WrongStatus,
)
from tournaments.models import Entrant, Round, Slot, Tournament, TournamentMatch
from tournaments.pairing import (
    History,
    Pairing,
    PairingError,
    Status,
    round_robin,
    seat_tables,
    seed,
    swiss_round,
)
from tournaments.pairing import (
    Round as PairingRound,
)
from tournaments.services.common import lock_tournament, queue, require_organiser
from tournaments.services.setup import ENTERED, entrant_of, organiser_or_self
from tournaments.state import (
    LOSS,
    WIN,
    bracket_of,
    elimination_winner,
    outcome_of,
    slot_entrants,
    standings_of,
    withdrawn_ids,
)
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
    every entrant id once; without it, registration order).
    """
    tournament = lock_tournament(tournament_id)
    if by is not None:
        require_organiser(tournament.club, by)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise WrongStatus("The tournament has already started.")
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
    _advance(tournament, at)
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


# -- rounds -------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Planned:
    """One row of a new round: a match to play, a bye or a walkover (decided already)."""

    code: str
    kind: str
    entrants: tuple[int, ...]
    points: tuple[float, ...] = ()
    winner: int | None = None  # an entrant id


@dataclass
class _Plan:
    rows: list[_Planned] = field(default_factory=list)
    finished: bool = False


def _advance(tournament: Tournament, now: datetime) -> None:
    """Start the next round while the current one is complete (and the interval has passed), or end
    the tournament when there is none. Rounds of byes and walkovers only are complete at once."""
    while tournament.status == Tournament.Status.RUNNING:
        current = None
        if tournament.current_round:
            current = Round.objects.get(tournament=tournament, number=tournament.current_round)
            if current.status != Round.Status.COMPLETE:
                return
            interval = timedelta(minutes=tournament.round_interval_minutes)
            if interval and now < current.started_at + interval:
                return  # the sweeper starts it when it is due
        plan = _plan(tournament, tournament.current_round + 1)
        if plan.finished:
            _finish(tournament, now)
            return
        if not plan.rows:
            log.error("tournament %s: nothing to play and not finished", tournament.pk)
            return
        _create_round(tournament, tournament.current_round + 1, plan.rows, now)


def _plan(tournament: Tournament, number: int) -> _Plan:
    F = Tournament.Format
    if tournament.is_elimination:
        return _plan_elimination(tournament)
    withdrawn = withdrawn_ids(tournament)
    if tournament.format == F.ROUND_ROBIN:
        schedule = round_robin([int(e) for e in tournament.seeds], double=tournament.double_round_robin)
        if number > len(schedule):
            return _Plan(finished=True)
        return _Plan(_rows_of(schedule[number - 1], withdrawn, bye_points=LOSS, number=number))
    active = [row.entrant for row in standings_of(tournament) if row.entrant not in withdrawn]
    if tournament.format == F.SWISS:
        assert tournament.swiss_rounds is not None
        if number > tournament.swiss_rounds or len(active) < 2:
            return _Plan(finished=True)
        scores = {row.entrant: row.points for row in standings_of(tournament)}
        clubs = dict(Entrant.objects.filter(tournament=tournament).values_list("pk", "club_id"))
        next_round = swiss_round(
            active,
            scores,
            _history(tournament),
            number=number,
            clubs=clubs,
            avoid_same_club=tournament.avoid_same_club,
        )
        return _Plan(_rows_of(next_round, set(), bye_points=WIN, number=number))
    assert tournament.pocha_rounds is not None and tournament.table_size is not None
    if number > tournament.pocha_rounds or len(active) < 3:
        return _Plan(finished=True)
    preferred = min(tournament.table_size, len(active))
    tables = seat_tables(active, number, preferred=max(3, preferred))
    return _Plan(
        [
            _Planned(f"R{number}.T{t}", TournamentMatch.Kind.MATCH, table)
            for t, table in enumerate(tables.tables, 1)
        ]
    )


def _rows_of(round_: PairingRound, withdrawn: set[int], *, bye_points: float, number: int) -> list[_Planned]:
    rows = []
    for board, p in enumerate(round_.pairings, start=1):
        code = f"R{number}.B{board}"
        out = [e for e in p.entrants if e in withdrawn]
        if not out:
            rows.append(_Planned(code, TournamentMatch.Kind.MATCH, p.entrants))
        elif len(out) == 2:
            rows.append(_Planned(code, TournamentMatch.Kind.WALKOVER, p.entrants, (LOSS, LOSS)))
        else:
            winner = p.second if p.first in withdrawn else p.first
            points = (WIN, LOSS) if winner == p.first else (LOSS, WIN)
            rows.append(_Planned(code, TournamentMatch.Kind.WALKOVER, p.entrants, points, winner))
    if round_.bye is not None:
        rows.append(_Planned(f"R{number}.BYE", TournamentMatch.Kind.BYE, (round_.bye,), (bye_points,)))
    return rows


def _plan_elimination(tournament: Tournament) -> _Plan:
    bracket = bracket_of(tournament)
    existing = set(TournamentMatch.objects.filter(tournament=tournament).values_list("code", flat=True))
    rows = _derived_walkovers(bracket, existing)
    for state in bracket.ready():
        if state.match.code not in existing:
            a, b = state.entrants
            assert a is not None and b is not None
            rows.append(_Planned(state.match.code, TournamentMatch.Kind.MATCH, (a, b)))
    if not rows and bracket.is_complete:
        return _Plan(finished=True)
    return _Plan(rows)


def _derived_walkovers(bracket: object, existing: set[str]) -> list[_Planned]:
    """Walkovers the bracket derives from withdrawals, to be stored as results (so that the bracket
    stays a function of what is stored even when both entrants of a match have withdrawn)."""
    from tournaments.pairing import Bracket

    assert isinstance(bracket, Bracket)
    rows = []
    for state in bracket.states:
        if state.status is Status.WALKOVER and not state.recorded and state.match.code not in existing:
            a, b = state.entrants
            assert a is not None and b is not None and state.winner is not None
            points = (WIN, LOSS) if state.winner == a else (LOSS, WIN)
            rows.append(
                _Planned(state.match.code, TournamentMatch.Kind.WALKOVER, (a, b), points, state.winner)
            )
    return rows


def _history(tournament: Tournament) -> History:
    pairings: dict[int, list[Pairing]] = defaultdict(list)
    byes: dict[int, int] = {}
    for tm in (
        TournamentMatch.objects.filter(tournament=tournament)
        .select_related("round")
        .prefetch_related("slots")
    ):
        entrants = slot_entrants(tm)
        if tm.kind == TournamentMatch.Kind.BYE:
            byes[tm.round.number] = entrants[0]
        elif len(entrants) == 2:
            pairings[tm.round.number].append(Pairing(entrants[0], entrants[1]))
    numbers = sorted(set(pairings) | set(byes))
    return History.of(PairingRound(n, tuple(pairings[n]), byes.get(n)) for n in numbers)


def _create_round(tournament: Tournament, number: int, rows: list[_Planned], now: datetime) -> Round:
    round_ = Round.objects.create(tournament=tournament, number=number)
    entrants = {
        e.pk: e
        for e in Entrant.objects.filter(
            tournament=tournament, pk__in={i for r in rows for i in r.entrants}
        ).select_related("player", "partner")
    }
    for board, row in enumerate(rows, start=1):
        _add_match(tournament, round_, board, row, [entrants[i] for i in row.entrants], now)
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    _complete_round_if_done(tournament, round_)
    return round_


def _add_match(
    tournament: Tournament, round_: Round, board: int, row: _Planned, entrants: list[Entrant], now: datetime
) -> TournamentMatch:
    games_match = None
    if row.kind == TournamentMatch.Kind.MATCH:
        seats = _seats(tournament, entrants)
        games_match = match_create(
            created_by=tournament.created_by,
            game=tournament.game,
            players=len(seats),
            options=tournament.options,
            format=tournament.match_format,
            format_target=tournament.match_target,
            seats=seats,
            rated=tournament.rated,
            challenge=False,
        )
    done = row.kind != TournamentMatch.Kind.MATCH
    tm = TournamentMatch.objects.create(
        tournament=tournament,
        round=round_,
        code=row.code,
        board=board,
        kind=row.kind,
        match=games_match,
        status=TournamentMatch.Status.DONE if done else TournamentMatch.Status.PLAYING,
        points=list(row.points) if done else None,
        winner_id=row.winner,
        forfeit=row.kind == TournamentMatch.Kind.WALKOVER,
        recorded_at=now if done else None,
    )
    Slot.objects.bulk_create(
        [Slot(tournament_match=tm, position=i, entrant=e) for i, e in enumerate(entrants)]
    )
    return tm


def _seats(tournament: Tournament, entrants: list[Entrant]) -> list[SeatSpec]:
    """Seats in position order; in Tute 4 a pair sits opposite: seats 0 and 2 against 1 and 3."""

    def first(e: Entrant) -> SeatSpec:
        return SeatSpec(player=e.player.handle) if e.player is not None else SeatSpec(bot=e.house_bot)

    def second(e: Entrant) -> SeatSpec:
        return SeatSpec(player=e.partner.handle) if e.partner is not None else SeatSpec(bot=e.partner_bot)

    if tournament.game == Match.GameName.TUTE4:
        a, b = entrants
        return [first(a), first(b), second(a), second(b)]
    return [first(e) for e in entrants]


def _complete_round_if_done(tournament: Tournament, round_: Round) -> bool:
    """Mark the round complete once every row has a result, and queue the next round's generation."""
    if round_.status == Round.Status.COMPLETE:
        return False
    if TournamentMatch.objects.filter(round=round_, status=TournamentMatch.Status.PLAYING).exists():
        return False
    round_.status = Round.Status.COMPLETE
    round_.completed_at = timezone.now()
    round_.save(update_fields=["status", "completed_at"])
    from tournaments.tasks import advance

    queue(advance, tournament.pk, round_.number)
    return True


def _finish(tournament: Tournament, now: datetime) -> None:
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.final_standings = final_rows(tournament)
    tournament.save(update_fields=["status", "finished_at", "final_standings"])


def final_rows(tournament: Tournament) -> list[dict[str, object]]:
    """The standings as stored at the end: ``tie_breaks`` is a list, in the tournament's tie-break order
    (a JSON object would not keep that order in PostgreSQL's jsonb)."""
    return [
        {
            "rank": row.rank,
            "entrant": row.entrant,
            "points": row.points,
            "played": row.played,
            "tie_breaks": list(row.tie_breaks),
        }
        for row in standings_of(tournament)
    ]


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
    entrants = {e.pk: e for e in Entrant.objects.filter(slots__tournament_match=tm)}
    order = [entrants[i] for i in slot_entrants(tm)]
    seeds = [e.seed or UNSEEDED for e in order]
    withdrawn = [e.status == Entrant.Status.WITHDRAWN for e in order]
    outcome = outcome_of(tm.match, len(order), withdrawn=withdrawn, seeds=seeds)
    winner = outcome.winner
    if tournament.is_elimination:
        winner = elimination_winner(outcome, seeds)
    tm.points = outcome.points
    tm.games_won = outcome.games_won
    tm.card_points = outcome.card_points
    tm.forfeit = outcome.forfeit
    tm.winner = order[winner] if winner is not None else None
    tm.status = TournamentMatch.Status.DONE
    tm.recorded_at = timezone.now()
    tm.save(
        update_fields=["points", "games_won", "card_points", "forfeit", "winner", "status", "recorded_at"]
    )
    _complete_round_if_done(tournament, tm.round)
    return tm


@transaction.atomic
def tournament_advance(
    *, tournament_id: int, after_round: int, now: datetime | None = None
) -> Tournament | None:
    """Generate the round after ``after_round`` once it is complete (or end the tournament); None when
    that is already done, or not due yet."""
    tournament = lock_tournament(tournament_id)
    if tournament.status != Tournament.Status.RUNNING or tournament.current_round != after_round:
        return None
    before = tournament.current_round
    _advance(tournament, now or timezone.now())
    if tournament.current_round == before and tournament.status == Tournament.Status.RUNNING:
        return None
    return tournament


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
        rows = _derived_walkovers(bracket_of(tournament), existing)
        if rows:
            board = TournamentMatch.objects.filter(round=current).count()
            ids = {i for r in rows for i in r.entrants}
            by_id = {e.pk: e for e in Entrant.objects.filter(pk__in=ids)}
            for offset, row in enumerate(rows, start=1):
                _add_match(tournament, current, board + offset, row, [by_id[i] for i in row.entrants], now)
            if current.status == Round.Status.COMPLETE:
                # The walkovers may make new matches ready: the next round is generated as usual.
                from tournaments.tasks import advance

                queue(advance, tournament.pk, current.number)
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
        match_abort(match_id=match.pk, by=tournament.created_by)


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
        status=Round.Status.COMPLETE, tournament__status=Tournament.Status.RUNNING
    ).values_list("tournament_id", "number", "tournament__current_round")
    for tournament_id, number, current in stalled[: limit * 4]:
        if number == current and tournament_advance(tournament_id=tournament_id, after_round=number, now=at):
            handled += 1
    return handled
