"""What a tournament's stored rows mean to the pairing logic: brackets, encounters and standings.

Reads only: services and selectors both build on these. A bracket is never stored; it is rebuilt in
one pass from the seeds, the results recorded on its ``TournamentMatch`` rows (by bracket code) and the
entrants who withdrew after the start (``Bracket.with_results``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.engine.rules import side_of
from games.models import Game, Match
from tournaments.models import Entrant, Tournament, TournamentMatch
from tournaments.pairing import (
    Bracket,
    Encounter,
    Result,
    Standing,
    double_elimination,
    single_elimination,
    standings,
)

#: Tournament points of a two-entrant match: win, draw (equal games and card points), loss.
WIN, DRAW, LOSS = Fraction(1), Fraction(1, 2), Fraction(0)


# -- points, exact ------------------------------------------------------------------------------------
#
# Tournament points are exact fractions (a Pocha table of n scores in halves of 1/(n - 1)): stored as
# their text ("1/3", "1", "0"), summed and compared as ``Fraction``, rounded only where shown.


def stored_points(points: Iterable[Fraction]) -> list[str]:
    """Points as a ``TournamentMatch.points`` JSON value: each one's exact text."""
    return [str(Fraction(p)) for p in points]


def points_of(value: Iterable[Any]) -> tuple[Fraction, ...]:
    """A stored ``points`` list read back exactly (texts such as "1/3"; ints)."""
    return tuple(Fraction(p) for p in value)


def withdrawn_ids(tournament: Tournament) -> set[int]:
    return set(
        Entrant.objects.filter(
            tournament=tournament, status=Entrant.Status.WITHDRAWN, seed__isnull=False
        ).values_list("pk", flat=True)
    )


def done_matches(tournament: Tournament) -> list[TournamentMatch]:
    """The recorded matches, byes and walkovers, in round and board order, with their slots."""
    return list(
        TournamentMatch.objects.filter(tournament=tournament, status=TournamentMatch.Status.DONE)
        .select_related("round")
        .prefetch_related("slots")
        .order_by("round__number", "board")
    )


def slot_entrants(tm: TournamentMatch) -> list[int]:
    return [s.entrant_id for s in sorted(tm.slots.all(), key=lambda s: s.position)]


def bracket_of(tournament: Tournament, matches: Iterable[TournamentMatch] | None = None) -> Bracket:
    """The elimination bracket with every recorded result and every withdrawal after the start."""
    seeds = [int(e) for e in tournament.seeds]
    if tournament.format == Tournament.Format.DOUBLE_ELIM:
        empty = double_elimination(seeds, reset=tournament.grand_final_reset)
    else:
        empty = single_elimination(seeds, third_place=tournament.third_place)
    recorded = matches if matches is not None else done_matches(tournament)
    results: dict[int | str, int | Result] = {}
    for tm in recorded:
        if tm.status == TournamentMatch.Status.DONE and tm.winner_id is not None:
            results[tm.code] = Result(tm.winner_id, walkover=tm.forfeit)
    return empty.with_results(results, withdrawn_ids(tournament))


def encounters_of(matches: Iterable[TournamentMatch]) -> list[Encounter]:
    out = []
    for tm in matches:
        if tm.status != TournamentMatch.Status.DONE or tm.points is None:
            continue
        entrants = tuple(slot_entrants(tm))
        points = points_of(tm.points)
        games = tuple(int(g) for g in tm.games_won) if tm.games_won else ()
        cards = tuple(int(c) for c in tm.card_points) if tm.card_points else ()
        out.append(Encounter(tm.round.number, entrants, points, games, cards))
    return out


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the standings: rank (1 best; shared on a full tie), the entrant's points and the
    tournament's tie-breaks in its order (``tie_breaks`` names them); ``withdrawn`` entrants (after the
    start) rank after everyone still in."""

    rank: int
    entrant: int
    points: Fraction
    played: int
    tie_breaks: tuple[Fraction, ...]
    withdrawn: bool = False


def standings_of(tournament: Tournament, matches: Sequence[TournamentMatch] | None = None) -> list[Row]:
    """Standings of the seeded entrants (before the start: none). An elimination tournament whose
    bracket is complete ranks by its placements (points still count the wins). Entrants who withdrew
    after the start come last, in their own order, marked."""
    if not tournament.seeds:
        return []
    recorded = list(matches) if matches is not None else done_matches(tournament)
    seeds = [int(e) for e in tournament.seeds]
    table: tuple[Standing, ...] = standings(seeds, encounters_of(recorded), tournament.tie_breaks)
    rows = [Row(s.rank, s.entrant, s.points, s.played, s.tie_breaks) for s in table]
    if tournament.is_elimination:
        bracket = bracket_of(tournament, recorded)
        if bracket.is_complete:
            by_entrant = {r.entrant: r for r in rows}
            rows = [
                Row(place, e, by_entrant[e].points, by_entrant[e].played, by_entrant[e].tie_breaks)
                for e, place in bracket.placements()
            ]
    withdrawn = withdrawn_ids(tournament)
    if not withdrawn:
        return rows
    staying = [r for r in rows if r.entrant not in withdrawn]
    leaving = [r for r in rows if r.entrant in withdrawn]
    return _reranked(staying, 1, False) + _reranked(leaving, len(staying) + 1, True)


def _reranked(rows: list[Row], first: int, withdrawn: bool) -> list[Row]:
    """``rows`` in their order, ranked from ``first``: rows that shared a rank still share one."""
    out: list[Row] = []
    for i, row in enumerate(rows):
        shared = out and rows[i - 1].rank == row.rank
        rank = out[-1].rank if shared else first + i
        out.append(Row(rank, row.entrant, row.points, row.played, row.tie_breaks, withdrawn))
    return out


# -- a finished games match as a tournament result -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    points: list[Fraction]
    games_won: list[int]
    card_points: list[int]
    #: The winning position for a two-entrant match (None: a draw); for a table, the best position.
    winner: int | None
    forfeit: bool


def outcome_of(match: Match, positions: int, *, withdrawn: Sequence[bool], seeds: Sequence[int]) -> Outcome:
    """The tournament result of a finished (or aborted) games match whose sides are positions 0..n-1.

    Two entrants: the match's winner scores WIN; equal games won is a DRAW. Tables: each player scores
    the share of table mates it finished ahead of (1 the best, 0 the last; half for an equal total);
    who conceded finishes last. An aborted match is a forfeit: the withdrawn lose; with nobody withdrawn
    nobody scores. ``seeds`` (lower is better) decide a winner where one is needed and none is clear.
    """
    games = [0] * positions
    cards = [0] * positions
    for game in Game.objects.filter(match=match, status=Game.Status.FINISHED).only("result", "seat_map"):
        if game.result:
            for side, score in enumerate(game.result.get("scores", [])[:positions]):
                # a duplicate play's side is held by the match seat its seat map gives
                cards[_position(match, game.match_seat(side))] += int(score)
    result: dict[str, Any] = match.result or {}
    if result.get("games_won"):
        games = [int(g) for g in result["games_won"]][:positions]
    conceded = result.get("conceded_by")
    # A resignation is a result; it is a forfeit when the side resigned for a withdrawal, or lost on time
    # (a no-show: its clock ran out ``max_timeouts`` times).
    forfeit = conceded is not None and (
        withdrawn[_position(match, int(conceded))] or match.finish_reason == "forfeit"
    )
    if match.status == Match.Status.ABORTED:
        out_ = [i for i in range(positions) if withdrawn[i]]
        if positions == 2:
            if len(out_) == 1:
                winner = 1 - out_[0]
                return Outcome(_pair_points(winner), games, cards, winner, True)
            winner = 0 if seeds[0] < seeds[1] else 1
            return Outcome([LOSS, LOSS], games, cards, winner, True)
        totals = [float("-inf") if withdrawn[i] else 0.0 for i in range(positions)]
        return Outcome(table_points(totals), games, cards, _best(totals, seeds), True)
    return outcome_from(
        games_won=games,
        winners=[int(w) for w in result.get("winners", [])],
        card_points=cards,
        conceded=_position(match, int(conceded)) if conceded is not None else None,
        forfeit=forfeit,
        seeds=seeds,
    )


def outcome_from(
    *,
    games_won: list[int],
    winners: Sequence[int],
    card_points: list[int],
    conceded: int | None = None,
    forfeit: bool = False,
    seeds: Sequence[int],
) -> Outcome:
    """The tournament result of a match played to its end, by position: ``winners`` the match's winning
    sides, ``card_points`` each side's game scores summed, ``conceded`` the position that resigned. The
    same for a games match and for a result entered from a real table (``tournaments.services.results``)."""
    if len(card_points) == 2:
        if len(winners) == 1:
            return Outcome(_pair_points(winners[0]), games_won, card_points, winners[0], forfeit)
        return Outcome([DRAW, DRAW], games_won, card_points, None, forfeit)
    totals = [float(c) for c in card_points]
    if conceded is not None:
        totals[conceded] = float("-inf")
    return Outcome(table_points(totals), games_won, card_points, _best(totals, seeds), forfeit)


def elimination_winner(outcome: Outcome, seeds: Sequence[int]) -> int:
    """Who goes through when the match itself was drawn: more card points, then the better seed."""
    if outcome.winner is not None:
        return outcome.winner
    if outcome.card_points[0] != outcome.card_points[1]:
        return 0 if outcome.card_points[0] > outcome.card_points[1] else 1
    return 0 if seeds[0] < seeds[1] else 1


def _position(match: Match, seat: int) -> int:
    return side_of(match.game, seat)


def _pair_points(winner: int) -> list[Fraction]:
    return [WIN, LOSS] if winner == 0 else [LOSS, WIN]


def table_points(totals: Sequence[float]) -> list[Fraction]:
    """Each player's share of the table mates it finished ahead of (half for a tie), exactly."""
    n = len(totals)
    out = []
    for i, mine in enumerate(totals):
        halves = sum(2 if mine > t else 1 if mine == t else 0 for j, t in enumerate(totals) if j != i)
        out.append(Fraction(halves, 2 * (n - 1)))
    return out


def _best(totals: Sequence[float], seeds: Sequence[int]) -> int:
    return min(range(len(totals)), key=lambda i: (-totals[i], seeds[i]))
