"""Reads of clubs and tournaments, shaped for the API and the website.

- ``clubs_list``, ``club_by_slug``, ``tournaments_list``, ``tournament_detail``, ``entrants_of``.
- ``rounds_with_matches(tournament)``: every round, each with its matches (``MatchRow``), board order.
- ``matches_of(tournament, round=None)``: the matches (``MatchRow``) of one round or of all.
- ``standings_table(tournament)``: ``StandingRow`` per seeded entrant, best first, with the tie-breaks
  by name (elimination, once the bracket is complete: its final places).
- ``bracket_view(tournament)``: an elimination bracket as sections of rounds of ``BracketSlot``s, each
  with its code, entrants, status, winner and the tournament match that plays it (if started).

Entrants appear as ``EntrantRef`` (id, seed, name, the players' handles, house-bot levels, status).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet

from games.models import Game, Player
from tournaments.duplicate import board_sheet, entrant_names, sheet_out
from tournaments.errors import TournamentBoardNotFound
from tournaments.models import (
    Club,
    Correction,
    Entrant,
    Membership,
    Round,
    Slot,
    Tournament,
    TournamentBoard,
    TournamentMatch,
)
from tournaments.pairing import Section
from tournaments.state import bracket_of, done_matches, points_of, standings_of


def clubs_list(*, member: Player | None = None) -> QuerySet[Club]:
    qs = Club.objects.annotate(members=Count("memberships")).order_by("name", "id")
    if member is not None:
        qs = qs.filter(memberships__player=member)
    return qs


def club_by_slug(*, slug: str) -> Club | None:
    return Club.objects.filter(slug=slug).first()


def club_members(*, club: Club) -> QuerySet[Membership]:
    return Membership.objects.filter(club=club).select_related("player").order_by("role", "player__handle")


def tournaments_list(
    *,
    club: str | None = None,
    status: str | None = None,
    game: str | None = None,
    format: str | None = None,
) -> QuerySet[Tournament]:
    qs = Tournament.objects.select_related("club", "created_by").annotate(
        entrant_count=Count("entrants", filter=Q(entrants__status__in=_PLAYING_STATUSES))
    )
    if club:
        qs = qs.filter(club__slug=club)
    if status:
        qs = qs.filter(status=status)
    if game:
        qs = qs.filter(game=game)
    if format:
        qs = qs.filter(format=format)
    return qs.order_by("-created_at", "-id")


_PLAYING_STATUSES = (Entrant.Status.REGISTERED, Entrant.Status.CHECKED_IN, Entrant.Status.ACTIVE)


def tournament_detail(*, tournament_id: int) -> Tournament | None:
    return tournaments_list().filter(pk=tournament_id).first()


# -- entrants ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EntrantRef:
    id: int
    seed: int | None
    name: str
    players: tuple[str, ...]  # handles, the pair's first player first
    house_bots: tuple[str, ...]  # levels of house bots in the entry
    club: str | None
    status: str


def entrant_ref(e: Entrant) -> EntrantRef:
    players = tuple(p.handle for p in (e.player, e.partner) if p is not None)
    bots = tuple(b for b in (e.house_bot, e.partner_bot) if b)
    club = e.club.slug if e.club is not None else None
    return EntrantRef(e.pk, e.seed, e.name, players, bots, club, e.status)


def entrants_of(*, tournament: Tournament) -> list[EntrantRef]:
    qs = Entrant.objects.filter(tournament=tournament).select_related("player", "partner", "club")
    return [entrant_ref(e) for e in qs.order_by("seed", "registered_at", "id")]


def _refs(tournament: Tournament) -> dict[int, EntrantRef]:
    return {ref.id: ref for ref in entrants_of(tournament=tournament)}


# -- rounds and matches -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchRow:
    id: int
    round: int
    code: str
    board: int
    kind: str  # match, bye, walkover
    status: str  # playing, done
    match_id: int | None  # the games match, to watch or replay
    entrants: tuple[EntrantRef, ...]  # position order (seat order; Tute 4: pair i at seats i and i+2)
    winner: int | None
    points: tuple[Fraction, ...] | None  # exact
    games_won: tuple[int, ...] | None
    card_points: tuple[int, ...] | None
    forfeit: bool


def _rows(tournament: Tournament, qs: QuerySet[TournamentMatch]) -> list[MatchRow]:
    refs = _refs(tournament)
    out = []
    for tm in qs.select_related("round").prefetch_related(
        Prefetch("slots", queryset=Slot.objects.order_by("position"))
    ):
        out.append(
            MatchRow(
                id=tm.pk,
                round=tm.round.number,
                code=tm.code,
                board=tm.board,
                kind=tm.kind,
                status=tm.status,
                match_id=tm.match_id,
                entrants=tuple(refs[s.entrant_id] for s in tm.slots.all()),
                winner=tm.winner_id,
                points=points_of(tm.points) if tm.points is not None else None,
                games_won=tuple(tm.games_won) if tm.games_won else None,
                card_points=tuple(tm.card_points) if tm.card_points else None,
                forfeit=tm.forfeit,
            )
        )
    return out


def matches_of(*, tournament: Tournament, round: int | None = None) -> list[MatchRow]:
    qs = TournamentMatch.objects.filter(tournament=tournament).order_by("round__number", "board")
    if round is not None:
        qs = qs.filter(round__number=round)
    return _rows(tournament, qs)


@dataclass(frozen=True, slots=True)
class RoundRow:
    number: int
    status: str
    started_at: Any
    completed_at: Any
    matches: tuple[MatchRow, ...]


def rounds_with_matches(*, tournament: Tournament) -> list[RoundRow]:
    by_round: dict[int, list[MatchRow]] = defaultdict(list)
    for row in matches_of(tournament=tournament):
        by_round[row.round].append(row)
    return [
        RoundRow(r.number, r.status, r.started_at, r.completed_at, tuple(by_round[r.number]))
        for r in Round.objects.filter(tournament=tournament).order_by("number")
    ]


def tournament_match(*, tournament: Tournament, tournament_match_id: int) -> MatchRow | None:
    rows = _rows(tournament, TournamentMatch.objects.filter(tournament=tournament, pk=tournament_match_id))
    return rows[0] if rows else None


# -- standings ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    entrant: EntrantRef
    points: Fraction  # exact: rounded only where shown
    played: int
    tie_breaks: dict[str, Fraction]
    withdrawn: bool  # ranked after everyone still in


def standings_table(*, tournament: Tournament) -> list[StandingRow]:
    """The current standings (final ones once the tournament is over), best first."""
    refs = _refs(tournament)
    names = list(tournament.tie_breaks)
    return [
        StandingRow(
            row.rank,
            refs[row.entrant],
            row.points,
            row.played,
            dict(zip(names, row.tie_breaks, strict=True)),
            row.withdrawn,
        )
        for row in standings_of(tournament)
    ]


# -- the bracket --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BracketSlot:
    code: str  # W1.3, L2.1, GF1, GF2, 3P
    round: int  # the round within its section
    entrants: tuple[EntrantRef | None, EntrantRef | None]  # None: not known yet
    status: str  # waiting, ready, played, walkover, skipped
    winner: int | None
    tournament_match: int | None  # the TournamentMatch id, once started


@dataclass(frozen=True, slots=True)
class BracketSection:
    section: str  # W (winners), L (losers), GF (grand final), 3P (third place)
    rounds: tuple[tuple[BracketSlot, ...], ...]


@dataclass(frozen=True, slots=True)
class BracketView:
    kind: str  # single, double
    size: int  # the bracket's power of two
    byes: tuple[EntrantRef, ...]  # seeds that skip round 1
    sections: tuple[BracketSection, ...]
    champion: EntrantRef | None


def bracket_view(*, tournament: Tournament) -> BracketView | None:
    """The elimination bracket, every match with what is known of it; None for other formats or before
    the start."""
    if not tournament.is_elimination or not tournament.seeds:
        return None
    refs = _refs(tournament)
    bracket = bracket_of(tournament, done_matches(tournament))
    started = dict(TournamentMatch.objects.filter(tournament=tournament).values_list("code", "pk"))
    sections: dict[Section, dict[int, list[BracketSlot]]] = defaultdict(lambda: defaultdict(list))
    for state in bracket.states:
        m = state.match
        a, b = state.entrants
        sections[m.section][m.round].append(
            BracketSlot(
                code=m.code,
                round=m.round,
                entrants=(refs.get(a) if a is not None else None, refs.get(b) if b is not None else None),
                status=state.status.value,
                winner=state.winner,
                tournament_match=started.get(m.code),
            )
        )
    order = [Section.WINNERS, Section.LOSERS, Section.THIRD_PLACE, Section.GRAND_FINAL]
    champion = bracket.champion if bracket.is_complete else None
    return BracketView(
        kind=bracket.kind.value,
        size=bracket.structure.size,
        byes=tuple(refs[e] for e in bracket.byes),
        sections=tuple(
            BracketSection(s.value, tuple(tuple(sections[s][r]) for r in sorted(sections[s])))
            for s in order
            if s in sections
        ),
        champion=refs[champion] if champion is not None else None,
    )


def corrections_of(*, tournament: Tournament) -> QuerySet[Correction]:
    return Correction.objects.filter(tournament=tournament).select_related("by", "tournament_match")


def tournament_boards(*, tournament: Tournament) -> QuerySet[TournamentBoard]:
    """A duplicate tournament's boards in number order, with how many plays of each are finished."""
    return (
        TournamentBoard.objects.filter(tournament=tournament)
        .select_related("round", "board")
        .annotate(plays_done=Count("board__plays", filter=Q(board__plays__status=Game.Status.FINISHED)))
        .order_by("number")
    )


def tournament_board_sheet(*, tournament: Tournament, number: int) -> dict[str, Any]:
    """Board ``number``'s travelling score sheet (tournaments.duplicate.sheet_out)."""
    board = (
        TournamentBoard.objects.filter(tournament=tournament, number=number)
        .select_related("round", "board")
        .first()
    )
    if board is None:
        raise TournamentBoardNotFound()
    return sheet_out(board_sheet(board), entrant_names(tournament))
