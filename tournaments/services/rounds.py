"""Rounds: what the next round of each format is, creating its games matches, completing it, and the
end of the tournament. Called by the services in ``running`` and ``corrections`` under the tournament's
row lock; nothing here locks or commits on its own."""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction

from django.utils import timezone

from games.models import Board, Match
from games.services import SeatSpec, match_create, match_spec
from tournaments.models import Entrant, Round, Slot, Tournament, TournamentMatch
from tournaments.pairing import Bracket, History, Pairing, Status, round_robin, seat_tables, swiss_round
from tournaments.pairing import Round as PairingRound
from tournaments.services.duplicate import round_boards_create, table_size
from tournaments.state import LOSS, WIN, bracket_of, slot_entrants, standings_of, stored_points, withdrawn_ids
from tute_site.celery import queue_on_commit

log = logging.getLogger(__name__)


# -- the next round -------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Planned:
    """One row of a new round: a match to play, a bye or a walkover (decided already)."""

    code: str
    kind: str
    entrants: tuple[int, ...]
    points: tuple[Fraction, ...] = ()
    winner: int | None = None  # an entrant id


@dataclass
class _Plan:
    rows: list[Planned] = field(default_factory=list)
    finished: bool = False


#: The longest wait for a round's start left on the broker. A round due later is looked at again at
#: this distance, and so on until it is due: on Redis a message waiting for its ETA sits unacknowledged
#: in a worker, and Redis hands it to another worker after its visibility timeout (one hour by default),
#: so long countdowns would be delivered twice and lost with a restarted worker. The sweeper
#: (``tournaments.sweep``) starts any round whose message was lost anyway.
MAX_COUNTDOWN = timedelta(minutes=5)


def next_round_due(tournament: Tournament, round_: Round) -> datetime:
    """When the round after ``round_`` may start: ``round_interval_minutes`` after ``round_`` started."""
    return round_.started_at + timedelta(minutes=tournament.round_interval_minutes)


def queue_advance(tournament: Tournament, round_number: int, due: datetime, now: datetime) -> None:
    """Queue ``tournaments.advance`` for the round after ``round_number``: at once when due, else at
    ``due`` or ``MAX_COUNTDOWN`` from now, whichever comes first (the task then queues itself again)."""
    if due <= now:
        queue_on_commit("tournaments.advance", tournament.pk, round_number)
    else:
        queue_on_commit("tournaments.advance", tournament.pk, round_number, eta=min(due, now + MAX_COUNTDOWN))


def advance_rounds(tournament: Tournament, now: datetime) -> datetime | None:
    """Start the next round while the current one is complete (and the interval has passed), or end
    the tournament when there is none. Rounds of byes and walkovers only are complete at once.

    Returns when the next round is due if it stopped only because it is not due yet, else None.
    """
    while tournament.status == Tournament.Status.RUNNING:
        current = None
        if tournament.current_round:
            current = Round.objects.get(tournament=tournament, number=tournament.current_round)
            if current.status != Round.Status.COMPLETE:
                return None
            due = next_round_due(tournament, current)
            if now < due:
                return due  # a task queued for that time (or the sweeper) starts it
        plan = _plan(tournament, tournament.current_round + 1)
        if plan.finished:
            _finish(tournament, now)
            return None
        if not plan.rows:
            log.error("tournament %s: nothing to play and not finished", tournament.pk)
            return None
        _create_round(tournament, tournament.current_round + 1, plan.rows, now)
    return None


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
        # Swiss points are whole or half points: exact as floats.
        scores = {row.entrant: float(row.points) for row in standings_of(tournament)}
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
            Planned(f"R{number}.T{t}", TournamentMatch.Kind.MATCH, table)
            for t, table in enumerate(tables.tables, 1)
        ]
    )


def _rows_of(
    round_: PairingRound, withdrawn: set[int], *, bye_points: Fraction, number: int
) -> list[Planned]:
    rows = []
    for board, p in enumerate(round_.pairings, start=1):
        code = f"R{number}.B{board}"
        out = [e for e in p.entrants if e in withdrawn]
        if not out:
            rows.append(Planned(code, TournamentMatch.Kind.MATCH, p.entrants))
        elif len(out) == 2:
            rows.append(Planned(code, TournamentMatch.Kind.WALKOVER, p.entrants, (LOSS, LOSS)))
        else:
            winner = p.second if p.first in withdrawn else p.first
            points = (WIN, LOSS) if winner == p.first else (LOSS, WIN)
            rows.append(Planned(code, TournamentMatch.Kind.WALKOVER, p.entrants, points, winner))
    if round_.bye is not None:
        rows.append(Planned(f"R{number}.BYE", TournamentMatch.Kind.BYE, (round_.bye,), (bye_points,)))
    return rows


def _plan_elimination(tournament: Tournament) -> _Plan:
    bracket = bracket_of(tournament)
    existing = set(TournamentMatch.objects.filter(tournament=tournament).values_list("code", flat=True))
    rows = derived_walkovers(bracket, existing)
    for state in bracket.ready():
        if state.match.code not in existing:
            a, b = state.entrants
            assert a is not None and b is not None
            rows.append(Planned(state.match.code, TournamentMatch.Kind.MATCH, (a, b)))
    if not rows and bracket.is_complete:
        return _Plan(finished=True)
    return _Plan(rows)


def derived_walkovers(bracket: Bracket, existing: set[str]) -> list[Planned]:
    """Walkovers the bracket derives from withdrawals, to be stored as results (so that the bracket
    stays a function of what is stored even when both entrants of a match have withdrawn)."""
    rows = []
    for state in bracket.states:
        if state.status is Status.WALKOVER and not state.recorded and state.match.code not in existing:
            a, b = state.entrants
            assert a is not None and b is not None and state.winner is not None
            points = (WIN, LOSS) if state.winner == a else (LOSS, WIN)
            rows.append(
                Planned(state.match.code, TournamentMatch.Kind.WALKOVER, (a, b), points, state.winner)
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


def _create_round(tournament: Tournament, number: int, rows: list[Planned], now: datetime) -> Round:
    round_ = Round.objects.create(tournament=tournament, number=number)
    entrants = {
        e.pk: e
        for e in Entrant.objects.filter(
            tournament=tournament, pk__in={i for r in rows for i in r.entrants}
        ).select_related("player", "partner")
    }
    boards: dict[int, list[Board]] = {}
    if tournament.match_format == Match.Format.DUPLICATE:  # every table of the round plays the same boards
        sizes = {
            table_size(tournament, len(r.entrants)) for r in rows if r.kind == TournamentMatch.Kind.MATCH
        }
        boards = round_boards_create(tournament, round_, sizes)
    for board, row in enumerate(rows, start=1):
        size = table_size(tournament, len(row.entrants))
        add_match(
            tournament, round_, board, row, [entrants[i] for i in row.entrants], now, boards=boards.get(size)
        )
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    complete_round_if_done(tournament, round_)
    return round_


def add_match(
    tournament: Tournament,
    round_: Round,
    board: int,
    row: Planned,
    entrants: list[Entrant],
    now: datetime,
    *,
    boards: list[Board] | None = None,
) -> TournamentMatch:
    """A row of the round: its games match (playing ``boards`` in a duplicate tournament; none over the
    board, where ``board`` is the table's number), or a bye or walkover decided already."""
    games_match = None
    # Over the board the table plays with real cards: no games match, the result is entered.
    if row.kind == TournamentMatch.Kind.MATCH and tournament.play == Tournament.Play.ONLINE:
        seats = table_seats(tournament, entrants)
        spec = match_spec(
            created_by=tournament.created_by,
            game=tournament.game,
            players=len(seats),
            options=tournament.options,
            format=tournament.match_format,
            format_target=tournament.match_target,
            seats=seats,
            rated=tournament.rated,
            challenge=False,
            managed=True,
            boards=boards if row.kind == TournamentMatch.Kind.MATCH else None,
        )
        games_match = match_create(spec=spec)
    done = row.kind != TournamentMatch.Kind.MATCH
    tm = TournamentMatch.objects.create(
        tournament=tournament,
        round=round_,
        code=row.code,
        board=board,
        kind=row.kind,
        match=games_match,
        status=TournamentMatch.Status.DONE if done else TournamentMatch.Status.PLAYING,
        points=stored_points(row.points) if done else None,
        winner_id=row.winner,
        forfeit=row.kind == TournamentMatch.Kind.WALKOVER,
        recorded_at=now if done else None,
    )
    Slot.objects.bulk_create(
        [Slot(tournament_match=tm, position=i, entrant=e) for i, e in enumerate(entrants)]
    )
    return tm


def table_seats(tournament: Tournament, entrants: list[Entrant]) -> list[SeatSpec]:
    """Seats in position order; in Tute 4 a pair sits opposite: seats 0 and 2 against 1 and 3."""

    def first(e: Entrant) -> SeatSpec:
        return SeatSpec(player=e.player.handle) if e.player is not None else SeatSpec(bot=e.house_bot)

    def second(e: Entrant) -> SeatSpec:
        return SeatSpec(player=e.partner.handle) if e.partner is not None else SeatSpec(bot=e.partner_bot)

    if tournament.game == Match.GameName.TUTE4:
        a, b = entrants
        return [first(a), first(b), second(a), second(b)]
    return [first(e) for e in entrants]


def complete_round_if_done(tournament: Tournament, round_: Round) -> bool:
    """Mark the round complete once every row has a result, and queue the next round's generation for
    the moment it is due."""
    if round_.status == Round.Status.COMPLETE:
        return False
    if TournamentMatch.objects.filter(round=round_, status=TournamentMatch.Status.PLAYING).exists():
        return False
    now = timezone.now()
    round_.status = Round.Status.COMPLETE
    round_.completed_at = now
    round_.save(update_fields=["status", "completed_at"])
    queue_advance(tournament, round_.number, next_round_due(tournament, round_), now)
    return True


def _finish(tournament: Tournament, now: datetime) -> None:
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.final_standings = final_rows(tournament)
    tournament.save(update_fields=["status", "finished_at", "final_standings"])


def final_rows(tournament: Tournament) -> list[dict[str, object]]:
    """The standings as stored at the end: ``tie_breaks`` is a list, in the tournament's tie-break order
    (a JSON object would not keep that order in PostgreSQL's jsonb); points and tie-breaks as exact
    texts ("13/6")."""
    return [
        {
            "rank": row.rank,
            "entrant": row.entrant,
            "points": str(row.points),
            "played": row.played,
            "tie_breaks": [str(value) for value in row.tie_breaks],
            "withdrawn": row.withdrawn,
        }
        for row in standings_of(tournament)
    ]
